#pragma once
// A learner the core does not know: the test-only library tests/toy registers it, as a plugin
// would, to show that one class and one registration make it known to `train`, its --help, the
// training panel's learner box and Python (issue 45 item 3). Link the object library orbit_toy.
#include "training/TrainingLearners.hpp"

namespace orbittest {

/// "toymean": ignores the features and predicts the training rows' mean target (regression) or
/// their most frequent class (the smallest label on a tie). No grid axis; its models are not saved.
class ToyMeanLearner final : public orbit::detail::TrainLearner {
public:
    explicit ToyMeanLearner(const orbit::Dataset& data) : data_(data) {}
    std::string axis() const override { return {}; }
    std::vector<std::vector<orbit::detail::Outcome>> fitAll(const orbit::detail::PointFeatures& p,
                                                            const std::vector<orbit::Split>& splits,
                                                            const std::vector<double>& values,
                                                            const orbit::Progress& poll) const override;

private:
    const orbit::Dataset& data_;
};

/// Its name in specs, "toymean".
inline constexpr const char* kToyMeanName = "toymean";

} // namespace orbittest

#include "ToyLearner.hpp"

#include "orbit/registry/Registry.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace orbittest {

std::vector<std::vector<orbit::detail::Outcome>> ToyMeanLearner::fitAll(const orbit::detail::PointFeatures&,
                                                                         const std::vector<orbit::Split>& splits,
                                                                         const std::vector<double>& values,
                                                                         const orbit::Progress& poll) const
{
    std::vector<std::vector<orbit::detail::Outcome>> out;
    for (const orbit::Split& s : splits) {
        orbit::reportProgress(poll, double(out.size()) / double(splits.size()), "toy mean");
        orbit::detail::Outcome o;
        o.logEvidence = std::numeric_limits<double>::quiet_NaN();
        if (data_.isClassification()) {
            std::vector<int> counts(std::size_t(data_.numClasses), 0);
            for (std::size_t i : s.train) ++counts[std::size_t(data_.labels[i])];
            const int mode = int(std::max_element(counts.begin(), counts.end()) - counts.begin());
            o.classes.assign(s.test.size(), mode);
        } else {
            double sum = 0.0;
            for (std::size_t i : s.train) sum += data_.targets[i];
            o.targets.assign(s.test.size(), s.train.empty() ? 0.0 : sum / double(s.train.size()));
        }
        out.emplace_back(std::max<std::size_t>(1, values.size()), o);  // the same at every value
    }
    return out;
}

namespace {

orbit::LearnerDescriptor toyMeanDescriptor()
{
    orbit::LearnerDescriptor d;
    d.name = kToyMeanName;
    d.displayName = "toy mean";
    d.doc = "A test-only learner: predicts the training rows' mean target or most frequent class.";
    d.make = [](const orbit::LearnerArguments& a) { return std::make_unique<ToyMeanLearner>(a.data); };
    return d;
}

} // namespace

// The one registration: at static initialisation, before main.
const orbit::LearnerRegistration toyMeanRegistration{toyMeanDescriptor()};

} // namespace orbittest

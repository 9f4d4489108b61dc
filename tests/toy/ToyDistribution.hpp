#pragma once
// A distribution the core does not know: the test-only library tests/toy registers it, as a plugin
// would, to show that one class and one registration make it known to the spec parser, --help, the
// distribution editor and Python (issue 45 item 3). Link the object library orbit_toy.
#include "orbit/distributions/Distribution.hpp"

namespace orbittest {

/// "toyshift:d=D": shifts of ±d pixels along x, each sign with probability 1/2 (one uniform draw).
/// Symmetric; on the translation group only.
class ToyShift final : public orbit::Distribution {
public:
    explicit ToyShift(double d);
    double d() const { return d_; }

    std::string spec() const override;
    orbit::GroupElement sample(orbit::Rng& rng, const orbit::Group& group, const orbit::Shape& shape,
                               const float* x) const override;
    bool isSymmetric() const override { return true; }

protected:
    orbit::GroupKind parameterGroup() const override { return orbit::GroupKind::Translation; }

private:
    double d_;
};

/// Its name in specs, "toyshift".
inline constexpr const char* kToyShiftName = "toyshift";

} // namespace orbittest

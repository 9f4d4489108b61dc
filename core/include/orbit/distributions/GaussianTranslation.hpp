#pragma once
#include "orbit/distributions/Distribution.hpp"

namespace orbit {

/// Gaussian translations t ~ N(0, sigma^2 I) in pixels; density() is the per-axis
/// N(0, sigma^2) density. Isotropic and symmetric. Requires: sigma > 0, translation group.
class GaussianTranslation final : public Distribution {
public:
    explicit GaussianTranslation(double sigma);
    double sigma() const { return sigma_; }

    std::string spec() const override;
    void checkGroup(const Group& group) const override;
    GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const override;
    GroupElement sampleWithTangents(Rng& rng, const Group& group, const Shape& shape, const float* x,
                                    const std::vector<std::string>& params,
                                    std::vector<GroupTangent>& tangents) const override;
    bool isSymmetric() const override { return true; }
    bool hasDensity() const override { return true; }
    double density(double dx) const override;
    std::pair<double, double> densityRange() const override { return {-4.0 * sigma_, 4.0 * sigma_}; }
    std::string densityParameter() const override { return "dx (px)"; }

protected:
    GroupKind parameterGroup() const override { return GroupKind::Translation; }

private:
    double sigma_;
};

} // namespace orbit

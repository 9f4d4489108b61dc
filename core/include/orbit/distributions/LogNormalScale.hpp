#pragma once
#include "orbit/distributions/Distribution.hpp"

namespace orbit {

/// Log-normal zoom factors: log s ~ N(mu, sigma^2), density
/// q(s) = exp(-(log s - mu)^2 / (2 sigma^2)) / (s sigma sqrt(2 pi)). Symmetric (q(s) = q(1/s) with
/// respect to the Haar measure ds/s) exactly when mu = 0. Requires: sigma > 0, |mu| <= 10, scale group.
class LogNormalScale final : public Distribution {
public:
    LogNormalScale(double mu, double sigma);
    double mu() const { return mu_; }
    double sigma() const { return sigma_; }

    std::string spec() const override;
    void checkGroup(const Group& group) const override;
    GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const override;
    GroupElement sampleWithTangents(Rng& rng, const Group& group, const Shape& shape, const float* x,
                                    const std::vector<std::string>& params,
                                    std::vector<GroupTangent>& tangents) const override;
    bool isSymmetric() const override { return mu_ == 0.0; }
    bool hasDensity() const override { return true; }
    double density(double s) const override;
    std::pair<double, double> densityRange() const override;
    std::string densityParameter() const override { return "s"; }

protected:
    GroupKind parameterGroup() const override { return GroupKind::Scale; }

private:
    double mu_, sigma_;
};

} // namespace orbit

#pragma once
#include "orbit/distributions/Distribution.hpp"

namespace orbit {

/// von Mises VM(0, kappa) on the rotation angle: q(theta) = exp(kappa cos theta) / (2 pi I0(kappa)),
/// theta in (-pi, pi]. kappa = 0 is the Haar (uniform) measure; the mode is the identity.
/// Sampled exactly by Best & Fisher's (1979) wrapped-Cauchy rejection. Symmetric.
/// Requires: 0 <= kappa <= 1e6, rotation group. density() is evaluated in log space with the
/// exponentially scaled Bessel function, so large kappa (1e4 and beyond) does not overflow.
class VonMises final : public Distribution {
public:
    explicit VonMises(double kappa);
    double kappa() const { return kappa_; }
    /// Draws theta ~ VM(0, kappa).
    double sampleAngle(Rng& rng) const;
    /// exp(-kappa) I0(kappa), stable for every kappa >= 0.
    static double scaledBesselI0(double kappa);

    std::string spec() const override;
    void checkGroup(const Group& group) const override;
    GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const override;
    bool isSymmetric() const override { return true; }
    bool hasDensity() const override { return true; }
    double density(double theta) const override;
    std::pair<double, double> densityRange() const override;
    std::string densityParameter() const override { return "theta (rad)"; }

private:
    double kappa_;
    double r_ = 0.0;  ///< Best & Fisher's r = (1 + rho^2) / (2 rho)
};

} // namespace orbit

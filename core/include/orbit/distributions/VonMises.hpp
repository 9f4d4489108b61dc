#pragma once
#include "orbit/distributions/Distribution.hpp"

namespace orbit {

namespace detail { class VonMisesCdf; }

/// von Mises VM(0, kappa) on the rotation angle: q(theta) = exp(kappa cos theta) / (2 pi I0(kappa)),
/// theta in (-pi, pi]. kappa = 0 is the Haar (uniform) measure; the mode is the identity. Symmetric.
///
/// Sampled by the inverse CDF, theta = F^-1(u; kappa) with one u ~ U[0, 1) per element, so the same
/// engine state gives an angle that moves smoothly with kappa (common random numbers), with the
/// implicit reparameterisation d theta / d kappa = -(dF/d kappa) / q(theta) (Figurnov et al. 2018).
/// Requires: 0 <= kappa <= 1e6, rotation group. density() is evaluated in log space with the
/// exponentially scaled Bessel function, so large kappa (1e4 and beyond) does not overflow.
class VonMises final : public Distribution {
public:
    explicit VonMises(double kappa);
    double kappa() const { return kappa_; }
    /// Draws theta ~ VM(0, kappa): quantile(u, kappa) for one u = uniform01(rng).
    double sampleAngle(Rng& rng) const;
    /// exp(-kappa) I0(kappa), stable for every kappa >= 0.
    static double scaledBesselI0(double kappa);
    /// The mean resultant length A(kappa) = I1(kappa) / I0(kappa) = E[cos theta].
    static double besselRatio(double kappa);

    /// F(theta; kappa) = integral of q over [-pi, theta], theta in [-pi, pi]: the Fourier series
    /// (theta + pi) / (2 pi) + (1 / pi) sum_n (I_n / I_0) sin(n theta) / n with the Bessel ratios from
    /// their backward recurrence for kappa <= 50; for larger kappa Gauss-Legendre quadrature in
    /// z = 2 sqrt(kappa) sin(t / 2), where q(t) dt = exp(-z^2 / 2) dz / (2 pi sqrt(kappa) e^-kappa I0
    /// sqrt(1 - z^2 / (4 kappa))). Absolute error below 1e-12.
    static double cdf(double theta, double kappa);
    /// dF(theta; kappa) / d kappa = integral over [-pi, theta] of q(t) (cos t - A(kappa)).
    static double cdfKappaDerivative(double theta, double kappa);
    /// theta in [-pi, pi] with F(theta; kappa) = u, u in [0, 1] (safeguarded Newton, |error| < 1e-12).
    static double quantile(double u, double kappa);
    /// d theta / d kappa at fixed u for theta = quantile(u, kappa): -(dF/d kappa) / q(theta).
    static double quantileKappaDerivative(double theta, double kappa);

    std::string spec() const override;
    void checkGroup(const Group& group) const override;
    GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const override;
    GroupElement sampleWithTangents(Rng& rng, const Group& group, const Shape& shape, const float* x,
                                    const std::vector<std::string>& params,
                                    std::vector<GroupTangent>& tangents) const override;
    bool isSymmetric() const override { return true; }
    bool hasDensity() const override { return true; }
    double density(double theta) const override;
    std::pair<double, double> densityRange() const override;
    std::string densityParameter() const override { return "theta (rad)"; }

protected:
    GroupKind parameterGroup() const override { return GroupKind::Rotation; }

private:
    double kappa_;
    std::shared_ptr<const detail::VonMisesCdf> cdf_;  ///< kappa's Bessel ratios (or quadrature constants), once
};

} // namespace orbit

#include "orbit/distributions/VonMises.hpp"

#include "distributions/DistributionSupport.hpp"
#include "groups/GroupSupport.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace orbit {

VonMises::VonMises(double kappa) : kappa_(kappa)
{
    detail::requireParameter("vonmises", GroupKind::Rotation, "kappa", kappa);
    if (kappa > 0) {
        // Best & Fisher: tau = 1 + sqrt(1 + 4 kappa^2), rho = (tau - sqrt(2 tau)) / (2 kappa), written
        // as rho = 2 kappa / (tau + sqrt(2 tau)) to avoid cancellation for small kappa.
        const double tau = 1.0 + std::sqrt(1.0 + 4.0 * kappa * kappa);
        const double rho = 2.0 * kappa / (tau + std::sqrt(2.0 * tau));
        r_ = (1.0 + rho * rho) / (2.0 * rho);
        if (!std::isfinite(r_)) r_ = 0.0;  // kappa below ~1e-300: indistinguishable from uniform
    }
}

double VonMises::scaledBesselI0(double kappa)
{
    // Not std::cyl_bessel_i: it calls lgamma, which writes libm's global signgam, a data race when
    // two workers evaluate densities at once (found by ThreadSanitizer).
    if (kappa < 50.0) {
        // Power series exp(-k) sum_j (k^2 / 4)^j / (j!)^2, terms by recurrence; all positive.
        const double q = 0.25 * kappa * kappa;
        double term = std::exp(-kappa), sum = term;
        for (int j = 1; j < 1000; ++j) {
            term *= q / (double(j) * double(j));
            sum += term;
            if (term < 1e-17 * sum && 2.0 * j > kappa) break;
        }
        return sum;
    }
    // Asymptotic series: exp(-k) I0(k) = (2 pi k)^(-1/2) sum_j ((2j-1)!!)^2 / (j! (8k)^j).
    double term = 1.0, sum = 1.0;
    for (int j = 1; j < 12; ++j) {
        term *= (2.0 * j - 1.0) * (2.0 * j - 1.0) / (j * 8.0 * kappa);
        sum += term;
    }
    return sum / std::sqrt(2.0 * std::numbers::pi * kappa);
}

double VonMises::sampleAngle(Rng& rng) const
{
    constexpr double pi = std::numbers::pi;
    if (r_ == 0.0) return pi - 2.0 * pi * uniform01(rng);  // (-pi, pi]
    for (;;) {
        const double u1 = uniform01(rng), u2 = uniform01(rng);
        const double z = std::cos(pi * u1);
        const double f = (1.0 + r_ * z) / (r_ + z);
        const double c = kappa_ * (r_ - f);
        if (c * (2.0 - c) - u2 > 0.0 || std::log(c / u2) + 1.0 - c >= 0.0) {
            const double theta = std::acos(std::clamp(f, -1.0, 1.0));
            return detail::wrapAngle(uniform01(rng) < 0.5 ? -theta : theta);
        }
    }
}

std::string VonMises::spec() const { return formatSpec("vonmises", {{"kappa", kappa_}}); }

void VonMises::checkGroup(const Group& group) const
{
    detail::requireGroupOf(*this, "vonmises", group);
}

GroupElement VonMises::sample(Rng& rng, const Group&, const Shape&, const float*) const
{
    GroupElement g;
    g.theta = sampleAngle(rng);
    return g;
}

double VonMises::density(double theta) const
{
    // exp(kappa cos theta) / (2 pi I0(kappa)) = exp(kappa (cos theta - 1)) / (2 pi exp(-kappa) I0(kappa)).
    return std::exp(kappa_ * (std::cos(theta) - 1.0)) / (2.0 * std::numbers::pi * scaledBesselI0(kappa_));
}

std::pair<double, double> VonMises::densityRange() const { return {-std::numbers::pi, std::numbers::pi}; }

} // namespace orbit

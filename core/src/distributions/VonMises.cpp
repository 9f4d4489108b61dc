#include "orbit/distributions/VonMises.hpp"

#include "distributions/DistributionSupport.hpp"
#include "groups/GroupSupport.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace orbit {

VonMises::VonMises(double kappa) : kappa_(kappa)
{
    detail::requireParameter("vonmises", GroupKind::Rotation, "kappa", kappa);
    cdf_ = std::make_shared<const detail::VonMisesCdf>(kappa);
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

namespace {

constexpr double kPi = std::numbers::pi;
/// Largest kappa of the Fourier series; the quadrature takes over above it.
constexpr double kSeriesLimit = 50.0;

double densityAt(double theta, double kappa)
{
    return std::exp(kappa * (std::cos(theta) - 1.0)) / (2.0 * kPi * VonMises::scaledBesselI0(kappa));
}

/// Terms of the series: R_n < 1e-17 well before n = kappa + 6 sqrt(kappa) + 16.
int seriesTerms(double kappa) { return 16 + static_cast<int>(std::ceil(kappa + 6.0 * std::sqrt(kappa))); }

/// Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n from Chebyshev guesses).
struct GaussLegendre {
    static constexpr int kNodes = 64;
    double x[kNodes], w[kNodes];
    GaussLegendre()
    {
        const int n = kNodes;
        for (int i = 0; i < n; ++i) {
            double z = std::cos(kPi * (i + 0.75) / (n + 0.5)), dp = 1.0;
            for (int it = 0; it < 100; ++it) {
                double p0 = 1.0, p1 = z;
                for (int k = 2; k <= n; ++k) {
                    const double p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
                    p0 = p1;
                    p1 = p2;
                }
                dp = n * (z * p1 - p0) / (z * z - 1.0);
                const double dz = p1 / dp;
                z -= dz;
                if (std::abs(dz) < 1e-16) break;
            }
            x[i] = z;
            w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
        }
    }
};

/// 1 - A(kappa) = 1 - I1 / I0 for kappa > kSeriesLimit, without cancellation: the ratio of the two
/// asymptotic series exp(-k) I_nu(k) sqrt(2 pi k) = sum_j (-1)^j a_j(nu) / k^j.
double oneMinusBesselRatioLarge(double kappa)
{
    double t0 = 1.0, t1 = 1.0, s0 = 1.0, s1 = 1.0;
    for (int j = 1; j < 14; ++j) {
        const double odd = 2.0 * j - 1.0;
        t0 *= -(0.0 - odd * odd) / (j * 8.0 * kappa);
        t1 *= -(4.0 - odd * odd) / (j * 8.0 * kappa);
        s0 += t0;
        s1 += t1;
    }
    return (s0 - s1) / s0;
}

} // namespace

namespace detail {

/// F(theta; kappa) and dF/d kappa for one kappa, with what does not depend on theta computed once.
class VonMisesCdf {
public:
    explicit VonMisesCdf(double kappa) : kappa_(kappa), series_(kappa <= kSeriesLimit)
    {
        if (series_) {
            // R_n = I_n / I_0, n = 0..p + 1, from rho_n = I_n / I_{n-1} = kappa / (2 n + kappa rho_{n+1})
            // run backwards from far beyond the terms used (stable).
            const int p = seriesTerms(kappa), start = p + 2 + static_cast<int>(kappa);
            std::vector<double> rho(static_cast<std::size_t>(start) + 1, 0.0);
            for (int n = start - 1; n >= 1; --n) {
                const std::size_t k = static_cast<std::size_t>(n);
                rho[k] = kappa / (2.0 * n + kappa * rho[k + 1]);
            }
            ratio_.assign(static_cast<std::size_t>(p) + 2, 1.0);
            for (std::size_t k = 1; k < ratio_.size(); ++k) ratio_[k] = ratio_[k - 1] * rho[k];
        } else {
            oneMinusA_ = oneMinusBesselRatioLarge(kappa);
            norm_ = 1.0 / (2.0 * kPi * std::sqrt(kappa) * VonMises::scaledBesselI0(kappa));
        }
    }

    double value(double theta) const
    {
        if (theta <= -kPi) return 0.0;
        if (theta >= kPi) return 1.0;
        return std::clamp(series_ ? series(theta, false) : quadrature(theta, false), 0.0, 1.0);
    }
    double kappaDerivative(double theta) const
    {
        if (theta <= -kPi || theta >= kPi) return 0.0;
        return series_ ? series(theta, true) : quadrature(theta, true);
    }
    double besselRatio() const { return series_ ? ratio_[1] : 1.0 - oneMinusA_; }

private:
    /// (theta + pi) / (2 pi) + (1 / pi) sum_n c_n sin(n theta) / n with c_n = R_n (F) or
    /// dR_n / d kappa = (R_{n-1} + R_{n+1}) / 2 - R_n R_1 (from I_n' = (I_{n-1} + I_{n+1}) / 2).
    double series(double theta, bool derivative) const
    {
        const std::vector<double>& R = ratio_;
        const double c2 = 2.0 * std::cos(theta);
        double sPrev = 0.0, sCur = std::sin(theta), sum = 0.0;  // sin((n-1) theta), sin(n theta)
        for (std::size_t n = 1; n + 1 < R.size(); ++n) {
            const double c = derivative ? 0.5 * (R[n - 1] + R[n + 1]) - R[n] * R[1] : R[n];
            sum += c * sCur / double(n);
            const double sNext = c2 * sCur - sPrev;
            sPrev = sCur;
            sCur = sNext;
        }
        return (derivative ? 0.0 : (theta + kPi) / (2.0 * kPi)) + sum / kPi;
    }

    /// F = 1/2 + sign(theta) integral over [0, |theta|] of q, by quadrature in z = 2 sqrt(kappa)
    /// sin(t / 2); dF/d kappa the same with the factor cos t - A = (1 - A) - z^2 / (2 kappa) (the
    /// half over [-pi, 0] has derivative 0: F(0) = 1/2 for every kappa). The mass beyond z = 12 is
    /// below 1e-31, and z = 2 sqrt(kappa) > 14 (the integrand's singular end) stays outside.
    double quadrature(double theta, bool derivative) const
    {
        static const GaussLegendre rule;
        const double z = std::min(2.0 * std::sqrt(kappa_) * std::sin(0.5 * std::abs(theta)), 12.0);
        double sum = 0.0;
        for (int i = 0; i < GaussLegendre::kNodes; ++i) {
            const double zi = 0.5 * z * (rule.x[i] + 1.0);
            const double f = std::exp(-0.5 * zi * zi) / std::sqrt(1.0 - zi * zi / (4.0 * kappa_));
            sum += rule.w[i] * (derivative ? f * (oneMinusA_ - zi * zi / (2.0 * kappa_)) : f);
        }
        const double half = 0.5 * z * sum * norm_;
        const double sign = theta < 0 ? -1.0 : 1.0;
        return derivative ? sign * half : 0.5 + sign * half;
    }

    double kappa_;
    bool series_;
    std::vector<double> ratio_;
    double oneMinusA_ = 0.0, norm_ = 0.0;
};

} // namespace detail

namespace {

using detail::VonMisesCdf;

/// theta with F(theta) = u: Newton from a wrapped-normal guess, falling back to bisection whenever a
/// step leaves the bracket (F is increasing on [-pi, pi] with F' = q > 0).
double invert(const VonMisesCdf& F, double u, double kappa)
{
    if (!(u > 0.0)) return -kPi;
    if (!(u < 1.0)) return kPi;
    double lo = -kPi, hi = kPi;
    double t = 2.0 * kPi * u - kPi;
    if (kappa > 1.0) {
        // z = 2 sqrt(kappa) sin(t / 2) is nearly N(0, 1): a crude normal quantile (Abramowitz &
        // Stegun 26.2.23) is a good start.
        const double y = std::sqrt(-2.0 * std::log(std::min(u, 1.0 - u)));
        double z = y - (2.515517 + 0.802853 * y + 0.010328 * y * y) /
                           (1.0 + 1.432788 * y + 0.189269 * y * y + 0.001308 * y * y * y);
        if (u < 0.5) z = -z;
        t = 2.0 * std::asin(std::clamp(z / (2.0 * std::sqrt(kappa)), -1.0, 1.0));
    }
    for (int it = 0; it < 200; ++it) {
        const double f = F.value(t) - u;
        if (f == 0.0) return t;
        if (f < 0.0) lo = t; else hi = t;
        const double q = densityAt(t, kappa);
        double next = q > 0.0 ? t - f / q : 0.5 * (lo + hi);
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        if (std::abs(next - t) <= 1e-15 * (1.0 + std::abs(t)) || hi - lo <= 1e-15) return next;
        t = next;
    }
    return t;
}

} // namespace

double VonMises::besselRatio(double kappa) { return VonMisesCdf(kappa).besselRatio(); }

double VonMises::cdf(double theta, double kappa) { return VonMisesCdf(kappa).value(theta); }

double VonMises::cdfKappaDerivative(double theta, double kappa) { return VonMisesCdf(kappa).kappaDerivative(theta); }

double VonMises::quantile(double u, double kappa) { return invert(VonMisesCdf(kappa), u, kappa); }

double VonMises::quantileKappaDerivative(double theta, double kappa)
{
    const double q = densityAt(theta, kappa);
    return q > 0.0 ? -cdfKappaDerivative(theta, kappa) / q : 0.0;
}

double VonMises::sampleAngle(Rng& rng) const { return detail::wrapAngle(invert(*cdf_, uniform01(rng), kappa_)); }

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

GroupElement VonMises::sampleWithTangents(Rng& rng, const Group&, const Shape&, const float*,
                                          const std::vector<std::string>& params, std::vector<GroupTangent>& tangents) const
{
    requireDifferentiable(params);
    const double theta = invert(*cdf_, uniform01(rng), kappa_);
    const double q = densityAt(theta, kappa_);
    const double dtheta = q > 0.0 ? -cdf_->kappaDerivative(theta) / q : 0.0;
    tangents.assign(params.size(), GroupTangent{});
    for (GroupTangent& t : tangents) t.theta = dtheta;
    GroupElement g;
    g.theta = detail::wrapAngle(theta);
    return g;
}

double VonMises::density(double theta) const
{
    // exp(kappa cos theta) / (2 pi I0(kappa)) = exp(kappa (cos theta - 1)) / (2 pi exp(-kappa) I0(kappa)).
    return densityAt(theta, kappa_);
}

std::pair<double, double> VonMises::densityRange() const { return {-std::numbers::pi, std::numbers::pi}; }

} // namespace orbit

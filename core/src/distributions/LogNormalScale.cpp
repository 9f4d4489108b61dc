#include "orbit/distributions/LogNormalScale.hpp"

#include "distributions/DistributionSupport.hpp"
#include "groups/GroupSupport.hpp"

#include <cmath>
#include <numbers>

namespace orbit {

LogNormalScale::LogNormalScale(double mu, double sigma) : mu_(mu), sigma_(sigma)
{
    detail::requireParameter("lognormal", GroupKind::Scale, "mu", mu);
    detail::requireParameter("lognormal", GroupKind::Scale, "sigma", sigma);
}

std::string LogNormalScale::spec() const
{
    return formatSpec("lognormal", {{"mu", mu_}, {"sigma", sigma_}});
}

void LogNormalScale::checkGroup(const Group& group) const
{
    detail::requireGroupOf(*this, "lognormal", group);
}

GroupElement LogNormalScale::sample(Rng& rng, const Group&, const Shape&, const float*) const
{
    GroupElement g;
    g.scale = std::exp(mu_ + sigma_ * standardNormal(rng));
    return g;
}

double LogNormalScale::density(double s) const
{
    if (!(s > 0.0)) return 0.0;
    const double z = (std::log(s) - mu_) / sigma_;
    return std::exp(-0.5 * z * z) / (s * sigma_ * std::sqrt(2.0 * std::numbers::pi));
}

std::pair<double, double> LogNormalScale::densityRange() const { return {0.0, std::exp(mu_ + 4.0 * sigma_)}; }

} // namespace orbit

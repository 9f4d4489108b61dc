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

GroupElement LogNormalScale::sampleWithTangents(Rng& rng, const Group&, const Shape&, const float*,
                                                const std::vector<std::string>& params,
                                                std::vector<GroupTangent>& tangents) const
{
    requireDifferentiable(params);
    const double eps = standardNormal(rng);  // the one draw sample() takes
    GroupElement g;
    g.scale = std::exp(mu_ + sigma_ * eps);
    tangents.assign(params.size(), GroupTangent{});
    for (std::size_t i = 0; i < params.size(); ++i)  // s = exp(mu + sigma eps): ds/dmu = s, ds/dsigma = s eps
        tangents[i].scale = params[i] == "mu" ? g.scale : g.scale * eps;
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

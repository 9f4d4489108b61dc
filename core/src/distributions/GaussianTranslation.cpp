#include "orbit/distributions/GaussianTranslation.hpp"

#include "distributions/DistributionSupport.hpp"
#include "groups/GroupSupport.hpp"

#include <cmath>
#include <numbers>

namespace orbit {

GaussianTranslation::GaussianTranslation(double sigma) : sigma_(sigma)
{
    detail::requireParameter("gaussian", GroupKind::Translation, "sigma", sigma);
}

std::string GaussianTranslation::spec() const { return formatSpec("gaussian", {{"sigma", sigma_}}); }

void GaussianTranslation::checkGroup(const Group& group) const
{
    detail::requireGroupOf(*this, "gaussian", group);
}

GroupElement GaussianTranslation::sample(Rng& rng, const Group&, const Shape&, const float*) const
{
    GroupElement g;
    g.dx = sigma_ * standardNormal(rng);
    g.dy = sigma_ * standardNormal(rng);
    return g;
}

GroupElement GaussianTranslation::sampleWithTangents(Rng& rng, const Group& group, const Shape& shape, const float* x,
                                                     const std::vector<std::string>& params,
                                                     std::vector<GroupTangent>& tangents) const
{
    requireDifferentiable(params);
    const GroupElement g = sample(rng, group, shape, x);
    tangents.assign(params.size(), GroupTangent{});
    for (GroupTangent& t : tangents) {  // t = sigma eps: dt / d sigma = eps = t / sigma
        t.dx = g.dx / sigma_;
        t.dy = g.dy / sigma_;
    }
    return g;
}

double GaussianTranslation::density(double dx) const
{
    const double z = dx / sigma_;
    return std::exp(-0.5 * z * z) / (sigma_ * std::sqrt(2.0 * std::numbers::pi));
}

} // namespace orbit

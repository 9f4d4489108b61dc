// SimilaritySubgroup and its four subgroups: rotation, translation, scale and their product, all
// composed by the similarity group's formulas and applied by detail::warpSimilarity.
#include "orbit/groups/AffineGroup.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"

#include "groups/GroupSupport.hpp"

namespace orbit {


void SimilaritySubgroup::checkShape(DataKind kind, const Shape& shape) const
{
    detail::requireImages(*this, kind, shape);
}

GroupElement SimilaritySubgroup::inverse(const GroupElement& g) const
{
    return project(detail::inverseSimilarity(project(g)));
}

GroupElement SimilaritySubgroup::compose(const GroupElement& a, const GroupElement& b) const
{
    return project(detail::composeSimilarity(project(a), project(b)));
}

void SimilaritySubgroup::apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const
{
    detail::warpSimilarity(project(g), in, out, shape);
}

GroupElement RotationGroup::project(const GroupElement& g) const
{
    GroupElement r;
    r.theta = g.theta;
    return r;
}

std::string RotationGroup::describe(const GroupElement& g) const { return formatNumber(g.theta); }

GroupElement TranslationGroup::project(const GroupElement& g) const
{
    GroupElement r;
    r.dx = g.dx;
    r.dy = g.dy;
    return r;
}

std::string TranslationGroup::describe(const GroupElement& g) const
{
    return formatNumber(g.dx) + " " + formatNumber(g.dy);
}

GroupElement ScaleGroup::project(const GroupElement& g) const
{
    GroupElement r;
    r.scale = g.scale;
    return r;
}

std::string ScaleGroup::describe(const GroupElement& g) const { return formatNumber(g.scale); }

GroupElement AffineGroup::project(const GroupElement& g) const
{
    GroupElement r;
    r.theta = g.theta;
    r.dx = g.dx;
    r.dy = g.dy;
    r.scale = g.scale;
    return r;
}

std::string AffineGroup::describe(const GroupElement& g) const
{
    return formatNumber(g.theta) + " " + formatNumber(g.dx) + " " + formatNumber(g.dy) + " " + formatNumber(g.scale);
}

} // namespace orbit

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

void SimilaritySubgroup::apply(const GroupElement& g, const double* in, double* out, const Shape& shape) const
{
    detail::warpSimilarity(project(g), in, out, shape);
}

GroupElement SimilaritySubgroup::project(const GroupElement& g) const { return keepOwn(g); }

GroupTangent SimilaritySubgroup::projectTangent(const GroupTangent& dg) const { return keepOwn(dg); }

void SimilaritySubgroup::applyTangent(const GroupElement& g, const GroupTangent& dg, const float* in, float* out,
                                      const Shape& shape) const
{
    detail::warpSimilarityTangent(project(g), projectTangent(dg), in, out, shape);
}

void SimilaritySubgroup::applyTangent(const GroupElement& g, const GroupTangent& dg, const double* in, double* out,
                                      const Shape& shape) const
{
    detail::warpSimilarityTangent(project(g), projectTangent(dg), in, out, shape);
}

GroupTangent SimilaritySubgroup::inverseTangent(const GroupElement& g, const GroupTangent& dg) const
{
    return projectTangent(detail::inverseSimilarityTangent(project(g), projectTangent(dg)));
}

std::string RotationGroup::describe(const GroupElement& g) const { return formatNumber(g.theta); }

std::string TranslationGroup::describe(const GroupElement& g) const
{
    return formatNumber(g.dx) + " " + formatNumber(g.dy);
}

std::string ScaleGroup::describe(const GroupElement& g) const { return formatNumber(g.scale); }

std::string AffineGroup::describe(const GroupElement& g) const
{
    return formatNumber(g.theta) + " " + formatNumber(g.dx) + " " + formatNumber(g.dy) + " " + formatNumber(g.scale);
}

} // namespace orbit

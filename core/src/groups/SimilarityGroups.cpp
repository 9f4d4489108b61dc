// RotationGroup, TranslationGroup, ScaleGroup and AffineGroup: the subgroups of the similarity
// group of the image plane, all applied by detail::warpSimilarity.
#include "orbit/groups/AffineGroup.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"

#include "groups/GroupSupport.hpp"

namespace orbit {

using detail::formatNumber;

// Rotation ---------------------------------------------------------------------------------------

void RotationGroup::checkShape(DataKind kind, const Shape& shape) const { detail::requireImages(*this, kind, shape); }

GroupElement RotationGroup::inverse(const GroupElement& g) const
{
    GroupElement r;
    r.theta = detail::wrapAngle(-g.theta);
    return r;
}

GroupElement RotationGroup::compose(const GroupElement& a, const GroupElement& b) const
{
    GroupElement r;
    r.theta = detail::wrapAngle(a.theta + b.theta);
    return r;
}

void RotationGroup::apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const
{
    GroupElement e;
    e.theta = g.theta;
    detail::warpSimilarity(e, in, out, shape);
}

std::string RotationGroup::describe(const GroupElement& g) const { return formatNumber(g.theta); }

// Translation ------------------------------------------------------------------------------------

void TranslationGroup::checkShape(DataKind kind, const Shape& shape) const { detail::requireImages(*this, kind, shape); }

GroupElement TranslationGroup::inverse(const GroupElement& g) const
{
    GroupElement r;
    r.dx = -g.dx;
    r.dy = -g.dy;
    return r;
}

GroupElement TranslationGroup::compose(const GroupElement& a, const GroupElement& b) const
{
    GroupElement r;
    r.dx = a.dx + b.dx;
    r.dy = a.dy + b.dy;
    return r;
}

void TranslationGroup::apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const
{
    GroupElement e;
    e.dx = g.dx;
    e.dy = g.dy;
    detail::warpSimilarity(e, in, out, shape);
}

std::string TranslationGroup::describe(const GroupElement& g) const
{
    return formatNumber(g.dx) + " " + formatNumber(g.dy);
}

// Scale ------------------------------------------------------------------------------------------

void ScaleGroup::checkShape(DataKind kind, const Shape& shape) const { detail::requireImages(*this, kind, shape); }

GroupElement ScaleGroup::inverse(const GroupElement& g) const
{
    GroupElement r;
    r.scale = 1.0 / g.scale;
    return r;
}

GroupElement ScaleGroup::compose(const GroupElement& a, const GroupElement& b) const
{
    GroupElement r;
    r.scale = a.scale * b.scale;
    return r;
}

void ScaleGroup::apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const
{
    GroupElement e;
    e.scale = g.scale;
    detail::warpSimilarity(e, in, out, shape);
}

std::string ScaleGroup::describe(const GroupElement& g) const { return formatNumber(g.scale); }

// Affine -----------------------------------------------------------------------------------------

void AffineGroup::checkShape(DataKind kind, const Shape& shape) const { detail::requireImages(*this, kind, shape); }

GroupElement AffineGroup::inverse(const GroupElement& g) const { return detail::inverseSimilarity(g); }

GroupElement AffineGroup::compose(const GroupElement& a, const GroupElement& b) const
{
    return detail::composeSimilarity(a, b);
}

void AffineGroup::apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const
{
    detail::warpSimilarity(g, in, out, shape);
}

std::string AffineGroup::describe(const GroupElement& g) const
{
    return formatNumber(g.theta) + " " + formatNumber(g.dx) + " " + formatNumber(g.dy) + " " + formatNumber(g.scale);
}

} // namespace orbit

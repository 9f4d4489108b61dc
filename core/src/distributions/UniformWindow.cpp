#include "orbit/distributions/UniformWindow.hpp"

#include "distributions/DistributionSupport.hpp"
#include "groups/GroupSupport.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace orbit {

UniformWindow::UniformWindow(double a, GroupKind kind) : a_(a), kind_(kind)
{
    detail::requireParameter("uniform", kind, "a", a);
}

std::string UniformWindow::spec() const { return formatSpec("uniform", {{"a", a_}}); }

void UniformWindow::checkGroup(const Group& group) const
{
    detail::requireGroupOf(*this, "uniform", group);
    if (group.kind() != kind_)
        detail::groupMismatch(*this, group, std::string("the group it was made for, ") + toString(kind_));
}

GroupElement UniformWindow::sample(Rng& rng, const Group&, const Shape&, const float*) const
{
    GroupElement g;
    if (kind_ == GroupKind::Rotation) {
        g.theta = detail::wrapAngle(a_ * (2.0 * uniform01(rng) - 1.0));
    } else {
        g.dx = a_ * (2.0 * uniform01(rng) - 1.0);
        g.dy = a_ * (2.0 * uniform01(rng) - 1.0);
    }
    return g;
}

GroupElement UniformWindow::sampleWithTangents(Rng& rng, const Group& group, const Shape& shape, const float* x,
                                               const std::vector<std::string>& params,
                                               std::vector<GroupTangent>& tangents) const
{
    requireDifferentiable(params);
    // The same two (translation) or one (rotation) draws as sample(): u -> a (2u - 1), d/da = 2u - 1.
    Rng copy = rng;
    const GroupElement g = sample(rng, group, shape, x);
    tangents.assign(params.size(), GroupTangent{});
    const double e1 = 2.0 * uniform01(copy) - 1.0;
    if (kind_ == GroupKind::Rotation) {
        for (GroupTangent& t : tangents) t.theta = e1;
    } else {
        const double e2 = 2.0 * uniform01(copy) - 1.0;
        for (GroupTangent& t : tangents) {
            t.dx = e1;
            t.dy = e2;
        }
    }
    return g;
}

double UniformWindow::density(double t) const { return std::abs(t) <= a_ ? 0.5 / a_ : 0.0; }

std::pair<double, double> UniformWindow::densityRange() const
{
    const double half = kind_ == GroupKind::Rotation ? std::min(1.25 * a_, std::numbers::pi) : 1.25 * a_;
    return {-half, half};
}

std::string UniformWindow::densityParameter() const
{
    return kind_ == GroupKind::Rotation ? "theta (rad)" : "dx (px)";
}

} // namespace orbit

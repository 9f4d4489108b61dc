#include "orbit/distributions/Haar.hpp"

#include "distributions/DistributionSupport.hpp"
#include "orbit/groups/CyclicGroup.hpp"
#include "orbit/groups/OrthogonalSetGroup.hpp"
#include "orbit/groups/PermutationGroup.hpp"

#include <numbers>
#include <utility>

namespace orbit {

void Haar::checkGroup(const Group& group) const
{
    detail::requireGroupOf(*this, "haar", group,
                           "compact groups: translations and scales have no uniform probability measure");
}

GroupElement Haar::sample(Rng& rng, const Group& group, const Shape& shape, const float*) const
{
    GroupElement g;
    switch (group.kind()) {
    case GroupKind::Rotation:
        g.theta = std::numbers::pi - 2.0 * std::numbers::pi * uniform01(rng);  // (-pi, pi]
        break;
    case GroupKind::Cyclic:
        g.k = static_cast<int>(uniformIndex(rng, static_cast<std::uint64_t>(dynamic_cast<const CyclicGroup&>(group).order())));
        break;
    case GroupKind::Orthogonal:
        g.k = static_cast<int>(uniformIndex(rng, static_cast<std::uint64_t>(dynamic_cast<const OrthogonalSetGroup&>(group).count())));
        break;
    case GroupKind::Permutation: {
        g = group.identity(shape);  // Fisher-Yates
        for (std::size_t i = g.perm.size(); i > 1; --i)
            std::swap(g.perm[i - 1], g.perm[uniformIndex(rng, i)]);
        break;
    }
    default: checkGroup(group);
    }
    return g;
}

double Haar::density(double theta) const
{
    return (theta >= -std::numbers::pi && theta <= std::numbers::pi) ? 0.5 / std::numbers::pi : 0.0;
}

std::pair<double, double> Haar::densityRange() const { return {-std::numbers::pi, std::numbers::pi}; }

} // namespace orbit

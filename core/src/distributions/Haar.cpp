#include "orbit/distributions/Haar.hpp"

#include "distributions/DistributionSupport.hpp"

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
    if (!group.hasHaarProbability()) checkGroup(group);
    return group.sampleHaar(rng, shape);
}

double Haar::density(double theta) const
{
    return (theta >= -std::numbers::pi && theta <= std::numbers::pi) ? 0.5 / std::numbers::pi : 0.0;
}

std::pair<double, double> Haar::densityRange() const { return {-std::numbers::pi, std::numbers::pi}; }

} // namespace orbit

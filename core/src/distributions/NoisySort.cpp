#include "orbit/distributions/NoisySort.hpp"

#include "distributions/DistributionSupport.hpp"
#include "groups/GroupSupport.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>
#include <cmath>

namespace orbit {

NoisySort::NoisySort(double sigma) : sigma_(sigma)
{
    detail::requireParameter("noisysort", GroupKind::Permutation, "sigma", sigma);
}

std::string NoisySort::spec() const { return formatSpec("noisysort", {{"sigma", sigma_}}); }

void NoisySort::checkGroup(const Group& group) const
{
    detail::requireGroupOf(*this, "noisysort", group, "noisy sort permutes the atoms of Coulomb matrices");
}

std::vector<int> NoisySort::sortPermutation(Rng& rng, const float* c, int n) const
{
    std::vector<double> key(static_cast<std::size_t>(n));
    std::vector<int> atoms, padding;
    for (int i = 0; i < n; ++i) {
        double norm2 = 0.0;
        for (int j = 0; j < n; ++j) {
            const double v = c[static_cast<std::size_t>(i) * n + j];
            norm2 += v * v;
        }
        const double noise = sigma_ > 0.0 ? sigma_ * standardNormal(rng) : 0.0;  // n draws, whatever the data
        key[static_cast<std::size_t>(i)] = std::sqrt(norm2) + noise;
        (norm2 > 0.0 ? atoms : padding).push_back(i);
    }
    std::stable_sort(atoms.begin(), atoms.end(), [&key](int a, int b) {
        return key[static_cast<std::size_t>(a)] > key[static_cast<std::size_t>(b)];
    });
    atoms.insert(atoms.end(), padding.begin(), padding.end());
    return atoms;
}

GroupElement NoisySort::sample(Rng& rng, const Group&, const Shape& shape, const float* x) const
{
    if (!x) throw SpecError("distribution", "noisysort depends on the input: it needs a sample of the data", spec());
    GroupElement g;
    g.perm = sortPermutation(rng, x, shape.height);
    return g;
}

} // namespace orbit

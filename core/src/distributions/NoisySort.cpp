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

std::vector<int> rowNormOrder(const float* c, int n, const double* noise)
{
    std::vector<double> key(static_cast<std::size_t>(n));
    std::vector<int> atoms, padding;
    for (int i = 0; i < n; ++i) {
        double norm2 = 0.0;
        for (int j = 0; j < n; ++j) {
            const double v = c[static_cast<std::size_t>(i) * n + j];
            norm2 += v * v;
        }
        key[static_cast<std::size_t>(i)] = std::sqrt(norm2) + (noise ? noise[i] : 0.0);
        (norm2 > 0.0 ? atoms : padding).push_back(i);
    }
    std::stable_sort(atoms.begin(), atoms.end(), [&key](int a, int b) {
        return key[static_cast<std::size_t>(a)] > key[static_cast<std::size_t>(b)];
    });
    atoms.insert(atoms.end(), padding.begin(), padding.end());
    return atoms;
}

std::vector<int> NoisySort::sortPermutation(Rng& rng, const float* c, int n) const
{
    if (!(sigma_ > 0.0)) return rowNormOrder(c, n);
    std::vector<double> noise(static_cast<std::size_t>(n));
    for (double& e : noise) e = sigma_ * standardNormal(rng);  // n draws, whatever the data
    return rowNormOrder(c, n, noise.data());
}

GroupElement NoisySort::sample(Rng& rng, const Group&, const Shape& shape, const float* x) const
{
    if (!x) throw SpecError("distribution", "noisysort depends on the input: it needs a sample of the data", spec());
    GroupElement g;
    g.perm = sortPermutation(rng, x, shape.height);
    return g;
}

} // namespace orbit

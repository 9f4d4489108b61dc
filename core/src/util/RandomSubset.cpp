#include "orbit/util/RandomSubset.hpp"

#include <numeric>
#include <utility>

namespace orbit {

std::vector<std::size_t> randomSubset(std::size_t n, std::size_t k, Rng& rng)
{
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    for (std::size_t i = 0; i < k; ++i) std::swap(idx[i], idx[i + uniformIndex(rng, n - i)]);
    idx.resize(k);
    return idx;
}

} // namespace orbit

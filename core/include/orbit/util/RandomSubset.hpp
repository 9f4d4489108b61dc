#pragma once
// A seeded random subset of indices: the one partial Fisher-Yates shuffle of the code base (landmarks,
// templates, k-means rows, the rows of a median distance, the rows of a plotted kernel).
#include "orbit/util/Random.hpp"

#include <cstddef>
#include <vector>

namespace orbit {

/// The first k entries of 0..n-1 after k steps of a Fisher-Yates shuffle: step i swaps entry i with
/// entry i + uniformIndex(rng, n - i). A uniform random k-subset in random order, drawing exactly k
/// numbers from `rng`. Requires k <= n.
std::vector<std::size_t> randomSubset(std::size_t n, std::size_t k, Rng& rng);

} // namespace orbit

#pragma once
// k-means clustering of the rows of a matrix (the Nyström map's k-means landmarks).
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"

#include <cstddef>
#include <cstdint>

namespace orbit {

/// k-means (Lloyd, k-means++ seeding) on the rows of X, deterministic for a seed; at most `iterations`
/// rounds on a random subset of at most `maxRows` rows. Requires 1 <= k <= X.rows().
/// Reports to `progress` between seeding steps and rounds (throws Cancelled when it asks to).
MatrixXfR kMeansCentres(const MatrixXfR& X, int k, std::uint64_t seed, int iterations = 10,
                        std::size_t maxRows = 20000, const Progress& progress = {});

} // namespace orbit

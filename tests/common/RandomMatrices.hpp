#pragma once
// Seeded synthetic inputs for the core suites (kernels, feature maps, orbits, PCA).
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Random.hpp"

namespace orbittest {

/// n x d matrix whose entry (i, j) is entry(rng, j) as a float, drawn row by row from seed.
template <class Entry>
orbit::MatrixXfR sampledMatrix(Eigen::Index n, Eigen::Index d, std::uint64_t seed, Entry entry)
{
    orbit::Rng rng = orbit::makeRng(seed);
    orbit::MatrixXfR X(n, d);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < d; ++j) X(i, j) = float(entry(rng, j));
    return X;
}

/// n x d matrix of N(0, scale^2) entries from seed.
inline orbit::MatrixXfR randomMatrix(Eigen::Index n, Eigen::Index d, std::uint64_t seed, double scale = 1.0)
{
    return sampledMatrix(n, d, seed, [scale](orbit::Rng& rng, Eigen::Index) { return scale * orbit::standardNormal(rng); });
}

/// n x d matrix of U(0, 1) entries from seed.
inline orbit::MatrixXfR uniformMatrix(Eigen::Index n, Eigen::Index d, std::uint64_t seed)
{
    return sampledMatrix(n, d, seed, [](orbit::Rng& rng, Eigen::Index) { return orbit::uniform01(rng); });
}

/// Symmetric Coulomb-like side x side matrices with non-negative entries, one per row.
inline orbit::MatrixXfR symmetricMatrices(Eigen::Index n, int side, std::uint64_t seed)
{
    orbit::MatrixXfR X = randomMatrix(n, side * side, seed).cwiseAbs();
    for (Eigen::Index t = 0; t < n; ++t)
        for (int i = 0; i < side; ++i)
            for (int j = 0; j < i; ++j) X(t, i * side + j) = X(t, j * side + i);
    return X;
}

} // namespace orbittest

#pragma once
// Seeded synthetic inputs for the kernel and feature-map suites.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Random.hpp"

namespace orbittest {

/// n x d matrix of N(0, scale^2) entries from seed.
inline orbit::MatrixXfR randomMatrix(Eigen::Index n, Eigen::Index d, std::uint64_t seed, double scale = 1.0)
{
    orbit::Rng rng = orbit::makeRng(seed);
    orbit::MatrixXfR X(n, d);
    for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = float(scale * orbit::standardNormal(rng));
    return X;
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

#pragma once
// Small synthetic problems for the learner and evaluation suites (seeded, no files).
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Random.hpp"

#include <Eigen/Core>

#include <vector>

namespace orbittest {

/// N x D matrix of independent N(0, 1) entries from makeRng(seed).
inline orbit::MatrixXfR gaussianMatrix(int rows, int cols, std::uint64_t seed)
{
    orbit::Rng rng = orbit::makeRng(seed);
    orbit::MatrixXfR X(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            X(i, j) = static_cast<float>(orbit::standardNormal(rng));
    return X;
}

/// Gaussian blobs: class c has centre `separation` * e_c (c < D) and unit-variance*`spread` noise.
struct Blobs {
    orbit::MatrixXfR X;
    std::vector<int> labels;
};
inline Blobs gaussianBlobs(int perClass, int numClasses, int dim, double separation, double spread, std::uint64_t seed)
{
    orbit::Rng rng = orbit::makeRng(seed);
    Blobs b;
    b.X.resize(perClass * numClasses, dim);
    for (int c = 0; c < numClasses; ++c)
        for (int k = 0; k < perClass; ++k) {
            const int i = c * perClass + k;
            for (int j = 0; j < dim; ++j)
                b.X(i, j) = static_cast<float>(spread * orbit::standardNormal(rng) + (j == c ? separation : 0.0));
            b.labels.push_back(c);
        }
    return b;
}

/// Largest |a - b| relative to max(1, max |b|).
inline double relativeError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b)
{
    return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

inline std::vector<double> toVector(const Eigen::VectorXd& v)
{
    return std::vector<double>(v.data(), v.data() + v.size());
}

} // namespace orbittest

#include "orbit/features/SimpleMaps.hpp"

#include "orbit/distributions/NoisySort.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include <algorithm>
#include <vector>

namespace orbit {

MatrixXfR FeatureMap::transform(const MatrixXfR& X) const
{
    detail::checkFeatureMemory(4.0 * double(X.rows()) * double(dim()), "features",
                               "the " + std::to_string(X.rows()) + " x " + std::to_string(dim()) + " feature matrix", spec());
    MatrixXfR out;
    transform(X, 0, std::size_t(X.rows()), out);
    return out;
}

void RawMap::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    out = X.middleRows(Eigen::Index(begin), Eigen::Index(end - begin));
}

SortedCoulombMap::SortedCoulombMap(Shape shape) : InputSpaceMap(shape)
{
    if (shape.height != shape.width || shape.channels != 1)
        throw SpecError("features", "sorted needs square n x n matrices (Coulomb)",
                        std::to_string(shape.height) + "x" + std::to_string(shape.width));
}

void SortedCoulombMap::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    const int n = shape_.height;
    out.resize(Eigen::Index(end - begin), X.cols());
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
    for (long long t = 0; t < static_cast<long long>(end - begin); ++t) {
        const float* c = X.data() + (Eigen::Index(begin) + t) * X.cols();
        const std::vector<int> p = rowNormOrder(c, n);
        float* o = out.data() + t * X.cols();
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) o[i * n + j] = c[p[i] * n + p[j]];
    }
}

} // namespace orbit

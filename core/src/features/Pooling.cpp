#include "features/Pooling.hpp"

namespace orbit::detail {

MatrixXfR SymmetricFold::templates(const MatrixXfR& W) const
{
    MatrixXfR F(W.rows(), foldedDim());
    for (Eigen::Index t = 0; t < W.rows(); ++t) {
        const float* w = W.data() + t * W.cols();
        float* f = F.data() + t * F.cols();
        for (int m = 0; m < n; ++m) {
            for (int i = 0; i < m; ++i) *f++ = w[i * n + m] + w[m * n + i];
            *f++ = w[m * n + m];
        }
    }
    return F;
}

MatrixXfR SymmetricFold::inputs(const MatrixXfR& X, Eigen::Index begin, Eigen::Index end) const
{
    MatrixXfR F(end - begin, foldedDim());
    for (Eigen::Index t = begin; t < end; ++t) input(X.data() + t * X.cols(), F.data() + (t - begin) * F.cols());
    return F;
}

} // namespace orbit::detail

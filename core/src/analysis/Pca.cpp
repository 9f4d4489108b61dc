#include "orbit/analysis/Pca.hpp"

#include "orbit/util/Error.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <string>

namespace orbit {

namespace {

/// Flips each row of `axes` so that its largest-magnitude entry is positive.
void fixSigns(Eigen::MatrixXd& axes)
{
    for (Eigen::Index j = 0; j < axes.rows(); ++j) {
        Eigen::Index arg = 0;
        axes.row(j).cwiseAbs().maxCoeff(&arg);
        if (axes(j, arg) < 0.0)
            axes.row(j) *= -1.0;
    }
}

} // namespace

PcaResult principalComponents(const MatrixXfR& X, int k)
{
    const Eigen::Index n = X.rows();
    const Eigen::Index d = X.cols();
    if (n < 2)
        throw SpecError("pca", "needs at least two samples", std::to_string(n));
    if (k < 1)
        throw SpecError("pca", "needs at least one component", std::to_string(k));
    if (!X.allFinite())
        throw SpecError("pca", "the samples contain a non-finite value");

    const Eigen::MatrixXd Xd = X.cast<double>();
    const Eigen::RowVectorXd mean = Xd.colwise().mean();
    const Eigen::MatrixXd C = Xd.rowwise() - mean;
    const double denom = static_cast<double>(n - 1);

    Eigen::MatrixXd axes = Eigen::MatrixXd::Zero(k, d);  // k x d
    Eigen::VectorXd variance = Eigen::VectorXd::Zero(k);
    const double tiny = 1e-12;

    if (n <= d) {
        // Gram route: G = C C^T / (n-1) = U L U^T; the axes are v_j = C^T u_j / sqrt((n-1) l_j).
        const Eigen::MatrixXd G = (C * C.transpose()) / denom;
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(G);
        const Eigen::VectorXd& l = eig.eigenvalues();  // ascending
        const double scale = std::max(l.cwiseAbs().maxCoeff(), 1.0);
        for (int j = 0; j < k && j < n; ++j) {
            const Eigen::Index src = n - 1 - j;
            if (l(src) <= tiny * scale)
                break;
            variance(j) = l(src);
            axes.row(j) = (C.transpose() * eig.eigenvectors().col(src)).transpose() / std::sqrt(denom * l(src));
        }
    } else {
        const Eigen::MatrixXd S = (C.transpose() * C) / denom;
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(S);
        const Eigen::VectorXd& l = eig.eigenvalues();
        const double scale = std::max(l.cwiseAbs().maxCoeff(), 1.0);
        for (int j = 0; j < k && j < d; ++j) {
            const Eigen::Index src = d - 1 - j;
            if (l(src) <= tiny * scale)
                break;
            variance(j) = l(src);
            axes.row(j) = eig.eigenvectors().col(src).transpose();
        }
    }
    fixSigns(axes);

    PcaResult result;
    result.axes = axes.cast<float>();
    result.scores = (C * axes.transpose()).cast<float>();
    result.mean = mean.cast<float>();
    result.variance = variance;
    result.totalVariance = C.squaredNorm() / denom;
    return result;
}

} // namespace orbit

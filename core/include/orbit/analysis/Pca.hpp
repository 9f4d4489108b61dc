#pragma once
// Principal component analysis for the orbit embedding (docs/design.md, "Diagnostics the window draws").
#include "orbit/data/Dataset.hpp"

#include <Eigen/Core>

namespace orbit {

/// The projection of n samples onto their k leading principal axes.
///
/// Computes: mean m = (1/n) sum_i x_i, centred rows c_i = x_i - m, the covariance
/// S = (1/(n-1)) sum_i c_i c_i^T, its eigenvectors v_1..v_k with eigenvalues l_1 >= .. >= l_k,
/// and scores(i, j) = <c_i, v_j>.
/// Requires: X has n >= 2 rows, every value finite, 1 <= k. Components beyond rank(S) get zero
/// scores and zero variance.
/// Guarantees: variance(j) = l_j = sample variance of column j of scores; the axes are
/// orthonormal; the sign of each axis is fixed (its largest-magnitude entry is positive), so the
/// same X gives the same picture; totalVariance = trace(S). Works in double precision through the
/// n x n Gram matrix when n <= d, else through the d x d covariance.
struct PcaResult {
    MatrixXfR scores;          ///< n x k
    MatrixXfR axes;            ///< k x d, orthonormal rows (zero rows beyond the rank)
    Eigen::RowVectorXf mean;   ///< 1 x d
    Eigen::VectorXd variance;  ///< k eigenvalues of S, descending
    double totalVariance = 0.0;
    /// Fraction of the total variance explained by component j (0 when the total is 0).
    double explained(int j) const { return totalVariance > 0.0 ? variance(j) / totalVariance : 0.0; }
};

/// Throws SpecError("pca", ...) when n < 2, k < 1 or X holds a non-finite value.
PcaResult principalComponents(const MatrixXfR& X, int k = 2);

} // namespace orbit

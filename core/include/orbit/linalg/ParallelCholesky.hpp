#pragma once
// A blocked Cholesky factorisation whose trailing updates run as OpenMP tiles: the multi-core
// path for the ridge / kernel-ridge systems of many lambdas (one factorisation per lambda).
#include "orbit/util/Progress.hpp"

#include <Eigen/Core>

#include <vector>

namespace orbit {

/// A = L L^T for a symmetric positive definite A (only the lower triangle is read), computed
/// right-looking in 256-wide panels: the diagonal block by Eigen's LLT, the panel below by a
/// triangular solve and the trailing lower triangle updated tile by tile (A_IJ -= L_I L_J^T) in
/// parallel. Every tile is computed by one thread with a sequential product, so the bits do not
/// depend on the number of OpenMP threads.
///
/// Requires A square. Guarantees: on success the lower triangle of A holds L (the strict upper
/// triangle is left as it was) and true is returned; false when a pivot is not positive.
bool choleskyInPlace(Eigen::MatrixXd& A);
/// The same bits, reporting to `progress` (the fraction of columns factorised) before every panel
/// and between groups of trailing tiles, on one thread; a cancel (or an exception of `progress`)
/// is rethrown after the parallel region, A then partly factorised.
bool choleskyInPlace(Eigen::MatrixXd& A, const Progress& progress);

/// (L L^T)^{-1} B given the factor of choleskyInPlace (lower triangle of L).
Eigen::MatrixXd choleskySolve(const Eigen::MatrixXd& L, const Eigen::MatrixXd& B);

/// (G + lambda_k I)^{-1} B for every lambda_k: one parallel Cholesky per lambda. The cheaper path
/// than a tridiagonalisation (ShiftedSolver) when there are few lambdas, since the factorisations
/// use all cores. Throws SpecError("lambda", ...) naming lambda_k when G + lambda_k I is not
/// positive definite. Requires G square and symmetric, B with G.rows() rows.
std::vector<Eigen::MatrixXd> solveShiftedMany(const Eigen::MatrixXd& G, const Eigen::MatrixXd& B,
                                              const std::vector<double>& lambdas);

} // namespace orbit

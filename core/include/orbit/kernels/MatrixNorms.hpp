#pragma once
// Norms of symmetric matrices for the approximation-error experiments.
#include <Eigen/Core>

namespace orbit {

/// ||A||_2 = max |lambda_i(A)| of a symmetric matrix, by Spectra's Lanczos (SymEigsSolver, largest
/// magnitude) instead of a full decomposition; small matrices (n <= 8) use a dense eigensolver.
/// Requires A symmetric (only its action A v is used).
double spectralNorm(const Eigen::MatrixXd& A);

/// ||A||_F.
inline double frobeniusNorm(const Eigen::MatrixXd& A) { return A.norm(); }

} // namespace orbit

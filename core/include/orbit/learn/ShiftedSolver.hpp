#pragma once
// Solving (G + s I) x = b for many shifts s after one factorisation of a symmetric PSD matrix G.
#include <Eigen/Dense>

#include <memory>

namespace orbit {

/// One Householder tridiagonalisation G = Q T Q^T of a symmetric positive semi-definite m x m
/// matrix (T tridiagonal, Q orthogonal), after which every shifted system is cheap:
///   (G + s I)^{-1} B = Q (T + s I)^{-1} Q^T B,
/// with (T + s I)^{-1} an O(m) LDL^T solve per column. This is the first (and dominant) stage of
/// a symmetric eigendecomposition; the eigenvalues of G come from T in O(m^2) without forming
/// eigenvectors. Used by the many-lambda ridge path and the evidence maximisation of Bayesian
/// linear regression.
///
/// Requires: G symmetric (only the lower triangle is read). Shifts s > 0 (or s >= 0 when G is
/// positive definite). Guarantees: solutions agree with a direct Cholesky solve of G + s I to
/// the conditioning of G + s I.
class ShiftedSolver {
public:
    ShiftedSolver() = default;
    explicit ShiftedSolver(const Eigen::MatrixXd& G);

    Eigen::Index size() const { return diag_.size(); }
    /// Q^T B: the right-hand sides in the tridiagonal basis.
    Eigen::MatrixXd toBasis(const Eigen::MatrixXd& B) const;
    /// Q Z: back from the tridiagonal basis.
    Eigen::MatrixXd fromBasis(const Eigen::MatrixXd& Z) const;
    /// (T + s I)^{-1} Z. Throws SpecError("shift", ...) if T + s I is not positive definite.
    Eigen::MatrixXd solveInBasis(double shift, const Eigen::MatrixXd& Z) const;
    /// T Z.
    Eigen::MatrixXd timesT(const Eigen::MatrixXd& Z) const;
    /// (G + s I)^{-1} B.
    Eigen::MatrixXd solve(double shift, const Eigen::MatrixXd& B) const { return fromBasis(solveInBasis(shift, toBasis(B))); }
    /// Eigenvalues of G, ascending, rounding negatives clamped to 0 (G is PSD).
    const Eigen::VectorXd& eigenvalues() const { return eigenvalues_; }

private:
    Eigen::Tridiagonalization<Eigen::MatrixXd> tri_;
    Eigen::VectorXd diag_, sub_, eigenvalues_;
};

/// A solver of G, factorised with Eigen serial (the same bits at any thread count), and Q^T rhs in
/// its basis. G's storage is released once factorised: it is the largest matrix of a fit.
struct FactorisedSystem {
    std::shared_ptr<const ShiftedSolver> solver;
    Eigen::MatrixXd rhsInBasis;
};
FactorisedSystem factoriseShifted(Eigen::MatrixXd&& G, const Eigen::MatrixXd& rhs);

} // namespace orbit

#include "orbit/learn/ShiftedSolver.hpp"

#include "orbit/util/Error.hpp"

#include "util/Deterministic.hpp"

#include <string>

namespace orbit {

ShiftedSolver::ShiftedSolver(const Eigen::MatrixXd& G)
{
    if (G.rows() != G.cols())
        throw ContractError("ShiftedSolver", "matrix must be square, got " + std::to_string(G.rows()) + " x "
                                             + std::to_string(G.cols()));
    if (G.rows() == 0)
        throw ContractError("ShiftedSolver", "empty matrix");
    tri_.compute(G);
    diag_ = tri_.diagonal();
    sub_ = tri_.subDiagonal();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig;
    eig.computeFromTridiagonal(diag_, sub_, Eigen::EigenvaluesOnly);
    eigenvalues_ = eig.eigenvalues().cwiseMax(0.0);
}

Eigen::MatrixXd ShiftedSolver::toBasis(const Eigen::MatrixXd& B) const
{
    return tri_.matrixQ().adjoint() * B;
}

Eigen::MatrixXd ShiftedSolver::fromBasis(const Eigen::MatrixXd& Z) const
{
    return tri_.matrixQ() * Z;
}

Eigen::MatrixXd ShiftedSolver::solveInBasis(double shift, const Eigen::MatrixXd& Z) const
{
    // LDL^T of the tridiagonal T + sI: d_0 = a_0 + s, l_i = b_i / d_i, d_{i+1} = a_{i+1} + s - l_i b_i.
    const Eigen::Index m = size();
    Eigen::VectorXd d(m), l(m > 0 ? m - 1 : 0);
    d(0) = diag_(0) + shift;
    for (Eigen::Index i = 0; i + 1 < m; ++i) {
        if (!(d(i) > 0.0))
            break;
        l(i) = sub_(i) / d(i);
        d(i + 1) = diag_(i + 1) + shift - l(i) * sub_(i);
    }
    if (!(d.minCoeff() > 0.0))
        throw SpecError("shift", "G + s I is not positive definite (the regularisation is too small)",
                        std::to_string(shift));
    Eigen::MatrixXd X = Z;
    for (Eigen::Index i = 1; i < m; ++i)  // L y = z
        X.row(i) -= l(i - 1) * X.row(i - 1);
    X.array().colwise() /= d.array();     // D
    for (Eigen::Index i = m - 2; i >= 0; --i)  // L^T x = y
        X.row(i) -= l(i) * X.row(i + 1);
    return X;
}

Eigen::MatrixXd ShiftedSolver::timesT(const Eigen::MatrixXd& Z) const
{
    const Eigen::Index m = size();
    Eigen::MatrixXd out = Z.array().colwise() * diag_.array();
    for (Eigen::Index i = 0; i + 1 < m; ++i) {
        out.row(i) += sub_(i) * Z.row(i + 1);
        out.row(i + 1) += sub_(i) * Z.row(i);
    }
    return out;
}

FactorisedSystem factoriseShifted(Eigen::MatrixXd&& G, const Eigen::MatrixXd& rhs)
{
    FactorisedSystem f;
    detail::sequentialEigen([&] {
        auto solver = std::make_shared<ShiftedSolver>(G);
        G.resize(0, 0);
        f.rhsInBasis = solver->toBasis(rhs);
        f.solver = std::move(solver);
    });
    return f;
}

} // namespace orbit

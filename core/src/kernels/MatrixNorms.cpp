#include "orbit/kernels/MatrixNorms.hpp"

#include <Eigen/Eigenvalues>
#include <Spectra/MatOp/DenseSymMatProd.h>
#include <Spectra/SymEigsSolver.h>

#include <algorithm>
#include <cmath>

namespace orbit {

double spectralNorm(const Eigen::MatrixXd& A)
{
    const Eigen::Index n = A.rows();
    if (n == 0) return 0.0;
    if (n <= 8) return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A, Eigen::EigenvaluesOnly).eigenvalues().cwiseAbs().maxCoeff();
    Spectra::DenseSymMatProd<double> op(A);
    const Eigen::Index ncv = std::min<Eigen::Index>(n, 20);
    Spectra::SymEigsSolver<Spectra::DenseSymMatProd<double>> eigs(op, 1, ncv);
    eigs.init();
    eigs.compute(Spectra::SortRule::LargestMagn, 1000, 1e-10);
    if (eigs.info() != Spectra::CompInfo::Successful)
        return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A, Eigen::EigenvaluesOnly).eigenvalues().cwiseAbs().maxCoeff();
    return std::abs(eigs.eigenvalues()[0]);
}

} // namespace orbit

#pragma once
// Exact kernel ridge regression / Gaussian-process regression on a precomputed kernel matrix.
#include "orbit/learn/TargetCoding.hpp"

#include <Eigen/Core>

#include <vector>

namespace orbit {

/// Kernel ridge = GP posterior mean with noise variance lambda, on a precomputed (e.g. invariant)
/// kernel matrix K (N x N) of the training inputs:
///   alpha = (K + lambda I)^{-1} Y,   f(x*) = k(x*, X) alpha,
/// Y from TargetCoding (standardised targets for regression, one-vs-all +-1 columns for classes).
/// The GP log marginal likelihood of the (standardised) targets, summed over the C columns:
///   log p(Y) = sum_c [ -1/2 y_c^T (K + lambda I)^{-1} y_c ] - C/2 log|K + lambda I| - C N/2 log 2 pi.
///
/// Requires: K square, symmetric, finite, one row per target; lambda > 0. Cholesky of K + lambda I;
/// if that fails a jitter eps I is added (eps = 1e-10, 1e-9, ... times the mean diagonal, up to
/// 1e-2) and reported by jitter(); the log likelihood includes it. Intended for N up to a few
/// thousand (O(N^3)).
class KernelRidgeRegression {
public:
    explicit KernelRidgeRegression(double lambda = 1e-3);

    void fit(const Eigen::MatrixXd& K, const std::vector<double>& targets);
    void fit(const Eigen::MatrixXd& K, const std::vector<int>& labels, int numClasses);

    /// Kcross(i, j) = k(x*_i, x_j) against the N training inputs: M x C decision values.
    Eigen::MatrixXd decisionValues(const Eigen::MatrixXd& Kcross) const;
    std::vector<double> predictTargets(const Eigen::MatrixXd& Kcross) const;
    std::vector<int> predictClasses(const Eigen::MatrixXd& Kcross) const;

    bool fitted() const { return alpha_.size() > 0; }
    double lambda() const { return lambda_; }
    double jitter() const { return jitter_; }
    double logMarginalLikelihood() const { return logMarginal_; }
    const Eigen::MatrixXd& dualCoefficients() const { return alpha_; }  ///< N x C
    const TargetCoding& coding() const { return coding_; }

private:
    void fitEncoded(const Eigen::MatrixXd& K, const Eigen::MatrixXd& Y);

    double lambda_;
    double jitter_ = 0.0;
    double logMarginal_ = 0.0;
    TargetCoding coding_;
    Eigen::MatrixXd alpha_;
};

} // namespace orbit

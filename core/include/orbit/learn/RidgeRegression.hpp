#pragma once
// Regularised least squares (ridge regression) on feature matrices, single and many-lambda.
#include "orbit/data/Dataset.hpp"
#include "orbit/learn/LinearPredictor.hpp"
#include "orbit/learn/ShiftedSolver.hpp"
#include "orbit/learn/TargetCoding.hpp"

#include <Eigen/Core>

#include <memory>
#include <vector>

namespace orbit {

/// Which normal equations to solve: primal (D x D, X^T X) or dual (N x N, X X^T).
/// Auto picks the smaller one (primal when D <= N).
enum class RidgeForm { Auto, Primal, Dual };

/// Ridge regression: W = argmin ||Y - X W||_F^2 + lambda ||W||_F^2
///                     = (X^T X + lambda I)^{-1} X^T Y          (primal, D x D)
///                     = X^T (X X^T + lambda I)^{-1} Y          (dual,   N x N)
/// with Y from TargetCoding: one-vs-all +-1 columns for classes (prediction argmax_c (x W)_c) or the
/// standardised target (t - mean) / std for regression (prediction mean + std (x W)). No intercept
/// beyond the target mean; the objective is not divided by N.
///
/// Requires: lambda > 0 and finite; X finite, labels in [0, numClasses) or finite targets, one per
/// row. The normal equations are accumulated in double from the float32 rows and solved by
/// Cholesky. Guarantees: primal and dual give the same W (to rounding); deterministic bits at any
/// thread count.
class RidgeRegression : public LinearPredictor {
public:
    explicit RidgeRegression(double lambda = 1.0, RidgeForm form = RidgeForm::Auto);

    void fit(const MatrixXfR& X, const std::vector<int>& labels, int numClasses);
    void fit(const MatrixXfR& X, const std::vector<double>& targets);

    double lambda() const { return lambda_; }
    /// True when the last fit solved the dual (N x N) system.
    bool usedDual() const { return dual_; }
    /// A fitted model from weights computed elsewhere (RidgePath).
    static RidgeRegression fromWeights(double lambda, const TargetCoding& coding, Eigen::MatrixXd W, bool dual);

private:
    void fitEncoded(const MatrixXfR& X, const Eigen::MatrixXd& Y);

    double lambda_;
    RidgeForm form_;
    bool dual_ = false;
};

/// Ridge regression for many lambda at once: one factorisation of the Gram matrix G (X^T X or
/// X X^T, by RidgeForm), G = Q T Q^T (ShiftedSolver), then for each lambda
///   W(lambda) = Q (T + lambda I)^{-1} Q^T X^T Y           (primal)
///   W(lambda) = X^T Q (T + lambda I)^{-1} Q^T Y           (dual)
/// at O(m C) for the solve plus O(m^2 C) (primal) or O(N D C) (dual) for the back-transform.
///
/// Requires: as RidgeRegression. Guarantees: model(lambda) equals RidgeRegression(lambda).fit(...)
/// to rounding. In dual form the path keeps a copy of X (needed for X^T alpha).
class RidgePath {
public:
    RidgePath(const MatrixXfR& X, const std::vector<int>& labels, int numClasses, RidgeForm form = RidgeForm::Auto);
    RidgePath(const MatrixXfR& X, const std::vector<double>& targets, RidgeForm form = RidgeForm::Auto);

    Eigen::MatrixXd weights(double lambda) const;  ///< D x C
    RidgeRegression model(double lambda) const;
    /// All lambdas in one pass (one back-transform and, in dual form, one X^T product for all).
    std::vector<Eigen::MatrixXd> weights(const std::vector<double>& lambdas) const;
    std::vector<RidgeRegression> models(const std::vector<double>& lambdas) const;
    bool usesDual() const { return dual_; }
    const TargetCoding& coding() const { return coding_; }

private:
    void factorise(const MatrixXfR& X, const Eigen::MatrixXd& Y, RidgeForm form);

    TargetCoding coding_;
    bool dual_ = false;
    std::shared_ptr<const ShiftedSolver> solver_;
    Eigen::MatrixXd rhsInBasis_;  ///< Q^T X^T Y (primal) or Q^T Y (dual)
    MatrixXfR X_;                 ///< dual only
};

/// Throws SpecError("lambda", ...) unless lambda is finite and > 0.
void requirePositive(const char* field, double value);

} // namespace orbit

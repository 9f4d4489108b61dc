#include "orbit/learn/KernelRidgeRegression.hpp"

#include "orbit/linalg/Gram.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/util/Error.hpp"

#include "util/Deterministic.hpp"

#include <Eigen/Cholesky>

#include <cmath>
#include <numbers>
#include <string>

namespace orbit {
namespace {

void checkKernel(const Eigen::MatrixXd& K, std::size_t n)
{
    if (K.rows() != K.cols())
        throw ContractError("KernelRidgeRegression", "kernel matrix must be square, got " + std::to_string(K.rows()) +
                                                         " x " + std::to_string(K.cols()));
    requireSize("KernelRidgeRegression", "number of targets", static_cast<long long>(n), K.rows());
    if (K.rows() == 0)
        throw ContractError("KernelRidgeRegression", "empty kernel matrix");
    if (!K.allFinite())
        throw SpecError("kernel", "kernel matrix has non-finite entries");
    const double scale = K.cwiseAbs().maxCoeff();
    const double asym = (K - K.transpose()).cwiseAbs().maxCoeff();
    if (asym > 1e-8 * scale)
        throw SpecError("kernel", "kernel matrix is not symmetric (max |K - K^T|)", std::to_string(asym));
}

} // namespace

KernelRidgeRegression::KernelRidgeRegression(double lambda) : lambda_(lambda)
{
    requirePositive("lambda", lambda);
}

void KernelRidgeRegression::fit(const Eigen::MatrixXd& K, const std::vector<double>& targets)
{
    checkKernel(K, targets.size());
    coding_ = TargetCoding::regression(targets);
    fitEncoded(K, coding_.encode(targets));
}

void KernelRidgeRegression::fit(const Eigen::MatrixXd& K, const std::vector<int>& labels, int numClasses)
{
    checkKernel(K, labels.size());
    coding_ = TargetCoding::classes(numClasses);
    fitEncoded(K, coding_.encode(labels));
}

void KernelRidgeRegression::fitEncoded(const Eigen::MatrixXd& K, const Eigen::MatrixXd& Y)
{
    const double meanDiag = std::max(K.diagonal().mean(), 0.0) + lambda_;
    bool ok = false;
    detail::sequentialEigen([&] {
        Eigen::LLT<Eigen::MatrixXd> llt;
        for (double eps = 0.0; !ok && eps <= 1e-2 * meanDiag; eps = eps == 0.0 ? 1e-10 * meanDiag : eps * 10.0) {
            Eigen::MatrixXd A = K;
            A.diagonal().array() += lambda_ + eps;
            llt.compute(A);
            if (llt.info() == Eigen::Success && llt.matrixLLT().diagonal().minCoeff() > 0.0) {
                ok = true;
                jitter_ = eps;
            }
        }
        if (!ok)
            return;
        alpha_ = llt.solve(Y);
        const double N = static_cast<double>(K.rows()), C = static_cast<double>(Y.cols());
        const double logDet = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
        logMarginal_ = -0.5 * (Y.array() * alpha_.array()).sum() - 0.5 * C * logDet
                       - 0.5 * C * N * std::log(2.0 * std::numbers::pi);
    });
    if (!ok)
        throw SpecError("kernel", "K + lambda I is not positive definite even with jitter 1e-2 x mean diagonal",
                        std::to_string(lambda_));
}

Eigen::MatrixXd KernelRidgeRegression::decisionValues(const Eigen::MatrixXd& Kcross) const
{
    if (!fitted())
        throw ContractError("KernelRidgeRegression", "predict called before fit");
    requireSize("KernelRidgeRegression", "cross-kernel columns (training inputs)", Kcross.cols(), alpha_.rows());
    Eigen::MatrixXd F;
    detail::sequentialEigen([&] { F.noalias() = Kcross * alpha_; });
    return F;
}

std::vector<double> KernelRidgeRegression::predictTargets(const Eigen::MatrixXd& Kcross) const
{
    if (coding_.isClassification())
        throw ContractError("KernelRidgeRegression", "model was fitted to classes, not regression targets");
    return coding_.decode(decisionValues(Kcross));
}

std::vector<int> KernelRidgeRegression::predictClasses(const Eigen::MatrixXd& Kcross) const
{
    if (!coding_.isClassification())
        throw ContractError("KernelRidgeRegression", "model was fitted to regression targets, not classes");
    return TargetCoding::argmax(decisionValues(Kcross));
}

} // namespace orbit

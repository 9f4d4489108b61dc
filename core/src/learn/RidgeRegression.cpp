#include "orbit/learn/RidgeRegression.hpp"

#include "orbit/linalg/Gram.hpp"
#include "orbit/util/Error.hpp"

#include "util/Deterministic.hpp"

#include <Eigen/Cholesky>

#include <cmath>
#include <string>

namespace orbit {
namespace {

bool chooseDual(const MatrixXfR& X, RidgeForm form)
{
    if (form == RidgeForm::Auto)
        return X.cols() > X.rows();
    return form == RidgeForm::Dual;
}

void requireRows(const MatrixXfR& X, std::size_t n, const char* what)
{
    if (X.rows() == 0 || X.cols() == 0)
        throw SpecError("features", "empty feature matrix", std::to_string(X.rows()) + "x" + std::to_string(X.cols()));
    requireSize("RidgeRegression", what, static_cast<long long>(n), X.rows());
}

/// (G + lambda I)^{-1} B by Cholesky (sequential products: thread-count independent bits).
Eigen::MatrixXd solveShiftedCholesky(Eigen::MatrixXd G, double lambda, const Eigen::MatrixXd& B)
{
    G.diagonal().array() += lambda;
    Eigen::MatrixXd out;
    bool ok = true;
    detail::sequentialEigen([&] {
        Eigen::LLT<Eigen::MatrixXd> llt(G);
        ok = llt.info() == Eigen::Success;
        if (ok)
            out = llt.solve(B);
    });
    if (!ok)
        throw SpecError("lambda", "X^T X + lambda I is not positive definite (lambda too small)", std::to_string(lambda));
    return out;
}

} // namespace

void requirePositive(const char* field, double value)
{
    if (!std::isfinite(value) || !(value > 0.0))
        throw SpecError(field, "must be a finite number > 0", std::to_string(value));
}

RidgeRegression::RidgeRegression(double lambda, RidgeForm form)
    : LinearPredictor("RidgeRegression"), lambda_(lambda), form_(form)
{
    requirePositive("lambda", lambda);
}

void RidgeRegression::fit(const MatrixXfR& X, const std::vector<int>& labels, int numClasses)
{
    requireRows(X, labels.size(), "number of labels");
    coding_ = TargetCoding::classes(numClasses);
    fitEncoded(X, coding_.encode(labels));
}

void RidgeRegression::fit(const MatrixXfR& X, const std::vector<double>& targets)
{
    requireRows(X, targets.size(), "number of targets");
    coding_ = TargetCoding::regression(targets);
    fitEncoded(X, coding_.encode(targets));
}

void RidgeRegression::fitEncoded(const MatrixXfR& X, const Eigen::MatrixXd& Y)
{
    dual_ = chooseDual(X, form_);
    if (dual_)
        W_ = transposeTimes(X, solveShiftedCholesky(gramOfRows(X), lambda_, Y));
    else
        W_ = solveShiftedCholesky(gramOfColumns(X), lambda_, transposeTimes(X, Y));
}

RidgeRegression RidgeRegression::fromWeights(double lambda, const TargetCoding& coding, Eigen::MatrixXd W, bool dual)
{
    RidgeRegression r(lambda, dual ? RidgeForm::Dual : RidgeForm::Primal);
    r.coding_ = coding;
    r.W_ = std::move(W);
    r.dual_ = dual;
    return r;
}

RidgePath::RidgePath(const MatrixXfR& X, const std::vector<int>& labels, int numClasses, RidgeForm form)
{
    requireRows(X, labels.size(), "number of labels");
    coding_ = TargetCoding::classes(numClasses);
    factorise(X, coding_.encode(labels), form);
}

RidgePath::RidgePath(const MatrixXfR& X, const std::vector<double>& targets, RidgeForm form)
{
    requireRows(X, targets.size(), "number of targets");
    coding_ = TargetCoding::regression(targets);
    factorise(X, coding_.encode(targets), form);
}

void RidgePath::factorise(const MatrixXfR& X, const Eigen::MatrixXd& Y, RidgeForm form)
{
    dual_ = chooseDual(X, form);
    const Eigen::MatrixXd rhs = dual_ ? Y : transposeTimes(X, Y);
    FactorisedSystem f = factoriseShifted(dual_ ? gramOfRows(X) : gramOfColumns(X), rhs);
    solver_ = std::move(f.solver);
    rhsInBasis_ = std::move(f.rhsInBasis);
    if (dual_)
        X_ = X;
}

Eigen::MatrixXd RidgePath::weights(double lambda) const
{
    return weights(std::vector<double>{lambda}).front();
}

RidgeRegression RidgePath::model(double lambda) const
{
    return RidgeRegression::fromWeights(lambda, coding_, weights(lambda), dual_);
}

std::vector<Eigen::MatrixXd> RidgePath::weights(const std::vector<double>& lambdas) const
{
    for (double lambda : lambdas)
        requirePositive("lambda", lambda);
    const Eigen::Index C = rhsInBasis_.cols(), L = static_cast<Eigen::Index>(lambdas.size());
    Eigen::MatrixXd all(rhsInBasis_.rows(), C * L);
    detail::sequentialEigen([&] {
        for (Eigen::Index l = 0; l < L; ++l)
            all.middleCols(l * C, C) = solver_->solveInBasis(lambdas[static_cast<std::size_t>(l)], rhsInBasis_);
        all = solver_->fromBasis(all);
    });
    if (dual_)
        all = transposeTimes(X_, all);
    std::vector<Eigen::MatrixXd> out;
    for (Eigen::Index l = 0; l < L; ++l)
        out.emplace_back(all.middleCols(l * C, C));
    return out;
}

std::vector<RidgeRegression> RidgePath::models(const std::vector<double>& lambdas) const
{
    std::vector<Eigen::MatrixXd> W = weights(lambdas);
    std::vector<RidgeRegression> out;
    for (std::size_t l = 0; l < lambdas.size(); ++l)
        out.push_back(RidgeRegression::fromWeights(lambdas[l], coding_, std::move(W[l]), dual_));
    return out;
}

} // namespace orbit

#include "orbit/learn/BayesianLinearRegression.hpp"

#include "orbit/linalg/Gram.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/util/Error.hpp"

#include "util/Deterministic.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace orbit {

namespace {

/// The lower triangle of (L L^T)^{-1} from the Cholesky factor L (lower triangle read): L^{-1} by
/// 64-column tiles (each solving its trailing triangle for its unit vectors), then the tiles of
/// L^{-T} L^{-1} (column tile J, rows from its first: the trailing triangle's transpose times the
/// tile). Each tile on one thread with a sequential product, so the bits do not depend on the
/// number of threads. About D^3 / 3 flops each.
Eigen::MatrixXd inverseFromFactor(const Eigen::MatrixXd& L)
{
    constexpr Eigen::Index kColumns = 64;
    const Eigen::Index D = L.rows(), tiles = (D + kColumns - 1) / kColumns;
    Eigen::MatrixXd Linv = Eigen::MatrixXd::Zero(D, D), inverse = Eigen::MatrixXd::Zero(D, D);
    detail::forEachBlock(std::size_t(tiles), 1, [&](std::size_t b, std::size_t) {
        const Eigen::Index j0 = Eigen::Index(b) * kColumns, w = std::min(kColumns, D - j0), m = D - j0;
        Eigen::MatrixXd E = Eigen::MatrixXd::Identity(m, w);
        L.block(j0, j0, m, m).triangularView<Eigen::Lower>().solveInPlace(E);
        Linv.block(j0, j0, m, w) = E;
    });
    detail::forEachBlock(std::size_t(tiles), 1, [&](std::size_t b, std::size_t) {
        const Eigen::Index j0 = Eigen::Index(b) * kColumns, w = std::min(kColumns, D - j0), m = D - j0;
        inverse.block(j0, j0, m, w).noalias() =
            Linv.block(j0, j0, m, m).triangularView<Eigen::Lower>().transpose() * Linv.block(j0, j0, m, w);
    });
    return inverse;
}

} // namespace

LinearEvidence::LinearEvidence(const MatrixXfR& Phi, const Eigen::MatrixXd& T) { build(Phi, T); }
LinearEvidence::LinearEvidence(const MatrixXdR& Phi, const Eigen::MatrixXd& T) { build(Phi, T); }

template <class M>
void LinearEvidence::build(const M& Phi, const Eigen::MatrixXd& T)
{
    N_ = Phi.rows();
    D_ = Phi.cols();
    C_ = T.cols();
    if (N_ == 0 || D_ == 0)
        throw SpecError("features", "empty feature matrix");
    requireSize("BayesianLinearRegression", "number of targets", T.rows(), N_);
    dual_ = N_ < D_;
    const Eigen::MatrixXd rhs = dual_ ? T : transposeTimes(Phi, T);
    adopt(factoriseShifted(dual_ ? gramOfRows(Phi) : gramOfColumns(Phi), rhs));
    sumT2_ = T.squaredNorm();
    columnT2_ = T.colwise().squaredNorm().transpose();
}

LinearEvidence::LinearEvidence(NormalEquations normal, double sumT2)
{
    N_ = normal.samples;
    D_ = normal.G.rows();
    C_ = normal.B.cols();
    if (N_ == 0 || D_ == 0) throw SpecError("features", "empty feature matrix");
    requireSize("LinearEvidence", "columns of G", normal.G.cols(), D_);
    requireSize("LinearEvidence", "rows of B", normal.B.rows(), D_);
    dual_ = false;
    adopt(factoriseShifted(std::move(normal.G), normal.B));
    sumT2_ = sumT2;
}

LinearEvidence::LinearEvidence(NormalEquations normal, const Eigen::VectorXd& columnT2)
    : LinearEvidence(std::move(normal), columnT2.sum())
{
    requireSize("LinearEvidence", "column norms", columnT2.size(), C_);
    columnT2_ = columnT2;
}

LinearEvidence LinearEvidence::column(Eigen::Index c) const
{
    if (columnT2_.size() != C_) throw ContractError("LinearEvidence::column", "built without the columns' norms");
    if (c < 0 || c >= C_) throw ContractError("LinearEvidence::column", "column " + std::to_string(c) + " of " + std::to_string(C_));
    LinearEvidence one = *this;
    one.C_ = 1;
    one.Z_ = Z_.col(c);
    one.sumT2_ = columnT2_(c);
    one.columnT2_ = columnT2_.segment(c, 1);
    return one;
}

void LinearEvidence::adopt(FactorisedSystem f)
{
    solver_ = std::move(f.solver);
    Z_ = std::move(f.rhsInBasis);
}

LinearEvidence::Terms LinearEvidence::terms(double alpha, double beta) const
{
    requirePositive("alpha", alpha);
    requirePositive("beta", beta);
    Terms t;
    const double shift = alpha / beta;
    const Eigen::MatrixXd S = solver_->solveInBasis(shift, Z_);
    const Eigen::MatrixXd TS = solver_->timesT(S);
    if (dual_) {  // m = Phi^T a, a = Q S:  ||m||^2 = S^T T S,  Phi m = K a  ->  ||t - K a|| = ||Z - T S||
        t.sumM2 = (S.array() * TS.array()).sum();
        t.sumRes = (Z_ - TS).squaredNorm() + std::max(0.0, sumT2_ - Z_.squaredNorm());
    } else {      // m = Q S:  ||t - Phi m||^2 = t^T t - 2 m^T Phi^T t + m^T G m
        t.sumM2 = S.squaredNorm();
        t.sumRes = sumT2_ - 2.0 * (S.array() * Z_.array()).sum() + (S.array() * TS.array()).sum();
    }
    t.sumRes = std::max(t.sumRes, 1e-300);
    const Eigen::ArrayXd lam = solver_->eigenvalues().array();
    t.logDetA = (alpha + beta * lam).log().sum() + static_cast<double>(D_ - lam.size()) * std::log(alpha);
    t.gamma = (beta * lam / (alpha + beta * lam)).sum();
    return t;
}

double LinearEvidence::logEvidence(double alpha, double beta) const
{
    const Terms t = terms(alpha, beta);
    const double N = static_cast<double>(N_), D = static_cast<double>(D_), C = static_cast<double>(C_);
    return C * (0.5 * D * std::log(alpha) + 0.5 * N * std::log(beta) - 0.5 * t.logDetA
                - 0.5 * N * std::log(2.0 * std::numbers::pi))
           - 0.5 * beta * t.sumRes - 0.5 * alpha * t.sumM2;
}

double LinearEvidence::effectiveParameters(double alpha, double beta) const
{
    return terms(alpha, beta).gamma;
}

Eigen::MatrixXd LinearEvidence::posteriorMean(double alpha, double beta, const MatrixXfR& Phi) const { return meanOf(alpha, beta, Phi); }
Eigen::MatrixXd LinearEvidence::posteriorMean(double alpha, double beta, const MatrixXdR& Phi) const { return meanOf(alpha, beta, Phi); }

template <class M>
Eigen::MatrixXd LinearEvidence::meanOf(double alpha, double beta, const M& Phi) const
{
    requireSize("BayesianLinearRegression", "rows of Phi", Phi.rows(), N_);
    requireSize("BayesianLinearRegression", "columns of Phi", Phi.cols(), D_);
    const Eigen::MatrixXd v = inBasisSolution(alpha, beta);
    return dual_ ? transposeTimes(Phi, v) : v;
}

Eigen::MatrixXd LinearEvidence::posteriorMean(double alpha, double beta) const
{
    if (dual_) throw ContractError("LinearEvidence::posteriorMean", "the dual form needs the features");
    return inBasisSolution(alpha, beta);
}

Eigen::MatrixXd LinearEvidence::inBasisSolution(double alpha, double beta) const
{
    requirePositive("alpha", alpha);
    requirePositive("beta", beta);
    Eigen::MatrixXd v;
    detail::sequentialEigen([&] { v = solver_->fromBasis(solver_->solveInBasis(alpha / beta, Z_)); });
    return v;
}

Eigen::MatrixXd LinearEvidence::featureGradient(double alpha, double beta, const MatrixXfR& Phi, const Eigen::MatrixXd& T) const
{
    return gradientOf(alpha, beta, Phi, T);
}
Eigen::MatrixXd LinearEvidence::featureGradient(double alpha, double beta, const MatrixXdR& Phi, const Eigen::MatrixXd& T) const
{
    return gradientOf(alpha, beta, Phi, T);
}

template <class Features>
Eigen::MatrixXd LinearEvidence::gradientOf(double alpha, double beta, const Features& Phi, const Eigen::MatrixXd& T) const
{
    requireSize("BayesianLinearRegression", "rows of Phi", Phi.rows(), N_);
    requireSize("BayesianLinearRegression", "columns of Phi", Phi.cols(), D_);
    requireSize("BayesianLinearRegression", "rows of the targets", T.rows(), N_);
    requireSize("BayesianLinearRegression", "target columns", T.cols(), C_);
    requirePositive("alpha", alpha);
    requirePositive("beta", beta);
    const Eigen::MatrixXd M = posteriorMean(alpha, beta, Phi);  // D x C
    return gradientGiven(alpha, beta, M, Phi.template cast<double>(), T);
}

std::vector<double> LinearEvidence::gradientFromSums(double alpha, double beta, const Eigen::MatrixXd& G,
                                                     const std::vector<double>& residualTerms,
                                                     const std::vector<Eigen::MatrixXd>& H) const
{
    if (dual_) throw ContractError("LinearEvidence::gradientFromSums", "the dual form needs all rows of the features");
    requireSize("LinearEvidence::gradientFromSums", "rows of G", G.rows(), D_);
    requireSize("LinearEvidence::gradientFromSums", "columns of G", G.cols(), D_);
    requireSize("LinearEvidence::gradientFromSums", "residual terms", static_cast<long long>(residualTerms.size()),
                static_cast<long long>(H.size()));
    requirePositive("alpha", alpha);
    requirePositive("beta", beta);
    std::vector<double> gradient;
    if (H.empty()) return gradient;
    // tr(A'^{-1} H) = sum_ij (A'^{-1})_ij H_ij, A' = G + shift I symmetric: its inverse's lower triangle.
    Eigen::MatrixXd shifted = G;
    shifted.diagonal().array() += alpha / beta;
    if (!choleskyInPlace(shifted))
        throw SpecError("shift", "G + shift I is not positive definite", std::to_string(alpha / beta));
    const Eigen::MatrixXd inverse = inverseFromFactor(shifted);
    const double C = static_cast<double>(C_);
    for (std::size_t m = 0; m < H.size(); ++m) {
        requireSize("LinearEvidence::gradientFromSums", "rows of H", H[m].rows(), D_);
        requireSize("LinearEvidence::gradientFromSums", "columns of H", H[m].cols(), D_);
        double trace = 0.0;  // the lower triangle of the inverse against H and H^T
        for (Eigen::Index j = 0; j < D_; ++j) {
            trace += inverse(j, j) * H[m](j, j);
            for (Eigen::Index i = j + 1; i < D_; ++i) trace += inverse(i, j) * (H[m](i, j) + H[m](j, i));
        }
        gradient.push_back(beta * residualTerms[m] - C * trace);
    }
    return gradient;
}

Eigen::MatrixXd LinearEvidence::gradientGiven(double alpha, double beta, const Eigen::MatrixXd& M, const Eigen::MatrixXd& P,
                                              const Eigen::MatrixXd& T) const
{
    const double shift = alpha / beta, C = static_cast<double>(C_);
    Eigen::MatrixXd G;
    detail::sequentialEigen([&] {
        // beta Phi A^{-1} = Phi (Phi^T Phi + shift I)^{-1} = (Phi Phi^T + shift I)^{-1} Phi.
        const Eigen::MatrixXd betaPhiAinv = dual_ ? solver_->solve(shift, P) : Eigen::MatrixXd(solver_->solve(shift, P.transpose()).transpose());
        G.noalias() = beta * (T - P * M) * M.transpose();
        G.noalias() -= C * betaPhiAinv;
    });
    return G;
}

LinearEvidence::Optimum LinearEvidence::maximise(double alpha0, double beta0, int maxIterations, double tolerance) const
{
    requirePositive("alpha", alpha0);
    requirePositive("beta", beta0);
    Optimum o;
    double alpha = alpha0, beta = beta0;
    const double N = static_cast<double>(N_), C = static_cast<double>(C_);
    for (int it = 1; it <= maxIterations; ++it) {
        const Terms t = terms(alpha, beta);
        // Keep both precisions within a range where the shifted systems stay well defined.
        const double newAlpha = std::clamp(C * std::max(t.gamma, 1e-12) / std::max(t.sumM2, 1e-300), 1e-12, 1e12);
        const double newBeta = std::clamp(C * std::max(N - t.gamma, 1e-12) / t.sumRes, 1e-12, 1e12);
        const double change = std::max(std::abs(std::log(newAlpha / alpha)), std::abs(std::log(newBeta / beta)));
        alpha = newAlpha;
        beta = newBeta;
        o.iterations = it;
        if (change < tolerance) {
            o.converged = true;
            break;
        }
    }
    o.alpha = alpha;
    o.beta = beta;
    o.logEvidence = logEvidence(alpha, beta);
    o.gamma = effectiveParameters(alpha, beta);
    return o;
}

BayesianLinearRegression::BayesianLinearRegression() : BayesianLinearRegression(Options{}) {}

BayesianLinearRegression::BayesianLinearRegression(Options options)
    : LinearPredictor("BayesianLinearRegression"), options_(options)
{
    requirePositive("alpha", options.alpha);
    requirePositive("beta", options.beta);
    requirePositive("tolerance", options.tolerance);
    if (options.maxIterations < 1)
        throw SpecError("learner blr.max-iterations", "must be >= 1", std::to_string(options.maxIterations));
}

void BayesianLinearRegression::fit(const MatrixXfR& Phi, const std::vector<double>& targets)
{
    requireSize("BayesianLinearRegression", "number of targets", static_cast<long long>(targets.size()), Phi.rows());
    coding_ = TargetCoding::regression(targets, options_.standardizeTargets);
    fitEncoded(Phi, coding_.encode(targets));
}

void BayesianLinearRegression::fit(const MatrixXfR& Phi, const std::vector<int>& labels, int numClasses)
{
    requireSize("BayesianLinearRegression", "number of labels", static_cast<long long>(labels.size()), Phi.rows());
    coding_ = TargetCoding::classes(numClasses, TargetCoding::Kind::OneHot);
    fitEncoded(Phi, coding_.encode(labels));
}

void BayesianLinearRegression::fit(NormalEquations normal, double sumT2, TargetCoding coding)
{
    requireSize("BayesianLinearRegression", "target columns", normal.B.cols(), coding.outputs());
    coding_ = std::move(coding);
    const LinearEvidence evidence(std::move(normal), sumT2);
    W_ = adoptOptimum(evidence, [&](double alpha, double beta) { return evidence.posteriorMean(alpha, beta); });
}

void BayesianLinearRegression::fitEncoded(const MatrixXfR& Phi, const Eigen::MatrixXd& T)
{
    const LinearEvidence evidence(Phi, T);
    W_ = adoptOptimum(evidence, [&](double alpha, double beta) { return evidence.posteriorMean(alpha, beta, Phi); });
}

Eigen::MatrixXd BayesianLinearRegression::adoptOptimum(
    const LinearEvidence& evidence, const std::function<Eigen::MatrixXd(double, double)>& posteriorMean)
{
    if (options_.optimise) {
        const LinearEvidence::Optimum o = evidence.maximise(options_.alpha, options_.beta, options_.maxIterations,
                                                            options_.tolerance);
        alpha_ = o.alpha;
        beta_ = o.beta;
        iterations_ = o.iterations;
        converged_ = o.converged;
    } else {
        alpha_ = options_.alpha;
        beta_ = options_.beta;
        iterations_ = 0;
        converged_ = true;
    }
    logEvidence_ = evidence.logEvidence(alpha_, beta_);
    gamma_ = evidence.effectiveParameters(alpha_, beta_);
    return posteriorMean(alpha_, beta_);
}

} // namespace orbit

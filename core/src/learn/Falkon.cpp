#include "orbit/learn/Falkon.hpp"

#include "orbit/linalg/Gemm.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "util/Deterministic.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace orbit {

namespace {

/// Columns of the T T^T product per tile: a fixed partition (the same bits at any thread count).
constexpr std::size_t kFalkonTile = 256;

/// How many blocks of `block` rows cover n.
Eigen::Index falkonBlocks(Eigen::Index n, Eigen::Index block) { return (n + block - 1) / block; }

/// The block of K_nm of rows [b0, b0 + w), checked for its shape.
void falkonBlock(const KernelRows& knm, Eigen::Index b0, Eigen::Index w, Eigen::Index m, Eigen::MatrixXf& block)
{
    knm(b0, b0 + w, block);
    if (block.rows() != w || block.cols() != m)
        throw ContractError("FalkonSolver", "a kernel block of " + std::to_string(block.rows()) + " x " +
                                                std::to_string(block.cols()) + ", not " + std::to_string(w) + " x " +
                                                std::to_string(m));
}

/// K_b^T (K_b W + V_b) of one block on the calling thread (Wt = W^T, c x m), by the library's
/// products (orbit/linalg/Gemm.hpp: the BLAS's dgemm, one thread per call).
Eigen::MatrixXd falkonBlockProduct(const Eigen::MatrixXf& Kb, const Eigen::MatrixXd* Wt, const Eigen::MatrixXd* V,
                                   Eigen::Index b0, Eigen::Index c)
{
    const Eigen::Index w = Kb.rows(), m = Kb.cols();
    Eigen::MatrixXd inner = V ? Eigen::MatrixXd(V->middleRows(b0, w)) : Eigen::MatrixXd::Zero(w, c);
    const Eigen::MatrixXd K = Kb.cast<double>();
    if (Wt) gemmABt(K, *Wt, inner, 1.0, 1.0);
    Eigen::MatrixXd out(m, c);
    gemmAtB(K, inner, out);
    return out;
}

} // namespace

FalkonSolver::FalkonSolver(const Eigen::MatrixXd& Kmm, Eigen::Index n, KernelRows knm, const FalkonOptions& options,
                           const Progress& progress)
    : n_(n), m_(Kmm.rows()), knm_(std::move(knm)), options_(options)
{
    if (Kmm.rows() != Kmm.cols() || m_ < 1 || n < 1)
        throw ContractError("FalkonSolver", "K_mm of " + std::to_string(Kmm.rows()) + " x " + std::to_string(Kmm.cols()) +
                                                " for " + std::to_string(n) + " rows");
    if (options_.blockRows < 1 || options_.maxIterations < 1 || !(options_.tolerance > 0))
        throw ContractError("FalkonSolver", "block rows, iterations and tolerance must be positive");
    // T = chol(K_mm + eps I): the paper's eps m (machine precision) grown until the factor exists.
    const double meanDiagonal = std::max(Kmm.diagonal().mean(), std::numeric_limits<double>::min());
    bool ok = false;
    for (double rel = 1e-14 * double(m_); rel <= 1e-2 * (1 + 1e-9); rel *= 10.0) {
        L_ = Kmm;
        eps_ = rel * meanDiagonal;
        L_.diagonal().array() += eps_;
        if ((ok = choleskyInPlace(L_))) break;
    }
    if (!ok)
        throw SpecError("kernel", "the kernel of the " + std::to_string(m_) +
                                      " centres has no Cholesky factor even with jitter 1e-2 times its mean diagonal",
                        formatNumber(meanDiagonal));
    L_.triangularView<Eigen::StrictlyUpper>().setZero();
    // T T^T / m = L^T L / m = U U^T (U = L^T), in fixed column tiles.
    const Eigen::MatrixXd U = L_.transpose();
    TTt_.resize(m_, m_);
    detail::forEachBlock(std::size_t(m_), kFalkonTile, [&](std::size_t j0, std::size_t j1) {
        const Eigen::Index w = Eigen::Index(j1 - j0);
        gemmABt(U, U.middleRows(Eigen::Index(j0), w), TTt_.middleCols(Eigen::Index(j0), w));
    });
    TTt_ /= double(m_);
    if (cacheBytesFor(double(n_), double(m_)) <= options_.cacheBytes) {
        const Eigen::Index blocks = falkonBlocks(n_, options_.blockRows);
        cache_.resize(std::size_t(blocks));
        for (Eigen::Index b = 0; b < blocks; ++b) {
            reportProgress(progress, double(b) / double(blocks), "kernel of the rows and the centres");
            const Eigen::Index b0 = b * options_.blockRows, w = std::min(options_.blockRows, n_ - b0);
            falkonBlock(knm_, b0, w, m_, cache_[std::size_t(b)]);
        }
    }
}

Eigen::MatrixXd FalkonSolver::pass(const Eigen::MatrixXd* W, const Eigen::MatrixXd* V, Eigen::Index c) const
{
    const Eigen::Index blocks = falkonBlocks(n_, options_.blockRows);
    std::vector<Eigen::MatrixXd> parts(static_cast<std::size_t>(blocks));
    const Eigen::MatrixXd Wt = W ? Eigen::MatrixXd(W->transpose()) : Eigen::MatrixXd();
    if (W) W = &Wt;  // the blocks take W transposed
    if (cached()) {
        detail::forEachBlock(std::size_t(blocks), 1, [&](std::size_t b, std::size_t) {
            parts[b] = falkonBlockProduct(cache_[b], W, V, Eigen::Index(b) * options_.blockRows, c);
        });
    } else {
        Eigen::MatrixXf Kb;
        for (Eigen::Index b = 0; b < blocks; ++b) {
            const Eigen::Index b0 = b * options_.blockRows, w = std::min(options_.blockRows, n_ - b0);
            falkonBlock(knm_, b0, w, m_, Kb);
            detail::sequentialEigen([&] { parts[std::size_t(b)] = falkonBlockProduct(Kb, W, V, b0, c); });
        }
    }
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(m_, c);
    for (const Eigen::MatrixXd& p : parts) sum += p;
    return sum;
}

FalkonFit FalkonSolver::solve(const Eigen::MatrixXd& Y, double lambda, const Progress& progress) const
{
    if (Y.rows() != n_ || Y.cols() < 1)
        throw ContractError("FalkonSolver::solve", std::to_string(Y.rows()) + " x " + std::to_string(Y.cols()) +
                                                       " targets for " + std::to_string(n_) + " rows");
    if (!(lambda > 0) || !std::isfinite(lambda))
        throw SpecError("lambda", "FALKON needs a positive lambda", formatNumber(lambda));
    const Eigen::Index c = Y.cols();
    const double n = double(n_);
    FalkonFit fit;
    // A = chol(T T^T / m + lambda I): lower LA with LA LA^T = T T^T / m + lambda I (A = LA^T).
    Eigen::MatrixXd LA = TTt_;
    LA.diagonal().array() += lambda;
    if (!choleskyInPlace(LA))
        throw SpecError("lambda", "the FALKON preconditioner T T^T / m + lambda I has no Cholesky factor",
                        formatNumber(lambda));
    LA.triangularView<Eigen::StrictlyUpper>().setZero();
    // Solves with the lower factors and their transposes (T^-1 = L^-T, A^-1 = LA^-T).
    const Eigen::MatrixXd& Lm = L_;
    auto lower = [](const Eigen::MatrixXd& F, const Eigen::MatrixXd& X) -> Eigen::MatrixXd {
        return F.triangularView<Eigen::Lower>().solve(X);
    };
    auto upper = [](const Eigen::MatrixXd& F, const Eigen::MatrixXd& X) -> Eigen::MatrixXd {
        return F.transpose().triangularView<Eigen::Upper>().solve(X);
    };
    // B u = T^-1 A^-1 u (the 1/sqrt(n) of B is folded into the operator and the right-hand side, as in
    // the paper): T^-1 = L^-T, A^-1 = LA^-T.
    auto precondition = [&](const Eigen::MatrixXd& U) {
        Eigen::MatrixXd v;
        detail::sequentialEigen([&] { v = upper(Lm, upper(LA, U)); });
        return v;
    };
    // B^T H B u = A^-T (T^-T K^T K T^-1 A^-1 u / n + lambda A^-1 u).
    auto op = [&](const Eigen::MatrixXd& U) {
        Eigen::MatrixXd Au, W;
        detail::sequentialEigen([&] {
            Au = upper(LA, U);
            W = upper(Lm, Au);
        });
        const Eigen::MatrixXd Z = pass(&W, nullptr, c);
        Eigen::MatrixXd out;
        detail::sequentialEigen([&] { out = lower(LA, lower(Lm, Z) / n + lambda * Au); });
        return out;
    };
    Eigen::MatrixXd Rr;
    {
        const Eigen::MatrixXd KtY = pass(nullptr, &Y, c);
        detail::sequentialEigen([&] { Rr = lower(LA, lower(Lm, KtY)) / n; });
    }
    Eigen::MatrixXd beta = Eigen::MatrixXd::Zero(m_, c), P = Rr;
    Eigen::VectorXd rs = Rr.colwise().squaredNorm().transpose();
    const Eigen::VectorXd rs0 = rs;
    std::vector<bool> done(std::size_t(c), false);
    auto relative = [&](Eigen::Index j) { return rs0[j] > 0 ? std::sqrt(rs[j] / rs0[j]) : 0.0; };
    auto allDone = [&] {
        bool all = true;
        for (Eigen::Index j = 0; j < c; ++j) {
            if (!done[std::size_t(j)] && relative(j) <= options_.tolerance) {
                done[std::size_t(j)] = true;
                P.col(j).setZero();
            }
            all = all && done[std::size_t(j)];
        }
        return all;
    };
    while (!allDone() && fit.iterations < options_.maxIterations) {
        reportProgress(progress, double(fit.iterations) / double(options_.maxIterations),
                       "conjugate gradients, iteration " + std::to_string(fit.iterations + 1));
        const Eigen::MatrixXd AP = op(P);
        ++fit.iterations;
        for (Eigen::Index j = 0; j < c; ++j) {
            if (done[std::size_t(j)]) continue;
            const double pAp = P.col(j).dot(AP.col(j));
            if (!(pAp > 0)) {  // the direction vanished (round-off): this column is as good as it gets
                done[std::size_t(j)] = true;
                P.col(j).setZero();
                continue;
            }
            const double step = rs[j] / pAp;
            beta.col(j) += step * P.col(j);
            Rr.col(j) -= step * AP.col(j);
            const double next = Rr.col(j).squaredNorm();
            P.col(j) = Rr.col(j) + (next / rs[j]) * P.col(j);
            rs[j] = next;
        }
    }
    fit.converged = true;
    for (Eigen::Index j = 0; j < c; ++j) {
        fit.residual = std::max(fit.residual, relative(j));
        fit.converged = fit.converged && relative(j) <= options_.tolerance;
    }
    fit.alpha = precondition(beta);
    return fit;
}

Eigen::MatrixXd falkonPredict(Eigen::Index rows, const KernelRows& kxm, const Eigen::MatrixXd& alpha, Eigen::Index blockRows)
{
    if (blockRows < 1) throw ContractError("falkonPredict", "block rows must be positive");
    Eigen::MatrixXd F(rows, alpha.cols());
    const Eigen::MatrixXd alphaT = alpha.transpose();
    Eigen::MatrixXf Kb;
    for (Eigen::Index b0 = 0; b0 < rows; b0 += blockRows) {
        const Eigen::Index w = std::min(blockRows, rows - b0);
        falkonBlock(kxm, b0, w, alpha.rows(), Kb);
        detail::sequentialEigen([&] {
            const Eigen::MatrixXd K = Kb.cast<double>();
            gemmABt(K, alphaT, F.middleRows(b0, w));
        });
    }
    return F;
}

} // namespace orbit

#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/linalg/Gemm.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include "util/Deterministic.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

namespace orbit {
namespace {

constexpr Eigen::Index kPanel = 256;
constexpr long long kPollTiles = 48;  // trailing-update tiles between two polls (~0.8e9 multiply-adds)

} // namespace

bool choleskyInPlace(Eigen::MatrixXd& A) { return choleskyInPlace(A, {}); }

bool choleskyInPlace(Eigen::MatrixXd& A, const Progress& progress)
{
    if (A.rows() != A.cols())
        throw ContractError("choleskyInPlace", "the matrix is " + std::to_string(A.rows()) + " x " + std::to_string(A.cols()) + ", not square");
    const Eigen::Index n = A.rows();
    bool ok = true;
    std::exception_ptr stopped;  // what `progress` threw: no exception may leave the parallel region
    std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
    // One parallel region for the whole factorisation (a region per step costs more than small
    // steps on a busy machine). Eigen runs its products single-threaded inside, whatever the team's
    // size (one thread when panels share the cores: util/ComputeBudget.hpp): the same bits for any count.
    const detail::SerialEigen serial;
#pragma omp parallel num_threads(orbit::teamSize())
    {
        for (Eigen::Index k0 = 0; k0 < n; k0 += kPanel) {
            const Eigen::Index kb = std::min(kPanel, n - k0);
            const Eigen::Index r0 = k0 + kb, m = n - r0;
            const Eigen::Index tiles = (m + kPanel - 1) / kPanel;
#pragma omp single
            {
                if (progress && !stopped) {
                    try {
                        reportProgress(progress, double(k0) / double(n), "Cholesky factor");
                    } catch (...) {
                        stopped = std::current_exception();
                    }
                }
                Eigen::Ref<Eigen::MatrixXd> d = A.block(k0, k0, kb, kb);
                Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(d);  // in place: lower triangle of d <- L11
                ok = llt.info() == Eigen::Success && !stopped;
                pairs.clear();
                for (Eigen::Index I = 0; I < tiles; ++I)
                    for (Eigen::Index J = 0; J <= I; ++J) pairs.emplace_back(I, J);
            }
            if (!ok || m == 0) break;  // every thread sees the same flag after the barrier
            // Panel: L21 = A21 L11^{-T}, row tile by row tile.
#pragma omp for schedule(dynamic)
            for (long long t = 0; t < static_cast<long long>(tiles); ++t) {
                const Eigen::Index i0 = r0 + t * kPanel, h = std::min(kPanel, n - i0);
                solveRightLowerTransposed(A.block(k0, k0, kb, kb), A.block(i0, k0, h, kb));
            }
            // Trailing lower triangle: A22 -= L21 L21^T, one output tile per task, in groups of
            // tiles with a poll between groups (every tile is computed the same way in any group).
            const long long count = static_cast<long long>(pairs.size());
            const long long group = progress ? kPollTiles : std::max(1LL, count);  // no poll: one loop, as before
            for (long long g0 = 0; g0 < count; g0 += group) {
                const long long g1 = std::min(count, g0 + group);
#pragma omp for schedule(dynamic)
                for (long long p = g0; p < g1; ++p) {
                    const Eigen::Index i0 = r0 + pairs[p].first * kPanel, j0 = r0 + pairs[p].second * kPanel;
                    const Eigen::Index hi = std::min(kPanel, n - i0), hj = std::min(kPanel, n - j0);
                    gemmABt(A.block(i0, k0, hi, kb), A.block(j0, k0, hj, kb), A.block(i0, j0, hi, hj), -1.0, 1.0);
                }
                if (progress && g1 < count) {
#pragma omp single
                    {
                        try {
                            reportProgress(progress, (double(k0) + double(kb) * double(g1) / double(count)) / double(n),
                                           "Cholesky factor");
                        } catch (...) {
                            stopped = std::current_exception();
                        }
                    }
                    if (stopped) break;  // every thread sees it after the single's barrier
                }
            }
        }
    }
    if (stopped) std::rethrow_exception(stopped);
    return ok;
}

Eigen::MatrixXd choleskySolve(const Eigen::MatrixXd& L, const Eigen::MatrixXd& B)
{
    if (B.rows() != L.rows())
        throw ContractError("choleskySolve", "the right-hand side has " + std::to_string(B.rows()) + " rows, the factor " +
                                        std::to_string(L.rows()));
    // Column by column (C is small): triangular solves with one right-hand side are never
    // multithreaded by Eigen, so the bits do not depend on the thread count.
    Eigen::MatrixXd X = B;
    for (Eigen::Index c = 0; c < X.cols(); ++c) {
        auto x = X.col(c);
        L.triangularView<Eigen::Lower>().solveInPlace(x);
        L.triangularView<Eigen::Lower>().transpose().solveInPlace(x);
    }
    return X;
}

std::vector<Eigen::MatrixXd> solveShiftedMany(const Eigen::MatrixXd& G, const Eigen::MatrixXd& B,
                                              const std::vector<double>& lambdas)
{
    std::vector<Eigen::MatrixXd> out;
    out.reserve(lambdas.size());
    Eigen::MatrixXd A;
    for (double lambda : lambdas) {
        A = G;
        A.diagonal().array() += lambda;
        if (!choleskyInPlace(A))
            throw SpecError("lambda", "G + lambda I is not positive definite (lambda too small)", std::to_string(lambda));
        out.push_back(choleskySolve(A, B));
    }
    return out;
}

} // namespace orbit

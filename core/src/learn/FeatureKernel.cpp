#include "orbit/learn/FeatureKernel.hpp"

#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/linalg/Gram.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"

#include "util/Deterministic.hpp"

#include <algorithm>
#include <utility>
#include <vector>

// Why whole tiles: the bits of a BLAS (or Eigen) product's entry depend on the shape of the call
// that computes it (orbit/linalg/Gemm.hpp, rule 2): the rows left over from the kernels' register
// tiles are summed in another order. A run's Gram puts a row anywhere in a tile; padding every tile
// to 240 x 240 makes every call the same shape, with no rows left over: 240 is a multiple of the
// register tiles of the kernels in use (2, 4, 6, 8, 12, 16, 24 rows or columns).

namespace orbit {
namespace {

constexpr Eigen::Index kTile = 240;     // output tile edge; every product call is kTile x kTile
constexpr Eigen::Index kDepth = 512;    // feature columns per product (each cast to double once)
constexpr Eigen::Index kChunks = 6;     // at most this many column chunks (block-sum leaves)
constexpr Eigen::Index kAlign = 64;     // chunk widths are multiples of this
constexpr long long kPollWork = 1LL << 30;  // multiply-adds between two polls

Eigen::Index tilesOf(Eigen::Index n) { return (n + kTile - 1) / kTile; }

/// Columns [c0, c0 + w) of A in double, column-major, with zero rows up to whole tiles.
Eigen::MatrixXd padded(const MatrixXfR& A, Eigen::Index c0, Eigen::Index w)
{
    Eigen::MatrixXd P = Eigen::MatrixXd::Zero(tilesOf(A.rows()) * kTile, w);
    P.topRows(A.rows()) = A.middleCols(c0, w).cast<double>();
    return P;
}

/// out = the chunk [c0, c0 + w)'s part of A B^T (lower: A is B, tiles J <= I only, the rest 0).
void chunkProducts(const MatrixXfR& A, const MatrixXfR& B, bool lower, Eigen::Index c0, Eigen::Index w,
                   const Progress& progress, Eigen::MatrixXd& out)
{
    const Eigen::Index n = A.rows(), m = B.rows();
    out.setZero(n, m);
    std::vector<std::pair<Eigen::Index, Eigen::Index>> tiles;
    for (Eigen::Index I = 0; I < tilesOf(n); ++I)
        for (Eigen::Index J = 0; J < (lower ? I + 1 : tilesOf(m)); ++J) tiles.emplace_back(I, J);
    const auto count = static_cast<long long>(tiles.size());
    for (Eigen::Index d = 0; d < w; d += kDepth) {
        const Eigen::Index wd = std::min(kDepth, w - d);
        const Eigen::MatrixXd Ad = padded(A, c0 + d, wd);
        const Eigen::MatrixXd Bd = lower ? Eigen::MatrixXd() : padded(B, c0 + d, wd);
        const Eigen::MatrixXd& Bs = lower ? Ad : Bd;
        const long long group = progress ? std::max<long long>(1, kPollWork / (kTile * kTile * wd)) : count;
        for (long long g0 = 0; g0 < count; g0 += group) {
            reportProgress(progress, (double(d) + double(wd) * double(g0) / double(count)) / double(w), "Gram matrix");
            const long long g1 = std::min(count, g0 + group);
            detail::forEachBlock(std::size_t(g1 - g0), 1, [&](std::size_t q, std::size_t) {
                const auto [I, J] = tiles[std::size_t(g0) + q];
                const Eigen::Index i0 = I * kTile, j0 = J * kTile;
                const Eigen::Index ni = std::min(kTile, n - i0), nj = std::min(kTile, m - j0);
                Eigen::MatrixXd T = Eigen::MatrixXd::Zero(kTile, kTile);
                T.topLeftCorner(ni, nj) = out.block(i0, j0, ni, nj);
                gemmABt(Ad.middleRows(i0, kTile), Bs.middleRows(j0, kTile), T, 1.0, 1.0);
                out.block(i0, j0, ni, nj) = T.topLeftCorner(ni, nj);
            });
        }
    }
}

} // namespace

RowBlocks featureChunks(Eigen::Index dim)
{
    const Eigen::Index width = std::max<Eigen::Index>(kAlign, (dim + kChunks * kAlign - 1) / (kChunks * kAlign) * kAlign);
    return RowBlocks{dim, width};  // "rows" of F^T
}

Eigen::MatrixXd featureInnerProducts(const MatrixXfR& A, const MatrixXfR& B, const Ranks& ranks, const Progress& progress)
{
    requireSize("featureInnerProducts", "feature dimension", B.cols(), A.cols());
    const RowBlocks chunks = featureChunks(A.cols());
    return sumOverBlocks(ranks, chunks.count(), [&](Eigen::Index c, Eigen::MatrixXd& out) {
        chunkProducts(A, B, false, chunks.begin(c), chunks.end(c) - chunks.begin(c), progress, out);
    });
}

Eigen::MatrixXd featureGram(const MatrixXfR& F, const Ranks& ranks, BlockSumTimes* times, const Progress& progress)
{
    const RowBlocks chunks = featureChunks(F.cols());
    Eigen::MatrixXd K = sumOverBlocks(
        ranks, chunks.count(),
        [&](Eigen::Index c, Eigen::MatrixXd& out) {
            chunkProducts(F, F, true, chunks.begin(c), chunks.end(c) - chunks.begin(c), progress, out);
        },
        times);
    mirrorLower(K);
    return K;
}

Eigen::MatrixXd gaussianGram(const MatrixXfR& F, double sigma, const Ranks& ranks, BlockSumTimes* times, const Progress& progress)
{
    if (!(sigma > 0)) throw SpecError("kernel", "krr needs a positive bandwidth", std::to_string(sigma));
    Eigen::MatrixXd K = featureGram(F, ranks, times, progress);
    const Eigen::VectorXd n2 = K.diagonal();
    const BaseKernel k = BaseKernel::gaussian(sigma);
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
    for (long long j = 0; j < static_cast<long long>(K.cols()); ++j)
        for (Eigen::Index i = 0; i < K.rows(); ++i) K(i, j) = k.fromInnerProduct(K(i, j), n2[i], n2[j]);
    return K;
}

Eigen::VectorXd featureSquaredNorms(const MatrixXfR& A)
{
    const RowBlocks chunks = featureChunks(A.cols());
    const Eigen::Index n = A.rows();
    const Eigen::MatrixXd sums = sumOverBlocks(oneProcess(), chunks.count(), [&](Eigen::Index c, Eigen::MatrixXd& out) {
        // The diagonal tiles of chunkProducts(A, A, lower): the same calls, keeping their diagonals.
        out.setZero(n, 1);
        const Eigen::Index c0 = chunks.begin(c), w = chunks.end(c) - c0;
        for (Eigen::Index d = 0; d < w; d += kDepth) {
            const Eigen::Index wd = std::min(kDepth, w - d);
            const Eigen::MatrixXd Ad = padded(A, c0 + d, wd);
            detail::forEachBlock(std::size_t(tilesOf(n)), 1, [&](std::size_t I, std::size_t) {
                const Eigen::Index i0 = Eigen::Index(I) * kTile, ni = std::min(kTile, n - i0);
                Eigen::MatrixXd T = Eigen::MatrixXd::Zero(kTile, kTile);
                T.diagonal().head(ni) = out.col(0).segment(i0, ni);
                gemmABt(Ad.middleRows(i0, kTile), Ad.middleRows(i0, kTile), T, 1.0, 1.0);
                out.col(0).segment(i0, ni) = T.diagonal().head(ni);
            });
        }
    });
    return sums.col(0);
}

Eigen::MatrixXd dualScores(const Eigen::MatrixXd& K, const Eigen::MatrixXd& D)
{
    requireSize("dualScores", "rows of the dual weights", D.rows(), K.cols());
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(K.rows(), D.cols());
    // Rows in tiles over the threads; within a tile, column j of K after column j - 1: each entry
    // is ((K_i0 d_0 + K_i1 d_1) + ...) whatever the tile.
    detail::forEachBlock(std::size_t(K.rows()), std::size_t(kTile), [&](std::size_t b0, std::size_t b1) {
        const auto r0 = Eigen::Index(b0), nr = Eigen::Index(b1 - b0);
        for (Eigen::Index c = 0; c < D.cols(); ++c) {
            double* s = S.col(c).data() + r0;
            for (Eigen::Index j = 0; j < K.cols(); ++j) {
                const double d = D(j, c);
                const double* k = K.col(j).data() + r0;
                for (Eigen::Index i = 0; i < nr; ++i) s[i] += k[i] * d;
            }
        }
    });
    return S;
}

} // namespace orbit

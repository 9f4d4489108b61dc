#include "orbit/linalg/Gram.hpp"
#include "orbit/linalg/Gemm.hpp"

#include "orbit/util/Error.hpp"

#include "util/Deterministic.hpp"

#include <algorithm>
#include <string>
#include <vector>

// Parallel loops split the *output* into fixed tiles (detail::forEachBlock), each computed by one
// thread with a sequential Eigen product, so the summation order (and every bit) is independent of
// the number of OpenMP threads.

namespace orbit {
namespace {

constexpr Eigen::Index kChunk = 512;  // float -> double conversion block (rows or columns)
constexpr Eigen::Index kGramTile = 256;   // output tile edge
constexpr long long kGramPollWork = 1LL << 30;  // multiply-adds between two polls (~0.1-0.3 s on two cores)

/// G = B B^T + beta G on the tiles of the lower block triangle (beta 0: G's old values there are
/// never read; the tiles above are left alone), B column-major double (m x k).
void accumulateLowerGram(const Eigen::MatrixXd& B, Eigen::Ref<Eigen::MatrixXd> G, double beta)
{
    const Eigen::Index m = B.rows();
    const Eigen::Index tiles = (m + kGramTile - 1) / kGramTile;
    std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
    for (Eigen::Index I = 0; I < tiles; ++I)
        for (Eigen::Index J = 0; J <= I; ++J)
            pairs.emplace_back(I, J);
    detail::forEachBlock(pairs.size(), 1, [&](std::size_t p, std::size_t) {
        const Eigen::Index i0 = pairs[p].first * kGramTile, j0 = pairs[p].second * kGramTile;
        const Eigen::Index ni = std::min(kGramTile, m - i0), nj = std::min(kGramTile, m - j0);
        gemmABt(B.middleRows(i0, ni), B.middleRows(j0, nj), G.block(i0, j0, ni, nj), 1.0, beta);
    });
}

} // namespace

void mirrorLower(Eigen::MatrixXd& G) { mirrorLower(Eigen::Ref<Eigen::MatrixXd>(G)); }

void mirrorLower(Eigen::Ref<Eigen::MatrixXd> G)
{
    // In 64 x 64 tiles: a whole strided transposed copy missed the cache on every read, 2-3 times
    // slower at D = 4000 (0.4 s against 0.15 s on a loaded machine). The same copies, so the same bits.
    constexpr Eigen::Index kEdge = 64;
    const Eigen::Index n = G.rows();
    for (Eigen::Index J = 0; J < n; J += kEdge)
        for (Eigen::Index I = 0; I <= J; I += kEdge) {
            const Eigen::Index ni = std::min(kEdge, n - I), nj = std::min(kEdge, n - J);
            if (I == J) {
                auto B = G.block(I, I, ni, ni);
                B.triangularView<Eigen::StrictlyUpper>() = B.transpose();
            } else {
                G.block(I, J, ni, nj) = G.block(J, I, nj, ni).transpose();
            }
        }
}

namespace {

template <class M>
void gramOfColumnsInto(const M& X, Eigen::Ref<Eigen::MatrixXd> G, const Progress& progress, bool mirror = true)
{
    // The first chunk overwrites the lower tiles (no D x D zeroing pass first: at D = 4000 it
    // cost as much as a block's product of ~100 rows); the tiles above are mirrored or left.
    if (X.rows() == 0) G.setZero();
    // The chunk, transposed to double (D x 512), in a buffer the thread keeps: a fresh one per chunk
    // was D x 512 doubles of page faults each time.
    thread_local Eigen::MatrixXd B;
    for (Eigen::Index r = 0; r < X.rows(); r += kChunk) {
        reportProgress(progress, double(r) / double(X.rows()), "Gram matrix");
        const Eigen::Index h = std::min(kChunk, X.rows() - r);
        B = X.middleRows(r, h).transpose().template cast<double>();  // D x h
        accumulateLowerGram(B, G, r == 0 ? 0.0 : 1.0);
    }
    if (mirror) mirrorLower(G);
}

template <class M>
Eigen::MatrixXd gramOfColumnsOf(const M& X, const Progress& progress)
{
    Eigen::MatrixXd G(X.cols(), X.cols());
    gramOfColumnsInto(X, G, progress);
    return G;
}

template <class M>
Eigen::MatrixXd gramOfRowsOf(const M& X, const Progress& progress, bool mirror = true)
{
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(X.rows(), X.rows());
    for (Eigen::Index c = 0; c < X.cols(); c += kChunk) {
        reportProgress(progress, double(c) / double(X.cols()), "Gram matrix");
        const Eigen::Index w = std::min(kChunk, X.cols() - c);
        const Eigen::MatrixXd B = X.middleCols(c, w).template cast<double>();  // N x w
        accumulateLowerGram(B, K, 1.0);
    }
    if (mirror) mirrorLower(K);
    return K;
}

template <class M>
Eigen::MatrixXd timesDoubleOf(const M& X, const Eigen::MatrixXd& W)
{
    requireSize("timesDouble", "feature dimension", W.rows(), X.cols());
    Eigen::MatrixXd out(X.rows(), W.cols());
    detail::forEachBlock(std::size_t(X.rows()), std::size_t(kGramTile), [&](std::size_t b0, std::size_t b1) {
        const Eigen::Index r0 = Eigen::Index(b0), nr = Eigen::Index(b1 - b0);
        const Eigen::MatrixXd Xb = X.middleRows(r0, nr).template cast<double>();
        out.middleRows(r0, nr).noalias() = Xb * W;
    });
    return out;
}

template <class M>
Eigen::MatrixXd transposeTimesOf(const M& X, const Eigen::MatrixXd& Y)
{
    requireSize("transposeTimes", "number of rows", Y.rows(), X.rows());
    Eigen::MatrixXd out(X.cols(), Y.cols());
    detail::forEachBlock(std::size_t(X.cols()), std::size_t(kGramTile), [&](std::size_t b0, std::size_t b1) {
        const Eigen::Index c0 = Eigen::Index(b0), nc = Eigen::Index(b1 - b0);
        const Eigen::MatrixXd Xb = X.middleCols(c0, nc).template cast<double>();  // N x nc
        out.middleRows(c0, nc).noalias() = Xb.transpose() * Y;
    });
    return out;
}

} // namespace

Eigen::MatrixXd gramOfColumns(const MatrixXfR& X) { return gramOfColumnsOf(X, {}); }
void lowerGramOfColumns(const MatrixXfR& X, Eigen::Ref<Eigen::MatrixXd> G, const Progress& progress)
{
    requireSize("lowerGramOfColumns", "rows of G", G.rows(), X.cols());
    requireSize("lowerGramOfColumns", "columns of G", G.cols(), X.cols());
    gramOfColumnsInto(X, G, progress, false);
}
Eigen::MatrixXd gramOfColumns(const MatrixXfR& X, const Progress& progress) { return gramOfColumnsOf(X, progress); }
Eigen::MatrixXd gramOfColumns(const MatrixXdR& X) { return gramOfColumnsOf(X, {}); }
Eigen::MatrixXd gramOfRows(const MatrixXfR& X) { return gramOfRowsOf(X, {}); }
Eigen::MatrixXd gramOfRows(const MatrixXfR& X, const Progress& progress) { return gramOfRowsOf(X, progress); }
Eigen::MatrixXd gramOfRows(const MatrixXdR& X) { return gramOfRowsOf(X, {}); }
Eigen::MatrixXd timesDouble(const MatrixXfR& X, const Eigen::MatrixXd& W) { return timesDoubleOf(X, W); }
Eigen::MatrixXd timesDouble(const MatrixXdR& X, const Eigen::MatrixXd& W) { return timesDoubleOf(X, W); }
Eigen::MatrixXd transposeTimes(const MatrixXfR& X, const Eigen::MatrixXd& Y) { return transposeTimesOf(X, Y); }
Eigen::MatrixXd transposeTimes(const MatrixXdR& X, const Eigen::MatrixXd& Y) { return transposeTimesOf(X, Y); }

Eigen::MatrixXd gramOfRowsMixed(const MatrixXfR& X, Eigen::Index chunk) { return gramOfRowsMixed(X, chunk, {}); }

Eigen::MatrixXd lowerGramOfRows(const MatrixXfR& X, const Progress& progress) { return gramOfRowsOf(X, progress, false); }

Eigen::MatrixXd gramOfRowsMixed(const MatrixXfR& X, Eigen::Index chunk, const Progress& progress)
{
    Eigen::MatrixXd K = lowerGramOfRowsMixed(X, chunk, progress);
    mirrorLower(K);
    return K;
}

Eigen::MatrixXd lowerGramOfRowsMixed(const MatrixXfR& X, Eigen::Index chunk, const Progress& progress)
{
    Eigen::MatrixXd K(X.rows(), X.rows());
    lowerGramOfRowsMixed(X, chunk, progress, K);
    return K;
}

void lowerGramOfRowsMixed(const MatrixXfR& X, Eigen::Index chunk, const Progress& progress, Eigen::Ref<Eigen::MatrixXd> K)
{
    if (chunk < 1) throw ContractError("gramOfRowsMixed", "chunk must be positive, got " + std::to_string(chunk));
    const Eigen::Index n = X.rows();
    requireSize("lowerGramOfRowsMixed", "rows of K", K.rows(), n);
    requireSize("lowerGramOfRowsMixed", "columns of K", K.cols(), n);
    K.setZero();
    const Eigen::Index tiles = (n + kGramTile - 1) / kGramTile;
    std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
    for (Eigen::Index I = 0; I < tiles; ++I)
        for (Eigen::Index J = 0; J <= I; ++J) pairs.emplace_back(I, J);
    for (Eigen::Index c = 0; c < X.cols(); c += chunk) {
        const Eigen::Index w = std::min(chunk, X.cols() - c);
        const Eigen::MatrixXf B = X.middleCols(c, w);  // column-major copy: contiguous panels
        // Tiles in groups so `progress` is reported every few tenths of a second; every tile is computed the
        // same way whatever the grouping.
        const long long count = static_cast<long long>(pairs.size());
        const long long group = progress ? std::max<long long>(1, kGramPollWork / (kGramTile * kGramTile * w)) : count;
        for (long long g0 = 0; g0 < count; g0 += group) {
            reportProgress(progress, (double(c) + double(w) * double(g0) / double(count)) / double(X.cols()),
                           "Gram matrix");
            const long long g1 = std::min(count, g0 + group);
            detail::forEachBlock(std::size_t(g1 - g0), 1, [&](std::size_t q, std::size_t) {
                const auto& tile = pairs[std::size_t(g0) + q];
                const Eigen::Index i0 = tile.first * kGramTile, j0 = tile.second * kGramTile;
                const Eigen::Index ni = std::min(kGramTile, n - i0), nj = std::min(kGramTile, n - j0);
                Eigen::MatrixXf T(ni, nj);
                gemmABt(B.middleRows(i0, ni), B.middleRows(j0, nj), T);
                K.block(i0, j0, ni, nj) += T.cast<double>();
            });
        }
    }
    reportProgress(progress, 1.0, "Gram matrix");
}

Eigen::MatrixXd crossGram(const MatrixXfR& A, const MatrixXfR& B)
{
    requireSize("crossGram", "feature dimension", B.cols(), A.cols());
    Eigen::MatrixXd C = Eigen::MatrixXd::Zero(A.rows(), B.rows());
    for (Eigen::Index c = 0; c < A.cols(); c += kChunk) {
        const Eigen::Index w = std::min(kChunk, A.cols() - c);
        const Eigen::MatrixXd Ab = A.middleCols(c, w).cast<double>();
        const Eigen::MatrixXd Bb = B.middleCols(c, w).cast<double>();
        detail::forEachBlock(std::size_t(A.rows()), std::size_t(kGramTile), [&](std::size_t b0, std::size_t b1) {
            const Eigen::Index r0 = Eigen::Index(b0), nr = Eigen::Index(b1 - b0);
            gemmABt(Ab.middleRows(r0, nr), Bb, C.middleRows(r0, nr), 1.0, 1.0);
        });
    }
    return C;
}

} // namespace orbit

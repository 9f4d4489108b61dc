#pragma once
// Private engine of the feature maps: batched float32 products of inputs (or their orbits) with
// (transformed) templates, consumed tile by tile by a fused elementwise pooling functor.
#include "orbit/data/Dataset.hpp"
#include "orbit/kernels/BaseKernel.hpp"  // l1DistanceBlock
#include "orbit/kernels/FastExp.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "util/Deterministic.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace orbit::detail {

/// Columns of the product handled at once: the tile P (rows x kTile floats) stays in L2.
constexpr Eigen::Index kTile = 512;
/// Input rows per block in the template trick (a fixed partition: results never depend on threads).
/// Each product packs its kTile templates afresh, so its cost against the multiply-adds is about
/// 1 / rows: 512 rows keep it near 1 % (128 cost a fifth of the product's time), and the 1 MB tile
/// P still fits in L2.
constexpr std::size_t kTemplateBlockRows = 512;

/// A float buffer that only grows: a loop that needs a rows x cols scratch matrix for every block
/// takes a view of it, and allocates (and pages in) only for a block larger than all before it.
class ScratchBuffer {
public:
    Eigen::Map<MatrixXfR> matrix(Eigen::Index rows, Eigen::Index cols)
    {
        const auto size = std::size_t(rows) * std::size_t(cols);
        if (size > data_.size()) data_.resize(size);
        return {data_.data(), rows, cols};
    }

private:
    std::vector<float> data_;
};

/// The roles of the per-thread scratch buffers of the feature maps' hot loops. A role is used by one
/// function at a time on a thread (the product tile by the pooling loops, the others by the
/// transform calling them), so two live views never share a buffer.
enum class ScratchRole { ProductTile, Inputs, Accumulator, SupportTemplates, Count };

/// This thread's buffer for `role`: kept for the life of the thread (the OpenMP pool's threads and
/// the GUI's workers live long), so transforming block after block allocates nothing.
inline ScratchBuffer& threadScratch(ScratchRole role)
{
    thread_local std::array<ScratchBuffer, std::size_t(ScratchRole::Count)> buffers;
    return buffers[std::size_t(role)];
}

/// Rows of the orbit product per block in the data-transform path (inputs per block = this / r).
constexpr std::size_t kOrbitBlockRows = 256;

inline std::size_t inputsPerOrbitBlock(int r) { return std::max<std::size_t>(1, kOrbitBlockRows / std::size_t(r)); }

/// The columns of a block of inputs that hold a non-zero in some row (its support), as runs
/// [begin, end) of column indices. Images keep their digit or object in the middle: of the 400
/// pixels of a 20 x 20 digit about 280 are non-zero in some input of a 256-row block, 385 up to
/// the last; zero-padded Coulomb matrices in shell order (see SymmetricFold) end in zeros.
class ColumnSupport {
public:
    /// The support of A.
    template <class M>
    explicit ColumnSupport(const M& A) : ColumnSupport(std::vector<const M*>{&A})
    {
    }
    /// The union of the supports of matrices with the same columns (inputs and their tangents,
    /// multiplied by the same templates).
    template <class M>
    explicit ColumnSupport(const std::vector<const M*>& As)
    {
        const Eigen::Index cols = As.empty() ? 0 : As.front()->cols();
        std::vector<unsigned char> used(std::size_t(cols), 0);
        for (const M* A : As)
            for (Eigen::Index i = 0; i < A->rows(); ++i) {
                const float* a = A->data() + i * A->outerStride();
                for (Eigen::Index j = 0; j < cols; ++j) used[std::size_t(j)] |= a[j] != 0.0f;
            }
        for (Eigen::Index j = 0; j < cols;) {
            if (!used[std::size_t(j)]) {
                ++j;
                continue;
            }
            const Eigen::Index begin = j;
            while (j < cols && used[std::size_t(j)]) ++j;
            runs_.push_back({begin, j});
            size_ += j - begin;
        }
        depth_ = runs_.empty() ? 1 : runs_.back().end;
    }
    /// Columns in the support.
    Eigen::Index size() const { return size_; }
    /// 1 + its last column (at least 1): trailing zero columns contribute nothing to a product.
    Eigen::Index depth() const { return depth_; }
    /// Whether a product should run on the gathered support rather than the leading depth()
    /// columns: it skips at least 1/16 of them (a product's multiply-adds against one copy of each
    /// operand on the support).
    bool gathered() const { return size_ > 0 && depth_ - size_ >= std::max<Eigen::Index>(1, depth_ / 16); }
    /// dst[0..size()) = src at the support's columns, in order (a row of the inputs or templates).
    void gather(const float* src, float* dst) const
    {
        for (const Run& run : runs_) {
            std::copy(src + run.begin, src + run.end, dst);
            dst += run.end - run.begin;
        }
    }

private:
    struct Run {
        Eigen::Index begin, end;
    };
    std::vector<Run> runs_;
    Eigen::Index size_ = 0, depth_ = 1;
};

/// The products of one block of inputs X with rows of templates, P = X B^T, on the columns where
/// some row of X is non-zero only: the terms they skip are zero, so the products are the same sums
/// in another grouping (the same values up to float rounding; the block's rows fix the grouping,
/// so the bits do not depend on threads). When the support saves little, the leading depth()
/// columns (trailing zero columns skipped). X is gathered once per block, into a buffer this
/// thread keeps for the next block (so several products may be alive on a thread, and a transform
/// allocates nothing block after block); template rows per product into the calling thread's
/// SupportTemplates scratch: about 1/500 of the product's cost at 256 rows. Other threads may
/// multiply while the product lives.
class SupportProduct {
public:
    /// X on its own support.
    template <class M>
    explicit SupportProduct(const M& X) : SupportProduct(X, ColumnSupport(X))
    {
    }
    /// X on a support that holds X's (e.g. the union with its tangents').
    template <class M>
    SupportProduct(const M& X, ColumnSupport support)
        : support_(std::move(support)), data_(X.data()), rows_(X.rows()), cols_(X.cols()), stride_(X.outerStride())
    {
        if (!support_.gathered()) return;
        slot_ = takeSlot();
        slot_->data.resize(std::size_t(rows_ * support_.size()));
        float* G = slot_->data.data();
        for (Eigen::Index i = 0; i < rows_; ++i) support_.gather(data_ + i * stride_, G + i * support_.size());
        data_ = G;
        cols_ = stride_ = support_.size();
    }
    ~SupportProduct()
    {
        if (slot_) slot_->used = false;
    }
    SupportProduct(const SupportProduct&) = delete;
    SupportProduct& operator=(const SupportProduct&) = delete;

    const ColumnSupport& support() const { return support_; }
    Eigen::Index rows() const { return rows_; }
    /// P = X B[row0 .. row0 + rows)^T on the support.
    void multiply(const MatrixXfR& B, Eigen::Index row0, Eigen::Index rows, RowBlockF P) const
    {
        const Eigen::Map<const MatrixXfR, 0, Eigen::OuterStride<>> X(data_, rows_, cols_, Eigen::OuterStride<>(stride_));
        if (!support_.gathered()) {
            const Eigen::Index depth = support_.depth();
            gemmABt(X.leftCols(depth), B.middleRows(row0, rows).leftCols(depth), P);
            return;
        }
        auto G = threadScratch(ScratchRole::SupportTemplates).matrix(rows, support_.size());
        for (Eigen::Index i = 0; i < rows; ++i) support_.gather(B.data() + (row0 + i) * B.cols(), G.data() + i * G.cols());
        gemmABt(X, G, P);
    }

private:
    /// A gathered block's buffer, kept by its thread for the next product.
    struct Slot {
        std::vector<float> data;
        bool used = false;
    };
    static Slot* takeSlot()
    {
        thread_local std::vector<std::unique_ptr<Slot>> slots;
        for (auto& slot : slots)
            if (!slot->used) {
                slot->used = true;
                return slot.get();
            }
        slots.push_back(std::make_unique<Slot>());
        slots.back()->used = true;
        return slots.back().get();
    }

    ColumnSupport support_;
    const float* data_;  ///< X, or its gathered support
    Eigen::Index rows_, cols_, stride_;
    Slot* slot_ = nullptr;
};

/// The column tiles [j0, j0 + kTile) of s templates, tile(j0, f) each: in order on this thread, or
/// with parallelTiles in an OpenMP loop, each block of tiles with its own copy of f (the same tiles
/// either way, so the same bits).
template <class F, class Tile>
void forEachTemplateTile(Eigen::Index s, F& f, Tile&& tile, bool parallelTiles)
{
    if (!parallelTiles) {
        for (Eigen::Index j0 = 0; j0 < s; j0 += kTile) tile(j0, f);
        return;
    }
    const std::size_t tiles = std::size_t((s + kTile - 1) / kTile);
    forEachBlock(tiles, 1, [&](std::size_t t0, std::size_t t1) {
        std::decay_t<F> g = f;
        for (std::size_t t = t0; t < t1; ++t) tile(Eigen::Index(t) * kTile, g);
    });
}

/// Template trick. TG holds r blocks of s rows (block k = the templates moved by g_k^-1). For each
/// column tile [j0, j0 + n) and each k, P = Xb TG_k[j0..]^T on Xb's support (SupportProduct; this
/// thread's product-tile scratch), then f(i, j0, &P(i, 0), n, k) for every row i (f may overwrite its
/// row of P). Tiles are independent (f must write only columns of its tile); with parallelTiles they
/// run in an OpenMP loop, each with its own copy of f and its own P. The tiles, their products and
/// the order over k within a tile are the same either way, so are the bits.
template <class X_, class F>
void poolTemplates(const X_& Xb, const MatrixXfR& TG, int r, Eigen::Index s, F&& f, bool parallelTiles = false)
{
    const SupportProduct product(Xb);
    auto tile = [&](Eigen::Index j0, auto& g) {
        const Eigen::Index n = std::min(kTile, s - j0);
        auto P = threadScratch(ScratchRole::ProductTile).matrix(Xb.rows(), n);
        for (int k = 0; k < r; ++k) {
            product.multiply(TG, Eigen::Index(k) * s + j0, n, P);
            for (Eigen::Index i = 0; i < Xb.rows(); ++i) g(i, j0, P.data() + i * n, n, k);
        }
    };
    forEachTemplateTile(s, f, tile, parallelTiles);
}

/// Runs body(b0, b1, parallelTiles) over the fixed partition of [0, count) into blocks of `block`:
/// in parallel over the blocks when there are enough of them to keep every thread busy (or when
/// the body cannot split its tiles: `tiles` false), otherwise (e.g. a 64-row call of
/// Trainer::features: one block) block after block with parallelTiles = true, so the body spreads
/// its column tiles over the threads. Eigen runs single-threaded inside either way. The partition
/// does not depend on the choice, and a body whose tiles are independent gives the same bits.
template <class Body>
void forEachBlockOrTile(std::size_t count, std::size_t block, bool tiles, Body&& body)
{
    const std::size_t blocks = (count + block - 1) / block;
    if (!tiles || blocks >= 2 * std::size_t(std::max(1, orbit::teamSize()))) {
        forEachBlock(count, block, [&](std::size_t b0, std::size_t b1) { body(b0, b1, false); });
        return;
    }
    const SerialEigen serial;
    for (std::size_t b0 = 0; b0 < count; b0 += block) body(b0, std::min(count, b0 + block), true);
}

/// Data transform. O holds r consecutive rows per input (g_{i,1} x_i .. g_{i,r} x_i). For each
/// column tile, P = O T[j0..]^T on O's support (SupportProduct; this thread's product-tile
/// scratch), then f(i, j0, &P(i r + k, 0), n, k) for every input i and k.
template <class O_, class F>
void poolOrbits(const O_& O, const MatrixXfR& T, int r, F&& f)
{
    const Eigen::Index s = T.rows();
    const Eigen::Index inputs = O.rows() / r;
    const SupportProduct product(O);
    for (Eigen::Index j0 = 0; j0 < s; j0 += kTile) {
        const Eigen::Index n = std::min(kTile, s - j0);
        auto P = threadScratch(ScratchRole::ProductTile).matrix(O.rows(), n);
        product.multiply(T, j0, n, P);
        for (Eigen::Index i = 0; i < inputs; ++i)
            for (int k = 0; k < r; ++k) f(i, j0, P.data() + (i * r + k) * n, n, k);
    }
}

/// The template trick for a kernel of L1 distances (the Laplacian; valid when the group permutes
/// coordinates, OrbitPlan::kernelMovesWithGroup): as poolTemplates, but the tile holds the
/// distances P(i, j) = ||x_i - (g_k^-1 t)_{j0 + j}||_1 (l1DistanceBlock, each entry summed over the
/// coordinates in order) instead of products. All d columns count (|0 - t| = |t|), so there is no
/// support to skip. The same tiles and order over k with or without parallelTiles: the same bits.
template <class X_, class F>
void poolTemplateDistances(const X_& Xb, const MatrixXfR& TG, int r, Eigen::Index s, F&& f, bool parallelTiles = false)
{
    const Eigen::Index d = TG.cols();
    auto tile = [&](Eigen::Index j0, auto& g) {
        const Eigen::Index n = std::min(kTile, s - j0);
        auto P = threadScratch(ScratchRole::ProductTile).matrix(Xb.rows(), n);
        for (int k = 0; k < r; ++k) {
            l1DistanceBlock(Xb.data(), Xb.outerStride(), Xb.rows(), TG.data() + (Eigen::Index(k) * s + j0) * d, d, n, d,
                            P.data(), n);
            for (Eigen::Index i = 0; i < Xb.rows(); ++i) g(i, j0, P.data() + i * n, n, k);
        }
    };
    forEachTemplateTile(s, f, tile, parallelTiles);
}

/// The data path for a kernel of L1 distances: as poolOrbits, with P(i r + k, j) =
/// ||g_{i,k} x_i - t_{j0 + j}||_1.
template <class O_, class F>
void poolOrbitDistances(const O_& O, const MatrixXfR& T, int r, F&& f)
{
    const Eigen::Index s = T.rows(), d = T.cols();
    const Eigen::Index inputs = O.rows() / r;
    for (Eigen::Index j0 = 0; j0 < s; j0 += kTile) {
        const Eigen::Index n = std::min(kTile, s - j0);
        auto P = threadScratch(ScratchRole::ProductTile).matrix(O.rows(), n);
        l1DistanceBlock(O.data(), O.outerStride(), O.rows(), T.data() + j0 * d, d, n, d, P.data(), n);
        for (Eigen::Index i = 0; i < inputs; ++i)
            for (int k = 0; k < r; ++k) f(i, j0, P.data() + (i * r + k) * n, n, k);
    }
}

/// v[t] = exp(-dist[t] / sigma) for t < n (the Laplacian's values of a row of L1 distances), with
/// invSigma = 1 / sigma in float: fastExp, whose bits do not depend on the vector width.
inline void laplacianRow(const float* dist, float* v, Eigen::Index n, float invSigma)
{
    for (Eigen::Index t = 0; t < n; ++t) v[t] = fastExp(-dist[t] * invSigma);
}

/// acc[t] += exp(-dist[t] / sigma) for t < n: laplacianRow summed in one pass.
inline void addLaplacianRow(float* acc, const float* dist, Eigen::Index n, float invSigma)
{
    for (Eigen::Index t = 0; t < n; ++t) acc[t] += fastExp(-dist[t] * invSigma);
}

/// Coulomb matrices are symmetric: <w, C> = sum_i w_ii C_ii + sum_{i<j} (w_ij + w_ji) C_ij, so
/// templates and inputs can be folded onto the n(n+1)/2 upper-triangle entries (about half the flops).
/// Shell order: entry (i, m), i <= m, goes to m(m+1)/2 + i, so a matrix whose non-zero rows come
/// first (a sorted, zero-padded molecule) has only zeros after its own n_atoms(n_atoms+1)/2 entries.
struct SymmetricFold {
    int n = 0;  ///< matrix side; 0 = no folding
    Eigen::Index foldedDim() const { return Eigen::Index(n) * (n + 1) / 2; }
    /// Templates: diagonal kept, off-diagonal pairs summed (shell order).
    MatrixXfR templates(const MatrixXfR& W) const;
    /// Inputs: the upper triangle in shell order.
    MatrixXfR inputs(const MatrixXfR& X, Eigen::Index begin, Eigen::Index end) const;
    /// One input x (n x n values) into f (foldedDim() values).
    void input(const float* x, float* f) const
    {
        for (int m = 0; m < n; ++m)
            for (int i = 0; i <= m; ++i) *f++ = x[i * n + m];
    }
};

} // namespace orbit::detail

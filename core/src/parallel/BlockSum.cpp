#include "orbit/parallel/BlockSum.hpp"

#include "orbit/linalg/Gram.hpp"
#include "orbit/linalg/MatrixPool.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <chrono>
#include <limits>
#include <vector>

namespace orbit {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// The canonical split of [lo, hi), hi - lo >= 2: the left part is the larger half, so the tree's
/// shape depends on the number of blocks alone. Halves, because ranks own runs of about equal weight
/// (weightedBlockStarts): with equal blocks the runs of 2 or 4 ranks are then whole subtrees, and
/// each rank sends the root one partial sum per sum. A power-of-two left part left 2 ranks over QM7's
/// 14 blocks of 512 rows with 3 and 2 subtrees each: 2.11 GB sent in a kfold:5 train, against 1.15 GB.
Eigen::Index splitOf(Eigen::Index lo, Eigen::Index hi) { return lo + (hi - lo + 1) / 2; }

/// What a sum of leaves of `shape` carries of an R x C matrix: f(j, i0) for every column j, whose
/// rows i0 .. R-1 are carried (from the diagonal down in the symmetric columns, else all).
template <class F>
void forCarriedColumns(Eigen::Index cols, LeafShape shape, F f)
{
    for (Eigen::Index j = 0; j < cols; ++j) f(j, j < shape.lowerColumns ? j : 0);
}

/// s += r on the carried entries only (each the same addition as in the whole-matrix sum).
void addCarried(Eigen::MatrixXd& s, const Eigen::MatrixXd& r, LeafShape shape)
{
    const Eigen::Index k = shape.lowerColumns, R = s.rows();
    if (k == 0) {
        s += r;
        return;
    }
    for (Eigen::Index j = 0; j < k; ++j) s.col(j).tail(R - j) += r.col(j).tail(R - j);
    s.rightCols(s.cols() - k) += r.rightCols(s.cols() - k);
}

/// The carried entries of M as one column, after M's rows and columns (exact in a double): what
/// travels between ranks when shape.lowerColumns > 0 (whole leaves travel as they are).
Eigen::MatrixXd packed(const Eigen::MatrixXd& M, LeafShape shape)
{
    const Eigen::Index R = M.rows();
    Eigen::Index n = 0;
    forCarriedColumns(M.cols(), shape, [&](Eigen::Index, Eigen::Index i0) { n += R - i0; });
    Eigen::MatrixXd v = MatrixPool::take(2 + n, 1);  // given back once sent (Ranks::post) or added
    v(0) = double(R);
    v(1) = double(M.cols());
    Eigen::Index at = 2;
    forCarriedColumns(M.cols(), shape, [&](Eigen::Index j, Eigen::Index i0) {
        v.col(0).segment(at, R - i0) = M.col(j).tail(R - i0);
        at += R - i0;
    });
    return v;
}

/// s += the matrix v = packed(M) came from, on the carried entries only: the same additions as
/// addCarried(s, M), with no unpacked copy of M. v's buffer goes to the MatrixPool after.
void addPacked(Eigen::MatrixXd& s, Eigen::MatrixXd v, LeafShape shape)
{
    const Eigen::Index R = s.rows();
    if (v.size() < 2 || Eigen::Index(v(0)) != R || Eigen::Index(v(1)) != s.cols())
        throw ContractError("sumOverBlocks", "a received partial sum of another size than the root's");
    Eigen::Index at = 2;
    forCarriedColumns(s.cols(), shape, [&](Eigen::Index j, Eigen::Index i0) {
        s.col(j).tail(R - i0) += v.col(0).segment(at, R - i0);
        at += R - i0;
    });
    MatrixPool::give(std::move(v));
}

/// The matrix packed(M) came from, its carried entries written into `into` (resized; a recycled
/// buffer allocates nothing) and the others left as they were. v's buffer goes to the MatrixPool
/// after (a message received: the next one of its size takes it).
Eigen::MatrixXd unpacked(Eigen::MatrixXd v, LeafShape shape, Eigen::MatrixXd into)
{
    const auto R = Eigen::Index(v(0)), C = Eigen::Index(v(1));
    if (into.rows() * into.cols() != R * C) {  // e.g. a pooled message: keep it for one of its size
        MatrixPool::give(std::move(into));
        into = MatrixPool::take(R, C);
    }
    into.resize(R, C);
    Eigen::Index at = 2;
    forCarriedColumns(C, shape, [&](Eigen::Index j, Eigen::Index i0) {
        into.col(j).tail(R - i0) = v.col(0).segment(at, R - i0);
        at += R - i0;
    });
    MatrixPool::give(std::move(v));
    return into;
}

class TreeWalk {
public:
    /// starts: each rank's first block, then `blocks`.
    TreeWalk(const Ranks& ranks, const BlockLeafInto* leaf, std::vector<Eigen::Index> starts, LeafShape shape)
        : ranks_(ranks), leaf_(leaf), starts_(std::move(starts)), shape_(shape),
          first_(starts_[std::size_t(ranks.rank())]), last_(starts_[std::size_t(ranks.rank()) + 1])
    {
    }

    /// The buffers of added sums go to the computation's MatrixPool, if it has one.
    ~TreeWalk()
    {
        for (Eigen::MatrixXd& m : spare_) MatrixPool::give(std::move(m));
    }
    TreeWalk(const TreeWalk&) = delete;
    TreeWalk& operator=(const TreeWalk&) = delete;

    /// The sum over [lo, hi), all of whose blocks are this rank's.
    Eigen::MatrixXd own(Eigen::Index lo, Eigen::Index hi)
    {
        if (hi - lo == 1) {
            const auto t = Clock::now();
            Eigen::MatrixXd s = spare();
            (*leaf_)(lo, s);
            leaves += since(t);
            leafRows_ = s.rows();
            leafCols_ = s.cols();
            ranks_.waitPosted(std::numeric_limits<std::size_t>::max());  // posted sends get their turn to move
            if (s.rows() < shape_.lowerColumns || s.cols() < shape_.lowerColumns)
                throw ContractError("sumOverBlocks", "leaf " + std::to_string(lo) + " is " + std::to_string(s.rows()) + " x " +
                                                         std::to_string(s.cols()) + " for " +
                                                         std::to_string(shape_.lowerColumns) + " symmetric columns");
            return s;
        }
        const Eigen::Index mid = splitOf(lo, hi);
        Eigen::MatrixXd s = own(lo, mid);
        Eigen::MatrixXd right = own(mid, hi);
        addCarried(s, right, shape_);
        spare_.push_back(std::move(right));
        return s;
    }

    /// The sum's root (0 unless setRoot): the sum over [lo, hi), receiving the subtrees other
    /// ranks own whole.
    Eigen::MatrixXd atRoot(Eigen::Index lo, Eigen::Index hi)
    {
        const int q = soleOwner(lo, hi);
        if (q == root_) return kept_.empty() ? own(lo, hi) : takeKept();
        if (q >= 0) return shape_.lowerColumns > 0 ? unpacked(take(q), shape_, spare()) : take(q);
        const Eigen::Index mid = splitOf(lo, hi);
        const int left = soleOwner(lo, mid), right = soleOwner(mid, hi);
        const bool leftSent = left >= 0 && left != root_, rightSent = right >= 0 && right != root_;
        if (shape_.lowerColumns > 0 && leftSent != rightSent) {
            // One half comes from another rank, packed: added as it came, with no unpacked copy
            // (a + b is b + a to the bit). Received in tree order all the same.
            Eigen::MatrixXd v = leftSent ? take(left) : Eigen::MatrixXd();
            Eigen::MatrixXd s = leftSent ? atRoot(mid, hi) : atRoot(lo, mid);
            if (rightSent) v = take(right);
            addPacked(s, std::move(v), shape_);
            return s;
        }
        Eigen::MatrixXd s = atRoot(lo, mid);
        Eigen::MatrixXd r = atRoot(mid, hi);
        addCarried(s, r, shape_);
        spare_.push_back(std::move(r));
        return s;
    }

    /// Other ranks: the largest subtrees of [lo, hi) that are this rank's alone, in the order atRoot
    /// asks for them. They are all computed before any is sent: the root takes them only after its
    /// own blocks, and a send waiting for it would leave this rank idle.
    void ownSubtrees(Eigen::Index lo, Eigen::Index hi, std::vector<Eigen::MatrixXd>& out)
    {
        if (hi <= first_ || lo >= last_) return;
        if (lo >= first_ && hi <= last_) {
            out.push_back(own(lo, hi));
            return;
        }
        const Eigen::Index mid = splitOf(lo, hi);
        ownSubtrees(lo, mid, out);
        ownSubtrees(mid, hi, out);
    }

    /// How many messages rank q sends the root of a sum: the largest subtrees of [lo, hi) that are
    /// q's alone (ownSubtrees on rank q).
    std::size_t subtreesOf(int q, Eigen::Index lo, Eigen::Index hi) const
    {
        const Eigen::Index first = starts_[std::size_t(q)], last = starts_[std::size_t(q) + 1];
        if (hi <= first || lo >= last) return 0;
        if (lo >= first && hi <= last) return 1;
        const Eigen::Index mid = splitOf(lo, hi);
        return subtreesOf(q, lo, mid) + subtreesOf(q, mid, hi);
    }

    double leaves = 0.0;

    /// Every other rank sends its subtrees in one message (Ranks::sendMany): the root takes them
    /// all at its first need of one and hands them out in tree order.
    void receiveBundles() { bundled_ = true; }

    /// The leaves of the next sum (sumManyOverOwnedBlocks walks the same blocks once per sum).
    void setLeaf(const BlockLeafInto* leaf) { leaf_ = leaf; }
    /// The rank the next sum is added on (atRoot there, ownSubtrees elsewhere).
    void setRoot(int root) { root_ = root; }
    /// The root's own subtrees of the next sum, computed before (ownSubtrees, in the order atRoot
    /// asks for them): atRoot adds these instead of computing them.
    void keep(std::vector<Eigen::MatrixXd> subtrees)
    {
        for (Eigen::MatrixXd& m : subtrees) kept_.push_back(std::move(m));
    }
    /// Whether kept subtrees are still waiting (none should be once the sum is added).
    bool keptLeft() const { return !kept_.empty(); }
    /// m's buffer for the next leaf or partial sum.
    void recycle(Eigen::MatrixXd m) { spare_.push_back(std::move(m)); }

    /// A buffer of a partial sum already added, else one of a leaf's size from the computation's
    /// MatrixPool (any it kept before the first leaf, empty when there is none), for the next leaf
    /// or a sum received. Of a leaf's size, because the largest kept buffer may be a message's,
    /// which a leaf would replace by fresh pages while the next message took fresh pages too.
    Eigen::MatrixXd spare()
    {
        if (spare_.empty()) return leafRows_ > 0 ? MatrixPool::take(leafRows_, leafCols_) : MatrixPool::takeAny();
        Eigen::MatrixXd m = std::move(spare_.back());
        spare_.pop_back();
        return m;
    }

private:
    Eigen::MatrixXd takeKept()
    {
        Eigen::MatrixXd m = std::move(kept_.front());
        kept_.pop_front();
        return m;
    }

    /// Rank q's next subtree, in the order it sent them.
    Eigen::MatrixXd take(int q)
    {
        if (!bundled_) return ranks_.receive(q);
        std::deque<Eigen::MatrixXd>& box = inbox_[q];
        if (box.empty())
            for (Eigen::MatrixXd& m : ranks_.receiveMany(q)) box.push_back(std::move(m));
        if (box.empty()) throw ContractError("sumOverBlocks", "rank " + std::to_string(q) + " sent no subtree");
        Eigen::MatrixXd m = std::move(box.front());
        box.pop_front();
        return m;
    }

    /// The rank owning every block of [lo, hi), or -1 when several do.
    int soleOwner(Eigen::Index lo, Eigen::Index hi) const
    {
        int q = 0;
        while (lo >= starts_[std::size_t(q) + 1]) ++q;  // ranks owning no block are passed over
        return hi <= starts_[std::size_t(q) + 1] ? q : -1;
    }

    const Ranks& ranks_;
    const BlockLeafInto* leaf_;
    std::vector<Eigen::MatrixXd> spare_;
    std::vector<Eigen::Index> starts_;
    LeafShape shape_;
    Eigen::Index first_, last_;
    Eigen::Index leafRows_ = 0, leafCols_ = 0;  ///< the last leaf's size
    int root_ = 0;
    std::deque<Eigen::MatrixXd> kept_;
    bool bundled_ = false;
    std::map<int, std::deque<Eigen::MatrixXd>> inbox_;
};

void checkOwners(const Ranks& ranks, const std::vector<Eigen::Index>& starts, LeafShape shape)
{
    if (starts.size() != static_cast<std::size_t>(ranks.size()) + 1 || starts.front() != 0 ||
        !std::is_sorted(starts.begin(), starts.end()))
        throw ContractError("sumOverOwnedBlocks", std::to_string(starts.size()) + " block starts for " +
                                                      std::to_string(ranks.size()) + " ranks");
    if (shape.lowerColumns < 0)
        throw ContractError("sumOverBlocks", std::to_string(shape.lowerColumns) + " symmetric columns");
}

} // namespace

Eigen::MatrixXd packedCarried(const Eigen::MatrixXd& M, LeafShape shape) { return packed(M, shape); }

Eigen::MatrixXd unpackedCarried(Eigen::MatrixXd v, LeafShape shape, Eigen::MatrixXd into)
{
    return unpacked(std::move(v), shape, std::move(into));
}

std::vector<Eigen::Index> weightedBlockStarts(const std::vector<double>& weights, int ranks)
{
    const auto blocks = static_cast<Eigen::Index>(weights.size());
    double total = 0.0;
    for (double w : weights) total += w;
    std::vector<Eigen::Index> starts(static_cast<std::size_t>(ranks) + 1, blocks);
    starts[0] = 0;
    if (!(total > 0.0)) {
        for (int q = 1; q < ranks; ++q) starts[std::size_t(q)] = blocks * q / ranks;
        return starts;
    }
    double before = 0.0;  // weight of the blocks before b
    int q = 1;
    for (Eigen::Index b = 0; b < blocks && q < ranks; ++b) {
        while (q < ranks && before >= total * q / ranks) starts[std::size_t(q++)] = b;
        before += weights[std::size_t(b)];
    }
    return starts;
}

Eigen::MatrixXd sumOverBlocks(const Ranks& ranks, Eigen::Index blocks,
                              const std::function<Eigen::MatrixXd(Eigen::Index)>& leaf, BlockSumTimes* times,
                              const std::vector<double>* weights)
{
    return sumOverBlocks(ranks, blocks, BlockLeafInto([&](Eigen::Index b, Eigen::MatrixXd& out) { out = leaf(b); }),
                         times, weights);
}

Eigen::MatrixXd sumOverOwnedBlocks(const Ranks& ranks, const std::vector<Eigen::Index>& starts,
                                   const std::function<Eigen::MatrixXd(Eigen::Index)>& leaf, BlockSumTimes* times)
{
    return sumOverOwnedBlocks(ranks, starts,
                              BlockLeafInto([&](Eigen::Index b, Eigen::MatrixXd& out) { out = leaf(b); }), times);
}

Eigen::MatrixXd sumOverBlocks(const Ranks& ranks, Eigen::Index blocks, const BlockLeafInto& leaf, BlockSumTimes* times,
                              const std::vector<double>* weights, LeafShape shape)
{
    std::vector<Eigen::Index> starts;
    if (weights) {
        if (static_cast<Eigen::Index>(weights->size()) != blocks)
            throw ContractError("sumOverBlocks", std::to_string(weights->size()) + " weights for " + std::to_string(blocks) + " blocks");
        starts = weightedBlockStarts(*weights, ranks.size());
    } else {
        for (int q = 0; q < ranks.size(); ++q) starts.push_back(ranks.firstBlock(blocks, q));
        starts.push_back(blocks);
    }
    return sumOverOwnedBlocks(ranks, starts, leaf, times, shape);
}

Eigen::MatrixXd sumOverOwnedBlocks(const Ranks& ranks, const std::vector<Eigen::Index>& starts,
                                   const BlockLeafInto& leaf, BlockSumTimes* times, LeafShape shape)
{
    const auto t0 = Clock::now();
    checkOwners(ranks, starts, shape);
    const Eigen::Index blocks = starts.back();
    TreeWalk walk(ranks, &leaf, starts, shape);
    walk.receiveBundles();
    Eigen::MatrixXd sum;
    if (blocks > 0) {
        if (ranks.isRoot())
            sum = walk.atRoot(0, blocks);
        else {
            // This rank's subtrees in one message (one per optimiser step of `learn`).
            std::vector<Eigen::MatrixXd> subtrees;
            walk.ownSubtrees(0, blocks, subtrees);
            if (shape.lowerColumns > 0)
                for (Eigen::MatrixXd& m : subtrees) {
                    Eigen::MatrixXd v = packed(m, shape);
                    walk.recycle(std::move(m));
                    m = std::move(v);
                }
            std::vector<const Eigen::MatrixXd*> pieces;
            for (const Eigen::MatrixXd& m : subtrees) pieces.push_back(&m);
            if (!pieces.empty()) ranks.sendMany(pieces, 0);
            for (Eigen::MatrixXd& m : subtrees) MatrixPool::give(std::move(m));
        }
    }
    if (shape.lowerColumns == 0) {
        ranks.broadcast(sum);
    } else if (ranks.size() > 1) {
        Eigen::MatrixXd travelling = ranks.isRoot() ? packed(sum, shape) : Eigen::MatrixXd();
        ranks.broadcast(travelling);
        if (ranks.isRoot())
            MatrixPool::give(std::move(travelling));
        else
            sum = unpacked(std::move(travelling), shape, walk.spare());
    }
    if (shape.lowerColumns > 0 && sum.size() > 0) mirrorLower(sum.topLeftCorner(shape.lowerColumns, shape.lowerColumns));
    if (times) {
        times->leaves += walk.leaves;
        times->reduction += since(t0) - walk.leaves;
    }
    return sum;
}

std::vector<Eigen::MatrixXd> sumManyOverOwnedBlocks(const Ranks& ranks, const std::vector<Eigen::Index>& starts,
                                                    std::size_t sums, const ManyLeavesInto& leaf, BlockSumTimes* times,
                                                    LeafShape shape)
{
    const auto t0 = Clock::now();
    checkOwners(ranks, starts, shape);
    const Eigen::Index blocks = starts.back();
    TreeWalk walk(ranks, nullptr, starts, shape);
    std::vector<Eigen::MatrixXd> out(sums);
    // Rounds of P sums, one rooted on each rank. A rank computes and posts its subtrees of the other
    // ranks' sums first, then its own sum's subtrees, and adds its sum as the others' subtrees of it
    // arrive; it waits for its own posts to have left before the next round. The subtrees it will
    // receive are expected (Ranks::expect) from the round's start, so they come in while it computes
    // its own: each leaf's waitPosted moves them (the receiver's copy over shared memory; over TCP,
    // Open MPI's progress thread, without which a message moves only while both ranks are inside
    // MPI). (Posting a round's messages and receiving them in the next round, without expecting
    // them and without the progress thread, left the receivers waiting: QM7, irf:s=4000,r=20,
    // kfold:5, fixed kernel, 4.5 s of reduction against 1.4 s over shared memory.)
    const auto P = static_cast<std::size_t>(ranks.size());
    const auto me = static_cast<std::size_t>(ranks.rank());
    for (std::size_t first = 0; first < sums && blocks > 0; first += P) {
        const std::size_t end = std::min(sums, first + P);
        const std::size_t mine = first + me;
        if (mine < end)
            for (int q = 0; q < ranks.size(); ++q)
                if (q != ranks.rank()) ranks.expect(q, walk.subtreesOf(q, 0, blocks));
        for (std::size_t i = 1; i <= P; ++i) {
            const std::size_t k = first + (me + i) % P;  // the next ranks' sums, this rank's last
            if (k >= end) continue;
            const int root = rootOfSum(k, ranks.size());
            const BlockLeafInto leafOfSum = [&](Eigen::Index b, Eigen::MatrixXd& m) { leaf(k, b, m); };
            walk.setLeaf(&leafOfSum);
            std::vector<Eigen::MatrixXd> subtrees;
            walk.ownSubtrees(0, blocks, subtrees);
            if (root == ranks.rank()) {
                walk.keep(std::move(subtrees));
                continue;
            }
            for (Eigen::MatrixXd& m : subtrees) {
                if (shape.lowerColumns > 0) {
                    ranks.post(packed(m, shape), root);
                    walk.recycle(std::move(m));
                } else {
                    ranks.post(std::move(m), root);
                }
            }
        }
        walk.setLeaf(nullptr);
        if (mine < end) {
            walk.setRoot(ranks.rank());
            out[mine] = walk.atRoot(0, blocks);
            if (walk.keptLeft())
                throw ContractError("sumManyOverOwnedBlocks", "own subtrees left over after sum " + std::to_string(mine));
        }
        ranks.waitPosted(0);
    }
    if (times) {
        times->leaves += walk.leaves;
        times->reduction += since(t0) - walk.leaves;
    }
    return out;
}

} // namespace orbit

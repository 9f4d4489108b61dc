#pragma once
// Sums over fixed row blocks in one fixed binary tree, whatever the number of processes.
#include "orbit/parallel/Ranks.hpp"

#include <Eigen/Core>

#include <cstddef>
#include <functional>
#include <vector>

namespace orbit {

/// Seconds spent in a block sum besides computing the leaves: waiting for and moving partial sums
/// between ranks, and adding them.
struct BlockSumTimes {
    double leaves = 0.0;     ///< this rank's leaf products
    double reduction = 0.0;  ///< messages, waits and the additions of the tree
};

/// sum_b leaf(b) over blocks b = 0 .. blocks-1, added in the canonical tree: a range [lo, hi) of
/// more than one block splits into halves at lo + ceil((hi - lo) / 2), and its sum is
/// sum(left) + sum(right). Each rank computes the leaves of its own blocks (Ranks::firstBlock) and
/// the tree's subtrees that lie within them; the root receives the other ranks' subtrees in tree
/// order, adds the rest of the tree and broadcasts the sum. Every addition therefore has the same
/// operands at every number of ranks: the sum is the same bits at P = 1, 2, 3, ...
///
/// leaf(b) is called once per owned block, with blocks of one rank in increasing order; every leaf
/// has the same size. The root holds at most about log2(blocks) + 1 partial sums at once; another
/// rank holds the subtrees it sends (at most about 2 log2(blocks)), since the root adds them only
/// after its own blocks. Collective.
///
/// With `weights` (one per block, e.g. the rows a block's leaf reads), ranks own contiguous runs
/// of blocks of about equal weight instead of equal counts (weightedBlockStarts); every rank must
/// then be able to compute any block's leaf. The sum is the same bits either way.
Eigen::MatrixXd sumOverBlocks(const Ranks& ranks, Eigen::Index blocks,
                              const std::function<Eigen::MatrixXd(Eigen::Index)>& leaf,
                              BlockSumTimes* times = nullptr, const std::vector<double>* weights = nullptr);

/// The same with the owners given: rank q owns blocks [starts[q], starts[q + 1]) (`starts` has
/// ranks.size() + 1 non-decreasing entries from 0 to the number of blocks), e.g. the run of blocks
/// whose rows it holds. The sum is the same bits as with any other owners.
Eigen::MatrixXd sumOverOwnedBlocks(const Ranks& ranks, const std::vector<Eigen::Index>& starts,
                                   const std::function<Eigen::MatrixXd(Eigen::Index)>& leaf,
                                   BlockSumTimes* times = nullptr);

/// A leaf that writes block b's term into `out` instead of returning it. `out` may come in holding a
/// matrix of the right size (the buffer of a sum the tree has added already): the leaf must then
/// overwrite every entry, and allocates nothing. Summing D x D Gram blocks this way allocates about
/// log2(blocks) + 1 of them per call, not one or more per block (each a fresh, page-faulted matrix).
using BlockLeafInto = std::function<void(Eigen::Index, Eigen::MatrixXd&)>;

/// Leaves whose first `lowerColumns` columns form a symmetric block (a Gram matrix F_b^T F_b, the
/// rest e.g. F_b^T Y_b): of those columns only the entries on and below the diagonal are read,
/// added and sent between ranks (the leaf need not write the others), and the sum's entries above
/// the diagonal are mirrored from below once, at the end, on every rank. Half the additions and
/// half the bytes of summing the whole matrices, and the same bits in the lower triangle and
/// the rest; lowerColumns must not exceed a leaf's rows (ContractError). 0: the whole leaves.
struct LeafShape {
    Eigen::Index lowerColumns = 0;
};

/// sumOverBlocks and sumOverOwnedBlocks with a leaf writing into recycled buffers: the same tree,
/// the same additions, the same bits.
Eigen::MatrixXd sumOverBlocks(const Ranks& ranks, Eigen::Index blocks, const BlockLeafInto& leaf,
                              BlockSumTimes* times = nullptr, const std::vector<double>* weights = nullptr,
                              LeafShape shape = {});
Eigen::MatrixXd sumOverOwnedBlocks(const Ranks& ranks, const std::vector<Eigen::Index>& starts, const BlockLeafInto& leaf,
                                   BlockSumTimes* times = nullptr, LeafShape shape = {});

/// Leaf `block` of sum `sum` (sumManyOverOwnedBlocks), written into `out` as a BlockLeafInto.
using ManyLeavesInto = std::function<void(std::size_t sum, Eigen::Index block, Eigen::MatrixXd& out)>;

/// The rank that sum k of sumManyOverOwnedBlocks is added on: the ranks in turn, so that each
/// receives and adds its share of the subtrees instead of rank 0 adding them all while the others
/// wait for it (measured on QM7, irf:s=4000,r=20, kfold:5, P = 2: rank 1 waited 0.75 s for the
/// root at the end of the sums).
inline int rootOfSum(std::size_t k, int ranks) { return static_cast<int>(k % static_cast<std::size_t>(ranks)); }

/// `sums` sums over the same owned blocks, sum k of leaf(k, b, .) over the blocks b, each added in the
/// canonical tree as sumOverOwnedBlocks adds it (the same bits in every carried entry), with the
/// ranks meeting once for all of them instead of twice per sum: every rank but sum k's root
/// (rootOfSum) posts its subtrees of sum k to that root (Ranks::post); the root adds the sum as
/// they arrive. The sums go in rounds of P, one rooted on each rank: each rank computes its subtrees
/// of all the round's sums, posts those of the others' sums, adds its own and waits until what it
/// posted has left. So no rank adds every sum while the others wait, and the messages move while
/// every rank is inside MPI (over TCP a posted send moves only while its sender is). Sum k
/// stays on its root: that rank returns it with only its carried entries set (with a LeafShape,
/// the lower triangle of the symmetric columns: nothing is mirrored, see unpackedCarried); the
/// other ranks return an empty matrix in its place. Send a sum on where it is needed
/// (packedCarried). Collective; `times` as for sumOverOwnedBlocks.
std::vector<Eigen::MatrixXd> sumManyOverOwnedBlocks(const Ranks& ranks, const std::vector<Eigen::Index>& starts,
                                                    std::size_t sums, const ManyLeavesInto& leaf,
                                                    BlockSumTimes* times = nullptr, LeafShape shape = {});

/// The carried entries of M (all of them, or with a LeafShape the symmetric columns' lower triangle
/// and the rest) as one column of doubles, M's size first: half the bytes of a Gram matrix, to send.
Eigen::MatrixXd packedCarried(const Eigen::MatrixXd& M, LeafShape shape);
/// The matrix packedCarried(M) came from, its carried entries written into `into` (resized, so a
/// recycled buffer allocates nothing) and the others left as `into` had them. v's buffer goes to the
/// computation's MatrixPool (a message received: the next one of its size reuses its pages).
Eigen::MatrixXd unpackedCarried(Eigen::MatrixXd v, LeafShape shape, Eigen::MatrixXd into);

/// The first block of each of `ranks` ranks and, last, `weights.size()`: contiguous runs in rank
/// order whose weights add up to about total / ranks each (rank q starts at the first block whose
/// preceding weight reaches q total / ranks). All weights 0: equal counts, as Ranks::firstBlock.
std::vector<Eigen::Index> weightedBlockStarts(const std::vector<double>& weights, int ranks);

} // namespace orbit

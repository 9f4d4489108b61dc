#include "orbit/learn/NormalEquations.hpp"

#include "orbit/linalg/Gram.hpp"
#include "orbit/linalg/MatrixPool.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>
#include <vector>

namespace orbit {

namespace {

/// Block b's [lower(F_b^T F_b) | F_b^T Y_b] over its rows of `rows` (positions ks), dataset row i being
/// F.row(i - offset), written into GB (D x (D + C); column-major, so the Gram part is its first D
/// columns). GB comes recycled from the block sum's tree and the block's rows go to a buffer the
/// thread keeps: a block allocates nothing (it used to take a fresh D x D matrix, a D x (D + C) copy
/// of it and a copy of its rows: gigabytes of page faults per fold at D = 10 000).
void blockEquations(const MatrixXfR& F, Eigen::Index offset, const Indices& rows, const Eigen::MatrixXd& Y,
                    const std::vector<std::size_t>& ks, const Progress& progress, Eigen::MatrixXd& GB)
{
    const Eigen::Index D = F.cols(), C = Y.cols();
    GB.resize(D, D + C);
    if (ks.empty()) {
        GB.setZero();
        return;
    }
    thread_local MatrixXfR Fb;
    Fb.resize(Eigen::Index(ks.size()), D);
    Eigen::MatrixXd Yb(Eigen::Index(ks.size()), C);
    for (std::size_t i = 0; i < ks.size(); ++i) {
        Fb.row(Eigen::Index(i)) = F.row(Eigen::Index(rows[ks[i]]) - offset);
        Yb.row(Eigen::Index(i)) = Y.row(Eigen::Index(ks[i]));
    }
    lowerGramOfColumns(Fb, GB.leftCols(D), progress);  // mirrored once, after the sum (sumOverBlocks)
    GB.rightCols(C) = transposeTimes(Fb, Yb);
}

NormalEquations split(Eigen::MatrixXd GB, Eigen::Index D, std::size_t samples)
{
    NormalEquations n;
    n.samples = static_cast<Eigen::Index>(samples);
    n.G = MatrixPool::take(D, D);
    n.G = GB.leftCols(D);  // symmetric if the block sum mirrored its lower triangle
    n.B = GB.rightCols(GB.cols() - D);
    MatrixPool::give(std::move(GB));
    return n;
}

} // namespace

NormalEquations normalEquations(const MatrixXfR& F, const Indices& rows, const Eigen::MatrixXd& Y,
                                const RowBlocks& blocks, const Ranks& ranks, BlockSumTimes* times,
                                const Progress& progress, bool everyRowEverywhere)
{
    requireSize("normalEquations", "rows of the feature matrix", F.rows(), blocks.rows);
    requireSize("normalEquations", "rows of the targets", Y.rows(), static_cast<long long>(rows.size()));
    const std::vector<std::vector<std::size_t>> inBlock = positionsByBlock(rows, blocks);
    const BlockLeafInto leaf = [&](Eigen::Index b, Eigen::MatrixXd& GB) {
        blockEquations(F, 0, rows, Y, inBlock[std::size_t(b)], progress, GB);
    };
    std::vector<double> weights;
    if (everyRowEverywhere)
        for (const auto& ks : inBlock) weights.push_back(double(ks.size()));
    return split(sumOverBlocks(ranks, blocks.count(), leaf, times, everyRowEverywhere ? &weights : nullptr,
                               LeafShape{F.cols()}),
                 F.cols(), rows.size());
}

NormalEquations normalEquationsOfHeld(const MatrixXfR& held, const std::vector<Eigen::Index>& starts,
                                      const Indices& rows, const Eigen::MatrixXd& Y, const RowBlocks& blocks,
                                      const Ranks& ranks, BlockSumTimes* times, const Progress& progress)
{
    requireSize("normalEquations", "block starts", static_cast<long long>(starts.size()), ranks.size() + 1LL);
    requireSize("normalEquations", "blocks", starts.back(), blocks.count());
    const std::size_t q = static_cast<std::size_t>(ranks.rank());
    const Eigen::Index first = blocks.begin(starts[q]);
    requireSize("normalEquations", "rows held by this rank", held.rows(), blocks.begin(starts[q + 1]) - first);
    requireSize("normalEquations", "rows of the targets", Y.rows(), static_cast<long long>(rows.size()));
    const std::vector<std::vector<std::size_t>> inBlock = positionsByBlock(rows, blocks);
    const BlockLeafInto leaf = [&](Eigen::Index b, Eigen::MatrixXd& GB) {
        blockEquations(held, first, rows, Y, inBlock[std::size_t(b)], progress, GB);
    };
    return split(sumOverOwnedBlocks(ranks, starts, leaf, times, LeafShape{held.cols()}), held.cols(), rows.size());
}

std::vector<NormalEquations> normalEquationsAtRoots(const MatrixXfR& F, const std::vector<Eigen::Index>& starts,
                                                   const std::vector<Indices>& sets,
                                                   const std::vector<Eigen::MatrixXd>& Ys, const RowBlocks& blocks,
                                                   const Ranks& ranks, BlockSumTimes* times, const Progress& progress)
{
    requireSize("normalEquations", "target matrices", static_cast<long long>(Ys.size()), static_cast<long long>(sets.size()));
    std::vector<std::vector<std::vector<std::size_t>>> inBlock;
    for (std::size_t k = 0; k < sets.size(); ++k) {
        requireSize("normalEquations", "rows of the targets", Ys[k].rows(), static_cast<long long>(sets[k].size()));
        inBlock.push_back(positionsByBlock(sets[k], blocks));
    }
    std::vector<Eigen::Index> owners = starts;
    Eigen::Index first = 0;  // the dataset row of F.row(0)
    if (owners.empty()) {
        requireSize("normalEquations", "rows of the feature matrix", F.rows(), blocks.rows);
        std::vector<double> weights(static_cast<std::size_t>(blocks.count()), 0.0);
        for (const auto& byBlock : inBlock)
            for (std::size_t b = 0; b < byBlock.size(); ++b) weights[b] += double(byBlock[b].size());
        owners = weightedBlockStarts(weights, ranks.size());
    } else {
        requireSize("normalEquations", "block starts", static_cast<long long>(starts.size()), ranks.size() + 1LL);
        requireSize("normalEquations", "blocks", starts.back(), blocks.count());
        const std::size_t q = static_cast<std::size_t>(ranks.rank());
        first = blocks.begin(starts[q]);
        requireSize("normalEquations", "rows held by this rank", F.rows(), blocks.begin(starts[q + 1]) - first);
    }
    const ManyLeavesInto leaf = [&](std::size_t k, Eigen::Index b, Eigen::MatrixXd& GB) {
        blockEquations(F, first, sets[k], Ys[k], inBlock[k][std::size_t(b)], progress, GB);
    };
    std::vector<Eigen::MatrixXd> sums = sumManyOverOwnedBlocks(ranks, owners, sets.size(), leaf, times, LeafShape{F.cols()});
    std::vector<NormalEquations> out;
    for (std::size_t k = 0; k < sets.size(); ++k) {
        out.emplace_back();
        out.back().samples = static_cast<Eigen::Index>(sets[k].size());
        if (sums[k].size() == 0) continue;
        out.back().B = sums[k].rightCols(sums[k].cols() - F.cols());
        sums[k].conservativeResize(F.cols(), F.cols());  // keeps the first columns where they are (no copy)
        out.back().G = std::move(sums[k]);
    }
    return out;
}

Eigen::MatrixXd rawTargets(const std::vector<int>& labels, int numClasses)
{
    Eigen::MatrixXd R = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(labels.size()), numClasses + 1);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] < 0 || labels[i] >= numClasses)
            throw ContractError("rawTargets", "label " + std::to_string(labels[i]) + " of " + std::to_string(numClasses) + " classes");
        R(Eigen::Index(i), labels[i]) = 1.0;
    }
    R.col(numClasses).setOnes();
    return R;
}

Eigen::MatrixXd rawTargets(const std::vector<double>& targets)
{
    Eigen::MatrixXd R(static_cast<Eigen::Index>(targets.size()), 2);
    for (std::size_t i = 0; i < targets.size(); ++i) R(Eigen::Index(i), 0) = targets[i];
    R.col(1).setOnes();
    return R;
}

NormalEquations coded(NormalEquations raw, const TargetCoding& coding)
{
    const Eigen::Index C = coding.outputs();
    requireSize("coded", "columns of the raw right-hand side", raw.B.cols(), static_cast<long long>(C + 1));
    const Eigen::VectorXd ones = raw.B.col(C);  // F^T 1
    if (coding.kind == TargetCoding::Kind::PlusMinusOne)
        raw.B = (2.0 * raw.B.leftCols(C) - ones.replicate(1, C)).eval();
    else if (coding.kind == TargetCoding::Kind::OneHot)
        raw.B = raw.B.leftCols(C).eval();
    else
        raw.B = ((raw.B.col(0) - coding.mean * ones) / coding.scale).eval();
    return raw;
}

} // namespace orbit

#pragma once
// The normal equations of a linear model, summed over fixed row blocks so that they are the same
// bits in one process or spread over many (orbit/parallel/BlockSum.hpp).
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/parallel/BlockSum.hpp"

#include <Eigen/Core>

namespace orbit {

/// G = F_R^T F_R (D x D) and B = F_R^T Y (D x C) in double, for the rows R of a feature matrix F.
struct NormalEquations {
    Eigen::MatrixXd G;
    Eigen::MatrixXd B;
    Eigen::Index samples = 0;  ///< |R|
};

/// The normal equations of rows `rows` of F (N x D, float32) with targets Y (Y.row(k) belongs to
/// F.row(rows[k])). Each block b of `blocks` (over F's rows) contributes [F_b^T F_b | F_b^T Y_b] of
/// its rows in R, in increasing row order; the blocks are summed by sumOverBlocks. Only the rows of
/// this rank's blocks of F are read. Collective. Requires rows within [0, N) and no repeats;
/// blocks.rows == N. `progress` is reported to (and may cancel) between 512-row chunks of a block.
/// `everyRowEverywhere`: every rank holds all of F (train gathers the feature rows), so the blocks
/// are owned by how many of `rows` they hold rather than by count (sumOverBlocks' weights): a
/// separate test file's rows, which come last and are in no training set, no longer leave one
/// rank short of products. The same bits either way.
NormalEquations normalEquations(const MatrixXfR& F, const Indices& rows, const Eigen::MatrixXd& Y,
                                const RowBlocks& blocks, const Ranks& ranks, BlockSumTimes* times = nullptr,
                                const Progress& progress = {}, bool everyRowEverywhere = false);

/// The same when F is spread over the ranks: `held` holds only this rank's rows, those of blocks
/// [starts[rank], starts[rank + 1]) of `blocks` (held.row(0) is dataset row blocks.begin(starts[rank])),
/// and each rank sums the blocks it holds (sumOverOwnedBlocks). `rows` are dataset rows in
/// [0, blocks.rows). The same bits as normalEquations on the whole F.
NormalEquations normalEquationsOfHeld(const MatrixXfR& held, const std::vector<Eigen::Index>& starts,
                                      const Indices& rows, const Eigen::MatrixXd& Y, const RowBlocks& blocks,
                                      const Ranks& ranks, BlockSumTimes* times = nullptr, const Progress& progress = {});

/// The normal equations of several row sets of F at once, sets[k] with targets Ys[k] (Ys[k].row(i)
/// belongs to F.row(sets[k][i])): the same bits as normalEquations (or normalEquationsOfHeld) of
/// each set, summed in one sumManyOverOwnedBlocks, so that the ranks meet once for all the sets
/// instead of twice per set. With `starts` empty F holds every row on every rank and the blocks
/// are owned by how many rows of all the sets they hold; else F holds this rank's rows as in
/// normalEquationsOfHeld. Set k's equations stay on its sum's root (rootOfSum(k, P), the ranks in
/// turn), whose G holds the lower triangle only (the strict upper triangle is unspecified:
/// mirrorLower it, or read only the lower triangle, as a Cholesky does); the other ranks get G and
/// B empty (`samples` set). Collective.
std::vector<NormalEquations> normalEquationsAtRoots(const MatrixXfR& F, const std::vector<Eigen::Index>& starts,
                                                   const std::vector<Indices>& sets,
                                                   const std::vector<Eigen::MatrixXd>& Ys, const RowBlocks& blocks,
                                                   const Ranks& ranks, BlockSumTimes* times = nullptr,
                                                   const Progress& progress = {});

/// Targets before any coding, so that normal equations of several row sets can be added first and
/// coded afterwards: one-hot classes (numClasses columns) or the target itself (one column), then a
/// column of ones.
Eigen::MatrixXd rawTargets(const std::vector<int>& labels, int numClasses);
Eigen::MatrixXd rawTargets(const std::vector<double>& targets);

/// The equations of the coded targets from those of rawTargets: every coding is affine in the raw
/// columns (±1 = 2 one-hot - 1, one-hot, (t - mean) / scale), and so is B. G is moved, not copied.
NormalEquations coded(NormalEquations raw, const TargetCoding& coding);

} // namespace orbit

#include "orbit/learn/NormalEquations.hpp"

#include "orbit/learn/Gram.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>
#include <vector>

namespace orbit {

NormalEquations normalEquations(const MatrixXfR& F, const Indices& rows, const Eigen::MatrixXd& Y,
                                const RowBlocks& blocks, const Ranks& ranks, BlockSumTimes* times,
                                const Progress& progress, bool everyRowEverywhere)
{
    requireSize("normalEquations", "rows of the feature matrix", F.rows(), blocks.rows);
    requireSize("normalEquations", "rows of the targets", Y.rows(), static_cast<long long>(rows.size()));
    const Eigen::Index D = F.cols(), C = Y.cols();
    // Positions k of `rows` by block, each block's in increasing row order.
    std::vector<std::vector<std::size_t>> inBlock(static_cast<std::size_t>(blocks.count()));
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (rows[k] >= static_cast<std::size_t>(F.rows()))
            throw ContractError("normalEquations", "row " + std::to_string(rows[k]) + " of " + std::to_string(F.rows()));
        inBlock[static_cast<std::size_t>(blocks.of(Eigen::Index(rows[k])))].push_back(k);
    }
    for (auto& ks : inBlock) std::sort(ks.begin(), ks.end(), [&](std::size_t a, std::size_t b) { return rows[a] < rows[b]; });

    const auto leaf = [&](Eigen::Index b) {
        const std::vector<std::size_t>& ks = inBlock[static_cast<std::size_t>(b)];
        if (ks.empty()) return Eigen::MatrixXd::Zero(D, D + C).eval();
        MatrixXfR Fb(Eigen::Index(ks.size()), D);
        Eigen::MatrixXd Yb(Eigen::Index(ks.size()), C);
        for (std::size_t i = 0; i < ks.size(); ++i) {
            Fb.row(Eigen::Index(i)) = F.row(Eigen::Index(rows[ks[i]]));
            Yb.row(Eigen::Index(i)) = Y.row(Eigen::Index(ks[i]));
        }
        // G grows by C columns in place (column-major: its D x D part stays where it is), sparing
        // a zeroed D x (D + C) matrix and a copy per block.
        Eigen::MatrixXd GB = gramOfColumns(Fb, progress);
        GB.conservativeResize(D, D + C);
        GB.rightCols(C) = transposeTimes(Fb, Yb);
        return GB;
    };
    std::vector<double> weights;
    if (everyRowEverywhere)
        for (const auto& ks : inBlock) weights.push_back(double(ks.size()));
    Eigen::MatrixXd GB = sumOverBlocks(ranks, blocks.count(), leaf, times, everyRowEverywhere ? &weights : nullptr);
    NormalEquations n;
    n.samples = static_cast<Eigen::Index>(rows.size());
    n.G = GB.leftCols(D);
    n.B = GB.rightCols(C);
    return n;
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

#include "orbit/learn/NormalEquations.hpp"

#include "orbit/learn/Gram.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>
#include <vector>

namespace orbit {

NormalEquations normalEquations(const MatrixXfR& F, const Indices& rows, const Eigen::MatrixXd& Y,
                                const RowBlocks& blocks, const Ranks& ranks, BlockSumTimes* times,
                                const Progress& progress)
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
        Eigen::MatrixXd GB = Eigen::MatrixXd::Zero(D, D + C);
        if (ks.empty()) return GB;
        MatrixXfR Fb(Eigen::Index(ks.size()), D);
        Eigen::MatrixXd Yb(Eigen::Index(ks.size()), C);
        for (std::size_t i = 0; i < ks.size(); ++i) {
            Fb.row(Eigen::Index(i)) = F.row(Eigen::Index(rows[ks[i]]));
            Yb.row(Eigen::Index(i)) = Y.row(Eigen::Index(ks[i]));
        }
        GB.leftCols(D) = gramOfColumns(Fb, progress);
        GB.rightCols(C) = transposeTimes(Fb, Yb);
        return GB;
    };
    Eigen::MatrixXd GB = sumOverBlocks(ranks, blocks.count(), leaf, times);
    NormalEquations n;
    n.samples = static_cast<Eigen::Index>(rows.size());
    n.G = GB.leftCols(D);
    n.B = GB.rightCols(C);
    return n;
}

} // namespace orbit

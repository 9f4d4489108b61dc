#include "orbit/training/InputRows.hpp"

#include "training/TrainingGrid.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/util/Random.hpp"
#include "training/RowPlanning.hpp"

#include <algorithm>

namespace orbit {

namespace detail {

std::vector<Eigen::Index> spreadOwners(const std::vector<char>& training, const RowBlocks& blocks, int ranks,
                                       double featureCost, double productCost)
{
    std::vector<double> weights(std::size_t(blocks.count()), 0.0);
    for (std::size_t r = 0; r < training.size(); ++r)
        weights[std::size_t(blocks.of(Eigen::Index(r)))] += featureCost + (training[r] ? productCost : 0.0);
    return weightedBlockStarts(weights, ranks);
}

bool everyPointDataIndependent(const TrainConfig& config)
{
    for (const ParamPoint& p : featurePointsOf(config))
        if (!isDataIndependent(featuresWith(config.features, p))) return false;
    return true;
}

std::vector<std::size_t> medianRows(std::size_t n, const TrainConfig& config)
{
    std::vector<std::size_t> rows;
    for (const ParamPoint& p : featurePointsOf(config))
        if (p.count("median")) {
            rows = medianSampleRows(n, 1000, config.seed);
            break;
        }
    if (usesMedianRule(config.kernel)) {
        const std::vector<std::size_t> more = medianSampleRows(n, 1000, featureSeed(config.seed));
        rows.insert(rows.end(), more.begin(), more.end());
    }
    return rows;
}

} // namespace detail

using detail::everyPointDataIndependent;
using detail::isDataIndependent;
using detail::medianRows;

std::vector<char> trainingInputRows(const Dataset& data, const TrainConfig& config, const Ranks& ranks)
{
    config.validate();
    const std::size_t n = data.count();
    if (ranks.size() == 1 || n < 4 || !everyPointDataIndependent(config)) return {};
    // The features of a rank are its run of blocks: of equal cost (spread, spreadOwners) or of equal
    // counts (gathered). A block's cost is a rows x f + training rows x p for the map's f and p;
    // where a run starts (weightedBlockStarts) lies between where it starts when only the rows
    // count (p = 0, the equal counts' starts but for the short last block) and where it starts when
    // only the training rows do (f = 0): the cumulative share of a mixture is a mixture of shares.
    // The window from the earliest to the latest of those starts, a block wider each way against
    // rounding at the thresholds, holds the rows of this rank at every grid point.
    const RowBlocks blocks{Eigen::Index(n), Eigen::Index(config.blockRows)};
    std::vector<char> training(n, 0);
    for (const Split& s : outerSplits(data, config))
        for (std::size_t row : s.train) training[row] = 1;
    std::vector<double> rows(std::size_t(blocks.count()), 0.0), trained(rows.size(), 0.0);
    for (std::size_t r = 0; r < n; ++r) {
        rows[std::size_t(blocks.of(Eigen::Index(r)))] += 1.0;
        trained[std::size_t(blocks.of(Eigen::Index(r)))] += training[r];
    }
    const auto q = std::size_t(ranks.rank());
    Eigen::Index first = ranks.firstBlock(blocks.count(), ranks.rank());
    Eigen::Index last = ranks.lastBlock(blocks.count(), ranks.rank());
    for (const std::vector<double>* weights : {&rows, &trained}) {
        const std::vector<Eigen::Index> starts = weightedBlockStarts(*weights, ranks.size());
        first = std::min(first, starts[q]);
        last = std::max(last, starts[q + 1]);
    }
    first = std::max<Eigen::Index>(0, first - 1);
    last = std::min(blocks.count(), last + 1);
    std::vector<char> wanted(n, 0);
    std::fill(wanted.begin() + blocks.begin(first), wanted.begin() + blocks.begin(last), 1);
    for (std::size_t r : medianRows(n, config)) wanted[r] = 1;
    return wanted;
}

std::vector<char> featureInputRows(std::size_t n, const std::string& features, const std::string& kernel,
                                   std::uint64_t seed, long long blockRows, const Ranks& ranks)
{
    if (ranks.size() == 1 || !isDataIndependent(features)) return {};
    const RowBlocks blocks{Eigen::Index(n), Eigen::Index(blockRows)};
    std::vector<char> wanted(n, 0);
    std::fill(wanted.begin() + ranks.firstRow(blocks), wanted.begin() + ranks.lastRow(blocks), 1);
    if (usesMedianRule(kernel))
        for (std::size_t r : medianSampleRows(n, 1000, seed)) wanted[r] = 1;
    return wanted;
}

} // namespace orbit

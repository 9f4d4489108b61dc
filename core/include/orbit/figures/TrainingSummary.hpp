#pragma once
// What the Training panel draws from a TrainResult, computed here so `orbitlab-cli train --json`
// reports the same numbers: the validation score along one grid axis and the fold statistics.
#include "orbit/training/Training.hpp"

#include <string>
#include <vector>

namespace orbit {

/// The validation score along one grid axis: at every value x of `axis` (ascending), the best
/// validation score over the other axes' values (max for accuracy, min for RMSE) and the largest
/// finite log evidence (blr; NaN where there is none).
struct AxisCurve {
    std::string axis;
    std::vector<double> x, validation, logEvidence;
    bool hasEvidence() const;
};

/// The curve along `axis` from the result's grid rows; empty when no row has that axis.
AxisCurve curveAlong(const TrainResult& result, const std::string& axis);

/// The axis to plot: `preferred` when the grid has it, else the first of lambda, C, median with at
/// least two values, else the first other axis with at least two values, else the first axis;
/// empty for an empty grid.
std::string chooseMainAxis(const TrainResult& result, const std::string& preferred = {});

/// Mean and standard deviation of one column of the per-fold table.
struct FoldSpread {
    double mean = 0.0;
    double sd = 0.0;  ///< population: sqrt((1/K) sum_f (v_f - mean)^2), as TrainResult::stddev
};

/// The summary row of the per-fold table over the K folds of a result. score.mean and score.sd are
/// TrainResult::mean and ::stddev; mae (regression) and logEvidence (blr) are summarised the same
/// way about the result's own means; seconds is the mean time per fold.
struct FoldSummary {
    int folds = 0;
    FoldSpread score;
    bool hasMae = false, hasEvidence = false;
    FoldSpread mae, logEvidence;
    double seconds = 0.0;
};

FoldSummary summarizeFolds(const TrainResult& result);

} // namespace orbit

#pragma once
// Private to the CLI: the JSON and text forms of a TrainResult (shared by `train` and `experiment`).
#include "orbit/cli/Json.hpp"
#include "orbit/training/Training.hpp"

#include <iosfwd>
#include <string>

namespace orbit::cli {

/// {metric, mean, std, folds: [{score, mae?, log_evidence?, chosen, seconds}], mae?, chosen (per
/// fold), log_evidence?, seconds, feature_dim, features, grid: [{params, validation, log_evidence?}],
/// confusion?, learning_curve?}.
Json trainResultJson(const TrainResult& r);

/// {features, products, reduction, solve} seconds of `s` (the slowest rank's).
Json stageSecondsJson(const StageCosts& s);

/// A few human-readable lines.
void printTrainResult(std::ostream& out, const TrainResult& r);

/// "lambda=0.001, median=1" (the ParamPoint in the order of its keys).
std::string chosenText(const ParamPoint& p);

/// Progress to stderr ("\r train 42% ...") when io.progress is set.
Progress terminalProgress(std::ostream& err, bool enabled, const std::string& prefix);

} // namespace orbit::cli

#pragma once
// Learning curves: a score as a function of the training-set size.
#include "orbit/util/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace orbit {

struct LearningCurvePoint {
    std::size_t trainSize = 0;
    double score = 0.0;
};

/// For each n in `sizes`, trains on the first n indices of a seeded permutation of split.train
/// (so the training sets are nested: the set for a smaller n is contained in that for a larger one)
/// and scores on the whole split.test via `score`.
///
/// Requires: 1 <= n <= split.train.size() for every n; `score` returns a finite number.
/// Progress is reported before each size; a true return throws Cancelled.
std::vector<LearningCurvePoint> learningCurve(const Split& split, const std::vector<std::size_t>& sizes,
                                              std::uint64_t seed,
                                              const std::function<double(const Split&)>& score,
                                              const Progress& progress = {});

} // namespace orbit

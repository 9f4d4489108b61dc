#pragma once
// Private to the `train` engine (Training.cpp): the seed stream of the inner splits, and what the
// nested splits allow: the row sets all folds can share and the smallest fit (NestedSplits.cpp, with
// outerSplits and innerSplits of Training.hpp).
#include "orbit/evaluation/Splits.hpp"
#include "training/TrainingLearners.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace orbit::detail {

/// The seed stream of fold f's inner validation split: kInnerStream + f (innerSplits).
constexpr std::uint64_t kInnerStream = 1000;

/// The row sets a learner that sums over rows can share across all folds of a run, when the outer
/// test sets are disjoint and each fold trains on exactly the others' test rows (k-fold, the
/// dataset's folds): cells the outer test sets, removable the inner validation sets (an inner fit
/// trains on its fold's cells less one of them). Its product rows, the folds' rows once plus the
/// validation rows, must be fewer than the per-fold cells' (every fold's training rows); else nullopt.
std::optional<SharedRowSets> runCells(const std::vector<Split>& outer, const std::vector<std::vector<Split>>& inner,
                                      std::size_t n);

/// The fewest training rows of any fit of the run (an inner split's, or a fold's without one).
std::size_t smallestTraining(const std::vector<Split>& outer, const std::vector<std::vector<Split>>& inner);

} // namespace orbit::detail

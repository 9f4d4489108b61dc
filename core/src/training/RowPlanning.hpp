#pragma once
// Private to the `train` engine (training/Training.cpp) and InputRows.cpp: the row planning of a
// run over several ranks, kept apart from the trainer.
#include "orbit/training/Training.hpp"
#include "orbit/parallel/BlockSum.hpp"

#include <cstddef>
#include <vector>

namespace orbit::detail {

/// Who holds which rows of spread features: contiguous runs of blocks of about equal cost, a block
/// costing the features of its rows plus the products of those in some training set (`training`),
/// so that test rows that come last (--test-data) share out evenly. Any owners give the same bits.
std::vector<Eigen::Index> spreadOwners(const std::vector<char>& training, const RowBlocks& blocks, int ranks,
                                       double featureCost, double productCost);

/// Whether every feature point's map fits on its seed alone (so no rank needs rows but its own).
bool everyPointDataIndependent(const TrainConfig& config);

/// The rows of the median rule's samples a run reads: the input bandwidth's (config seed) when a
/// grid point takes the median rule, and the base kernel's (feature seed) when --kernel does.
std::vector<std::size_t> medianRows(std::size_t n, const TrainConfig& config);

} // namespace orbit::detail

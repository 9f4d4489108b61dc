#pragma once
// The inverse of a lower-triangular factor (the whitening of the Nyström map: L = C^-1 for
// K = C C^T, so L^T L = K^-1).
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"

#include <Eigen/Core>

namespace orbit {

/// C^-1 for the lower-triangular factor C (lower triangle of `C` read), by 64-column tiles: tile J
/// solves the trailing triangle for its unit vectors, each tile on one thread (the bits do not
/// depend on the thread count). Reports to `progress` every two tiles per thread (under a second
/// at s = 10000); a cancel throws Cancelled.
MatrixXfR inverseLower(const Eigen::MatrixXd& C, const Progress& progress = {});

} // namespace orbit

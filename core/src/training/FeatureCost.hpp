#pragma once
// Private to the `train` engine: how many rows one transform call of a feature map gets, from a
// cost model of the map on this data.
#include "orbit/data/Dataset.hpp"

#include <Eigen/Core>

#include <string>

namespace orbit::detail {

/// The sum over rows [first, last) of X of each row's length up to its last non-zero column (at
/// least 1): an integer, so partial sums of many ranks add up to the same bits in any order.
double inputLengthSum(const MatrixXfR& X, Eigen::Index first, Eigen::Index last);

/// The mean over rows of 1 + the last non-zero column (`meanLength`, from inputLengthSum; products
/// skip trailing zeros: zero-padded molecules), a quarter of it for Coulomb matrices when the map
/// folds them onto one triangle and sorts a block's molecules by size (rf, irf, kif: most products
/// run on far fewer columns). Nystrom and GICDF need the true norms and keep the whole matrix.
double effectiveInputSize(DataKind kind, const std::string& spec, double meanLength);

/// The cost of one row's features, in the units of featureBlockRows: effective input size x features
/// x orbit samples r (multiply-adds of the templates against the orbit; 1 sample for maps without r).
double featureRowCost(const std::string& spec, double inputDim, Eigen::Index dim);

/// The cost of one training row's share of the normal equations (F_b^T F_b: D^2 / 2 multiply-adds,
/// accumulated in double), in the same units: 2.3 times a feature multiply-add, as measured on one
/// thread of this build (docs/results.md, Many processes).
double productRowCost(Eigen::Index dim);

/// Rows per transform call in Trainer::features: 256, halved while a block would cost more than
/// 2^34 units (rows x effective input size x features x orbit samples r; about half a second on two
/// cores: a cancel is still seen within a second), at least 1. Depends on the spec and sizes only, so
/// the partition is fixed. Not fewer: every call packs the map's moved templates afresh for its
/// rows, and at 32 rows a call (the 5000 rotated digits, irf:s=4000,r=32, under the earlier 64 and
/// 2^32) the packing took as long as the products (perf: sgemm_incopy 34 %, the kernel 36 %).
Eigen::Index featureBlockRows(const std::string& spec, double inputDim, Eigen::Index dim);

} // namespace orbit::detail

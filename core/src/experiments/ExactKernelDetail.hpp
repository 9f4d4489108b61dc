#pragma once
// What the exact kernel machines (ExactKernelMachines.cpp) and the locality learned by their GP
// (ExactGpLocality.cpp) share: the base kernel and its distance, the target coding, the scores.
#include "orbit/data/Dataset.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/learn/TargetCoding.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace orbit::detail {

using ExactClock = std::chrono::steady_clock;
double exactSeconds(ExactClock::time_point t0);

/// The base kernel of an exact machine with its bandwidth from the training rows (median rule);
/// SpecError("kernel") unless it is shift-invariant.
BaseKernel exactBaseKernel(const std::string& spec, const MatrixXfR& trainingInputs, std::uint64_t seed);
/// The distance a kernel family's spec is a function of (SpecError for the polynomial kernel).
BaseKernel::Distance exactDistance(const std::string& spec);
/// "laplacian:sigma=3.2 on exact:r=4": what a failed Cholesky names.
std::string exactWhat(const BaseKernel& k, const std::string& features);
/// The median distance of a kernel's family on the training rows: sigma of `spec` with median=1.
double exactMedian(const std::string& spec, const MatrixXfR& trainingInputs, std::uint64_t seed);
/// Accuracy (classes) or RMSE (regression, with the MAE in *maeOut) of decisions F on `test`.
double exactScore(const Dataset& data, const TargetCoding& coding, const Eigen::MatrixXd& F, const Indices& test, double* maeOut);
/// The coding of the training rows' targets: classes with `classKind`, or standardised values.
TargetCoding exactCoding(const Dataset& data, const Indices& train, TargetCoding::Kind classKind);
/// The coded targets of `rows`.
Eigen::MatrixXd exactTargets(const Dataset& data, const TargetCoding& coding, const Indices& rows);
/// Kernel ridge on a Gram: (K + lambda I)^-1 Y, or nullopt when not positive definite.
std::optional<Eigen::MatrixXd> exactRidgeSolve(const Eigen::MatrixXd& K, const Eigen::MatrixXd& Y, double lambda);

/// Which rank computes outer fold f of K: folds are dealt out whole, fold f to rank f mod P.
inline int exactFoldOwner(std::size_t f, int ranks) { return int(f % std::size_t(ranks)); }

} // namespace orbit::detail

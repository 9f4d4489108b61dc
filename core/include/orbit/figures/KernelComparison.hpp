#pragma once
// The Kernels panel's four matrices: the base kernel, the Monte Carlo invariant kernel, a feature
// map's approximation of it and their difference, with the relative errors (`orbitlab-cli kernel
// --features`).
#include "orbit/util/Progress.hpp"
#include "orbit/figures/ApproxError.hpp"
#include "orbit/features/FeatureMap.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <string>

namespace orbit {

struct KernelComparisonConfig {
    int r = 20;                             ///< group samples per point of the Monte Carlo kernel (>= 1)
    std::string features = "irf:s=200,r=20";  ///< the approximating map (makeFeatureMap)
    std::uint64_t seed = 0;
};

/// On the n rows x_i of X (row i treated as dataset index i, e.g. the points of kernelPlotIndices):
///   base(i, j)       = k(x_i, x_j);
///   invariant(i, j)  = Monte Carlo k_qG, V-statistic with r samples g ~ q per point
///                      (invariantKernelMatrix with OrbitSampler(group, dist, shape, r, seed): the
///                      matrix `orbitlab-cli kernel --method mc` writes);
///   approx(i, j)     = <psi(x_i), psi(x_j)> of the map fitted on X with seed ^ "kernels" (its
///                      randomness independent of the Monte Carlo samples);
///   difference       = approx - invariant; error = relativeError(difference, invariant's norms).
/// Products run single-threaded in Eigen: the same seed gives the same bits at any thread count.
struct KernelComparison {
    std::string kernelSpec;  ///< the resolved base kernel, e.g. "gaussian:sigma=5.3"
    std::string featureSpec; ///< the map's spec
    std::string mapKernel;   ///< what the map approximates, in words (FeatureMap::kernel)
    Eigen::MatrixXd base, invariant, approx, difference;
    MatrixXfR features;      ///< psi(x_i), n x D
    RelativeError error;
};

/// Two kernel matrices of the same points, A and B, side by side (the A/B comparison of the Kernels
/// figure): the difference B - A and its size relative to A, ||B - A||_F / ||A||_F (0 when A is zero).
struct MatrixDifference {
    Eigen::MatrixXd difference;
    double relativeFrobenius = 0.0;
};
/// Requires matrices of one size (ContractError naming both otherwise).
MatrixDifference differenceOf(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);

/// The seed the approximating map is fitted with, from the comparison's seed.
std::uint64_t kernelMapSeed(std::uint64_t seed);

/// Requires a context with group, distribution and kernel (SpecError("group") otherwise), r >= 1
/// (SpecError("r")), X with at least two rows (SpecError("points")). `progress` reports each stage
/// and the map's fit, and may cancel (orbit::Cancelled).
KernelComparison compareKernels(const MatrixXfR& X, const FeatureContext& context, const KernelComparisonConfig& config,
                                const Progress& progress = {});

} // namespace orbit

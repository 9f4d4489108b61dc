#include "orbit/figures/KernelComparison.hpp"

#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"

#include "features/FitProgress.hpp"
#include "util/Deterministic.hpp"

#include <string>

namespace orbit {

std::uint64_t kernelMapSeed(std::uint64_t seed) { return seed ^ 0x6b65726e656c73ULL; }  // "kernels"

MatrixDifference differenceOf(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b)
{
    requireSize("differenceOf", "rows of B", b.rows(), a.rows());
    requireSize("differenceOf", "columns of B", b.cols(), a.cols());
    MatrixDifference d;
    d.difference = b - a;
    const double normA = a.norm();
    d.relativeFrobenius = normA > 0 ? d.difference.norm() / normA : 0.0;
    return d;
}

KernelComparison compareKernels(const MatrixXfR& X, const FeatureContext& context, const KernelComparisonConfig& config,
                                const Progress& progress)
{
    if (!context.group || !context.dist || !context.kernel)
        throw SpecError("group", "the kernel comparison needs a group, a distribution and a base kernel");
    if (config.r < 1) throw SpecError("r", "must be >= 1", std::to_string(config.r));
    if (X.rows() < 2) throw SpecError("points", "need at least two", std::to_string(X.rows()));
    KernelComparison result;
    const BaseKernel& kernel = *context.kernel;
    result.kernelSpec = kernel.spec();
    reportProgress(progress, 0.05, "base kernel");
    {
        const detail::SerialEigen serial;
        result.base = kernel.matrix(X, X).cast<double>();
    }
    reportProgress(progress, 0.1, "Monte Carlo invariant kernel (r = " + std::to_string(config.r) + ")");
    const OrbitSampler sampler(context.group, context.dist, context.shape, config.r, config.seed);
    // Every pair of points, r^2 kernel values each: minutes at N = 1000, r = 64; it polls for a cancel.
    result.invariant = invariantKernelMatrix(X, sampler, kernel, Estimator::V,
                                             detail::subProgress(progress, 0.1, 0.6, "Monte Carlo invariant kernel: "));
    reportProgress(progress, 0.6, "fitting " + config.features);
    const auto map = makeFeatureMap(config.features, context);
    result.featureSpec = map->spec();
    // The fit (moving r s templates) reports every few tens of milliseconds and stops on a cancel.
    map->fit(X, kernelMapSeed(config.seed), detail::subProgress(progress, 0.6, 0.8, "fitting " + config.features + ": "));
    result.mapKernel = map->kernel();
    reportProgress(progress, 0.8, "features");
    result.features = map->transform(X);
    const Eigen::MatrixXd F = result.features.cast<double>();
    {
        const detail::SerialEigen serial;
        result.approx = F * F.transpose();
    }
    result.difference = result.approx - result.invariant;
    result.error = relativeError(result.difference, ReferenceNorms(result.invariant));
    reportProgress(progress, 1.0, "done");
    return result;
}

} // namespace orbit

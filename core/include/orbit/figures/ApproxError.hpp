#pragma once
// LGIKA Figure 1: how well invariant RF / Nystrom features approximate the invariant kernel.
#include "orbit/util/Progress.hpp"
#include "orbit/features/FeatureMap.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace orbit {

struct ApproxErrorConfig {
    std::string method = "rf";     ///< an approximation the error figure draws (registry/Figures.hpp): rf (LGIKA eq. 7), nystrom (eq. 8)
    std::vector<int> sList;        ///< numbers of templates / landmarks
    std::vector<int> rList;        ///< group samples per feature map
    int refR = 70;                 ///< group samples per point of the reference kernel
    int repeats = 1;               ///< independent feature draws averaged per (r, s)
    std::uint64_t seed = 0;
    /// Throws SpecError naming the field when empty lists, s/r < 1, or an unknown method.
    void validate() const;
};

/// Normalised errors of an approximation K_hat of a kernel matrix K, E = K - K_hat (or K_hat - K):
/// ||E||_2 / ||K||_2 (spectralNorm: Spectra Lanczos) and ||E||_F / ||K||_F.
struct RelativeError {
    double spectral = 0, frobenius = 0;
};

/// The norms of the reference K, computed once for many approximations.
struct ReferenceNorms {
    double spectral = 0, frobenius = 0;
    /// Throws SpecError("kernel") when K is zero (no relative error exists).
    explicit ReferenceNorms(const Eigen::MatrixXd& K);
};

/// The relative errors of the difference E against the reference's norms (E symmetric).
RelativeError relativeError(const Eigen::MatrixXd& E, const ReferenceNorms& reference);

struct ApproxErrorRow {
    std::string method;
    int r = 0, s = 0;
    double spectral = 0, frobenius = 0;  ///< ||K - K_hat|| / ||K||, averaged over the repeats
};

/// K = Monte Carlo k_qG on the rows of X with refR group samples per point (V-statistic, samples
/// independent of the feature maps'); for each r and s, K_hat = Psi Psi^T of the fitted map, and the
/// normalised errors ||K - K_hat||_2 / ||K||_2 (Spectra Lanczos) and ||K - K_hat||_F / ||K||_F.
/// context needs the group, distribution and kernel. `progress(done, total)` may be empty.
std::vector<ApproxErrorRow> approximationError(const MatrixXfR& X, const FeatureContext& context,
                                               const ApproxErrorConfig& config,
                                               const std::function<void(int, int)>& progress = {});

/// The same computation, reporting as it goes (for live plots): `onRow` receives each (r, s) row as
/// soon as it is finished (in rList x sList order), `progress` the fraction done and the current
/// step, and may cancel (orbit::Cancelled is thrown before the next unit of work). Either may be
/// empty. Returns all rows, identical to the other overload for the same config.
std::vector<ApproxErrorRow> approximationError(const MatrixXfR& X, const FeatureContext& context,
                                               const ApproxErrorConfig& config,
                                               const std::function<void(const ApproxErrorRow&)>& onRow,
                                               const Progress& progress);

/// n points of a dataset for kernel plots: a random subset (drawn with `seed`; all points when
/// n >= count), ordered by label (then index) so heatmaps show class blocks, or for regression
/// targets by target (then index) so similar targets sit together. Requires n >= 1.
std::vector<std::size_t> kernelPlotIndices(const Dataset& data, std::size_t n, std::uint64_t seed);

} // namespace orbit

#pragma once
// The long tasks of the Kernels and Approximation panels and of the invariance probe: config
// structs copied into the task, results that carry the request they were computed for.
#include "state/AnalysisSettings.hpp"
#include "state/OrbitSettings.hpp"
#include "state/workers/Worker.hpp"

#include "orbit/data/Dataset.hpp"
#include "orbit/figures/ApproxError.hpp"

#include <Eigen/Core>

#include <QMetaType>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace orbitui {

/// Kernel heatmaps of N points: base kernel k, Monte Carlo k_qG and a feature map's approximation.
struct KernelRequest {
    std::shared_ptr<const orbit::Dataset> dataset;
    OrbitSettings settings;         ///< group, distribution and seed
    int n = 100;                    ///< points, chosen by kernelPlotIndices (ordered by label, or by target)
    int r = 20;                     ///< group samples per point of the Monte Carlo kernel and of the map
    std::string method = "rf";      ///< an approximation of the Kernels figure (orbit/registry/Figures.hpp)
    int s = 200;                    ///< templates / landmarks (GICDF: templates m)
    std::string kernel = "gaussian";  ///< the base kernel without its median multiple (state/KernelChoice.hpp)
    double bandwidth = 1.0;         ///< sigma = bandwidth x median pairwise distance (median-rule kernels)
    /// When not empty: these dataset rows, in this order, instead of kernelPlotIndices (n of them;
    /// the A of an A/B comparison on B's points).
    std::vector<std::size_t> points;
    /// The feature-map spec of method, s and r, e.g. "irf:s=200,r=20".
    std::string featureSpec() const;
    /// The base kernel: `kernel` with median=B, the bandwidth's shortest round-trip number, when it
    /// takes the median rule ("gaussian:median=1", "laplacian:median=2", "matern:nu=2.5,sigma=3").
    std::string kernelSpec() const;
    /// Throws SpecError naming the field (N, r, s, approximation, bandwidth, kernel) when a value is
    /// outside the Kernels figure's range (orbit::kernelsFigure) or the dataset of `count` samples,
    /// or the kernel is not one the registry takes.
    void validate(std::size_t count) const;
};

/// The request the Kernels settings `k` make with `orbit` on a dataset of `samples` rows (0: not
/// known): N capped at the samples, r as set or, when 0, the orbit's r, and the method, s and
/// bandwidth as set. The Kernels panel, its A/B view and Copy as command all build it here; the
/// caller gives the dataset (and, for A on B's points, the points).
KernelRequest kernelRequest(const KernelsSettings& k, const OrbitSettings& orbit, std::size_t samples);

struct KernelResult {
    KernelRequest request;
    std::vector<std::size_t> indices;     ///< dataset index of row i
    QStringList labels;                   ///< caption of row i (class or target)
    std::string kernelSpec;               ///< the resolved base kernel, e.g. "gaussian:sigma=5.3"
    std::string mapKernel;                ///< what the map approximates, in words
    Eigen::MatrixXd base;                 ///< k(x_i, x_j)
    Eigen::MatrixXd invariant;            ///< Monte Carlo k_qG(x_i, x_j), r samples per point
    Eigen::MatrixXd approx;               ///< <psi(x_i), psi(x_j)>
    Eigen::MatrixXd difference;           ///< approx - invariant
    orbit::MatrixXfR features;            ///< psi(x_i), N x D: the features behind `approx`
    double frobenius = 0.0;               ///< ||K - K_hat||_F / ||K||_F
    double spectral = 0.0;                ///< ||K - K_hat||_2 / ||K||_2
    double seconds = 0.0;
};

Task makeKernelTask(KernelRequest request);

/// A base-kernel spec for people: "gaussian:sigma=6.757..." -> "Gaussian σ = 6.76", "matern:nu=2.5,sigma=3"
/// -> "Matérn ν = 2.5, σ = 3" (the registry's display name and parameter symbols).
QString describeKernel(const std::string& spec);

/// LGIKA Figure 1 on n points of the dataset.
struct ApproxRequest {
    std::shared_ptr<const orbit::Dataset> dataset;
    OrbitSettings settings;
    int n = 100;
    orbit::ApproxErrorConfig config;  ///< method, sList, rList, refR, repeats, seed
    double bandwidth = 1.0;
    /// The values of the settings' s list that the method cannot take (above n for Nyström), left out of config.sList.
    std::vector<int> sDropped;
    /// "gaussian:median=B", as KernelRequest::kernelSpec.
    std::string kernelSpec() const;
};

/// The request the Approximation settings `a` make with `orbit` on a dataset of `samples` rows (0:
/// not known): n capped at the samples, the orbit's seed, and the s list without the values a method
/// whose s is at most the points cannot take (sDropped). The panel, its A/B view and Copy as command
/// all build it here.
ApproxRequest approxRequest(const ApproximationSettings& a, const OrbitSettings& orbit, std::size_t samples);

struct ApproxResult {
    ApproxRequest request;
    std::vector<orbit::ApproxErrorRow> rows;
    std::string kernelSpec;
    double seconds = 0.0;
};

Task makeApproxTask(ApproxRequest request);

/// The invariance probe of one input: cos-similarity of psi(x) and psi(g x) as g sweeps the group,
/// for an invariant RF map (r group samples) and, in contrast, a plain RF map.
struct ProbeRequest {
    std::shared_ptr<const orbit::Dataset> dataset;
    int index = 0;
    OrbitSettings settings;
    int s = 200;          ///< random features of both maps
    int fitCount = 200;   ///< samples the maps and the median bandwidth are fitted on
    int points = 73;
};

struct ProbeResult {
    ProbeRequest request;
    QString parameter;               ///< the swept parameter, e.g. "theta (rad)"
    std::vector<double> values;
    std::vector<double> invariantSimilarity, plainSimilarity;
    std::string invariantSpec, plainSpec;
    double seconds = 0.0;
};

Task makeProbeTask(ProbeRequest request);

} // namespace orbitui

Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::KernelResult>)
Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::ApproxResult>)
/// A finished (s, r) point of a running approximation experiment, handed over as partial(id, row).
Q_DECLARE_METATYPE(orbit::ApproxErrorRow)
Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::ProbeResult>)

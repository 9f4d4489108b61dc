#pragma once
// Exact invariant kernel machines (`--features exact:r=R`): kernel ridge regression and Gaussian
// processes on the invariant kernel k_G(x, y) = E_{g ~ q(.|x), g' ~ q(.|y)} k(g x, g' y) itself, no
// feature map; and the locality learned by the GP's exact log marginal likelihood (`learn --learner
// gp`), fold by fold.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/LocalityConfig.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/learn/GaussianProcess.hpp"
#include "orbit/registry/Registry.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace orbit {

/// The descriptor of `exact:r=R[,centres=M[,iterations=I]]`: kept apart from the feature maps (it
/// builds no map; only the kernel learners take it), so the panels that build every map do not list it.
const FeatureMapDescriptor& exactKernelDescriptor();
/// Whether a --features spec is `exact:...`.
bool isExactKernelSpec(const std::string& features);

/// A parsed `exact:r=R[,centres=M[,iterations=I]]`.
struct ExactKernelSpec {
    int r = 4;              ///< group samples per input (ignored for an exact Haar sum)
    long long centres = 0;  ///< > 0: krr by m-centre FALKON (orbit/learn/Falkon.hpp)
    int iterations = 50;    ///< with centres: the cap on conjugate-gradient iterations
};
/// SpecError("features", ...) on bad text.
ExactKernelSpec parseExactKernelSpec(const std::string& features);

/// The orbit samples of the exact kernel: R per input from the per-input sub-streams of `seed`
/// (OrbitSampler: common random numbers, the same base draws at every parameter value), or every
/// element of a finite group (cyclic, orthogonal) when the distribution is haar: then k_G is the
/// exact Haar sum. Without a group, the inputs themselves (R = 1: the base kernel).
struct ExactOrbits {
    MatrixXfR orbits;      ///< R consecutive rows per input
    int r = 1;
    bool haarSum = false;  ///< the exact sum over a finite group
};
ExactOrbits exactOrbits(const Dataset& data, const std::string& group, const std::string& dist, int r, std::uint64_t seed);
/// The tangents of exactOrbits' rows (sampled, not a Haar sum) in the distribution's parameter
/// `param`: row i R + k is d(g_{i,k} x_i) / d param at the same base draws (Group::applyTangent of
/// Distribution::sampleWithTangents). SpecError("learn") when the group's action or the parameter
/// has no derivative.
MatrixXfR exactOrbitTangents(const Dataset& data, const std::string& group, const std::string& dist, int r, std::uint64_t seed,
                             const std::string& param);
/// The tangents in several parameters at once, from one sampling pass (the same draws): element k
/// is exactOrbitTangents(..., params[k]).
std::vector<MatrixXfR> exactOrbitTangents(const Dataset& data, const std::string& group, const std::string& dist, int r,
                                          std::uint64_t seed, const std::vector<std::string>& params);

/// The exact invariant kernel between the rows of A and the rows of B (inputs of `kind` and
/// `shape`): K(i, j) = k_G(a_i, b_j) at the bandwidth of `kernel`, each row's R group samples drawn
/// from the sub-stream of its own index in its matrix (so a row's samples follow its place: the
/// Python estimators' sample-order checks do not apply). Requires a stationary kernel.
Eigen::MatrixXd exactKernelMatrix(const MatrixXfR& A, const MatrixXfR& B, DataKind kind, const Shape& shape,
                                  const std::string& group, const std::string& dist, const BaseKernel& kernel, int r,
                                  std::uint64_t seed);

/// A Gaussian process fitted on the exact invariant kernel of the rows X (what the Python
/// estimator keeps): the kernel with its fitted bandwidth, the signal and noise variance, the log
/// marginal likelihood and the dual weights alpha = C^-1 Y of the coded targets Y.
struct ExactGpModel {
    std::string kernel;     ///< the base kernel with its fitted bandwidth ("laplacian:sigma=812.5")
    GpHyper hyper;
    double logLikelihood = 0.0;
    Eigen::MatrixXd alpha;  ///< n x m
    int evaluations = 0;
};
/// Fits it: the kernel's median rule on X, then fitGaussianProcess (bandwidth too unless the spec
/// gives sigma) within at most maxEvaluations evaluations. SpecError naming the field on bad specs.
ExactGpModel fitExactGp(const MatrixXfR& X, const Eigen::MatrixXd& Y, DataKind kind, const Shape& shape,
                        const std::string& group, const std::string& dist, const std::string& kernel, int r,
                        std::uint64_t seed, int maxEvaluations, const Progress& progress = {});

/// The seed of the group samples of exact kernels for a run with --seed `seed`.
std::uint64_t exactOrbitSeed(std::uint64_t seed);

/// train() with `exact:` features (Training.hpp calls it): for each outer split,
///  - krr: kernel ridge regression on k_G with the bandwidth (`median` multiples of the training
///    rows' median distance, or `bandwidth`) and lambda chosen on the inner validation split(s);
///  - gp: a Gaussian process whose bandwidth, signal and noise variance maximise the log marginal
///    likelihood of the training rows; reports it as the fold's log evidence.
/// Everything a fold learns reads its training rows only (the median rule included). The Gram
/// matrices are in double precision, with jitter when a Cholesky needs it.
/// With `centres=M` (krr only; gp refuses it: its marginal likelihood needs the exact solve) no
/// n x n matrix is formed: FalkonSolver solves the M-centre Nystrom system, M training rows drawn
/// uniformly with the run's seed (M at most a fold's training rows: SpecError("features
/// exact.centres") otherwise; an inner split with fewer rows takes them all), at the lambda of
/// exact krr (the solver's lambda n = krr's lambda, so M = n gives exact krr), the bandwidth and
/// lambda chosen on the inner split(s) as above. K_nm is kept in memory (float) up to 4 GiB and
/// recomputed in row blocks in every CG iteration past that. Each fold's `chosen` adds `centres`,
/// `cg_iterations` and `cg_residual` (the refit's on the fold's training rows: the largest relative
/// preconditioned residual, above 1e-6 when the iteration cap stopped it).
/// Spread over `ranks`: whole outer folds are dealt out (fold f on rank f mod P; every rank holds the
/// orbit distances of all rows), and every rank gets every fold's result: the same bits at any P.
/// The m-centre solver runs whole on every rank.
TrainResult trainExact(const Dataset& data, const TrainConfig& config, const Progress& progress = {},
                       const Ranks& ranks = oneProcess());

/// One outer evaluation of learnExactGp with several parameters: the point, the maximised log
/// marginal likelihood there and, for smooth parameters, its derivative in each (envelope theorem).
struct ExactLearnPoint {
    std::map<std::string, double> params;
    double logEvidence = 0.0;
    std::map<std::string, double> slopes;  ///< d log marginal likelihood / d parameter (empty without)
};

/// One fold of learnExactGp.
struct ExactLearnFold {
    std::map<std::string, double> params;   ///< the learned distribution parameter
    std::string dist;                       ///< its --dist spec
    GpHyper hyper;                          ///< bandwidth, signal and noise variance at the optimum
    double logEvidence = 0.0;               ///< the log marginal likelihood there (training rows)
    std::optional<double> test, mae;        ///< the test part's score (accuracy or RMSE) and MAE
    int outerEvaluations = 0, innerEvaluations = 0;
    std::vector<std::pair<double, double>> curve;  ///< (parameter value, best log marginal likelihood) of each outer evaluation
    /// With a smooth parameter (a differentiable action and a reparameterised derivative, the
    /// Gaussian or Matérn kernel): (parameter value, d log marginal likelihood / d parameter at the
    /// inner optimum) of each outer evaluation, in the curve's order; empty otherwise.
    std::vector<std::pair<double, double>> slopes;
    /// With several parameters (curve and slopes empty then): every outer evaluation, in order.
    std::vector<ExactLearnPoint> points;
    std::size_t trainRows = 0, testRows = 0;
};

/// What learnExactGp found.
struct ExactLearnResult {
    std::string param, metric;               ///< param: the names learned, comma-separated when several
    std::vector<std::string> params;         ///< the names learned, in config.learn's order
    std::string method;                      ///< the outer search: "scan+secant", "scan+golden", "lbfgs" or "bobyqa"
    std::vector<ExactLearnFold> folds;
    std::optional<double> mean, stddev, mae;  ///< over the folds' test scores
    double seconds = 0.0;
    int evaluations = 0;                      ///< marginal-likelihood evaluations in all
    double secondsPerEvaluation = 0.0;
};

/// Learns one distribution parameter (config.learn, e.g. noisy sort's sigma or von Mises' kappa)
/// with the kernel's bandwidth, the signal and the noise variance by the exact GP log marginal
/// likelihood on k_G (`exact:r=R` in config.features; config.kernel the base kernel and the
/// bandwidth's start): a scan of `scan` values spread over its range (log-spaced for positive
/// parameters), shared by the folds (one orbit-distance computation per value for every row), then
/// steps in the best bracket of each fold (config.maxEvaluations outer evaluations in all per fold);
/// at each value L-BFGS over (log bandwidth, log signal, log noise) with the analytic gradient, at
/// most `innerEvaluations` evaluations, warm-started from the fold's best so far.
///  - A smooth parameter (von Mises' kappa, log-normal's, a translation's scale: a differentiable
///    action and a reparameterised derivative, with the Gaussian or Matérn kernel) has the
///    analytic derivative of the maximised log marginal likelihood at each value (at the inner
///    optimum, dL*/dtheta = dL/dtheta by the envelope theorem; dK/dtheta from the orbits' tangents,
///    OrbitDistances::setTangents): the steps are safeguarded secant steps on that derivative in the
///    bracket where its sign changes, so all four are learned jointly to a stationary point.
///  - Otherwise (noisy sort's sigma: its common-random-number curve is piecewise constant; the
///    Laplacian's L1 distance) golden-section steps, without a derivative. With config.eval kfold:K (or holdout:FRAC) every fold learns on its training rows
/// only and scores its test rows; without it all rows learn and nothing is scored.
/// With curveValues (`evidence --learner gp`): exactly those values on the first split's training
/// rows (all rows without eval), no golden-section steps and no test: the curve the learn climbs,
/// in the one fold's `curve`.
/// Spread over `ranks` as trainExact is: fold f is learned and scored on rank f mod P (one split,
/// e.g. a hold-out or the curve, runs on rank 0 alone), and every rank gets every fold.
///
/// Several parameters (config.learn, e.g. the affine factors rotation.kappa and scale.sigma) are
/// learned jointly by an outer search over their vector, in box coordinates z_k = (u_k - lo_k) /
/// (hi_k - lo_k) in [0, 1] (u = log v on log-scale ranges, v otherwise; the ranges are config.bounds
/// or the registry's learning ranges), from the distribution's own values (clamped into the box).
/// Its objective is the profile log marginal likelihood: at each point the inner L-BFGS above over
/// the bandwidth, signal and noise, warm-started from the fold's best so far. Budget: at most
/// config.maxEvaluations outer evaluations per fold (each at most `innerEvaluations` inner ones,
/// plus one for the slopes), so at most K maxEvaluations (innerEvaluations + 1) likelihood
/// evaluations; `scan` is not used.
///  - All parameters smooth (as above): NLopt's LD_LBFGS within the box, the gradient the
///    envelope-theorem slopes (dK / d theta_k from the tangents of one sampling pass, one product
///    per parameter, OrbitDistances::setTangents; all slopes from one factorisation,
///    gpLogLikelihoodSlopes). Method "lbfgs".
///  - Otherwise (the Laplacian's L1 distance, a group without a derivative, a parameter without a
///    reparameterised derivative): NLopt's derivative-free LN_BOBYQA (a quadratic model from 2m + 1
///    points, first trust radius a quarter of the box). Method "bobyqa".
/// curveValues must be null (SpecError("learn") otherwise: a curve is over one parameter).
ExactLearnResult learnExactGp(const Dataset& data, const LocalityConfig& config, int innerEvaluations = 12, int scan = 5,
                              const Progress& progress = {}, const std::vector<double>* curveValues = nullptr,
                              const Ranks& ranks = oneProcess());

} // namespace orbit

#pragma once
// Gaussian-process regression on a precomputed (invariant) kernel matrix, with its hyperparameters
// fitted by the log marginal likelihood (Rasmussen & Williams 2006, §2.2 and §5.4.1).
#include "orbit/util/Progress.hpp"

#include <Eigen/Core>

#include <functional>
#include <string>
#include <vector>

namespace orbit {

/// The kernel matrix of a family at bandwidth sigma, K(sigma), and with dK non-null its derivative
/// dK / d log sigma: what the GP's bandwidth is fitted on (OrbitDistances::gram builds both).
using GramFamily = std::function<void(double sigma, Eigen::MatrixXd& K, Eigen::MatrixXd* dK)>;

/// The GP's hyperparameters: the kernel's bandwidth sigma, the signal variance s2f and the noise
/// variance s2n. The model is y_c = f_c + e, f_c ~ GP(0, s2f K_sigma), e ~ N(0, s2n), for every
/// column c of the coded targets (one column for regression, one per class for classification).
struct GpHyper {
    double sigma = 1.0;
    double signal = 1.0;
    double noise = 0.01;
};

/// log p(Y | K) = sum_c [-1/2 y_c^T C^-1 y_c] - m/2 log|C| - n m / 2 log 2 pi, C = s2f K + s2n I (m
/// columns), and its gradient in (log sigma, log s2f, log s2n):
///   d/d theta = 1/2 tr((sum_c a_c a_c^T - m C^-1) dC/d theta), a_c = C^-1 y_c,
/// dC/d log sigma = s2f dK, dC/d log s2f = s2f K, dC/d log s2n = s2n I.
struct GpLikelihood {
    double logLikelihood = 0.0;
    double dLogSigma = 0.0, dLogSignal = 0.0, dLogNoise = 0.0;
    double jitter = 0.0;  ///< what was added to the diagonal of C for its Cholesky (0: none)
};

/// The factorised GP at fixed hyperparameters: what predictions need.
struct GpFactor {
    Eigen::MatrixXd L;      ///< lower Cholesky factor of C = s2f K + (s2n + jitter) I
    Eigen::MatrixXd alpha;  ///< C^-1 Y
    double logLikelihood = 0.0;
    double jitter = 0.0;
};

/// Factorises C = s2f K + s2n I (in blocks on all cores, the same bits at any thread count) with
/// jitter added when the Cholesky needs it (1e-10 to 1e-4 of the mean diagonal, ten times more at
/// each try). Throws SpecError("kernel", "... not positive definite even with jitter ...", what)
/// when the last try fails: `what` names the kernel and its bandwidth.
GpFactor factoriseGp(const Eigen::MatrixXd& K, const Eigen::MatrixXd& Y, double signal, double noise,
                     const std::string& what, const Progress& progress = {});

/// The n x n buffers of one evaluation (the factor of C and the triangular L^-T of its inverse),
/// kept by whoever evaluates many times at one size (fitGaussianProcess) so that the evaluations do
/// not page in fresh memory: at n = 5680 each is 258 MB.
struct GpWorkspace {
    Eigen::MatrixXd L, W;
};

/// The log marginal likelihood at (signal, noise) on K (its lower triangle read, as dK's), with the
/// gradient when dK is given (then dLogSigma uses it) or `gradient` is set (dLogSignal and
/// dLogNoise: the traces tr(C^-1), <C^-1, K> and <C^-1, dK> from L^-T's tile products, summed as
/// each tile is made, without storing C^-1: 2 n^3 / 3 more flops than the factorisation alone).
/// `workspace` (optional) holds the buffers between calls.
GpLikelihood gpLogLikelihood(const Eigen::MatrixXd& K, const Eigen::MatrixXd* dK, const Eigen::MatrixXd& Y, double signal,
                             double noise, bool gradient, const std::string& what, const Progress& progress = {},
                             GpWorkspace* workspace = nullptr);

/// gpLogLikelihood's gradient for several derivative matrices of K at once: slopes[k] = d log p / d
/// theta_k with dC/d theta_k = s2f dKs[k] (e.g. the derivatives in several distribution parameters,
/// OrbitDistances::gramWithTangents), from one factorisation and one pass of L^-T's tiles (each
/// slope the bits gpLogLikelihood's dLogSigma gives with that matrix as dK). Returns the log
/// likelihood, dLogSignal and dLogNoise (dLogSigma: the first slope).
GpLikelihood gpLogLikelihoodSlopes(const Eigen::MatrixXd& K, const std::vector<Eigen::MatrixXd>& dKs, const Eigen::MatrixXd& Y,
                                   double signal, double noise, std::vector<double>& slopes, const std::string& what);

/// What fitGaussianProcess found.
struct GpFit {
    GpHyper hyper;
    double logLikelihood = 0.0;
    int evaluations = 0;
    double secondsPerEvaluation = 0.0;
    std::vector<std::pair<GpHyper, double>> trajectory;  ///< every evaluation: its point and log likelihood
};

/// Ranges of the fit, in the hyperparameters' own units (searched in log space).
struct GpBounds {
    double sigmaLo = 0.0, sigmaHi = 0.0;  ///< 0, 0: sigma stays at the start value
    double signalLo = 1e-3, signalHi = 1e3;
    double noiseLo = 1e-10, noiseHi = 10.0;
};

/// Maximises the log marginal likelihood over (log sigma, log s2f, log s2n) by L-BFGS (NLopt, within
/// the bounds) with the analytic gradient, from `start`, in at most `maxEvaluations` evaluations.
/// Requires Y standardised (TargetCoding) so the default bounds fit. Progress after each
/// evaluation; a cancel throws Cancelled.
GpFit fitGaussianProcess(const GramFamily& gram, const Eigen::MatrixXd& Y, const GpHyper& start, const GpBounds& bounds,
                         int maxEvaluations, const std::string& what, const Progress& progress = {});

/// The predictive mean (t x m, coded units) and variance of the latent f (t) at test points, from the
/// t x n cross kernel Ks (rows: test points) and the test points' own k(x*, x*) (kss):
/// (a row's mean has bits that depend on that row alone: dualScores)
///   mean = s2f Ks alpha, var = s2f kss - s2f^2 ||L^-1 Ks^T||^2 (columnwise), clamped at 0.
void predictGp(const GpFactor& factor, const GpHyper& hyper, const Eigen::MatrixXd& Ks, const Eigen::VectorXd& kss,
               Eigen::MatrixXd& mean, Eigen::VectorXd* variance = nullptr);

} // namespace orbit

#include "orbit/learn/GaussianProcess.hpp"

#include "orbit/learn/FeatureKernel.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "util/Deterministic.hpp"

#include <nlopt.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>

namespace orbit {

namespace {

constexpr Eigen::Index kGpTile = 256;

/// tr(C^-1), <C^-1, K> and <C^-1, dK> (sums over the full symmetric matrices whose lower triangles
/// K and dK hold) from the Cholesky factor L of C, with C^-1 = L^-T L^-1 = W W^T never stored: W =
/// L^-T row tile by row tile (a triangular solve of the trailing block, one thread each), then for
/// each pair of tiles I >= J the product W_I W_J^T, whose entries are weighed against K's and dK's
/// at once. Tile sums in a fixed order: the same bits at any thread count.
struct GpTraces {
    double trace = 0.0, withK = 0.0;
    std::vector<double> withDK;  ///< one per derivative matrix
};

/// With several derivative matrices dKs (each weighed as one dK is: the same bits for each).
GpTraces gpTracesFromFactor(const Eigen::MatrixXd& L, const Eigen::MatrixXd& K, const std::vector<const Eigen::MatrixXd*>& dKs,
                            Eigen::MatrixXd& W)
{
    const Eigen::Index n = L.rows();
    const Eigen::Index tiles = (n + kGpTile - 1) / kGpTile;
    W.resize(n, n);  // only the upper triangle (L^-T's) is written and read
    detail::forEachBlock(std::size_t(tiles), 1, [&](std::size_t t, std::size_t) {
        const Eigen::Index i0 = Eigen::Index(t) * kGpTile, w = std::min(kGpTile, n - i0), m = n - i0;
        // Rows [i0, i0 + w) of L^-T, columns [i0, n): [I 0] (L[i0:, i0:])^-T.
        Eigen::MatrixXd B = Eigen::MatrixXd::Identity(w, m);
        solveRightLowerTransposed(L.block(i0, i0, m, m), B);
        W.block(i0, i0, w, m) = B;
    });
    std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
    for (Eigen::Index I = 0; I < tiles; ++I)
        for (Eigen::Index J = 0; J <= I; ++J) pairs.emplace_back(I, J);
    const std::size_t nd = dKs.size();
    std::vector<GpTraces> parts(pairs.size());
    for (GpTraces& p : parts) p.withDK.assign(nd, 0.0);
    detail::forEachBlock(pairs.size(), 1, [&](std::size_t p, std::size_t) {
        const auto [I, J] = pairs[p];
        const Eigen::Index i0 = I * kGpTile, j0 = J * kGpTile;
        const Eigen::Index wi = std::min(kGpTile, n - i0), wj = std::min(kGpTile, n - j0);
        // (W W^T)_IJ = sum_k W[I, k] W[J, k]: both rows are zero left of i0 (i0 >= j0).
        Eigen::MatrixXd C(wi, wj);
        gemmABt(W.block(i0, i0, wi, n - i0), W.block(j0, i0, wj, n - i0), C);
        GpTraces& part = parts[p];
        if (I == J) {
            // The tile's lower triangle, off-diagonal entries twice (the upper one is their mirror).
            for (Eigen::Index b = 0; b < wj; ++b) {
                part.trace += C(b, b);
                part.withK += C(b, b) * K(j0 + b, j0 + b);
                for (std::size_t k = 0; k < nd; ++k) part.withDK[k] += C(b, b) * (*dKs[k])(j0 + b, j0 + b);
                for (Eigen::Index a = b + 1; a < wi; ++a) {
                    part.withK += 2.0 * C(a, b) * K(i0 + a, j0 + b);
                    for (std::size_t k = 0; k < nd; ++k) part.withDK[k] += 2.0 * C(a, b) * (*dKs[k])(i0 + a, j0 + b);
                }
            }
        } else {
            part.withK = 2.0 * (C.array() * K.block(i0, j0, wi, wj).array()).sum();
            for (std::size_t k = 0; k < nd; ++k) part.withDK[k] = 2.0 * (C.array() * dKs[k]->block(i0, j0, wi, wj).array()).sum();
        }
    });
    GpTraces out;
    out.withDK.assign(nd, 0.0);
    for (const GpTraces& p : parts) {
        out.trace += p.trace;
        out.withK += p.withK;
        for (std::size_t k = 0; k < nd; ++k) out.withDK[k] += p.withDK[k];
    }
    return out;
}

/// sum_c a_c^T M a_c for the symmetric M whose lower triangle M holds.
double gpQuadraticForm(const Eigen::MatrixXd& M, const Eigen::MatrixXd& alpha)
{
    const detail::SerialEigen serial;
    const Eigen::MatrixXd Ma = M.selfadjointView<Eigen::Lower>() * alpha;
    return (alpha.array() * Ma.array()).sum();
}

/// factoriseGp's work with the factor written into L (a buffer reused between calls).
void factoriseGpInto(Eigen::MatrixXd& L, GpFactor& f, const Eigen::MatrixXd& K, const Eigen::MatrixXd& Y, double signal,
                     double noise, const std::string& what, const Progress& progress)
{
    if (K.rows() != K.cols() || K.rows() != Y.rows())
        throw ContractError("factoriseGp", "K is " + std::to_string(K.rows()) + " x " + std::to_string(K.cols()) + ", Y has " +
                                               std::to_string(Y.rows()) + " rows");
    const Eigen::Index n = K.rows();
    const double meanDiag = signal * K.diagonal().mean() + noise;
    for (double jitter = 0.0;;) {
        L = signal * K;
        L.diagonal().array() += noise + jitter;
        if (choleskyInPlace(L, progress)) {
            f.jitter = jitter;
            break;
        }
        jitter = jitter == 0.0 ? 1e-10 * meanDiag : 10.0 * jitter;
        if (jitter > 1.0001e-4 * meanDiag)
            throw SpecError("kernel",
                            "the Gram matrix is not positive definite even with jitter " + formatNumber(1e-4) +
                                " x its mean diagonal (signal " + formatNumber(signal) + ", noise " + formatNumber(noise) + ")",
                            what);
    }
    L.triangularView<Eigen::StrictlyUpper>().setZero();
    {
        const detail::SerialEigen serial;
        f.alpha = Y;
        L.triangularView<Eigen::Lower>().solveInPlace(f.alpha);
        L.transpose().triangularView<Eigen::Upper>().solveInPlace(f.alpha);
    }
    const double m = double(Y.cols());
    f.logLikelihood = -0.5 * (Y.array() * f.alpha.array()).sum() - m * L.diagonal().array().log().sum() -
                      0.5 * double(n) * m * std::log(2.0 * std::numbers::pi);
}

} // namespace

GpFactor factoriseGp(const Eigen::MatrixXd& K, const Eigen::MatrixXd& Y, double signal, double noise,
                     const std::string& what, const Progress& progress)
{
    GpFactor f;
    factoriseGpInto(f.L, f, K, Y, signal, noise, what, progress);
    return f;
}

GpLikelihood gpLogLikelihood(const Eigen::MatrixXd& K, const Eigen::MatrixXd* dK, const Eigen::MatrixXd& Y, double signal,
                             double noise, bool gradient, const std::string& what, const Progress& progress, GpWorkspace* workspace)
{
    GpWorkspace local;
    GpWorkspace& ws = workspace ? *workspace : local;
    GpFactor f;
    factoriseGpInto(ws.L, f, K, Y, signal, noise, what, progress);
    GpLikelihood out;
    out.logLikelihood = f.logLikelihood;
    out.jitter = f.jitter;
    if (!gradient && !dK) return out;
    const double m = double(Y.cols());
    // 1/2 tr((A - m C^-1) dC), A = sum_c a_c a_c^T: a^T dC a - m <C^-1, dC>.
    std::vector<const Eigen::MatrixXd*> dKs;
    if (dK) dKs.push_back(dK);
    const GpTraces t = gpTracesFromFactor(ws.L, K, dKs, ws.W);
    const double aKa = gpQuadraticForm(K, f.alpha);
    out.dLogSignal = 0.5 * signal * (aKa - m * t.withK);
    out.dLogNoise = 0.5 * (noise + f.jitter) * (f.alpha.squaredNorm() - m * t.trace);
    if (dK) out.dLogSigma = 0.5 * signal * (gpQuadraticForm(*dK, f.alpha) - m * t.withDK.front());
    return out;
}

GpLikelihood gpLogLikelihoodSlopes(const Eigen::MatrixXd& K, const std::vector<Eigen::MatrixXd>& dKs, const Eigen::MatrixXd& Y,
                                   double signal, double noise, std::vector<double>& slopes, const std::string& what)
{
    GpWorkspace ws;
    GpFactor f;
    factoriseGpInto(ws.L, f, K, Y, signal, noise, what, {});
    GpLikelihood out;
    out.logLikelihood = f.logLikelihood;
    out.jitter = f.jitter;
    const double m = double(Y.cols());
    std::vector<const Eigen::MatrixXd*> pointers;
    for (const Eigen::MatrixXd& d : dKs) pointers.push_back(&d);
    const GpTraces t = gpTracesFromFactor(ws.L, K, pointers, ws.W);
    out.dLogSignal = 0.5 * signal * (gpQuadraticForm(K, f.alpha) - m * t.withK);
    out.dLogNoise = 0.5 * (noise + f.jitter) * (f.alpha.squaredNorm() - m * t.trace);
    slopes.resize(dKs.size());
    for (std::size_t k = 0; k < dKs.size(); ++k) slopes[k] = 0.5 * signal * (gpQuadraticForm(dKs[k], f.alpha) - m * t.withDK[k]);
    if (!slopes.empty()) out.dLogSigma = slopes.front();
    return out;
}

GpFit fitGaussianProcess(const GramFamily& gram, const Eigen::MatrixXd& Y, const GpHyper& start, const GpBounds& bounds,
                         int maxEvaluations, const std::string& what, const Progress& progress)
{
    const bool fitSigma = bounds.sigmaHi > bounds.sigmaLo;
    const unsigned dims = fitSigma ? 3 : 2;
    auto clampLog = [](double v, double lo, double hi) { return std::log(std::clamp(v, lo, hi)); };
    std::vector<double> x, lo, hi;
    if (fitSigma) {
        x.push_back(clampLog(start.sigma, bounds.sigmaLo, bounds.sigmaHi));
        lo.push_back(std::log(bounds.sigmaLo));
        hi.push_back(std::log(bounds.sigmaHi));
    }
    x.push_back(clampLog(start.signal, bounds.signalLo, bounds.signalHi));
    lo.push_back(std::log(bounds.signalLo));
    hi.push_back(std::log(bounds.signalHi));
    x.push_back(clampLog(start.noise, bounds.noiseLo, bounds.noiseHi));
    lo.push_back(std::log(bounds.noiseLo));
    hi.push_back(std::log(bounds.noiseHi));

    GpFit fit;
    fit.logLikelihood = -std::numeric_limits<double>::infinity();
    fit.hyper = start;
    Eigen::MatrixXd K, dK;
    GpWorkspace workspace;  // the evaluations' n x n buffers, paged in once
    double cachedSigma = std::numeric_limits<double>::quiet_NaN();
    const auto t0 = std::chrono::steady_clock::now();
    auto objective = [&](const std::vector<double>& v, std::vector<double>& grad) -> double {
        GpHyper h = start;
        std::size_t k = 0;
        if (fitSigma) h.sigma = std::exp(v[k++]);
        h.signal = std::exp(v[k++]);
        h.noise = std::exp(v[k++]);
        if (!(h.sigma == cachedSigma)) {
            gram(h.sigma, K, fitSigma ? &dK : nullptr);
            cachedSigma = h.sigma;
        }
        const GpLikelihood l = gpLogLikelihood(K, fitSigma ? &dK : nullptr, Y, h.signal, h.noise, !grad.empty(), what, {}, &workspace);
        ++fit.evaluations;
        fit.trajectory.emplace_back(h, l.logLikelihood);
        if (l.logLikelihood > fit.logLikelihood) {
            fit.logLikelihood = l.logLikelihood;
            fit.hyper = h;
        }
        if (!grad.empty()) {
            std::size_t g = 0;
            if (fitSigma) grad[g++] = l.dLogSigma;
            grad[g++] = l.dLogSignal;
            grad[g++] = l.dLogNoise;
        }
        reportProgress(progress, double(fit.evaluations) / double(std::max(1, maxEvaluations)),
                       "marginal likelihood " + std::to_string(fit.evaluations) + ": " + formatNumber(l.logLikelihood));
        return l.logLikelihood;
    };
    using Objective = decltype(objective);
    nlopt::opt opt(nlopt::LD_LBFGS, dims);
    opt.set_lower_bounds(lo);
    opt.set_upper_bounds(hi);
    opt.set_maxeval(std::max(1, maxEvaluations));
    opt.set_ftol_abs(1e-3);
    opt.set_xtol_rel(1e-4);
    std::exception_ptr error;
    struct Call {
        Objective* f;
        std::exception_ptr* error;
    } call{&objective, &error};
    opt.set_max_objective(
        [](unsigned n, const double* v, double* grad, void* data) -> double {
            auto* c = static_cast<Call*>(data);
            try {
                std::vector<double> g(grad ? n : 0);
                const double r = (*c->f)(std::vector<double>(v, v + n), g);
                if (grad) std::copy(g.begin(), g.end(), grad);
                return r;
            } catch (...) {
                *c->error = std::current_exception();
                throw nlopt::forced_stop();
            }
        },
        &call);
    double best = 0.0;
    try {
        opt.optimize(x, best);
    } catch (const nlopt::roundoff_limited&) {
    } catch (const nlopt::forced_stop&) {
    } catch (const std::invalid_argument&) {
    } catch (const std::runtime_error&) {  // NLopt's generic failure (a non-finite step): keep the best point
        if (!error && fit.evaluations == 0) throw;
    }
    if (error) std::rethrow_exception(error);
    if (!std::isfinite(fit.logLikelihood))
        throw SpecError("kernel", "the marginal likelihood is not finite at any evaluated point", what);
    fit.secondsPerEvaluation =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / double(std::max(1, fit.evaluations));
    return fit;
}

void predictGp(const GpFactor& factor, const GpHyper& hyper, const Eigen::MatrixXd& Ks, const Eigen::VectorXd& kss,
               Eigen::MatrixXd& mean, Eigen::VectorXd* variance)
{
    mean = hyper.signal * dualScores(Ks, factor.alpha);  // a row's bits depend only on the row
    if (!variance) return;
    // ||L^-1 k*||^2 per test point: rows of Ks L^-T, in tiles of test points (one thread each).
    const Eigen::Index t = Ks.rows();
    variance->resize(t);
    detail::forEachBlock(std::size_t(t), 64, [&](std::size_t b0, std::size_t b1) {
        Eigen::MatrixXd V = Ks.middleRows(Eigen::Index(b0), Eigen::Index(b1 - b0));
        solveRightLowerTransposed(factor.L, V);
        for (std::size_t i = b0; i < b1; ++i) {
            const double v = hyper.signal * kss[Eigen::Index(i)] -
                             hyper.signal * hyper.signal * V.row(Eigen::Index(i - b0)).squaredNorm();
            (*variance)[Eigen::Index(i)] = std::max(0.0, v);
        }
    });
}

} // namespace orbit

#include "orbit/features/NystromMap.hpp"
#include "orbit/linalg/Gemm.hpp"

#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/linalg/TriangularInverse.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/RandomSubset.hpp"

#include "features/FitProgress.hpp"
#include "features/OrbitPlan.hpp"
#include "features/Pooling.hpp"
#include "groups/GroupSupport.hpp"
#include "util/Deterministic.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace orbit {

namespace {

constexpr Eigen::Index kTile = 256;

/// The lower triangle of K_ZZ in double, tile by tile (each tile one sequential product, or for the
/// Laplacian one block of L1 distances, so the bits do not depend on the thread count), reporting
/// every row of tiles. The Laplacian's distances are the float ones transform() pools (the same
/// ordered sums, l1DistanceBlock), its exponential in double.
Eigen::MatrixXd landmarkKernel(const MatrixXfR& Z, const BaseKernel& k, const Progress& progress)
{
    const Eigen::Index s = Z.rows();
    const bool l1 = !k.fromProducts();
    const Eigen::MatrixXd Zd = l1 ? Eigen::MatrixXd() : Eigen::MatrixXd(Z.cast<double>());
    const Eigen::VectorXd n2 = l1 ? Eigen::VectorXd() : Eigen::VectorXd(Zd.rowwise().squaredNorm());
    Eigen::MatrixXd K(s, s);
    const Eigen::Index tiles = (s + kTile - 1) / kTile;
    for (Eigen::Index I = 0; I < tiles; ++I) {
        // Rows of tiles I cost I + 1 tiles: report by the share of the triangle done.
        reportProgress(progress, double(I * (I + 1)) / double(tiles * (tiles + 1)),
                       "landmark kernel rows " + std::to_string(I * kTile) + "/" + std::to_string(s));
        const Eigen::Index i0 = I * kTile, h = std::min(kTile, s - i0);
        detail::forEachBlock(std::size_t(I + 1), 1, [&](std::size_t J, std::size_t) {
            const Eigen::Index j0 = Eigen::Index(J) * kTile, w = std::min(kTile, s - j0);
            auto T = K.block(i0, j0, h, w);
            if (l1) {
                thread_local MatrixXfR D;
                D.resize(h, w);
                l1DistanceBlock(Z.data() + i0 * Z.cols(), Z.cols(), h, Z.data() + j0 * Z.cols(), Z.cols(), w, Z.cols(),
                                D.data(), w);
                for (Eigen::Index j = 0; j < w; ++j)
                    for (Eigen::Index i = 0; i < h; ++i) T(i, j) = k.ofDistance(double(D(i, j)));
                return;
            }
            gemmABt(Zd.middleRows(i0, h), Zd.middleRows(j0, w), T);
            for (Eigen::Index j = 0; j < w; ++j)
                for (Eigen::Index i = 0; i < h; ++i)
                    T(i, j) = k.fromInnerProduct(T(i, j), n2[i0 + i], n2[j0 + j]);
        });
    }
    return K;
}

/// L = diag(lambda_+^-1/2) U_+^T from K = U diag(lambda) U^T (lower triangle read), keeping
/// lambda > tol lambda_max: L^T L = K^+. Not interruptible (Eigen's solver).
MatrixXfR pseudoInverseRoot(const Eigen::MatrixXd& K, double tol)
{
    const detail::SerialEigen serial;
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(K);
    const Eigen::VectorXd& lambda = eig.eigenvalues();
    const double cut = tol * std::max(0.0, lambda.maxCoeff());
    std::vector<Eigen::Index> keep;
    for (Eigen::Index i = K.rows() - 1; i >= 0; --i)
        if (lambda[i] > cut && lambda[i] > 0) keep.push_back(i);
    MatrixXfR L(Eigen::Index(keep.size()), K.rows());
    for (std::size_t t = 0; t < keep.size(); ++t)
        L.row(Eigen::Index(t)) = (eig.eigenvectors().col(keep[t]) / std::sqrt(lambda[keep[t]])).transpose().cast<float>();
    return L;
}

} // namespace

NystromMap::NystromMap(FeatureContext context, int s, int r, Landmarks landmarks, Whitening whitening, std::string mode)
    : OrbitFeatureMap(std::move(context)), s_(s), r_(r), landmarks_(landmarks), whitening_(whitening), mode_(std::move(mode))
{
    if (s < 1) throw SpecError("features.s", "must be >= 1", std::to_string(s));
    if (whitening.tol >= 0) {
        if (!(whitening.tol < 1)) throw SpecError("features.tol", "must be in [0, 1)", std::to_string(whitening.tol));
    } else if (!(whitening.jitter > 0 && whitening.jitter <= kMaxJitter)) {
        throw SpecError("features.jitter", "must be in (0, " + formatNumber(kMaxJitter) + "]",
                        formatNumber(whitening.jitter));
    }
    if (!context_.kernel) throw SpecError("kernel", "Nystrom features need a base kernel");
    if (landmarks == Landmarks::Orbit && !(context_.group && context_.dist))
        throw SpecError("features.landmarks", "orbit landmarks need a group and a distribution", "orbit");
}

NystromMap::~NystromMap() = default;

std::string NystromMap::spec() const
{
    // Invariant iff the context has a group (what fit() will use): the same text before the fit.
    std::string t = context_.group && context_.dist ? "inystrom:s=" + std::to_string(s_) + ",r=" + std::to_string(r_)
                                            : "nystrom:s=" + std::to_string(s_);
    if (landmarks_ == Landmarks::KMeans) t += ",landmarks=kmeans";
    if (landmarks_ == Landmarks::Orbit) t += ",landmarks=orbit";
    if (whitening_.tol >= 0) t += ",tol=" + formatNumber(whitening_.tol);
    else if (whitening_.jitter != Whitening{}.jitter) t += ",jitter=" + formatNumber(whitening_.jitter);
    return t;
}

std::string NystromMap::kernel() const
{
    return baseOrInvariantKernel();
}

MatrixXfR NystromMap::chooseLandmarks(const MatrixXfR& X, std::uint64_t seed, const Progress& progress) const
{
    const Eigen::Index d = X.cols();
    if (landmarks_ == Landmarks::KMeans) return kMeansCentres(X, s_, deriveSeed(seed, 1), 10, 20000, progress);
    Rng rng = makeRng(seed, 1);
    const auto idx = randomSubset(X.rows(), std::min<std::size_t>(std::size_t(s_), std::size_t(X.rows())), rng);
    MatrixXfR Z(s_, d);
    if (landmarks_ == Landmarks::Random) {
        for (int i = 0; i < s_; ++i) Z.row(i) = X.row(Eigen::Index(idx[i]));
        return Z;
    }
    // From the orbits gX (LGIKA 2.2.2): landmark i is row idx[i mod N] moved by its own sample
    // g_i ~ q (the sampler's stream for index i), so rows drawn twice give two different landmarks.
    const OrbitSampler one(context_.group, context_.dist, context_.shape, 1, deriveSeed(seed, 3));
    detail::forEachBlock(std::size_t(s_), 64, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            const float* x = X.data() + Eigen::Index(idx[i % idx.size()]) * d;
            one.group().apply(one.elementsFor(i, x)[0], x, Z.data() + Eigen::Index(i) * d, context_.shape);
        }
    });
    return Z;
}

void NystromMap::fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress)
{
    checkFitInput("NystromMap::fit", X);
    detail::prepareGroup(context_, progress);
    if (s_ > X.rows() && landmarks_ != Landmarks::Orbit)
        throw SpecError("features.s",
                        "more landmarks than training rows (" + std::to_string(X.rows()) +
                            "); landmarks=orbit draws them from the orbits and may exceed it",
                        std::to_string(s_));
    const bool invariant = context_.group && context_.dist;
    auto plan = std::make_unique<detail::OrbitPlan>(
        detail::OrbitPlan::make(context_, invariant ? r_ : 1, mode_, deriveSeed(seed, 2), "features", false, true));
    plan->fold.n = 0;  // kernel values need the true norms: no folding
    plan->useWholeFiniteGroup();
    // Shares of the fit in the progress: landmarks, K_ZZ, its factorisation and inverse, moved landmarks.
    const double landmarkEnd = landmarks_ == Landmarks::KMeans ? 0.3 : 0.02;
    const double moveStart = plan->sampler && plan->templateTrick ? 0.8 : 1.0;
    const double kernelEnd = landmarkEnd + 0.3 * (moveStart - landmarkEnd);
    const double factorEnd = landmarkEnd + 0.7 * (moveStart - landmarkEnd);
    MatrixXfR Z = chooseLandmarks(X, seed, detail::subProgress(progress, 0.0, landmarkEnd));
    const std::string size = std::to_string(s_) + " x " + std::to_string(s_);
    Eigen::MatrixXd K = landmarkKernel(Z, *context_.kernel, detail::subProgress(progress, landmarkEnd, kernelEnd));
    MatrixXfR L;
    if (whitening_.tol >= 0) {
        reportProgress(progress, kernelEnd, "eigendecomposition of the " + size + " landmark kernel");
        L = pseudoInverseRoot(K, whitening_.tol);
    } else {
        // K + jitter * mean(diag) I = C C^T and L = C^-1, so L^T L = (K + jitter I)^-1. A factor that
        // fails (a pivot <= 0 in floating point) is retried with ten times the jitter.
        const double scale = std::max(K.diagonal().mean(), std::numeric_limits<double>::min());
        const Progress poll = detail::subProgress(progress, kernelEnd, factorEnd);
        double jitter = whitening_.jitter;
        for (;;) {
            K.diagonal().array() += jitter * scale;
            if (choleskyInPlace(K, [&](double, const std::string&) { return poll && poll(0.0, "Cholesky factor of the " + size + " landmark kernel"); }))
                break;
            if (jitter * 10 > kMaxJitter * (1 + 1e-12))
                throw SpecError("features.jitter",
                                "the landmark kernel is not positive definite even with jitter " + formatNumber(jitter) +
                                    " x its mean diagonal (duplicate landmarks with a polynomial kernel?)",
                                formatNumber(whitening_.jitter));
            jitter *= 10;
            reportProgress(poll, 0.0, "landmark kernel not positive definite: jitter raised to " + formatNumber(jitter));
            K = landmarkKernel(Z, *context_.kernel, {});
        }
        L = inverseLower(K, detail::subProgress(progress, factorEnd, moveStart));
    }
    K = Eigen::MatrixXd();
    MatrixXfR ZG = plan->prepareTemplates(Z, detail::subProgress(progress, moveStart, 1.0, "landmark "));
    zNorm2_ = ZG.rowwise().squaredNorm();
    Z_ = std::move(Z);
    ZG_ = std::move(ZG);
    L_ = std::move(L);
    plan_ = std::move(plan);
}

void NystromMap::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    checkTransformInput("NystromMap::transform", X, begin, end, Z_.cols());
    out.resize(Eigen::Index(end - begin), dim());
    const int r = plan_->r;
    const Eigen::Index s = s_;
    const BaseKernel& kernel = *context_.kernel;
    const bool dataPath = plan_->sampler && !plan_->templateTrick;
    detail::forEachBlockOrTile(end - begin, plan_->blockInputs(), !dataPath, [&](std::size_t b0, std::size_t b1, bool tiles) {
        std::vector<std::size_t> rows(b1 - b0);
        std::iota(rows.begin(), rows.end(), begin + b0);
        const auto in = plan_->prepareInputs(X, rows.data(), rows.size(), detail::threadScratch(detail::ScratchRole::Inputs));
        auto acc = detail::threadScratch(detail::ScratchRole::Accumulator).matrix(Eigen::Index(b1 - b0), s);
        acc.setZero();
        if (kernel.fromProducts()) {
            const Eigen::VectorXf inNorm2 = in.rowwise().squaredNorm();
            // Adds into columns j0.. of acc only (the tile row p is scratch the kernel may overwrite).
            auto pool = [&](Eigen::Index i, Eigen::Index j0, float* p, Eigen::Index n, int k) {
                // k(a, z) from <a, z>, ||a||^2, ||z||^2 for one row of the tile, summed into acc(i, j0..).
                const Eigen::Index a = dataPath ? i * r + k : i;
                const Eigen::Index zOffset = dataPath ? j0 : Eigen::Index(k) * s + j0;
                kernel.addFromInnerProducts(&acc(i, j0), p, n, inNorm2[a], zNorm2_.data() + zOffset);
            };
            if (dataPath) {
                detail::poolOrbits(in, ZG_, r, pool);
            } else {
                detail::poolTemplates(in, ZG_, r, s, pool, tiles);
            }
        } else {
            // The Laplacian: tiles of L1 distances ||a - z||_1, exp(-d / sigma) summed into acc(i, j0..).
            const float invSigma = static_cast<float>(1.0 / kernel.sigma());
            auto pool = [&](Eigen::Index i, Eigen::Index j0, const float* p, Eigen::Index n, int) {
                detail::addLaplacianRow(&acc(i, j0), p, n, invSigma);
            };
            if (dataPath) {
                detail::poolOrbitDistances(in, ZG_, r, pool);
            } else {
                detail::poolTemplateDistances(in, ZG_, r, s, pool, tiles);
            }
        }
        acc *= 1.0f / float(r);
        gemmABt(acc, L_, out.middleRows(Eigen::Index(b0), Eigen::Index(b1 - b0)));
    });
}

} // namespace orbit

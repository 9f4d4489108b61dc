#include "orbit/features/NystromMap.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "features/FitProgress.hpp"
#include "features/OrbitPlan.hpp"
#include "features/Pooling.hpp"
#include "util/Deterministic.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace orbit {

namespace {

std::vector<std::size_t> randomSubset(std::size_t n, std::size_t k, Rng& rng)
{
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    for (std::size_t i = 0; i < k; ++i) std::swap(idx[i], idx[i + uniformIndex(rng, n - i)]);
    idx.resize(k);
    return idx;
}

} // namespace

MatrixXfR kMeansCentres(const MatrixXfR& Xall, int k, std::uint64_t seed, int iterations, std::size_t maxRows,
                        const Progress& progress)
{
    if (k < 1 || k > Xall.rows())
        throw SpecError("--features.s", "k-means needs 1 <= s <= number of rows (" + std::to_string(Xall.rows()) + ")",
                        std::to_string(k));
    Rng rng = makeRng(seed, 0x6b6d65616e73ULL);
    MatrixXfR X;
    if (std::size_t(Xall.rows()) > maxRows) {
        const auto idx = randomSubset(Xall.rows(), maxRows, rng);
        X.resize(Eigen::Index(idx.size()), Xall.cols());
        for (std::size_t i = 0; i < idx.size(); ++i) X.row(Eigen::Index(i)) = Xall.row(Eigen::Index(idx[i]));
    } else {
        X = Xall;
    }
    const detail::SerialEigen serial;
    const Eigen::Index n = X.rows();
    // k-means++ seeding: each new centre drawn with probability proportional to D(x)^2.
    MatrixXfR C(k, X.cols());
    std::vector<double> d2(n, std::numeric_limits<double>::infinity());
    Eigen::Index first = Eigen::Index(uniformIndex(rng, n));
    C.row(0) = X.row(first);
    // Progress: the seeding (k passes over the rows) and the Lloyd rounds, by their row passes.
    const double passes = double(k) + double(iterations);
    const int centresPerReport = std::max<int>(1, int(detail::kTemplateChunkValues / std::max<Eigen::Index>(1, n * X.cols())));
    for (int c = 1; c < k; ++c) {
        if (c % centresPerReport == 0)
            reportProgress(progress, double(c) / passes, "k-means seeding " + std::to_string(c) + "/" + std::to_string(k));
        double total = 0;
        for (Eigen::Index i = 0; i < n; ++i) {
            d2[i] = std::min(d2[i], double((X.row(i) - C.row(c - 1)).squaredNorm()));
            total += d2[i];
        }
        Eigen::Index pick = n - 1;
        if (total > 0) {
            double u = uniform01(rng) * total;
            for (Eigen::Index i = 0; i < n; ++i) {
                u -= d2[i];
                if (u < 0) { pick = i; break; }
            }
        } else {
            pick = Eigen::Index(uniformIndex(rng, n));
        }
        C.row(c) = X.row(pick);
    }
    std::vector<int> assign(n, 0);
    for (int it = 0; it < iterations; ++it) {
        reportProgress(progress, double(k + it) / passes,
                       "k-means round " + std::to_string(it + 1) + "/" + std::to_string(iterations));
        const Eigen::VectorXf cn = C.rowwise().squaredNorm();
        const MatrixXfR P = X * C.transpose();
#pragma omp parallel for schedule(static)
        for (Eigen::Index i = 0; i < n; ++i) {
            Eigen::Index best = 0;
            (cn.transpose() - 2.0f * P.row(i)).minCoeff(&best);
            assign[i] = int(best);
        }
        Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(k, X.cols());
        std::vector<std::size_t> count(k, 0);
        for (Eigen::Index i = 0; i < n; ++i) {
            sum.row(assign[i]) += X.row(i).cast<double>();
            ++count[assign[i]];
        }
        for (int c = 0; c < k; ++c)
            if (count[c] > 0) C.row(c) = (sum.row(c) / double(count[c])).cast<float>();  // empty: keep old centre
    }
    return C;
}

NystromMap::NystromMap(FeatureContext context, int s, int r, Landmarks landmarks, double tol, std::string mode)
    : context_(std::move(context)), s_(s), r_(r), landmarks_(landmarks), tol_(tol), mode_(std::move(mode))
{
    if (s < 1) throw SpecError("--features.s", "must be >= 1", std::to_string(s));
    if (!(tol >= 0 && tol < 1)) throw SpecError("--features.tol", "must be in [0, 1)", std::to_string(tol));
    if (!context_.kernel) throw SpecError("--kernel", "Nystrom features need a base kernel");
}

NystromMap::~NystromMap() = default;

std::string NystromMap::spec() const
{
    // Invariant iff the context has a group (what fit() will use): the same text before the fit.
    std::string t = context_.group && context_.dist ? "inystrom:s=" + std::to_string(s_) + ",r=" + std::to_string(r_)
                                            : "nystrom:s=" + std::to_string(s_);
    if (landmarks_ == Landmarks::KMeans) t += ",landmarks=kmeans";
    return t;
}

std::string NystromMap::kernel() const
{
    const std::string base = context_.kernel->spec();
    if (!plan_ || !plan_->sampler) return base;
    return "k_qG with " + base + plan_->describe();
}

void NystromMap::fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress)
{
    const Eigen::Index d = context_.shape.dim();
    if (X.cols() != d)
        throw SpecError("--features", "input rows have " + std::to_string(X.cols()) + " values, the shape needs " +
                                          std::to_string(d));
    if (s_ > X.rows())
        throw SpecError("--features.s", "more landmarks than training rows (" + std::to_string(X.rows()) + ")",
                        std::to_string(s_));
    const bool invariant = context_.group && context_.dist;
    auto plan = std::make_unique<detail::OrbitPlan>(
        detail::OrbitPlan::make(context_, invariant ? r_ : 1, mode_, deriveSeed(seed, 2), "--features", false));
    plan->fold.n = 0;  // kernel values need the true norms: no folding
    plan->useWholeFiniteGroup();
    // Shares of the fit in the progress: landmarks (k-means), K_ZZ and its eigendecomposition, moved landmarks.
    const bool kmeans = landmarks_ == Landmarks::KMeans;
    const bool moved = plan->sampler && plan->templateTrick;
    const double landmarkEnd = kmeans ? 0.4 : 0.0, moveStart = moved ? 0.5 : 1.0;
    MatrixXfR Z;
    if (kmeans) {
        Z = kMeansCentres(X, s_, deriveSeed(seed, 1), 10, 20000, detail::subProgress(progress, 0.0, landmarkEnd));
    } else {
        Rng rng = makeRng(seed, 1);
        const auto idx = randomSubset(X.rows(), s_, rng);
        Z.resize(s_, d);
        for (int i = 0; i < s_; ++i) Z.row(i) = X.row(Eigen::Index(idx[i]));
    }
    // K_ZZ in double, then its pseudo-inverse square root L (rank x s).
    reportProgress(progress, landmarkEnd, "landmark kernel " + std::to_string(s_) + " x " + std::to_string(s_));
    MatrixXfR L;
    {
        const detail::SerialEigen serial;
        const Eigen::MatrixXd Zd = Z.cast<double>();
        Eigen::MatrixXd K = Zd * Zd.transpose();
        const BaseKernel& k = *context_.kernel;
        if (k.kind() == BaseKernel::Kind::Gaussian) {
            const Eigen::VectorXd n2 = Zd.rowwise().squaredNorm();
            const double g = 1.0 / (2.0 * k.sigma() * k.sigma());
            for (Eigen::Index i = 0; i < s_; ++i)
                for (Eigen::Index j = 0; j < s_; ++j) K(i, j) = std::exp(-std::max(0.0, n2[i] + n2[j] - 2 * K(i, j)) * g);
        } else {
            K = (K.array() + k.offset()).pow(double(k.degree())).matrix();
        }
        reportProgress(progress, 0.5 * (landmarkEnd + moveStart), "eigendecomposition of the landmark kernel");
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(K);
        const Eigen::VectorXd& lambda = eig.eigenvalues();
        const double cut = tol_ * std::max(0.0, lambda.maxCoeff());
        std::vector<Eigen::Index> keep;
        for (Eigen::Index i = s_ - 1; i >= 0; --i)
            if (lambda[i] > cut && lambda[i] > 0) keep.push_back(i);
        L.resize(Eigen::Index(keep.size()), s_);
        for (std::size_t t = 0; t < keep.size(); ++t)
            L.row(Eigen::Index(t)) = (eig.eigenvectors().col(keep[t]) / std::sqrt(lambda[keep[t]])).transpose().cast<float>();
    }
    MatrixXfR ZG = plan->prepareTemplates(Z, detail::subProgress(progress, moveStart, 1.0, "landmark "));
    zNorm2_ = ZG.rowwise().squaredNorm();
    Z_ = std::move(Z);
    ZG_ = std::move(ZG);
    L_ = std::move(L);
    plan_ = std::move(plan);
}

void NystromMap::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    if (!plan_) throw std::logic_error("NystromMap::transform before fit");
    if (X.cols() != Z_.cols() || end > std::size_t(X.rows()) || begin > end)
        throw SpecError("--features", "transform: bad input block");
    out.resize(Eigen::Index(end - begin), dim());
    const int r = plan_->r;
    const Eigen::Index s = s_;
    const BaseKernel& kernel = *context_.kernel;
    const bool dataPath = plan_->sampler && !plan_->templateTrick;
    detail::forEachBlockOrTile(end - begin, plan_->blockInputs(), !dataPath, [&](std::size_t b0, std::size_t b1, bool tiles) {
        const MatrixXfR in = plan_->prepareInputs(X, begin + b0, begin + b1);
        const Eigen::VectorXf inNorm2 = in.rowwise().squaredNorm();
        MatrixXfR acc = MatrixXfR::Zero(Eigen::Index(b1 - b0), s);
        // Adds into columns j0.. of acc only; `tile` is scratch (each tile's copy has its own).
        auto pool = [&, tile = MatrixXfR()](Eigen::Index i, Eigen::Index j0, const float* p, Eigen::Index n, int k) mutable {
            // k(a, z) from <a, z>, ||a||^2, ||z||^2 for one row of the tile, summed into acc(i, j0..).
            tile.resize(1, n);
            std::copy(p, p + n, tile.data());
            const Eigen::Index a = dataPath ? i * r + k : i;
            const Eigen::Index zOffset = dataPath ? j0 : Eigen::Index(k) * s + j0;
            kernel.fromInnerProducts(tile.data(), 1, n, n, inNorm2.data() + a, zNorm2_.data() + zOffset);
            acc.row(i).segment(j0, n) += tile;
        };
        if (dataPath) {
            MatrixXfR P;
            detail::poolOrbits(in, ZG_, r, P, pool);
        } else {
            detail::poolTemplates(in, ZG_, r, s, pool, tiles);
        }
        out.middleRows(Eigen::Index(b0), Eigen::Index(b1 - b0)).noalias() = (acc * (1.0f / float(r))) * L_.transpose();
    });
}

} // namespace orbit

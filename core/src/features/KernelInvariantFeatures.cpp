#include "orbit/features/KernelInvariantFeatures.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/RandomSubset.hpp"

#include "features/FitProgress.hpp"
#include "features/OrbitPlan.hpp"
#include "features/Pooling.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace orbit {

KernelInvariantFeatures::KernelInvariantFeatures(FeatureContext context, int templates, Pooling pooling, int moments,
                                                 int r)
    : OrbitFeatureMap(std::move(context)), K_(templates), pooling_(pooling), moments_(moments), r_(r)
{
    if (templates < 1) throw SpecError("features.k", "must be >= 1", std::to_string(templates));
    if (pooling == Pooling::Moments && (moments < 1 || moments > 16))
        throw SpecError("features.eta", "moments:n needs 1 <= n <= 16", std::to_string(moments));
    if (!context_.kernel) throw SpecError("kernel", "kif needs a base kernel");
    // Pal & Savvides' features need a unitary kernel, k(g x, g y) = k(x, y) (their Definition 2.2):
    // the Laplacian's L1 distances are kept by permutations of coordinates only.
    if (context_.group && !detail::OrbitPlan::kernelMovesWithGroup(context_))
        throw SpecError("kernel",
                        "kif needs k(g x, g y) = k(x, y) (Pal & Savvides' unitary kernel), and the laplacian kernel's L1 "
                        "distances keep it only under groups that permute coordinates, not " + context_.group->spec(),
                        context_.kernel->spec());
}

KernelInvariantFeatures::~KernelInvariantFeatures() = default;

int KernelInvariantFeatures::groupSize() const { return plan_ ? plan_->r : 0; }

std::string KernelInvariantFeatures::spec() const
{
    const std::string eta = pooling_ == Pooling::Mean  ? "mean"
                            : pooling_ == Pooling::Max ? "max"
                                                       : "moments:" + std::to_string(moments_);
    return "kif:k=" + std::to_string(K_) + ",eta=" + eta + ",r=" + std::to_string(r_);
}

std::string KernelInvariantFeatures::kernel() const
{
    return "linear on Pal-Savvides kernel invariant features with " + context_.kernel->spec() +
           planDescription();
}

void KernelInvariantFeatures::fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress)
{
    checkFitInput("KernelInvariantFeatures::fit", X);
    detail::prepareGroup(context_, progress);
    const Eigen::Index d = context_.shape.dim();
    if (K_ > X.rows())
        throw SpecError("features.k", "more templates than training rows (" + std::to_string(X.rows()) + ")",
                        std::to_string(K_));
    auto plan = std::make_unique<detail::OrbitPlan>(
        detail::OrbitPlan::make(context_, r_, "templates", deriveSeed(seed, 2), "features", true, true));
    plan->fold.n = 0;
    plan->useWholeFiniteGroup();
    Rng rng = makeRng(seed, 1);
    const std::vector<std::size_t> idx = randomSubset(std::size_t(X.rows()), std::size_t(K_), rng);
    MatrixXfR T(K_, d);
    for (int i = 0; i < K_; ++i) T.row(i) = X.row(Eigen::Index(idx[std::size_t(i)]));
    MatrixXfR TG = plan->prepareTemplates(T, progress);
    tNorm2_ = TG.rowwise().squaredNorm();
    TG_ = std::move(TG);
    plan_ = std::move(plan);
}

void KernelInvariantFeatures::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    checkTransformInput("KernelInvariantFeatures::transform", X, begin, end, context_.shape.dim());
    const Eigen::Index D = dim();
    const int G = plan_->r, n = pooling_ == Pooling::Moments ? moments_ : 1;
    out.resize(Eigen::Index(end - begin), D);
    out.setConstant(pooling_ == Pooling::Max ? -std::numeric_limits<float>::infinity() : 0.0f);
    const BaseKernel& kernel = *context_.kernel;
    const bool l1 = !kernel.fromProducts();
    const float invSigma = l1 ? static_cast<float>(1.0 / kernel.sigma()) : 0.0f;
    detail::forEachBlockOrTile(end - begin, plan_->blockInputs(), true, [&](std::size_t b0, std::size_t b1, bool tiles) {
        const MatrixXfR in = plan_->prepareInputs(X, begin + b0, begin + b1);
        const Eigen::VectorXf inNorm2 = l1 ? Eigen::VectorXf() : Eigen::VectorXf(in.rowwise().squaredNorm());
        float* o = out.data() + Eigen::Index(b0) * D;
        // Writes the features of templates j0.. only; v is scratch (each tile's copy has its own).
        // It is an Eigen vector for its alignment: Eigen's vectorised exp peels the first elements of
        // an unaligned buffer into scalar code, which rounds differently, so a malloc'd scratch gave
        // features that changed in the last bit from run to run. For the Laplacian p holds the L1
        // distances ||x - g t||_1 and v = exp(-p / sigma).
        auto pool = [&, v = Eigen::VectorXf()](Eigen::Index i, Eigen::Index j0, const float* p, Eigen::Index m, int k) mutable {
            if (l1) {
                v.resize(m);
                detail::laplacianRow(p, v.data(), m, invSigma);
            } else {
                v = Eigen::Map<const Eigen::VectorXf>(p, m);
                kernel.fromInnerProducts(v.data(), 1, m, m, inNorm2.data() + i, tNorm2_.data() + Eigen::Index(k) * K_ + j0);
            }
            float* row = o + i * D;
            for (Eigen::Index t = 0; t < m; ++t) {
                const Eigen::Index j = j0 + t;
                if (pooling_ == Pooling::Max) {
                    row[j] = std::max(row[j], v[t]);
                } else {
                    float power = 1.0f;
                    for (int q = 0; q < n; ++q) {
                        power *= v[t];
                        row[j * n + q] += power;
                    }
                }
            }
        };
        if (l1)
            detail::poolTemplateDistances(in, TG_, G, K_, pool, tiles);
        else
            detail::poolTemplates(in, TG_, G, K_, pool, tiles);
    });
    if (pooling_ != Pooling::Max) out *= 1.0f / float(G);
}

} // namespace orbit

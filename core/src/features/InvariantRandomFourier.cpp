#include "orbit/features/InvariantRandomFourier.hpp"

#include "orbit/features/FastCos.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "features/CosPool.hpp"
#include "features/FitProgress.hpp"
#include "features/OrbitPlan.hpp"
#include "features/Pooling.hpp"

#include <algorithm>
#include <cmath>

namespace orbit {

InvariantRandomFourier::InvariantRandomFourier(FeatureContext context, int s, int r, Form form, std::string mode)
    : OrbitFeatureMap(std::move(context)), s_(s), r_(r), form_(form), mode_(std::move(mode))
{
    if (s < 1) throw SpecError("features.s", "must be >= 1", std::to_string(s));
    if (!context_.kernel || !context_.kernel->stationary())
        throw SpecError("kernel", "random Fourier features need a shift-invariant kernel (gaussian, laplacian or matern)",
                        context_.kernel ? context_.kernel->spec() : std::string("none"));
}

InvariantRandomFourier::~InvariantRandomFourier() = default;

std::string InvariantRandomFourier::spec() const
{
    // Invariant iff the context has a group (what fit() will use): the same text before the fit.
    std::string t = context_.group && context_.dist ? "irf:s=" + std::to_string(s_) + ",r=" + std::to_string(r_)
                                            : "rf:s=" + std::to_string(s_);
    if (form_ == Form::Complex) t += ",form=complex";
    return t;
}

std::string InvariantRandomFourier::kernel() const
{
    return baseOrInvariantKernel();
}

const OrbitSampler* InvariantRandomFourier::orbitSampler() const { return plan_ ? plan_->sampler.get() : nullptr; }

bool InvariantRandomFourier::usesTemplateTrick() const { return plan_ && plan_->sampler && plan_->templateTrick; }

void InvariantRandomFourier::fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress)
{
    checkFitInput("InvariantRandomFourier::fit", X);
    detail::prepareGroup(context_, progress);
    const Eigen::Index d = context_.shape.dim();
    const bool invariant = context_.group && context_.dist;
    auto plan = std::make_unique<detail::OrbitPlan>(
        detail::OrbitPlan::make(context_, invariant ? r_ : 1, mode_, samplerSeed(seed), "features", false));
    // Drawing W is a small share of the fit when templates are moved (r d values each), all of it otherwise.
    const double drawShare = plan->sampler && plan->templateTrick ? 1.0 / (1.0 + plan->r) : 1.0;
    MatrixXfR W;
    Eigen::VectorXf b;
    drawTemplates(s_, d, *context_.kernel, form_, seed, W, b, progress, drawShare);
    MatrixXfR product = plan->prepareTemplates(W, detail::subProgress(progress, drawShare, 1.0));
    W_ = std::move(W);
    b_ = std::move(b);
    product_ = std::move(product);
    plan_ = std::move(plan);
}

void InvariantRandomFourier::drawTemplates(int s, Eigen::Index d, const BaseKernel& kernel, Form form, std::uint64_t seed,
                                           MatrixXfR& W, Eigen::VectorXf& b, const Progress& progress, double share)
{
    Rng rng = makeRng(seed, 1);
    W.resize(s, d);
    const Eigen::Index rowsPerReport = std::max<Eigen::Index>(1, detail::kTemplateChunkValues / std::max<Eigen::Index>(d, 1));
    for (Eigen::Index j = 0; j < s; ++j) {
        if (j % rowsPerReport == 0)
            reportProgress(progress, share * double(j) / double(s), "drawing w " + std::to_string(j) + "/" + std::to_string(s));
        kernel.drawFrequency(rng, W.data() + j * d, d);
    }
    b.resize(s);
    for (Eigen::Index j = 0; j < s; ++j) b[j] = form == Form::Cos ? static_cast<float>(2.0 * M_PI * uniform01(rng)) : 0.0f;
}

std::uint64_t InvariantRandomFourier::samplerSeed(std::uint64_t seed) { return deriveSeed(seed, 2); }

void InvariantRandomFourier::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    checkTransformInput("InvariantRandomFourier::transform", X, begin, end, W_.cols());
    const Eigen::Index s = s_, D = dim();
    out.resize(Eigen::Index(end - begin), D);
    const int r = plan_->r;
    const bool complex = form_ == Form::Complex;
    const float scale = static_cast<float>((complex ? std::sqrt(1.0 / s_) : std::sqrt(2.0 / s_)) / r);
    const float* b = b_.data();
    const std::vector<std::size_t> order = plan_->inputOrder(X, begin, end);
    const bool dataPath = plan_->sampler && !plan_->templateTrick;
    detail::forEachBlockOrTile(order.size(), plan_->blockInputs(), !dataPath, [&](std::size_t b0, std::size_t b1, bool tiles) {
        const auto in = plan_->prepareInputs(X, order.data() + b0, b1 - b0, detail::threadScratch(detail::ScratchRole::Inputs));
        auto acc = detail::threadScratch(detail::ScratchRole::Accumulator).matrix(Eigen::Index(b1 - b0), D);
        acc.setZero();
        // Writes columns j0.. (and s + j0.. in the complex form) of acc only: tiles are independent.
        auto pool = [&](Eigen::Index i, Eigen::Index j0, const float* p, Eigen::Index n, int) {
            float* oc = acc.data() + i * D + j0;
            detail::addCos(oc, p, b + j0, n);
            if (complex) detail::addSin(oc + s, p, n);
        };
        if (dataPath) {
            detail::poolOrbits(in, product_, r, pool);
        } else {
            detail::poolTemplates(in, product_, r, s, pool, tiles);
        }
        for (std::size_t t = b0; t < b1; ++t) out.row(Eigen::Index(order[t] - begin)) = acc.row(Eigen::Index(t - b0)) * scale;
    });
}

} // namespace orbit

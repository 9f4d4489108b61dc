#include "orbit/features/GicdfMap.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "features/OrbitPlan.hpp"
#include "features/Pooling.hpp"

#include <algorithm>
#include <cmath>

namespace orbit {

GicdfMap::GicdfMap(FeatureContext context, int m, int bins, int r, double eps, std::string mode)
    : context_(std::move(context)), m_(m), bins_(bins), r_(r), eps_(eps), mode_(std::move(mode))
{
    if (m < 1) throw SpecError("--features.m", "must be >= 1", std::to_string(m));
    if (bins < 1) throw SpecError("--features.bins", "must be >= 1", std::to_string(bins));
    if (!(eps > 0 && eps < 1)) throw SpecError("--features.eps", "must be in (0, 1)", std::to_string(eps));
}

GicdfMap::~GicdfMap() = default;

std::string GicdfMap::spec() const
{
    return "gicdf:m=" + std::to_string(m_) + ",bins=" + std::to_string(bins_) + ",r=" + std::to_string(r_);
}

std::string GicdfMap::kernel() const
{
    return "GICDF kernel K_s (s = 1 + " + std::to_string(eps_) + ")" + (plan_ ? plan_->describe() : std::string());
}

void GicdfMap::fit(const MatrixXfR& X, std::uint64_t seed)
{
    const Eigen::Index d = context_.shape.dim();
    if (X.cols() != d) throw SpecError("--features", "input rows do not match the shape", std::to_string(X.cols()));
    plan_ = std::make_unique<detail::OrbitPlan>(
        detail::OrbitPlan::make(context_, r_, mode_, deriveSeed(seed, 2), "--features", true));
    plan_->fold.n = 0;  // inputs are normalised after the transform
    plan_->useWholeFiniteGroup();
    Rng rng = makeRng(seed, 1);
    MatrixXfR T(m_, d);
    const double sd = 1.0 / std::sqrt(double(d));
    for (int j = 0; j < m_; ++j) {
        for (int attempt = 0;; ++attempt) {
            double n2 = 0;
            for (Eigen::Index t = 0; t < d; ++t) {
                const double v = standardNormal(rng) * sd;
                T(j, t) = float(v);
                n2 += v * v;
            }
            if (n2 < 1 + eps_) break;
            if (attempt > 10000)
                throw SpecError("--features.eps", "rejection sampling of templates does not accept (d too small?)",
                                std::to_string(eps_));
        }
    }
    TG_ = plan_->prepareTemplates(T);
}

void GicdfMap::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    if (!plan_) throw std::logic_error("GicdfMap::transform before fit");
    if (X.cols() != context_.shape.dim() || end > std::size_t(X.rows()) || begin > end)
        throw SpecError("--features", "transform: bad input block");
    const Eigen::Index D = dim(), width = 2 * bins_ + 1;
    out.setZero(Eigen::Index(end - begin), D);
    const int r = plan_->r;
    const float s = float(1 + eps_);
    const float toBin = float(bins_) / s;
    const bool dataPath = !plan_->templateTrick;
    detail::forEachBlock(end - begin, plan_->blockInputs(), [&](std::size_t b0, std::size_t b1) {
        MatrixXfR in = plan_->prepareInputs(X, begin + b0, begin + b1);
        const Eigen::VectorXf norms = in.rowwise().norm();
        for (Eigen::Index i = 0; i < in.rows(); ++i)
            if (norms[i] > 0) in.row(i) /= norms[i];
        MatrixXfR P;
        float* o = out.data() + Eigen::Index(b0) * D;
        // Histogram first: a projection v lands in the bin of the first threshold tau_k >= v
        // (k = ceil(v n / s)); values above tau_n count for none. The CDF is the prefix sum below.
        auto pool = [&](Eigen::Index i, Eigen::Index j0, const float* p, Eigen::Index n, int) {
            float* row = o + i * D + j0 * width;
            for (Eigen::Index t = 0; t < n; ++t) {
                const float c = std::ceil(p[t] * toBin);
                if (c > float(bins_)) continue;
                row[t * width + (c < -float(bins_) ? 0 : Eigen::Index(c) + bins_)] += 1.0f;
            }
        };
        if (dataPath)
            detail::poolOrbits(in, TG_, r, P, pool);
        else
            detail::poolTemplates(in, TG_, r, m_, P, pool);
        for (Eigen::Index i = 0; i < Eigen::Index(b1 - b0); ++i)
            for (Eigen::Index j = 0; j < m_; ++j) {
                float* f = o + i * D + j * width;
                for (Eigen::Index k = 1; k < width; ++k) f[k] += f[k - 1];
            }
    });
    out *= float(std::sqrt(double(s)) / (std::sqrt(double(bins_) * m_) * r));
}

} // namespace orbit

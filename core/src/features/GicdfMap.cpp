#include "orbit/features/GicdfMap.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "features/OrbitPlan.hpp"
#include "features/Pooling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

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
    if (plan_->templateTrick) {
        // k-major (block i = g_i^-1 T) to template-major (row j r + i): a column tile of the
        // product then holds all r samples of its templates, contiguous.
        const int r = plan_->r;
        MatrixXfR byTemplate(TG_.rows(), TG_.cols());
        for (int i = 0; i < r; ++i)
            for (Eigen::Index j = 0; j < m_; ++j) byTemplate.row(j * r + i) = TG_.row(Eigen::Index(i) * m_ + j);
        TG_ = std::move(byTemplate);
    }
}

namespace {

/// Pooling of projections into CDF features. A projection v falls at threshold index
/// idx(v) = clamp(ceil(v n / s), -n, n + 1) + n: the first tau_k = s k / n with v <= tau_k (values
/// below tau_-n count from k = -n, values above tau_n at none, index 2n + 1). Then
/// F_k = #{i : idx(v_i) <= k}, the empirical CDF at tau_k. With few samples (r ceil(width / 16) <=
/// 4 width) each sample adds clamp(k + 1 - idx, 0, 1) to every threshold, 16 at a time in registers
/// (branch-free, no prefix sum); with many, a histogram over the indices and its prefix sum. Counts
/// are small integers, exact in float, so both give the same bits.
class CdfPool {
public:
    CdfPool(int bins, int r, float s, float scale)
        : bins_(bins), width_(2 * bins + 1), r_(r), toBin_(float(bins) / s), scale_(scale),
          counts_(std::size_t(width_) + 1), compare_(r * ((width_ + kLanes - 1) / kLanes) <= 4 * width_)
    {
    }

    /// p[0..n) := idx(p[0..n)) in place (a tile of the product, elementwise).
    void indices(float* p, Eigen::Index n) const
    {
        const float lo = -float(bins_), hi = float(bins_ + 1), shift = float(bins_), toBin = toBin_;
        for (Eigen::Index t = 0; t < n; ++t) {
            float c = std::ceil(p[t] * toBin);
            c = c <= hi ? c : hi;  // NaN counts at no threshold
            c = c >= lo ? c : lo;
            p[t] = c + shift;
        }
    }

    /// out[0..width) = scale F, from the indices idx[i * stride], i < r.
    void operator()(const float* idx, Eigen::Index stride, float* out)
    {
        const int w = width_;
        if (compare_) {
            using Lane = Eigen::Array<float, kLanes, 1>;
            const Lane iota = Lane::LinSpaced(kLanes, 0.0f, float(kLanes - 1));
            for (int k0 = 0; k0 < w; k0 += kLanes) {
                Lane f = Lane::Zero();
                for (int i = 0; i < r_; ++i) f += (iota + (1.0f + float(k0) - idx[i * stride])).max(0.0f).min(1.0f);
                const int n = std::min(kLanes, w - k0);
                if (n == kLanes)
                    Eigen::Map<Lane>(out + k0) = f * scale_;
                else
                    for (int l = 0; l < n; ++l) out[k0 + l] = f[l] * scale_;
            }
            return;
        }
        float* f = counts_.data();
        std::fill(counts_.begin(), counts_.end(), 0.0f);
        for (int i = 0; i < r_; ++i) f[int(idx[i * stride])] += 1.0f;
        for (int k = 1; k < w; ++k) f[k] += f[k - 1];
        for (int k = 0; k < w; ++k) out[k] = f[k] * scale_;
    }

private:
    static constexpr int kLanes = 16;
    int bins_, width_, r_;
    float toBin_, scale_;
    std::vector<float> counts_;
    bool compare_;
};

/// The feature matrix (m (2n + 1) floats per input, 5x the product's output at the bench sizes) is
/// written once; the first-touch page faults of that fresh memory cost about as much as the
/// product itself, 2 MB pages (measured 0.36 s -> 0.31 s at N = 5000) a fraction. A hint only:
/// no effect on values, ignored where unsupported.
void adviseHugePages(float* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t page = 4096;
    const std::uintptr_t a = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
    const std::uintptr_t e = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
    if (bytes >= (std::size_t(4) << 20) && e > a) madvise(reinterpret_cast<void*>(a), e - a, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

/// Columns of one product tile: P (block rows x about this many floats) stays in L2.
constexpr Eigen::Index kCdfTileColumns = 512;

} // namespace

void GicdfMap::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    if (!plan_) throw std::logic_error("GicdfMap::transform before fit");
    if (X.cols() != context_.shape.dim() || end > std::size_t(X.rows()) || begin > end)
        throw SpecError("--features", "transform: bad input block");
    const Eigen::Index D = dim(), width = 2 * bins_ + 1;
    out.resize(Eigen::Index(end - begin), D);  // every entry is written below
    adviseHugePages(out.data(), sizeof(float) * std::size_t(out.size()));
    const int r = plan_->r;
    const float s = float(1 + eps_);
    const float scale = float(std::sqrt(double(s)) / (std::sqrt(double(bins_) * m_) * r));
    const bool dataPath = !plan_->templateTrick;
    // Template trick: TG_ row j r + i = g_i^-1 t_j, so P(x, j r + i) = <g_i^-1 t_j, x>.
    // Data path: row x r + i of the inputs is g_{x,i} x, so P(x r + i, j) = <t_j, g_{x,i} x>.
    const Eigen::Index perTile = dataPath ? kCdfTileColumns : std::max<Eigen::Index>(1, kCdfTileColumns / r);
    detail::forEachBlock(end - begin, plan_->blockInputs(), [&](std::size_t b0, std::size_t b1) {
        MatrixXfR in = plan_->prepareInputs(X, begin + b0, begin + b1);
        const Eigen::VectorXf norms = in.rowwise().norm();
        for (Eigen::Index i = 0; i < in.rows(); ++i)
            if (norms[i] > 0) in.row(i) /= norms[i];
        const Eigen::Index depth = detail::effectiveDepth(in);
        const Eigen::Index inputs = Eigen::Index(b1 - b0);
        CdfPool pool(bins_, r, s, scale);
        MatrixXfR P;
        for (Eigen::Index j0 = 0; j0 < m_; j0 += perTile) {
            const Eigen::Index nj = std::min<Eigen::Index>(perTile, m_ - j0);
            const Eigen::Index c0 = dataPath ? j0 : j0 * r, nc = dataPath ? nj : nj * r;
            P.resize(in.rows(), nc);
            P.noalias() = in.leftCols(depth) * TG_.middleRows(c0, nc).leftCols(depth).transpose();
            pool.indices(P.data(), P.size());
            for (Eigen::Index x = 0; x < inputs; ++x) {
                float* o = out.data() + (Eigen::Index(b0) + x) * D + j0 * width;
                for (Eigen::Index j = 0; j < nj; ++j) {
                    if (dataPath)
                        pool(P.data() + x * r * nc + j, nc, o + j * width);
                    else
                        pool(P.data() + x * nc + j * r, 1, o + j * width);
                }
            }
        }
    });
}

} // namespace orbit

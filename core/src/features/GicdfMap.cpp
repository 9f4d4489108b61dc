#include "orbit/features/GicdfMap.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "features/BlockCheck.hpp"
#include "features/OrbitPlan.hpp"
#include "features/Pooling.hpp"
#include "groups/GroupSupport.hpp"
#include "util/Deterministic.hpp"
#include "util/SimdDispatch.hpp"
#include "util/StreamStore.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#if ORBIT_SIMD_DISPATCH
#include <immintrin.h>
#endif

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace orbit {

GicdfMap::GicdfMap(FeatureContext context, int m, int bins, int r, double eps, std::string mode, Norm norm, double span)
    : context_(std::move(context)), m_(m), bins_(bins), r_(r), eps_(eps), mode_(std::move(mode)), norm_(norm), span_(span)
{
    if (!(span > 0 || span == kSpanPaper || span == kSpanAuto) || !std::isfinite(span))
        throw SpecError("features.span", "must be a positive number or auto", std::to_string(span));
    if (m < 1) throw SpecError("features.m", "must be >= 1", std::to_string(m));
    if (bins < 1) throw SpecError("features.bins", "must be >= 1", std::to_string(bins));
    if (!(eps > 0 && eps < 1)) throw SpecError("features.eps", "must be in (0, 1)", std::to_string(eps));
}

GicdfMap::~GicdfMap() = default;

std::string GicdfMap::spec() const
{
    return "gicdf:m=" + std::to_string(m_) + ",bins=" + std::to_string(bins_) + ",r=" + std::to_string(r_) +
           (norm_ == Norm::Max ? ",norm=max" : "") +
           (span_ == kSpanAuto ? ",span=auto" : span_ > 0 ? ",span=" + formatNumber(span_) : "");
}

std::string GicdfMap::kernel() const
{
    const std::string range = plan_ ? formatNumber(spanUsed_) : span_ == kSpanAuto ? std::string("measured")
                                                                 : formatNumber(span_ > 0 ? span_ : 1 + eps_);
    return "GICDF kernel K_s (s = " + range + ")" + (plan_ ? plan_->describe() : std::string());
}

void GicdfMap::fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress)
{
    const Eigen::Index d = context_.shape.dim();
    if (X.cols() != d)
        throw ContractError("GicdfMap::fit", "input rows have " + std::to_string(X.cols()) + " values, the shape needs " +
                                                 std::to_string(d));
    auto plan = std::make_unique<detail::OrbitPlan>(
        detail::OrbitPlan::make(context_, r_, mode_, deriveSeed(seed, 2), "features", true));
    plan->fold.n = 0;  // inputs are normalised after the transform
    plan->useWholeFiniteGroup();
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
                throw SpecError("features.eps", "rejection sampling of templates does not accept (d too small?)",
                                std::to_string(eps_));
        }
    }
    MatrixXfR TG = plan->prepareTemplates(T, progress);
    if (plan->templateTrick) {
        // k-major (block i = g_i^-1 T) to template-major (row j r + i): a column tile of the
        // product then holds all r samples of its templates, contiguous.
        const int r = plan->r;
        MatrixXfR byTemplate(TG.rows(), TG.cols());
        for (int i = 0; i < r; ++i)
            for (Eigen::Index j = 0; j < m_; ++j) byTemplate.row(j * r + i) = TG.row(Eigen::Index(i) * m_ + j);
        TG = std::move(byTemplate);
    }
    if (norm_ == Norm::Max) {
        const float largest = X.rows() > 0 ? X.rowwise().norm().maxCoeff() : 0.0f;
        if (!std::isfinite(largest))
            throw SpecError("data", "GICDF features need finite inputs; the training rows have NaN or inf", "norm=max");
        maxNorm_ = largest > 0 ? largest : 1.0f;
    }
    spanUsed_ = span_ > 0 ? span_ : 1 + eps_;
    if (span_ == kSpanAuto) {
        // The 99th percentile of |<t_j, x>| over up to 256 rows (normalised as transform() does).
        Rng pick = makeRng(seed, 4);
        const Eigen::Index n = std::min<Eigen::Index>(256, X.rows());
        MatrixXfR S(n, d);
        for (Eigen::Index i = 0; i < n; ++i) {
            S.row(i) = X.row(X.rows() > 256 ? Eigen::Index(uniformIndex(pick, std::size_t(X.rows()))) : i);
            const float norm = norm_ == Norm::Max ? maxNorm_ : S.row(i).norm();
            if (norm > 0) S.row(i) /= norm;
        }
        const detail::SerialEigen serial;
        const MatrixXfR P = S * T.transpose();
        std::vector<float> a(P.data(), P.data() + P.size());
        for (float& v : a) v = std::abs(v);
        if (!a.empty()) {
            auto at = a.begin() + std::ptrdiff_t(0.99 * double(a.size() - 1));
            std::nth_element(a.begin(), at, a.end());
            if (std::isfinite(*at) && *at > 0) spanUsed_ = *at;
        }
    }
    T_ = std::move(T);
    TG_ = std::move(TG);
    plan_ = std::move(plan);
}

namespace {

#if ORBIT_SIMD_DISPATCH
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_ps(), a self-initialised variable that
// -Wmaybe-uninitialized reports once inlined here (a GCC 12 false positive, GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
/// CdfPool::indices on 16 lanes at a time: idx[i] = clamp(ceil(p[i] to), lo, hi) + shift for i in
/// [0, n rounded down to 16); returns where the scalar tail starts. The same float operations in
/// the same order as the scalar loop, so the same indices.
ORBIT_TARGET_AVX512 Eigen::Index indicesAvx512(const float* p, Eigen::Index n, float to, float lo, float hi,
                                               float shift, int* idx)
{
    const __m512 vTo = _mm512_set1_ps(to), vLo = _mm512_set1_ps(lo), vHi = _mm512_set1_ps(hi),
                 vShift = _mm512_set1_ps(shift);
    Eigen::Index i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 y = _mm512_roundscale_ps(_mm512_mul_ps(_mm512_loadu_ps(p + i), vTo),
                                        _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
        y = _mm512_add_ps(_mm512_max_ps(_mm512_min_ps(y, vHi), vLo), vShift);
        _mm512_storeu_si512(idx + i, _mm512_cvttps_epi32(y));
    }
    return i;
}

/// CdfPool's byte steps for nj templates: out[j width + k] = scale sum_{i < r} table[idx_ji][k], with
/// idx_ji = idx[j jStride + i iStride] and table rows of 64 bytes. A whole row is one register, so
/// the r steps are r byte adds (counts <= r <= 255 fit), then one widening to float per 16 lanes.
ORBIT_TARGET_AVX512 void byteStepsAvx512(const std::uint8_t* table, const int* idx, Eigen::Index nj,
                                         Eigen::Index jStride, Eigen::Index iStride, int r, int width, float scale,
                                         float* out)
{
    const __m512 vScale = _mm512_set1_ps(scale);
    for (Eigen::Index j = 0; j < nj; ++j) {
        const int* ij = idx + j * jStride;
        __m512i f = _mm512_loadu_si512(table + std::ptrdiff_t(ij[0]) * 64);
        for (int i = 1; i < r; ++i) f = _mm512_add_epi8(f, _mm512_loadu_si512(table + std::ptrdiff_t(ij[i * iStride]) * 64));
        float* o = out + j * width;
        for (int k0 = 0; k0 < width; k0 += 16) {
            const __m128i bytes = _mm512_castsi512_si128(f);
            const __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(bytes)), vScale);
            const int n = std::min(16, width - k0);
            _mm512_mask_storeu_ps(o + k0, __mmask16((1u << n) - 1u), v);
            f = _mm512_alignr_epi32(f, f, 4);  // next 16 bytes to the bottom lane
        }
    }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

/// Pooling of projections into CDF features. A projection v falls at threshold index
/// idx(v) = clamp(ceil(v n / s), -n, n + 1) + n: the first tau_k = s k / n with v <= tau_k (values
/// below tau_-n count from k = -n, values above tau_n at none, index 2n + 1). Then
/// F_k = #{i : idx(v_i) <= k}, the empirical CDF at tau_k, a sum of r step functions
/// [k >= idx_i]. The steps are rows of a small table (L1-resident) added side by side:
///  - bytes: width <= 64 and r <= 255 (counts fit a byte) on a CPU with AVX-512 BW (chosen at run
///    time, simdLevel()): a whole row is one 64-byte register, so the r steps are r adds, then one
///    widening to float;
///  - floats: narrow rows with few samples per row (r ceil(width / 16) <= 4 width), 16 lanes at a time;
///  - otherwise a histogram over the indices and its prefix sum.
/// Counts are small integers, exact in float, so all three give the same bits.
class CdfPool {
public:
    CdfPool(int bins, int r, float s, float scale)
        : bins_(bins), width_(2 * bins + 1), padded_((width_ + kLanes - 1) / kLanes * kLanes), r_(r),
          toBin_(float(bins) / s), scale_(scale), counts_(std::size_t(width_) + 1)
    {
#if ORBIT_SIMD_DISPATCH
        avx512_ = simdLevel() == SimdLevel::Avx512;
        if (avx512_ && width_ <= 64 && r <= 255) {
            mode_ = Mode::ByteSteps;
            byteSteps_.assign(std::size_t(width_ + 1) * 64, 0);
            for (int j = 0; j <= width_; ++j)
                for (int k = j; k < width_; ++k) byteSteps_[std::size_t(j) * 64 + std::size_t(k)] = 1;
            return;
        }
#endif
        if (padded_ <= kMaxStepWidth && r * (padded_ / kLanes) <= 4 * width_) {
            mode_ = Mode::FloatSteps;
            steps_.assign(std::size_t(width_ + 1) * std::size_t(padded_), 0.0f);
            for (int j = 0; j <= width_; ++j)
                for (int k = j; k < width_; ++k) steps_[std::size_t(j) * std::size_t(padded_) + std::size_t(k)] = 1.0f;
        }
    }

    /// idx[0..n) := idx(p[0..n)) (a tile of the product, elementwise), 16 lanes at a time on
    /// AVX-512 CPUs (the same float operations in the same order, so the same indices).
    void indices(const float* p, Eigen::Index n, std::vector<int>& idx) const
    {
        // Projections are finite (transform refuses non-finite inputs), so min/max clamp exactly.
        idx.resize(std::size_t(n));
        const float lo = -float(bins_), hi = float(bins_ + 1), shift = float(bins_);
        Eigen::Index i = 0;
#if ORBIT_SIMD_DISPATCH
        if (avx512_) i = indicesAvx512(p, n, toBin_, lo, hi, shift, idx.data());
#endif
        for (; i < n; ++i) idx[std::size_t(i)] = int(std::max(std::min(std::ceil(p[i] * toBin_), hi), lo) + shift);
    }

    /// out[j width .. (j + 1) width) = scale F of template j, from the indices idx[j jStride + i iStride],
    /// i < r, for each j < nj.
    void operator()(const int* idx, Eigen::Index nj, Eigen::Index jStride, Eigen::Index iStride, float* out)
    {
#if ORBIT_SIMD_DISPATCH
        if (mode_ == Mode::ByteSteps)
            return byteStepsAvx512(byteSteps_.data(), idx, nj, jStride, iStride, r_, width_, scale_, out);
#endif
        for (Eigen::Index j = 0; j < nj; ++j) pool(idx + j * jStride, iStride, out + j * width_);
    }

private:
    /// out[0..width) = scale F, from the indices idx[i * stride], i < r (float steps or histogram).
    void pool(const int* idx, Eigen::Index stride, float* out)
    {
        if (mode_ == Mode::FloatSteps) {
            switch (padded_ / kLanes) {
            case 1: return addSteps<1>(idx, stride, out);
            case 2: return addSteps<2>(idx, stride, out);
            case 3: return addSteps<3>(idx, stride, out);
            case 4: return addSteps<4>(idx, stride, out);
            case 5: return addSteps<5>(idx, stride, out);
            case 6: return addSteps<6>(idx, stride, out);
            case 7: return addSteps<7>(idx, stride, out);
            default: return addSteps<8>(idx, stride, out);
            }
        }
        const int w = width_;
        float* f = counts_.data();
        std::fill(counts_.begin(), counts_.end(), 0.0f);
        for (int i = 0; i < r_; ++i) f[idx[i * stride]] += 1.0f;
        for (int k = 1; k < w; ++k) f[k] += f[k - 1];
        for (int k = 0; k < w; ++k) out[k] = f[k] * scale_;
    }

    /// The float step rows of the r indices summed with all Chunks lanes of a row side by side
    /// (registers, independent adds: no latency chain).
    template <int Chunks>
    void addSteps(const int* idx, Eigen::Index stride, float* out) const
    {
        using Lane = Eigen::Array<float, kLanes, 1>;
        Lane f[Chunks];
        const float* row = steps_.data() + std::ptrdiff_t(idx[0]) * padded_;
        for (int c = 0; c < Chunks; ++c) f[c] = Eigen::Map<const Lane>(row + c * kLanes);
        for (int i = 1; i < r_; ++i) {
            row = steps_.data() + std::ptrdiff_t(idx[i * stride]) * padded_;
            for (int c = 0; c < Chunks; ++c) f[c] += Eigen::Map<const Lane>(row + c * kLanes);
        }
        for (int c = 0; c < Chunks; ++c) {
            const int k0 = c * kLanes, n = std::min(kLanes, width_ - k0);
            if (n == kLanes)
                Eigen::Map<Lane>(out + k0) = f[c] * scale_;
            else
                for (int l = 0; l < n; ++l) out[k0 + l] = f[c][l] * scale_;
        }
    }

    enum class Mode { ByteSteps, FloatSteps, Histogram };
    static constexpr int kLanes = 16;
    static constexpr int kMaxStepWidth = 128;  ///< (width + 1) x 128 floats: the table stays in L1/L2
    int bins_, width_, padded_, r_;
    float toBin_, scale_;
    std::vector<float> counts_;
    std::vector<float> steps_;             ///< row j: [k >= j] for k < width, zero padding to `padded_`
    std::vector<std::uint8_t> byteSteps_;  ///< the same rows as bytes, 64 per row
    Mode mode_ = Mode::Histogram;
    bool avx512_ = false;  ///< simdLevel() when the pool was made: one choice per transform block
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
constexpr Eigen::Index kCdfTileColumns = 1024;
/// Inputs per block on the template path. Each block packs every template tile for the product and
/// each tile packs the block's inputs, so the packing is proportional to 1 / rows + 1 / columns:
/// square tiles (1 MB, in L2) pack least.
constexpr std::size_t kCdfBlockRows = 256;

} // namespace

bool GicdfMap::usesRowIndex() const { return plan_ && plan_->sampler && !plan_->templateTrick; }

void GicdfMap::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    if (!plan_) throw ContractError("GicdfMap::transform", "called before fit");
    detail::checkBlock("GicdfMap::transform", X, begin, end, context_.shape.dim());
    const Eigen::Index D = dim(), width = 2 * bins_ + 1;
    out.resize(Eigen::Index(end - begin), D);  // every entry is written below
    adviseHugePages(out.data(), sizeof(float) * std::size_t(out.size()));
    const int r = plan_->r;
    const float s = float(spanUsed_);
    const float scale = float(std::sqrt(double(s)) / (std::sqrt(double(bins_) * m_) * r));
    const bool dataPath = !plan_->templateTrick;
    // Template trick: TG_ row j r + i = g_i^-1 t_j, so P(x, j r + i) = <g_i^-1 t_j, x>.
    // Data path: row x r + i of the inputs is g_{x,i} x, so P(x r + i, j) = <t_j, g_{x,i} x>.
    const Eigen::Index perTile = dataPath ? kCdfTileColumns : std::max<Eigen::Index>(1, kCdfTileColumns / r);
    const Eigen::Index tiles = (m_ + perTile - 1) / perTile;
    detail::forEachBlockOrTile(end - begin, dataPath ? plan_->blockInputs() : kCdfBlockRows, !dataPath,
                               [&](std::size_t b0, std::size_t b1, bool parallelTiles) {
        MatrixXfR in = plan_->prepareInputs(X, begin + b0, begin + b1);
        if (!in.allFinite())
            throw SpecError("data", "GICDF features need finite inputs; a row in this block has NaN or inf",
                            std::to_string(begin + b0) + ".." + std::to_string(begin + b1 - 1));
        if (norm_ == Norm::Max) {
            in /= maxNorm_;
        } else {
            const Eigen::VectorXf norms = in.rowwise().norm();
            for (Eigen::Index i = 0; i < in.rows(); ++i)
                if (norms[i] > 0) in.row(i) /= norms[i];
        }
        const Eigen::Index depth = detail::effectiveDepth(in);
        const Eigen::Index inputs = Eigen::Index(b1 - b0);
        // Template tiles [t0, t1): each writes the features of its own templates (columns) only,
        // so the tiles of a block may run on different threads with the same bits.
        auto runTiles = [&](std::size_t t0, std::size_t t1) {
            CdfPool pool(bins_, r, s, scale);
            MatrixXfR P;
            std::vector<int> idx;
            std::vector<float> row;  // one input's features of one tile, then streamed out
            for (Eigen::Index j0 = Eigen::Index(t0) * perTile; j0 < std::min<Eigen::Index>(m_, Eigen::Index(t1) * perTile);
                 j0 += perTile) {
                const Eigen::Index nj = std::min<Eigen::Index>(perTile, m_ - j0);
                const Eigen::Index c0 = dataPath ? j0 : j0 * r, nc = dataPath ? nj : nj * r;
                P.resize(in.rows(), nc);
                P.noalias() = in.leftCols(depth) * TG_.middleRows(c0, nc).leftCols(depth).transpose();
                row.resize(std::size_t(nj * width));
                const Eigen::Index perInput = dataPath ? r * nc : nc;  // P's entries of one input, contiguous
                for (Eigen::Index x = 0; x < inputs; ++x) {
                    pool.indices(P.data() + x * perInput, perInput, idx);
                    if (dataPath)
                        pool(idx.data(), nj, 1, nc, row.data());
                    else
                        pool(idx.data(), nj, r, 1, row.data());
                    detail::streamCopy(row.data(), out.data() + (Eigen::Index(b0) + x) * D + j0 * width, row.size());
                }
            }
            detail::streamFence();
        };
        if (parallelTiles)
            detail::forEachBlock(std::size_t(tiles), 1, runTiles);
        else
            runTiles(0, std::size_t(tiles));
    });
}

} // namespace orbit

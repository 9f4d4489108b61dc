#include "orbit/features/GicdfMap.hpp"
#include "orbit/linalg/Gemm.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "features/CdfPool.hpp"
#include "features/FitProgress.hpp"
#include "features/OrbitPlan.hpp"
#include "features/Pooling.hpp"
#include "groups/GroupSupport.hpp"
#include "util/Deterministic.hpp"
#include "util/StreamStore.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace orbit {

GicdfMap::GicdfMap(FeatureContext context, int m, int bins, int r, double eps, std::string mode, Norm norm, double span)
    : OrbitFeatureMap(std::move(context)), m_(m), bins_(bins), r_(r), eps_(eps), mode_(std::move(mode)), norm_(norm), span_(span)
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
    return "GICDF kernel K_s (s = " + range + ")" + planDescription();
}

void GicdfMap::fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress)
{
    checkFitInput("GicdfMap::fit", X);
    detail::prepareGroup(context_, progress);
    const Eigen::Index d = context_.shape.dim();
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

/// Columns of one product tile: P (block rows x about this many floats) stays in L2.
constexpr Eigen::Index kCdfTileColumns = 1024;
/// Inputs per block on the template path. Each block packs every template tile for the product and
/// each tile packs the block's inputs, so the packing is proportional to 1 / rows + 1 / columns:
/// square tiles (1 MB, in L2) pack least.
constexpr std::size_t kCdfBlockRows = 256;

} // namespace

void GicdfMap::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    checkTransformInput("GicdfMap::transform", X, begin, end, context_.shape.dim());
    const Eigen::Index D = dim(), width = 2 * bins_ + 1;
    out.resize(Eigen::Index(end - begin), D);  // every entry is written below
    detail::adviseHugePages(out.data(), sizeof(float) * std::size_t(out.size()));
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
        const detail::SupportProduct product(in);
        const Eigen::Index inputs = Eigen::Index(b1 - b0);
        // Template tiles [t0, t1): each writes the features of its own templates (columns) only,
        // so the tiles of a block may run on different threads with the same bits.
        auto runTiles = [&](std::size_t t0, std::size_t t1) {
            detail::CdfPool pool(bins_, r, s, scale);
            MatrixXfR P;
            std::vector<int> idx;
            std::vector<float> row;  // one input's features of one tile, then streamed out
            for (Eigen::Index j0 = Eigen::Index(t0) * perTile; j0 < std::min<Eigen::Index>(m_, Eigen::Index(t1) * perTile);
                 j0 += perTile) {
                const Eigen::Index nj = std::min<Eigen::Index>(perTile, m_ - j0);
                const Eigen::Index c0 = dataPath ? j0 : j0 * r, nc = dataPath ? nj : nj * r;
                P.resize(in.rows(), nc);
                product.multiply(TG_, c0, nc, P);
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

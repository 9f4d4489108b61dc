#include "orbit/features/InvariantFourierTangents.hpp"

#include "orbit/linalg/Gemm.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include "features/CosPool.hpp"
#include "features/OrbitPlan.hpp"
#include "features/Pooling.hpp"
#include "util/Deterministic.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

namespace orbit {

InvariantFourierTangents::InvariantFourierTangents(FeatureContext context, int s, int r, Form form, std::string mode,
                                                   std::uint64_t seed)
    : context_(std::move(context)), s_(s), r_(r), form_(form), mode_(std::move(mode)), seed_(seed)
{
    if (s < 1) throw SpecError("features.s", "must be >= 1", std::to_string(s));
    if (r < 1) throw SpecError("features.r", "must be >= 1", std::to_string(r));
    if (!context_.kernel || !context_.kernel->stationary())
        throw SpecError("kernel", "random Fourier features need a shift-invariant kernel (gaussian, laplacian or matern)",
                        context_.kernel ? context_.kernel->spec() : std::string("none"));
    if (!context_.group || !context_.dist) throw SpecError("group", "invariant features need a group and a distribution");
    if (!context_.group->isDifferentiable())
        throw SpecError("group",
                        "the features are differentiable in the distribution's parameters only for rotation, translation, "
                        "scale and affine",
                        context_.group->spec());
    context_.group->checkShape(context_.kind, context_.shape);
    context_.dist->checkGroup(*context_.group);
    if (mode_ != "auto" && mode_ != "templates" && mode_ != "data")
        throw SpecError("features.mode", "must be auto, templates or data", mode_);
    templateTrick_ = detail::OrbitPlan::wouldUseTemplates(context_, mode_);
    if (mode_ == "templates" && !detail::OrbitPlan::wouldUseTemplates(context_, "auto"))
        throw SpecError("features.mode", "the template trick needs a unitary action and a symmetric distribution",
                        context_.dist->spec());
    InvariantRandomFourier::drawTemplates(s_, context_.shape.dim(), *context_.kernel, form_, seed_, W_, b_);
}

InvariantFourierTangents InvariantFourierTangents::firstTemplates(int s) const
{
    if (s < 1 || s > s_)
        throw ContractError("InvariantFourierTangents::firstTemplates", std::to_string(s) + " of " + std::to_string(s_) + " templates");
    InvariantFourierTangents copy = *this;
    copy.s_ = s;
    copy.W_ = W_.topRows(s);
    copy.b_ = b_.head(s);
    return copy;
}

/// The computation for one scalar type: float (fastCos, the hot path's precision) or double.
template <class Scalar>
struct InvariantFourierTangents::Work {
    using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const InvariantFourierTangents& map;
    const OrbitSampler& sampler;
    const std::vector<std::string>& params;
    Mat W;
    Eigen::Matrix<Scalar, Eigen::Dynamic, 1> b;
    Eigen::Index segment;  ///< blocks restart every `segment` rows of the call (0: never)

    /// [b0, b1) blocks of `block` rows over `count` rows, restarting at every multiple of `segment`.
    std::vector<std::pair<std::size_t, std::size_t>> blocksOf(std::size_t count, std::size_t block) const
    {
        std::vector<std::pair<std::size_t, std::size_t>> out;
        const std::size_t seg = segment > 0 ? std::size_t(segment) : count;
        for (std::size_t s0 = 0; s0 < count; s0 += seg)
            for (std::size_t b0 = s0; b0 < std::min(count, s0 + seg); b0 += block)
                out.emplace_back(b0, std::min({count, s0 + seg, b0 + block}));
        return out;
    }

    /// A block of inputs (and their tangents) times tiles of templates. In float (the hot path) the
    /// dispatched products of orbit/linalg/Gemm.hpp on the block's support, as the irf map's own
    /// products (features/Pooling.hpp: the columns zero in all of them skipped), so the gradient's
    /// products run at the machine's speed in a portable build too; in double (the checks'
    /// precision) Eigen's, on every column.
    struct OnSupport {
        /// The block a and, for the data path, its tangents' blocks da (the same columns).
        OnSupport(const Mat& a, const std::vector<Mat>& da = {})
        {
            if constexpr (std::is_same_v<Scalar, float>) {
                std::vector<const Mat*> all{&a};
                for (const Mat& m : da) all.push_back(&m);
                const detail::ColumnSupport support(all);
                blocks.reserve(all.size());
                for (const Mat* m : all) blocks.push_back(std::make_unique<detail::SupportProduct>(*m, support));
            } else {
                plain.push_back(&a);
                for (const Mat& m : da) plain.push_back(&m);
            }
        }
        /// P = block i (0: a, 1 + m: da[m]) times B[row0 .. row0 + rows)^T.
        void product(std::size_t i, const Mat& B, Eigen::Index row0, Eigen::Index rows, Mat& P) const
        {
            if constexpr (std::is_same_v<Scalar, float>) {
                P.resize(blocks[i]->rows(), rows);
                blocks[i]->multiply(B, row0, rows, P);
            } else {
                P.noalias() = *plain[i] * B.middleRows(row0, rows).transpose();
            }
        }
        std::vector<std::unique_ptr<detail::SupportProduct>> blocks;
        std::vector<const Mat*> plain;
    };

    /// For one tile of columns [j0, j0 + n) of the product: row `pRow + i` of P (and of each dP[m])
    /// pooled into row `accRow + i` of acc (and dAcc[m]), i < count:
    ///   acc += cos(P + b) (complex: acc[s + j] += sin P),
    ///   dAcc[m] -= sin(P + b) dP[m] (complex: dAcc[m][s + j] += cos(P) dP[m]).
    /// Branch-free loops over the tile's columns, so they vectorise; in float the run-time-dispatched
    /// copies of features/CosPool (the same operations in the same order: the same bits).
    void pool(const Mat& P, const std::vector<Mat>& dP, Eigen::Index pRow, Eigen::Index count, Eigen::Index j0,
              Eigen::Index accRow, Mat& acc, std::vector<Mat>& dAcc) const
    {
        const Eigen::Index s = map.s_, n = P.cols();
        const bool complex = map.form_ == Form::Complex;
        const Scalar* bj = b.data() + j0;
        for (Eigen::Index i = 0; i < count; ++i) {
            const Scalar* p = P.data() + (pRow + i) * n;
            Scalar* a = acc.data() + (accRow + i) * acc.cols() + j0;
            if constexpr (std::is_same_v<Scalar, float>) {
                detail::addCos(a, p, bj, n);
                if (complex) detail::addSin(a + s, p, n);
            } else {
                for (Eigen::Index t = 0; t < n; ++t) a[t] += std::cos(p[t] + bj[t]);
                if (complex)
                    for (Eigen::Index t = 0; t < n; ++t) a[s + t] += std::sin(p[t]);
            }
            for (std::size_t m = 0; m < dP.size(); ++m) {
                const Scalar* dp = dP[m].data() + (pRow + i) * n;
                Scalar* da = dAcc[m].data() + (accRow + i) * acc.cols() + j0;
                if constexpr (std::is_same_v<Scalar, float>) {
                    detail::subSinTimes(da, p, bj, dp, n);
                    if (complex) detail::addCosTimes(da + s, p, dp, n);
                } else {
                    for (Eigen::Index t = 0; t < n; ++t) da[t] -= std::sin(p[t] + bj[t]) * dp[t];
                    if (complex)
                        for (Eigen::Index t = 0; t < n; ++t) da[s + t] += std::cos(p[t]) * dp[t];
                }
            }
        }
    }

    /// Template trick: per element k, the s moved templates g_k^-1 w_j and their tangents, then
    /// for fixed blocks of input rows and tiles of kTile templates, the products (kept in cache)
    /// pooled at once.
    void templates(const MatrixXfR& X, const Indices& rows, Mat& Phi, std::vector<Mat>& dPhi, const Progress& progress) const
    {
        const Group& group = *map.context_.group;
        const Shape& shape = map.context_.shape;
        std::vector<std::vector<GroupTangent>> tangents;
        const std::vector<GroupElement> elements = sampler.sharedElements(params, tangents);
        const Eigen::Index d = W.cols(), M = Eigen::Index(params.size()), s = map.s_;
        const int r = map.r_;
        // Elements in chunks whose moved templates (and tangents) take at most kTemplateChunkBytes:
        // one parallel loop moves a chunk's templates, one runs its products over the row blocks.
        constexpr double kTemplateChunkBytes = 256.0 * (1 << 20);
        const int chunk = std::clamp(int(kTemplateChunkBytes / (double(s) * double(d) * double(1 + M) * sizeof(Scalar))), 1, r);
        Mat TG(Eigen::Index(chunk) * s, d);
        std::vector<Mat> dTG(static_cast<std::size_t>(M), Mat(Eigen::Index(chunk) * s, d));
        const auto blocks = blocksOf(rows.size(), detail::kTemplateBlockRows);
        for (int k0 = 0; k0 < r; k0 += chunk) {
            const int k1 = std::min(r, k0 + chunk);
            reportProgress(progress, double(k0) / double(r), "group elements " + std::to_string(k0 + 1) + "-" +
                                                                 std::to_string(k1) + "/" + std::to_string(r));
            std::vector<GroupElement> h;
            std::vector<std::vector<GroupTangent>> dh;
            for (int k = k0; k < k1; ++k) {
                h.push_back(group.inverse(elements[std::size_t(k)]));
                dh.emplace_back(static_cast<std::size_t>(M));
                for (Eigen::Index m = 0; m < M; ++m)
                    dh.back()[std::size_t(m)] = group.inverseTangent(elements[std::size_t(k)], tangents[std::size_t(k)][std::size_t(m)]);
            }
            const long long moves = static_cast<long long>(k1 - k0) * s;
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
            for (long long q = 0; q < moves; ++q) {
                const std::size_t k = std::size_t(q / s);
                const Eigen::Index j = Eigen::Index(q % s);
                group.apply(h[k], W.data() + j * d, TG.data() + q * d, shape);
                for (Eigen::Index m = 0; m < M; ++m)
                    group.applyTangent(h[k], dh[k][std::size_t(m)], W.data() + j * d, dTG[std::size_t(m)].data() + q * d, shape);
            }
            detail::forEachBlock(blocks.size(), 1, [&](std::size_t q, std::size_t) {
                const auto [b0, b1] = blocks[q];
                const Eigen::Index nb = Eigen::Index(b1 - b0);
                Mat Xb(nb, d);  // the block's rows, in Scalar
                for (Eigen::Index i = 0; i < nb; ++i) Xb.row(i) = X.row(Eigen::Index(rows[b0 + std::size_t(i)])).template cast<Scalar>();
                const OnSupport inputs(Xb);
                Mat P;
                std::vector<Mat> dP(static_cast<std::size_t>(M));
                for (int k = k0; k < k1; ++k) {
                    const Eigen::Index at = Eigen::Index(k - k0) * s;
                    for (Eigen::Index j0 = 0; j0 < s; j0 += detail::kTile) {
                        const Eigen::Index n = std::min(detail::kTile, s - j0);
                        inputs.product(0, TG, at + j0, n, P);
                        for (Eigen::Index m = 0; m < M; ++m) inputs.product(0, dTG[std::size_t(m)], at + j0, n, dP[std::size_t(m)]);
                        pool(P, dP, 0, nb, j0, Eigen::Index(b0), Phi, dPhi);
                    }
                }
            });
        }
        reportProgress(progress, 1.0, "group elements " + std::to_string(r) + "/" + std::to_string(r));
    }

    /// Data path: every input's own elements (from the sub-stream of its dataset index), its orbit
    /// copies and their tangents, times tiles of the templates, in fixed blocks of inputs.
    void data(const MatrixXfR& X, const Indices& rows, Mat& Phi, std::vector<Mat>& dPhi, const Progress& progress) const
    {
        const Group& group = *map.context_.group;
        const Shape& shape = map.context_.shape;
        const Eigen::Index d = W.cols(), M = Eigen::Index(params.size()), s = map.s_;
        const int r = map.r_;
        const auto blocks = blocksOf(rows.size(), detail::inputsPerOrbitBlock(r));
        const std::size_t chunk = 64;  // blocks between two progress reports
        for (std::size_t c0 = 0; c0 < blocks.size(); c0 += chunk) {
            reportProgress(progress, double(blocks[c0].first) / double(rows.size()),
                           "inputs " + std::to_string(blocks[c0].first) + "/" + std::to_string(rows.size()));
            const std::size_t c1 = std::min(blocks.size(), c0 + chunk);
            detail::forEachBlock(c1 - c0, 1, [&](std::size_t q, std::size_t) {
                const auto [b0, b1] = blocks[c0 + q];
                const Eigen::Index n = Eigen::Index(b1 - b0);
                Mat O(n * r, d);
                std::vector<Mat> dO(static_cast<std::size_t>(M), Mat(n * r, d));
                std::vector<std::vector<GroupTangent>> tangents;
                Eigen::Matrix<Scalar, 1, Eigen::Dynamic> xs(d);
                for (Eigen::Index t = 0; t < n; ++t) {
                    const std::size_t row = rows[b0 + std::size_t(t)];
                    const float* xf = X.data() + Eigen::Index(row) * d;
                    const Scalar* x = xs.data();
                    for (Eigen::Index q = 0; q < d; ++q) xs[q] = static_cast<Scalar>(xf[q]);
                    const std::vector<GroupElement> g =
                        M ? sampler.elementsFor(row, xf, params, tangents) : sampler.elementsFor(row, xf);
                    for (int k = 0; k < r; ++k) {
                        const Eigen::Index o = t * r + k;
                        group.apply(g[std::size_t(k)], x, O.data() + o * d, shape);
                        for (Eigen::Index m = 0; m < M; ++m)
                            group.applyTangent(g[std::size_t(k)], tangents[std::size_t(k)][std::size_t(m)], x,
                                               dO[std::size_t(m)].data() + o * d, shape);
                    }
                }
                const OnSupport orbits(O, dO);
                Mat P;
                std::vector<Mat> dP(static_cast<std::size_t>(M));
                for (Eigen::Index j0 = 0; j0 < s; j0 += detail::kTile) {
                    const Eigen::Index nc = std::min(detail::kTile, s - j0);
                    orbits.product(0, W, j0, nc, P);
                    for (Eigen::Index m = 0; m < M; ++m) orbits.product(std::size_t(1 + m), W, j0, nc, dP[std::size_t(m)]);
                    for (Eigen::Index t = 0; t < n; ++t)
                        for (int k = 0; k < r; ++k) pool(P, dP, t * r + k, 1, j0, Eigen::Index(b0) + t, Phi, dPhi);
                }
            });
        }
        reportProgress(progress, 1.0, "inputs " + std::to_string(rows.size()) + "/" + std::to_string(rows.size()));
    }
};

template <class Mat>
void InvariantFourierTangents::computeAny(const std::shared_ptr<const Distribution>& dist, const MatrixXfR& X,
                                          const Indices& rows, const std::vector<std::string>& params, Mat& Phi,
                                          std::vector<Mat>& dPhi, const Progress& progress, Eigen::Index segmentRows) const
{
    using Scalar = typename Mat::Scalar;
    FeatureContext context = context_;
    if (dist) {
        dist->checkGroup(*context.group);
        context.dist = dist;
        if (detail::OrbitPlan::wouldUseTemplates(context, mode_) != templateTrick_)
            throw SpecError("distribution",
                            "changes whether the template trick applies (the symmetry of q); give mode=data or "
                            "mode=templates to keep one path",
                            dist->spec());
    }
    if (X.cols() != context_.shape.dim())
        throw ContractError("InvariantFourierTangents::compute", "input rows have " + std::to_string(X.cols()) +
                                                                     " values, the shape needs " +
                                                                     std::to_string(context_.shape.dim()));
    for (std::size_t i : rows)
        if (i >= std::size_t(X.rows()))
            throw ContractError("InvariantFourierTangents::compute", "row " + std::to_string(i) + " of " +
                                                                         std::to_string(X.rows()) + " rows");
    const OrbitSampler sampler(context.group, context.dist, context.shape, r_, InvariantRandomFourier::samplerSeed(seed_));
    const Work<Scalar> work{*this, sampler, params, W_.template cast<Scalar>(), b_.template cast<Scalar>(), segmentRows};
    const Eigen::Index n = Eigen::Index(rows.size());
    Phi = Mat::Zero(n, dim());
    dPhi.assign(params.size(), Mat::Zero(n, dim()));
    if (templateTrick_)
        work.templates(X, rows, Phi, dPhi, progress);
    else
        work.data(X, rows, Phi, dPhi, progress);
    const Scalar c = static_cast<Scalar>((form_ == Form::Complex ? std::sqrt(1.0 / s_) : std::sqrt(2.0 / s_)) / r_);
    Phi *= c;
    for (Mat& d : dPhi) d *= c;
}

void InvariantFourierTangents::compute(const std::shared_ptr<const Distribution>& dist, const MatrixXfR& X,
                                       const Indices& rows, const std::vector<std::string>& params, MatrixXfR& Phi,
                                       std::vector<MatrixXfR>& dPhi, const Progress& progress, Eigen::Index segmentRows) const
{
    computeAny(dist, X, rows, params, Phi, dPhi, progress, segmentRows);
}

void InvariantFourierTangents::compute(const std::shared_ptr<const Distribution>& dist, const MatrixXfR& X,
                                       const Indices& rows, const std::vector<std::string>& params, MatrixXdR& Phi,
                                       std::vector<MatrixXdR>& dPhi, const Progress& progress, Eigen::Index segmentRows) const
{
    computeAny(dist, X, rows, params, Phi, dPhi, progress, segmentRows);
}

} // namespace orbit

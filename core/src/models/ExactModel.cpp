#include "orbit/models/ExactModel.hpp"

#include "orbit/features/FeatureMap.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/FeatureKernel.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace orbit {

bool isExactFeatures(const std::string& features)
{
    const std::string t = trim(features);
    return t == "exact" || t.rfind("exact:", 0) == 0;
}

int exactSamplesOf(const std::string& features)
{
    const Spec s = parseSpec(features, "features");
    if (s.name != "exact") throw SpecError("features", "not an exact kernel spec (exact:r=R)", features);
    if (s.has("centres") && s.number("centres") != 0)
        throw SpecError("features exact.centres",
                        "a model of the m-centre solver is not saved: its file would keep the centres and the "
                        "preconditioner; save the n x n solve (exact:r=R) instead",
                        s.text("centres", ""));
    s.allowOnly({"r", "centres"});
    return int(s.integer("r", 4, 1, 10000));
}

MatrixXfR exactOrbitRows(const MatrixXfR& X, const std::vector<std::int64_t>& streams, DataKind kind, const Shape& shape,
                         const std::string& group, const std::string& dist, int r, std::uint64_t seed, int* rOut)
{
    requireSize("exactOrbitRows", "streams", Eigen::Index(streams.size()), X.rows());
    requireSize("exactOrbitRows", "row length", X.cols(), Eigen::Index(shape.dim()));
    if (trim(group).empty()) {
        *rOut = 1;
        return X;
    }
    Dataset context;  // makeFeatureContext reads the kind and shape only (no kernel)
    context.kind = kind;
    context.shape = shape;
    const FeatureContext ctx = makeFeatureContext(context, group, dist, "", seed);
    if (!ctx.group || !ctx.dist) throw SpecError("distribution", "the exact invariant kernel needs a group and a distribution", dist);
    const Eigen::Index d = X.cols();
    MatrixXfR out;
    const bool haar = ctx.dist->isHaar();
    if (haar && ctx.group->sumsHaarOverElements()) {
        const auto elements = ctx.group->elements(shape, 4096);
        const auto G = Eigen::Index(elements.size());
        out.resize(X.rows() * G, d);
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            for (Eigen::Index k = 0; k < G; ++k)
                ctx.group->apply(elements[std::size_t(k)], X.data() + i * d, out.data() + (i * G + k) * d, shape);
        *rOut = int(G);
        return out;
    }
    const OrbitSampler sampler(ctx.group, ctx.dist, shape, r, seed);
    out.resize(X.rows() * r, d);
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        if (streams[std::size_t(i)] < 0) throw ContractError("exactOrbitRows", "a negative sub-stream");
        const float* x = X.data() + i * d;
        const std::vector<GroupElement> g = sampler.elementsFor(std::size_t(streams[std::size_t(i)]), x);
        for (int k = 0; k < r; ++k) ctx.group->apply(g[std::size_t(k)], x, out.data() + (i * r + k) * d, shape);
    }
    *rOut = r;
    return out;
}

Eigen::MatrixXd exactModelScores(const SavedModel& model, const MatrixXfR& supportOrbits, int r, const MatrixXfR& X,
                                 const Progress& progress, std::int64_t firstRow, Eigen::VectorXd* variance,
                                 const Eigen::MatrixXd* posteriorFactor)
{
    const bool withVariance = variance && model.isGaussianProcess() && model.hasPosterior();
    Eigen::MatrixXd ownFactor;
    const Eigen::MatrixXd* factor = posteriorFactor;
    if (withVariance && !factor) {
        ownFactor = model.posteriorFactor.cast<double>();
        factor = &ownFactor;
    }
    if (variance) variance->setConstant(X.rows(), std::numeric_limits<double>::quiet_NaN());
    if (!model.isExact()) throw ContractError("exactModelScores", "not an exact kernel machine");
    requireSize("exactModelScores", "support orbit rows", supportOrbits.rows(), model.support.rows() * r);
    const BaseKernel kernel = makeKernel(model.kernel, MatrixXfR());
    const Eigen::Index n = X.rows(), N = model.support.rows();
    Eigen::MatrixXd S(n, model.dual.cols());
    Indices cols(std::size_t(N), 0);
    std::iota(cols.begin(), cols.end(), std::size_t(0));
    const RowBlocks blocks{n, kTransformBlockRows};
    for (Eigen::Index b = 0; b < blocks.count(); ++b) {
        const Eigen::Index b0 = blocks.begin(b), w = blocks.end(b) - b0;
        reportProgress(progress, double(b0) / double(std::max<Eigen::Index>(1, n)),
                       "exact kernel " + std::to_string(b0) + "/" + std::to_string(n));
        std::vector<std::int64_t> streams(std::size_t(w), 0);
        for (Eigen::Index j = 0; j < w; ++j) streams[std::size_t(j)] = model.firstStream + firstRow + b0 + j;
        int rb = 0;
        const MatrixXfR orbits = exactOrbitRows(MatrixXfR(X.middleRows(b0, w)), streams, model.map.kind, model.map.shape,
                                                model.map.group, model.map.dist, r, model.orbitSeed, &rb);
        if (rb != r) throw ContractError("exactModelScores", "the support and the rows have other sample counts");
        const OrbitDistances D(orbits, supportOrbits, r, kernel.distance());
        Indices rows(std::size_t(w), 0);
        std::iota(rows.begin(), rows.end(), std::size_t(0));
        Eigen::MatrixXd Ks;
        D.gram(kernel, rows, cols, Ks);
        S.middleRows(b0, w) = model.isGaussianProcess() ? Eigen::MatrixXd(model.gpSignal * dualScores(Ks, model.dual))
                                                         : dualScores(Ks, model.dual);
        if (!withVariance) continue;
        // signal^2 k*^T C^-1 k* = signal^2 |L^-1 k*|^2, k* a row of Ks; k(x, x) from the row's own r samples.
        const Eigen::MatrixXd V = factor->triangularView<Eigen::Lower>().solve(Ks.transpose());
        for (Eigen::Index j = 0; j < w; ++j) {
            const MatrixXfR own = orbits.middleRows(j * r, r);
            const OrbitDistances self(own, own, r, kernel.distance());
            Eigen::MatrixXd kxx;
            self.gram(kernel, Indices{0}, Indices{0}, kxx);
            (*variance)(b0 + j) = model.gpSignal * kxx(0, 0) - model.gpSignal * model.gpSignal * V.col(j).squaredNorm() +
                                  model.gpNoise;
        }
    }
    return S;
}

} // namespace orbit

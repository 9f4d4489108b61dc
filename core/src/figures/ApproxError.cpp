#include "orbit/figures/ApproxError.hpp"

#include "orbit/features/InvariantRandomFourier.hpp"
#include "orbit/features/NystromMap.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/kernels/MatrixNorms.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/registry/Figures.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/RandomSubset.hpp"

#include "features/FitProgress.hpp"
#include "registry/Builders.hpp"
#include "util/Deterministic.hpp"

#include <algorithm>

namespace orbit {

void ApproxErrorConfig::validate() const
{
    const ApproximationDescriptor* a = findApproximation(method);
    if (!a || !a->errorCurves) {
        std::vector<std::string> names;
        for (const ApproximationDescriptor* d : approximationFigure().approximations()) names.push_back(d->name);
        throw SpecError("features", "must be " + registry::joined(names, ", ", " or "), method);
    }
    if (sList.empty()) throw SpecError("s-list", "needs at least one value");
    if (rList.empty()) throw SpecError("r-list", "needs at least one value");
    for (int s : sList)
        if (s < 1) throw SpecError("s-list", "values must be >= 1", std::to_string(s));
    for (int r : rList)
        if (r < 1) throw SpecError("r-list", "values must be >= 1", std::to_string(r));
    if (refR < 1) throw SpecError("ref-r", "must be >= 1", std::to_string(refR));
    if (repeats < 1) throw SpecError("repeats", "must be >= 1", std::to_string(repeats));
}

ReferenceNorms::ReferenceNorms(const Eigen::MatrixXd& K) : spectral(spectralNorm(K)), frobenius(K.norm())
{
    if (!(spectral > 0)) throw SpecError("kernel", "the reference kernel matrix is zero");
}

RelativeError relativeError(const Eigen::MatrixXd& E, const ReferenceNorms& reference)
{
    return {spectralNorm(E) / reference.spectral, E.norm() / reference.frobenius};
}

std::vector<ApproxErrorRow> approximationError(const MatrixXfR& X, const FeatureContext& context,
                                               const ApproxErrorConfig& config,
                                               const std::function<void(int, int)>& progress)
{
    const int total = int(config.rList.size() * config.sList.size());
    int done = 0;
    return approximationError(X, context, config, [&](const ApproxErrorRow&) { if (progress) progress(++done, total); }, {});
}

std::vector<ApproxErrorRow> approximationError(const MatrixXfR& X, const FeatureContext& context,
                                               const ApproxErrorConfig& config,
                                               const std::function<void(const ApproxErrorRow&)>& onRow,
                                               const Progress& progress)
{
    config.validate();
    if (!context.group || !context.dist || !context.kernel)
        throw SpecError(!context.group ? "group" : !context.dist ? "distribution" : "kernel",
                        "the approximation error needs a group, a distribution and a base kernel");
    if (config.method == "nystrom")
        for (int s : config.sList)
            if (s > X.rows())
                throw SpecError("s-list", "Nystrom needs s <= n (" + std::to_string(X.rows()) + ")", std::to_string(s));
    reportProgress(progress, 0.0, "reference kernel");
    const OrbitSampler reference(context.group, context.dist, context.shape, config.refR, deriveSeed(config.seed, 0xfe));
    const int total = int(config.rList.size() * config.sList.size());
    // The reference kernel counts as one unit of work, each (r, s) as one more.
    const double units = total + 1.0;
    const Eigen::MatrixXd K = invariantKernelMatrix(X, reference, *context.kernel, Estimator::V,
                                                    detail::subProgress(progress, 0.0, 1.0 / units, "reference kernel: "));
    const ReferenceNorms norms(K);
    std::vector<ApproxErrorRow> rows;
    int done = 0;
    for (int r : config.rList) {
        for (int s : config.sList) {
            reportProgress(progress, (done + 1) / units, "r = " + std::to_string(r) + ", s = " + std::to_string(s));
            ApproxErrorRow row{config.method, r, s, 0, 0};
            for (int rep = 0; rep < config.repeats; ++rep) {
                if (rep > 0) reportProgress(progress, (done + 1 + double(rep) / config.repeats) / units, "repeat");
                std::unique_ptr<FeatureMap> map;
                if (config.method == "rf")
                    map = std::make_unique<InvariantRandomFourier>(context, s, r, InvariantRandomFourier::Form::Cos);
                else
                    map = std::make_unique<NystromMap>(context, s, r, NystromMap::Landmarks::Random);
                const std::uint64_t seed =
                    deriveSeed(deriveSeed(deriveSeed(config.seed, std::uint64_t(r)), std::uint64_t(s)), std::uint64_t(rep));
                // The fit (moving r s templates) takes the first half of this repeat's share.
                const double at = (done + 1 + double(rep) / config.repeats) / units;
                map->fit(X, seed, detail::subProgress(progress, at, at + 0.5 / (config.repeats * units), "fitting: "));
                const Eigen::MatrixXd F = map->transform(X).cast<double>();
                Eigen::MatrixXd E;
                {
                    const detail::SerialEigen serial;
                    E = K - F * F.transpose();
                }
                const RelativeError e = relativeError(E, norms);
                row.spectral += e.spectral;
                row.frobenius += e.frobenius;
            }
            row.spectral /= config.repeats;
            row.frobenius /= config.repeats;
            rows.push_back(row);
            ++done;
            if (onRow) onRow(row);
        }
    }
    reportProgress(progress, 1.0, "done");
    return rows;
}

std::vector<std::size_t> kernelPlotIndices(const Dataset& data, std::size_t n, std::uint64_t seed)
{
    const std::size_t N = data.count();
    if (n < 1) throw SpecError("points", "must be >= 1", std::to_string(n));
    std::vector<std::size_t> idx(N);
    for (std::size_t i = 0; i < N; ++i) idx[i] = i;
    if (n < N) {
        Rng rng = makeRng(seed, 0x706c6f74ULL);
        idx = randomSubset(N, n, rng);
    }
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        if (data.isRegression() && data.targets[a] != data.targets[b]) return data.targets[a] < data.targets[b];
        const int la = data.isClassification() ? data.labels[a] : 0, lb = data.isClassification() ? data.labels[b] : 0;
        return la != lb ? la < lb : a < b;
    });
    return idx;
}

} // namespace orbit

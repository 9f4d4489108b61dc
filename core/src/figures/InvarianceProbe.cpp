#include "orbit/figures/InvarianceProbe.hpp"

#include "orbit/figures/ApproxError.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"

#include "features/FitProgress.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace orbit {

InvarianceCurve invarianceProbe(const FeatureMap& map, const Group& group, const Shape& shape, const float* x,
                                int points, std::uint64_t seed)
{
    if (points < 2) throw SpecError("points", "the probe needs at least 2 points", std::to_string(points));
    InvarianceCurve curve;
    ElementPath path = group.probePath(shape, points, seed);
    curve.parameter = std::move(path.parameter);
    curve.values = std::move(path.t);
    const std::vector<GroupElement>& g = path.elements;
    const int d = shape.dim();
    const auto cosine = [](const auto& a, const auto& b) {
        const double na = a.norm(), nb = b.norm();
        return na > 0 && nb > 0 ? double(a.dot(b)) / (na * nb) : 0.0;
    };
    // x and its copies in batches, so the map's products run as blocks against its templates (one
    // row at a time, the product of every one-row block gathered and packed all r x s moved
    // templates again); the batches bound the memory of a long sweep. Row 0 of the first batch is x
    // itself. A map whose rows depend on their index takes batches of one row: each copy as dataset
    // index 0, so a data-dependent q draws from the same sub-stream for every one.
    const std::size_t batch = map.usesRowIndex() ? 1 : 256;
    const std::size_t rows = g.size() + 1;
    Eigen::RowVectorXf psi0;
    MatrixXfR moved, psi;
    for (std::size_t r0 = 0; r0 < rows; r0 += batch) {
        const std::size_t r1 = std::min(rows, r0 + batch);
        moved.resize(Eigen::Index(r1 - r0), d);
        for (std::size_t r = r0; r < r1; ++r) {
            float* row = moved.row(Eigen::Index(r - r0)).data();
            if (r == 0)
                std::copy(x, x + d, row);
            else
                group.apply(g[r - 1], x, row, shape);
        }
        map.transform(moved, 0, r1 - r0, psi);
        if (r0 == 0) psi0 = psi.row(0);
        for (std::size_t r = std::max<std::size_t>(r0, 1); r < r1; ++r)
            curve.similarity.push_back(cosine(psi0, psi.row(Eigen::Index(r - r0))));
    }
    return curve;
}

std::string plainFeatureSpec(const std::string& invariantSpec)
{
    const std::size_t plus = invariantSpec.find('+');
    const std::string first = invariantSpec.substr(0, plus);
    const std::string rest = plus == std::string::npos ? std::string() : invariantSpec.substr(plus);
    Spec s = parseSpec(first, "features");
    const FeatureMapDescriptor* d = findFeatureMap(s.name);
    if (!d || d->plainMap.empty())
        throw SpecError("features", "the probe compares irf or inystrom with its plain map (rf, nystrom)", s.name);
    s.name = d->plainMap;
    s.params.erase("r");
    s.params.erase("mode");
    return formatSpec(s) + rest;
}

ProbeResult probeInvariance(const Dataset& data, std::size_t index, const ProbeConfig& config, const Progress& progress)
{
    if (index >= data.count())
        throw SpecError("index", "no such sample (the data hold " + std::to_string(data.count()) + ")",
                        std::to_string(index));
    const std::size_t fit = std::min(data.count(), config.fitCount);
    if (fit < 2) throw SpecError("data", "the probe needs at least two samples to fit the maps", std::to_string(fit));
    const std::string plainSpec = plainFeatureSpec(config.features);
    reportProgress(progress, 0.0, "choosing " + std::to_string(fit) + " points");
    const Dataset points = data.subset(kernelPlotIndices(data, fit, config.seed));
    const FeatureContext context = makeFeatureContext(points, config.group, config.dist, config.kernel, config.seed);
    const auto invariant = makeFeatureMap(config.features, context);
    const auto plain = makeFeatureMap(plainSpec, context);
    invariant->fit(points.X, config.seed, detail::subProgress(progress, 0.0, 0.4, "fitting " + config.features + ": "));
    plain->fit(points.X, config.seed, detail::subProgress(progress, 0.4, 0.5, "fitting " + plainSpec + ": "));
    ProbeResult result;
    result.invariantSpec = invariant->spec();
    result.plainSpec = plain->spec();
    const float* x = data.sample(index);
    reportProgress(progress, 0.5, "probing the invariant map");
    const InvarianceCurve a = invarianceProbe(*invariant, *context.group, context.shape, x, config.points, config.seed);
    reportProgress(progress, 0.75, "probing the plain map");
    const InvarianceCurve b = invarianceProbe(*plain, *context.group, context.shape, x, config.points, config.seed);
    result.parameter = a.parameter;
    result.values = a.values;
    result.invariant = a.similarity;
    result.plain = b.similarity;
    reportProgress(progress, 1.0, "done");
    return result;
}

} // namespace orbit

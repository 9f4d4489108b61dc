#include "orbit/figures/DensitySummary.hpp"

#include "orbit/distributions/AffineProduct.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cmath>

namespace orbit {

void DensityConfig::validate() const
{
    if (samples < 1) throw SpecError("samples", "must be >= 1", std::to_string(samples));
    if (minBins < 1) throw SpecError("bins", "must be >= 1", std::to_string(minBins));
    if (maxBins < minBins)
        throw SpecError("bins", "the largest number of bins is below the smallest (" + std::to_string(minBins) + ")",
                        std::to_string(maxBins));
    if (curvePoints < 1) throw SpecError("points", "must be >= 1", std::to_string(curvePoints));
}

double DensitySummary::peak() const
{
    double p = 0.0;
    for (double h : histogram) p = std::max(p, h);
    for (double q : density) p = std::max(p, q);
    return p;
}

double DensitySummary::histogramAt(double x) const
{
    if (histogram.empty()) return 0.0;
    const int bins = static_cast<int>(histogram.size());
    return histogram[static_cast<std::size_t>(std::clamp(static_cast<int>((x - lo) / binWidth), 0, bins - 1))];
}

std::string densityParameterName(const Group& group) { return group.parameterAxis().name; }

std::vector<DensityFactor> densityFactors(const std::shared_ptr<const Group>& group,
                                          const std::shared_ptr<const Distribution>& dist, const Shape& shape,
                                          std::uint64_t seed)
{
    const auto* product = dynamic_cast<const AffineProduct*>(dist.get());
    const GroupDescriptor* d = findGroup(parseSpec(group->spec(), "group").name);
    if (!d || !d->isProduct() || !product) return {{group->spec(), group, dist}};
    std::vector<DensityFactor> out;
    const Distribution* factors[3] = {&product->rotation(), &product->translation(), &product->scale()};
    for (std::size_t f = 0; f < 3; ++f) {
        const std::string name = d && f < d->factors.size() ? toString(d->factors[f])
                                                             : std::string(f == 0 ? "rotation" : f == 1 ? "translation" : "scale");
        auto factorGroup = makeGroup(name, shape, seed);
        // The factor's own spec builds it again on the factor group: the same law as inside the product.
        out.push_back({name, factorGroup, makeDistribution(factors[f]->spec(), *factorGroup)});
    }
    return out;
}

DensitySummary densitySummary(const Group& group, const Distribution& dist, const Shape& shape, const Dataset* data,
                              std::size_t index, const DensityConfig& config, const Progress& progress)
{
    config.validate();
    DensitySummary result;
    const ParameterAxis axis = group.parameterAxis();
    result.kind = group.kind();
    result.group = group.spec();
    result.dist = dist.spec();
    result.parameter = axis.name;
    result.samples = config.samples;
    if (result.parameter.empty())
        throw SpecError("group", "has no one-dimensional parameter to plot", group.spec());
    if (data && index >= data->count())
        throw SpecError("index", "no such sample (the data hold " + std::to_string(data->count()) + ")",
                        std::to_string(index));
    const float* x = nullptr;
    if (dist.dependsOnInput()) {
        if (!data) throw SpecError("data", "this distribution depends on the input: it needs data", dist.spec());
        x = data->sample(index);
    }
    Rng rng = makeRng(config.seed, 0x64656e73);  // "dens": a stream of its own
    // Permutations are summarised by how many atoms leave the reference order: the plain sorted
    // order for noisy sort (its sigma = 0 limit), the identity otherwise.
    std::vector<int> reference;
    if (axis.movedAtoms) {
        if (!x) x = data ? data->sample(index) : nullptr;
        if (!x) throw SpecError("data", "permutations are counted on a molecule: it needs data", group.spec());
        Rng fixed = makeRng(0);
        reference = dist.dependsOnInput()
                        ? makeDistribution("noisysort:sigma=0", group)->sample(fixed, group, shape, x).perm
                        : group.identity(shape).perm;
    }
    const std::size_t atoms = data && data->kind == DataKind::Coulomb && index < data->charges.size()
                                  ? data->charges[index].size()
                                  : reference.size();
    auto moved = [&](const GroupElement& g) {
        int count = 0;
        for (std::size_t i = 0; i < g.perm.size() && i < reference.size(); ++i)
            count += g.perm[i] != reference[i] &&
                     (g.perm[i] < static_cast<int>(atoms) || reference[i] < static_cast<int>(atoms));
        return static_cast<double>(count);
    };
    std::vector<double> values(static_cast<std::size_t>(config.samples));
    for (std::size_t i = 0; i < values.size(); ++i) {
        if ((i & 1023) == 0) reportProgress(progress, double(i) / double(values.size()), "drawing");
        const GroupElement g = dist.sample(rng, group, shape, x);
        values[i] = axis.movedAtoms ? moved(g) : group.parameterOf(g);
    }
    result.hasDensity = dist.hasDensity();
    double lo = *std::min_element(values.begin(), values.end());
    double hi = *std::max_element(values.begin(), values.end());
    if (result.hasDensity) {
        const auto range = dist.densityRange();  // holds nearly all of the mass
        lo = range.first;
        hi = range.second;
    }
    lo = std::max(lo, axis.lo);
    hi = std::min(hi, axis.hi);
    int bins = config.minBins;
    if (result.hasDensity) {
        // Narrow densities (large kappa) get finer bins: about three per standard deviation.
        double mass = 0.0, mean = 0.0, second = 0.0;
        const int grid = 4000;
        for (int i = 0; i <= grid; ++i) {
            const double t = lo + (hi - lo) * i / grid;
            const double q = dist.density(t);
            if (std::isfinite(q)) {
                mass += q;
                mean += q * t;
                second += q * t * t;
            }
        }
        if (mass > 0.0) {
            mean /= mass;
            const double sd = std::sqrt(std::max(second / mass - mean * mean, 0.0));
            if (sd > 0.0)
                bins = std::clamp(static_cast<int>(std::ceil(3.0 * (hi - lo) / sd)), config.minBins, config.maxBins);
        }
    }
    if (axis.movedAtoms) {  // counts 0..atoms
        lo = 0.0;
        hi = std::max(hi, 1.0);
    }
    if (axis.discrete) {  // one bar per value
        lo -= 0.5;
        hi += 0.5;
        bins = static_cast<int>(std::lround(hi - lo));
    }
    if (!(hi - lo > 1e-9)) {  // a delta: a narrow bar around its value
        lo -= 1.0;
        hi += 1.0;
    }
    result.lo = lo;
    result.hi = hi;
    const double width = (hi - lo) / bins;
    result.binWidth = width;
    std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
    for (double v : values) {
        const int b = std::clamp(static_cast<int>((v - lo) / width), 0, bins - 1);
        counts[static_cast<std::size_t>(b)] += 1.0;
    }
    result.histogram.resize(counts.size());
    for (std::size_t b = 0; b < counts.size(); ++b)
        result.histogram[b] = counts[b] / (static_cast<double>(values.size()) * width);
    if (result.hasDensity) {
        const int points = config.curvePoints;
        result.t.reserve(static_cast<std::size_t>(points) + 1);
        result.density.reserve(static_cast<std::size_t>(points) + 1);
        for (int i = 0; i <= points; ++i) {
            const double t = lo + (hi - lo) * i / points;
            const double q = dist.density(t);
            if (std::isfinite(q)) {
                result.t.push_back(t);
                result.density.push_back(q);
            }
        }
    }
    reportProgress(progress, 1.0, "done");
    return result;
}

} // namespace orbit

#include "training/TrainingGrid.hpp"

#include "orbit/models/ExactModel.hpp"
#include "orbit/learn/CompositionMean.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

namespace orbit {
namespace detail {
namespace {

std::string learnerAxisOf(const std::string& learner) { return parseLearner(learner).axis(); }

std::string firstMapName(const std::string& features)
{
    const std::string first = split(features, '+').front();
    return trim(first.substr(0, first.find(':')));
}

/// Maps whose features use the base kernel of the context (so `median` is meaningful).
bool usesBaseKernel(const std::string& features)
{
    const FeatureMapDescriptor* d = firstMap(features);
    return d && d->usesBaseKernel;
}

bool needsKernel(const TrainConfig& c)
{
    return parseLearner(c.learner).gaussianKernel || usesBaseKernel(c.features);
}

bool isSecondLayerAxis(const std::string& name) { return name.rfind("rf2.", 0) == 0; }
bool isDistAxis(const std::string& name)
{
    return name != "median" && name != "bandwidth" && !isLearnerAxis(name) && !isSecondLayerAxis(name);
}

} // namespace

bool isLearnerAxis(const std::string& name)
{
    for (const LearnerDescriptor& l : learnerDescriptors())
        if (!l.parameters.empty() && l.axis() == name) return true;
    return false;
}

const FeatureMapDescriptor* firstMap(const std::string& features) { return findFeatureMap(firstMapName(features)); }

bool isDataIndependent(const std::string& features)
{
    const FeatureMapDescriptor* d = firstMap(features);
    const auto parts = split(features, '+');
    if (!d || d->fitReadsRows(parseSpec(parts.front(), "features"))) return false;
    if (parts.size() == 1) return true;
    return parseSpec(parts[1], "features").has("sigma");  // rf2 with median looks at the data
}

double roundedBandwidth(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return parseDouble(buf).value_or(v);
}

std::string distWith(const TrainConfig& c, const Shape& shape, const ParamPoint& featurePoint)
{
    std::map<std::string, double> values;
    for (const auto& [name, v] : featurePoint)
        if (isDistAxis(name)) values[name] = v;
    if (values.empty()) return c.dist;
    if (c.dist.empty()) throw SpecError("grid", "distribution parameters need a distribution", toString(featurePoint));
    try {
        return makeDistribution(c.dist, *makeGroup(c.group, shape))->withParameters(values)->spec();
    } catch (const SpecError& e) {
        throw SpecError(values.size() == 1 ? "grid " + values.begin()->first : std::string("grid"), e.detail(), e.value());
    }
}

std::string featuresWith(const std::string& features, const ParamPoint& featurePoint)
{
    auto parts = split(features, '+');
    bool any = false;
    for (const auto& [name, v] : featurePoint) any = any || isSecondLayerAxis(name);
    if (!any) return features;
    if (parts.size() != 2) throw SpecError("grid", "rf2.* axes need a second layer (+rf2:s=S) in the features", features);
    Spec s = parseSpec(parts[1], "features");
    for (const auto& [name, v] : featurePoint) {
        if (!isSecondLayerAxis(name)) continue;
        const std::string key = name.substr(4);
        if (key != "median" && key != "sigma") throw SpecError("grid " + name, "the second layer takes rf2.median or rf2.sigma", name);
        s.params.erase(key == "median" ? "sigma" : "median");
        s.params[key] = formatNumber(v);
    }
    return parts[0] + "+" + formatSpec(s);
}

std::vector<ParamPoint> featurePointsOf(const TrainConfig& config)
{
    std::vector<ParamAxis> axes;
    for (const ParamAxis& a : defaultGrid(config))
        if (!isLearnerAxis(a.name)) axes.push_back(a);
    return gridPoints(axes);
}

} // namespace detail

namespace {

using detail::isDistAxis;
using detail::isLearnerAxis;
using detail::learnerAxisOf;
using detail::needsKernel;
using detail::usesBaseKernel;

/// The descriptor of a grid axis that is a parameter of --dist (`kappa`, or `rotation.kappa` for
/// affine), or null when dist is empty or unknown (makeDistribution reports those).
const ParamDescriptor* distAxisParameter(const TrainConfig& c, const std::string& axis)
{
    if (c.dist.empty()) return nullptr;
    std::shared_ptr<const Distribution> dist;
    try {
        // A group drawn for the data's shape (the orthogonal set) cannot be made without one: SpecError.
        dist = makeDistribution(c.dist, *makeGroup(c.group));
    } catch (const SpecError&) {
        return nullptr;
    }
    try {
        return &dist->parameterDescriptor(axis);
    } catch (const SpecError& e) {
        throw SpecError("grid " + axis, "is not a parameter of " + dist->spec() + " (" + e.detail() +
                                      "; or lambda, C, median, bandwidth, rf2.median, rf2.sigma)",
                        axis);
    }
}

} // namespace

void TrainConfig::validate() const
{
    parseLearner(learner);
    if (trim(features).empty()) throw SpecError("features", "is empty");
    parseEvaluation(eval);
    checkMeanFunction(mean);
    if (mean != "constant" && !isExactFeatures(features))
        throw SpecError("mean", "is the mean function of the exact kernel machines (features exact:r=R)", mean);
    if (!(validationFraction > 0 && validationFraction < 1))
        throw SpecError("validation", "must be in (0, 1)", formatNumber(validationFraction));
    if (innerFolds != 0 && (innerFolds < 2 || innerFolds > 50))
        throw SpecError("inner-folds", "must be 0 (one validation split) or between 2 and 50", std::to_string(innerFolds));
    checkBlockRows(blockRows);
    for (double f : learningCurve)
        if (!(f > 0 && f <= 1)) throw SpecError("learning-curve", "fractions must be in (0, 1]", formatNumber(f));
    std::set<std::string> names;
    const std::string own = learnerAxisOf(learner);
    // krr on a kernel feature map (a Gaussian hyperkernel on irf features, say): --kernel is the
    // map's base kernel and the median/bandwidth axes are the kernel ridge's width on the features.
    const bool kernelOnFeatures = parseLearner(learner).gaussianKernel && usesBaseKernel(features);
    const KernelDescriptor& gaussian = *findKernel("gaussian");
    for (const ParamAxis& a : grid) {
        if (a.name.empty()) throw SpecError("grid", "an axis has no name");
        const std::string field = "grid " + a.name;
        if (!names.insert(a.name).second) throw SpecError(field, "axis given twice", a.name);
        if (a.values.empty()) throw SpecError(field, "no values for the axis", a.name);
        for (double v : a.values)
            if (!std::isfinite(v)) throw SpecError(field, "non-finite value", formatNumber(v));
        if (isLearnerAxis(a.name) && a.name != own)
            throw SpecError(field, "is not a parameter of the " + learner + " learner", a.name);
        // The valid values of the axis: the learner's, the Gaussian kernel's, or the distribution's.
        const ParamDescriptor* p = a.name == own ? &parseLearner(learner).parameters.front()
                                   : a.name == "median"    ? gaussian.parameter("median")
                                   : a.name == "bandwidth" ? gaussian.parameter("sigma")
                                   : isDistAxis(a.name)    ? distAxisParameter(*this, a.name)
                                                           : nullptr;
        if (p)
            for (double v : a.values)
                if (!p->accepts(v)) throw SpecError(field, "values " + p->violation(v), formatNumber(v));
        if ((a.name == "median" || a.name == "bandwidth") && !kernel.empty() && !kernelOnFeatures)
            throw SpecError(field, "conflicts with the fixed kernel (drop one)", a.name);
    }
    if (names.count("median") && names.count("bandwidth"))
        throw SpecError("grid", "give median or bandwidth, not both", "median,bandwidth");
    if (group.empty() != dist.empty())
        throw SpecError(group.empty() ? "group" : "distribution",
                        group.empty() ? "is needed with a distribution" : "is needed with a group");
}

std::vector<ParamAxis> defaultGrid(const TrainConfig& config)
{
    std::vector<ParamAxis> axes;
    for (const ParamAxis& a : config.grid)
        if (!isLearnerAxis(a.name)) axes.push_back(a);
    const bool hasBandwidth = std::any_of(axes.begin(), axes.end(),
                                          [](const ParamAxis& a) { return a.name == "median" || a.name == "bandwidth"; });
    if (!hasBandwidth && config.kernel.empty() && needsKernel(config)) axes.push_back({"median", {0.5, 1.0, 2.0}});
    const std::string own = learnerAxisOf(config.learner);
    if (!own.empty()) {
        ParamAxis learner{own, {}};
        for (const ParamAxis& a : config.grid)
            if (a.name == own) learner = a;
        if (learner.values.empty()) learner.values = parseLearner(config.learner).defaultAxis;
        axes.push_back(learner);
    }
    return axes;
}

} // namespace orbit

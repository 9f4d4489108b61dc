#include "state/TrainingSettings.hpp"

#include "state/KernelChoice.hpp"

#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/training/TrainSettings.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace orbitui {

std::string TrainingSettings::featureSpec() const { return spec.empty() ? presetSpec(preset, s, r) : spec; }

std::string TrainingSettings::evalSpec() const
{
    const orbit::EvaluationDescriptor* d = orbit::findEvaluation(eval);
    orbit::Evaluation e;
    e.kind = d ? d->id : orbit::EvaluationKind::HoldOut;
    if (e.kind == orbit::EvaluationKind::HoldOut)
        e.fraction = holdoutFraction;
    if (e.kind == orbit::EvaluationKind::KFold)
        e.folds = k;
    return orbit::formatEvaluation(e);
}

const std::vector<std::string>& featurePresets()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const orbit::FeatureMapDescriptor& m : orbit::featureMapDescriptors())
            if (!m.secondLayer)
                out.push_back(m.name);
        out.push_back(orbit::exactKernelDescriptor().name);  // kept out of the maps: the panels that build every map skip it
        return out;
    }();
    return names;
}

namespace {

/// The registry's descriptor of the first map of a features spec (the exact kernel's too), or null.
const orbit::FeatureMapDescriptor* firstMap(const std::string& spec)
{
    const auto begin = spec.find_first_not_of(' ');
    if (begin == std::string::npos)
        return nullptr;
    const std::string head = spec.substr(begin, spec.find_first_of(":+", begin) - begin);
    const std::string name = head.substr(0, head.find_last_not_of(' ') + 1);
    const orbit::FeatureMapDescriptor& exact = orbit::exactKernelDescriptor();
    return name == exact.name ? &exact : orbit::findFeatureMap(name);
}

} // namespace

const orbit::FeatureMapDescriptor* presetDescriptor(const std::string& spec) { return firstMap(spec); }

bool isInvariantSpec(const std::string& spec)
{
    const orbit::FeatureMapDescriptor* m = firstMap(spec);
    return m && m->invariant;
}

bool usesGaussianKernel(const std::string& spec, const std::string& learner)
{
    const orbit::LearnerDescriptor* l = orbit::findLearner(learner);
    const orbit::FeatureMapDescriptor* m = firstMap(spec);
    return (l && l->gaussianKernel) || (m && m->usesBaseKernel);
}

std::string presetSpec(const std::string& preset, int s, int r)
{
    const orbit::FeatureMapDescriptor* m = firstMap(preset);
    if (!m)
        return preset;
    if (orbit::isExactKernelSpec(preset))
        return m->name + ":r=" + std::to_string(r);  // no map, no size: the group samples per input
    // The map's size (its first integer parameter: s, m or k) and r, in the registry's spec order,
    // with the descriptor's preset values for the other parameters (GICDF's m (2 bins + 1) features
    // come near s with 10 bins, over measured thresholds; kif pools by the mean).
    std::vector<std::pair<std::string, std::string>> values;
    bool sized = false;
    for (const orbit::ParamDescriptor& p : m->parameters) {
        const auto preset = std::find_if(m->presetValues.begin(), m->presetValues.end(),
                                         [&p](const auto& kv) { return kv.first == p.key; });
        if (p.type == orbit::ParamType::Integer && !sized) {
            values.emplace_back(p.key, std::to_string(std::max(1, s / m->presetFeaturesPerSize)));
            sized = true;
        } else if (p.key == "r") {
            values.emplace_back(p.key, std::to_string(r));
        } else if (preset != m->presetValues.end()) {
            values.emplace_back(p.key, preset->second);
        }
    }
    std::string text = preset;
    char sep = ':';
    for (const auto& [key, value] : values) {
        text += sep + key + "=" + value;
        sep = ',';
    }
    return text;
}

std::vector<std::string> localityAxes(const OrbitSettings& orbit)
{
    // Named as orbit::Distribution::parameters() names them: "kappa", or "rotation.kappa" for a
    // factor of the affine product.
    std::vector<std::string> names;
    for (const std::string& factor : orbit.factors()) {
        const std::string prefix = orbit.isProduct() ? factor + "." : std::string();
        if (const orbit::DistributionDescriptor* d = orbit::findDistribution(orbit.factor(factor).name))
            for (const orbit::ParamDescriptor& p : d->parameters)
                if (p.sweepable)
                    names.push_back(prefix + p.key);
    }
    return names;
}

std::vector<double> parseNumberList(const std::string& text, const std::string& field)
{
    std::vector<double> out;
    std::string item;
    std::string normalised = text;
    std::replace_if(normalised.begin(), normalised.end(), [](char c) { return c == ',' || c == ';'; }, ' ');
    std::istringstream in(normalised);
    while (in >> item) {
        double v = 0.0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        if (ec != std::errc() || end != item.data() + item.size() || !std::isfinite(v))
            throw orbit::SpecError(field, "expected a list of numbers separated by commas", item);
        out.push_back(v);
    }
    if (out.empty())
        throw orbit::SpecError(field, "expected at least one number", text);
    return out;
}

std::string formatNumberList(const std::vector<double>& values)
{
    std::string out;
    for (double v : values)
        out += (out.empty() ? "" : ", ") + orbit::formatNumber(v);
    return out;
}

orbit::TrainConfig makeTrainConfig(const TrainingSettings& s, const OrbitSettings& orbit)
{
    orbit::TrainConfig config;
    config.features = s.featureSpec();
    config.learner = s.learner;
    config.eval = s.evalSpec();
    config.seed = s.seed;
    const bool exact = orbit::isExactKernelSpec(config.features);
    if (isInvariantSpec(config.features)) {
        config.group = orbit.groupSpec();
        config.dist = orbit.distSpec();
        const auto axes = localityAxes(orbit);
        // The exact kernel machines search the bandwidth and lambda only (orbit::trainExact).
        if (!exact && !s.localityAxis.empty() && std::find(axes.begin(), axes.end(), s.localityAxis) != axes.end())
            config.grid.push_back({s.localityAxis, s.locality});
    }
    const orbit::LearnerDescriptor* learner = orbit::findLearner(s.learner);
    const std::string axis = learner ? learner->axis() : std::string();
    if (axis == "lambda")
        config.grid.push_back({axis, s.lambdas});
    else if (axis == "C")
        config.grid.push_back({axis, s.costs});
    const bool fitsBandwidth = learner && learner->gaussianProcess;  // gp: the marginal likelihood chooses it
    if (usesGaussianKernel(config.features, s.learner)) {        // a kernel is used: the chosen one
        if (!isGridGaussian(s.kernel))
            config.kernel = learnKernelSpec(s);
        else if (!fitsBandwidth)
            config.grid.push_back({"median", s.medians});
    }
    if (s.learningCurve && !exact)  // the exact machines draw no learning curve
        config.learningCurve = {0.1, 0.25, 0.5, 1.0};
    for (const auto& [key, text] : s.more)
        if (const orbit::TrainSetting* row = orbit::findTrainSetting(key); row && !formSetsRow(key))
            orbit::applySetting(config, *row, text);
    return config;
}

bool formSetsRow(const std::string& key)
{
    static const std::vector<std::string> form{"features", "group", "dist", "kernel", "learner",
                                               "eval", "grid", "learning_curve", "seed"};
    return std::find(form.begin(), form.end(), key) != form.end();
}

std::optional<orbit::TrainConfig> perClassTrainConfig(const TrainingSettings& s, const OrbitSettings& orbit)
{
    orbit::TrainConfig config = makeTrainConfig(s, orbit);
    const orbit::LearnerDescriptor* learner = orbit::findLearner(s.learner);
    const bool oneVsRest = learner && learner->oneVsRest;
    if (orbit.distPerClass.empty() || !learner || (!learner->perClassEvidence && !oneVsRest) || config.group.empty())
        return std::nullopt;
    config.learningCurve.clear();
    if (oneVsRest) {  // the learner's axis and the bandwidth as without; no locality sweep (fixed per class)
        std::erase_if(config.grid, [](const orbit::ParamAxis& a) {
            return a.name != "lambda" && a.name != "C" && a.name != "median" && a.name != "bandwidth";
        });
        return config;
    }
    config.grid.clear();
    config.kernel = learnKernelSpec(s);
    return config;
}

std::string learnFeatureSpec(const TrainingSettings& s)
{
    std::string spec = s.featureSpec();
    if (s.learnPerInput && spec.rfind("irf", 0) == 0 && spec.find("mode=") == std::string::npos &&
        spec.find('+') == std::string::npos)
        spec += spec.find(':') == std::string::npos ? ":mode=data" : ",mode=data";
    return spec;
}

std::string learnKernelSpec(const TrainingSettings& s)
{
    return baseKernelSpec(s.kernel, s.medians.empty() ? 1.0 : s.medians.front());
}

bool isGaussianProcess(const std::string& learner)
{
    const orbit::LearnerDescriptor* l = orbit::findLearner(learner);
    return l && l->gaussianProcess;
}

std::string learnExactFeatureSpec(const TrainingSettings& s)
{
    const std::string spec = s.featureSpec();
    return orbit::isExactKernelSpec(spec) ? spec : "exact:r=4";
}

void checkTrainingKernel(const TrainingSettings& s)
{
    checkKernelChoice(s.kernel);
    if (!isGridGaussian(s.kernel) && s.medians.size() > 1)
        throw orbit::SpecError("bandwidths",
                               "the grid searches the Gaussian's bandwidth only: the " + kernelName(s.kernel) +
                                   " kernel takes one value",
                               formatNumberList(s.medians));
}

} // namespace orbitui

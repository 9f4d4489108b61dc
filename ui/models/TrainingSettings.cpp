#include "models/TrainingSettings.hpp"

#include "orbit/util/Error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace orbitui {

std::string TrainingSettings::featureSpec() const { return spec.empty() ? presetSpec(preset, s, r) : spec; }

std::string TrainingSettings::evalSpec() const
{
    if (eval == "kfold")
        return "kfold:" + std::to_string(k);
    if (eval == "folds")
        return "folds";
    return "holdout:" + formatNumberList({holdoutFraction});
}

const std::vector<std::string>& featurePresets()
{
    static const std::vector<std::string> names{"raw", "sorted", "rf", "irf", "nystrom", "inystrom", "gicdf", "kif"};
    return names;
}

namespace {

std::string firstMap(const std::string& spec)
{
    const auto begin = spec.find_first_not_of(' ');
    if (begin == std::string::npos)
        return {};
    const std::string head = spec.substr(begin, spec.find_first_of(":+", begin) - begin);
    return head.substr(0, head.find_last_not_of(' ') + 1);
}

} // namespace

bool isInvariantSpec(const std::string& spec)
{
    const std::string head = firstMap(spec);
    return head == "irf" || head == "inystrom" || head == "gicdf" || head == "kif";
}

bool usesGaussianKernel(const std::string& spec, const std::string& learner)
{
    const std::string head = firstMap(spec);
    return learner == "krr" || head == "rf" || head == "irf" || head == "nystrom" || head == "inystrom" || head == "kif";
}

std::string presetSpec(const std::string& preset, int s, int r)
{
    const std::string S = std::to_string(s), R = std::to_string(r);
    if (preset == "rf" || preset == "nystrom")
        return preset + ":s=" + S;
    if (preset == "irf" || preset == "inystrom")
        return preset + ":s=" + S + ",r=" + R;
    if (preset == "gicdf")
        return "gicdf:m=" + std::to_string(std::max(1, s / 21)) + ",bins=10,r=" + R + ",span=auto";  // measured thresholds
    if (preset == "kif")
        return "kif:k=" + S + ",eta=mean,r=" + R;
    return preset;  // raw, sorted
}

namespace {

std::vector<std::string> parameterKeys(const std::string& distribution)
{
    if (distribution == "vonmises")
        return {"kappa"};
    if (distribution == "uniform")
        return {"a"};
    if (distribution == "gaussian" || distribution == "noisysort")
        return {"sigma"};
    if (distribution == "lognormal")
        return {"mu", "sigma"};
    return {};  // haar, delta
}

} // namespace

std::vector<std::string> localityAxes(const OrbitSettings& orbit)
{
    // The training engine cannot search the parameters of an affine product yet ("--grid: distribution
    // parameters of an affine --dist cannot be searched yet"): offer none rather than a failing run.
    if (orbit.group == "affine")
        return {};
    return parameterKeys(orbit.dist.name);
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
    for (double v : values) {
        char buffer[32];
        const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
        if (!out.empty())
            out += ", ";
        out.append(buffer, ec == std::errc() ? end : buffer);
    }
    return out;
}

orbit::TrainConfig makeTrainConfig(const TrainingSettings& s, const OrbitSettings& orbit)
{
    orbit::TrainConfig config;
    config.features = s.featureSpec();
    config.learner = s.learner;
    config.eval = s.evalSpec();
    config.seed = s.seed;
    if (isInvariantSpec(config.features)) {
        config.group = orbit.groupSpec();
        config.dist = orbit.distSpec();
        const auto axes = localityAxes(orbit);
        if (!s.localityAxis.empty() && std::find(axes.begin(), axes.end(), s.localityAxis) != axes.end())
            config.grid.push_back({s.localityAxis, s.locality});
    }
    if (s.learner == "ridge" || s.learner == "krr")
        config.grid.push_back({"lambda", s.lambdas});
    else if (s.learner == "svm")
        config.grid.push_back({"C", s.costs});
    if (usesGaussianKernel(config.features, s.learner))
        config.grid.push_back({"median", s.medians});
    if (s.learningCurve)
        config.learningCurve = {0.1, 0.25, 0.5, 1.0};
    return config;
}

} // namespace orbitui

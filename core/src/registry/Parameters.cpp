#include "orbit/registry/Parameters.hpp"

#include "orbit/util/Spec.hpp"

#include <cctype>
#include <cmath>
#include <limits>
#include <numbers>

namespace orbit {

bool ParamDescriptor::accepts(double v) const { return violation(v).empty(); }

std::string ParamDescriptor::violation(double v) const
{
    if (!std::isfinite(v)) return "must be a finite number";
    if (type == ParamType::Integer && v != std::floor(v)) return "must be an integer";
    if (minimumOpen ? !(v > minimum) : !(v >= minimum))
        return std::string("must be ") + (minimumOpen ? "> " : ">= ") + formatNumber(minimum);
    if (maximumOpen ? !(v < maximum) : !(v <= maximum))
        return std::string("must be ") + (maximumOpen ? "< " : "<= ") + formatNumber(maximum);
    return {};
}

namespace {

std::string joined(const std::vector<std::string>& words, const std::string& sep)
{
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : sep) + w;
    return out;
}

std::string integerText(double v) { return std::to_string(static_cast<long long>(v)); }

} // namespace

std::string ParamDescriptor::synopsis() const
{
    if (type == ParamType::Choice) return key + "=" + joined(choices, "|");
    std::string text = key + "=";
    if (!placeholder.empty())
        text += placeholder;
    else
        text.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(key.front()))));
    for (const std::string& c : choices) text += "|" + c;
    return text;
}

std::string ParamDescriptor::rangeText() const
{
    switch (type) {
    case ParamType::Choice: return "one of " + joined(choices, ", ");
    case ParamType::Text: return {};
    case ParamType::Integer: return "an integer in [" + integerText(minimum) + ", " + integerText(maximum) + "]";
    case ParamType::Real: break;
    }
    std::string text;
    if (minimum > std::numeric_limits<double>::lowest()) text = (minimumOpen ? "> " : ">= ") + formatNumber(minimum);
    if (maximum < std::numeric_limits<double>::max())
        text += (text.empty() ? "" : " and ") + std::string(maximumOpen ? "< " : "<= ") + formatNumber(maximum);
    if (!choices.empty()) text += (text.empty() ? "" : ", or ") + joined(choices, " or ");
    return text.empty() ? "any number" : text;
}

const std::vector<ParamDescriptor>& distributionParameters(const std::string& name, GroupKind kind)
{
    constexpr double pi = std::numbers::pi;
    static const std::vector<ParamDescriptor> none;
    // Real numbers, required and sweepable (ParamDescriptor's defaults) unless an entry says otherwise.
    static const std::vector<ParamDescriptor> vonMises = {
        {.key = "kappa", .label = "κ (concentration)", .minimum = 0.0, .maximum = 1e6, .defaultValue = 1.0,
         .learnMinimum = 0.01, .learnMaximum = 1000.0, .logScale = true, .learnable = true,
         .doc = "How concentrated the rotation angles are around 0: κ = 0 is the uniform (Haar) measure over all "
                "angles, large κ keeps the copies close to the input."}};
    static const std::vector<ParamDescriptor> uniformAngle = {
        // Searched and scanned on a linear scale: windows of interest span 5° to 180°, evenly.
        {.key = "a", .label = "a (half-width, rad)", .unit = "rad", .minimum = 0.0, .minimumOpen = true, .maximum = pi,
         .defaultValue = 0.5, .learnMinimum = 0.01, .learnMaximum = pi, .logScale = false, .learnable = true,
         .doc = "The half-width of the window: angles are drawn uniformly from [-a, a] radians (π = all rotations)."}};
    static const std::vector<ParamDescriptor> uniformShift = {
        {.key = "a", .label = "a (half-width, px)", .unit = "px", .minimum = 0.0, .minimumOpen = true, .maximum = 1e6,
         .defaultValue = 1.0, .learnMinimum = 0.01, .learnMaximum = 100.0, .logScale = true, .learnable = true,
         .doc = "The half-width of the window: shifts are drawn uniformly from [-a, a] pixels on each axis.",
         .decimals = 2}};
    static const std::vector<ParamDescriptor> gaussian = {
        {.key = "sigma", .label = "σ (px)", .unit = "px", .minimum = 0.0, .minimumOpen = true, .maximum = 1e6,
         .defaultValue = 1.0, .learnMinimum = 0.01, .learnMaximum = 100.0, .logScale = true, .learnable = true,
         .doc = "The standard deviation of the shift in pixels on each axis: larger σ moves the copies further "
                "from the input."}};
    static const std::vector<ParamDescriptor> logNormal = {
        {.key = "mu", .label = "μ (log-scale mean)", .minimum = -10.0, .maximum = 10.0, .defaultValue = 0.0,
         .learnMinimum = -3.0, .learnMaximum = 3.0, .logScale = false, .learnable = true,
         .doc = "The mean of log s: μ = 0 centres the zoom factors on 1 (no zoom).",
         .required = false},  // lognormal:sigma=S is centred on s = 1
        {.key = "sigma", .label = "σ (log-scale spread)", .minimum = 0.0, .minimumOpen = true, .maximum = 10.0,
         .defaultValue = 0.3, .learnMinimum = 0.001, .learnMaximum = 5.0, .logScale = true, .learnable = true,
         .doc = "The standard deviation of log s: larger σ gives stronger zooms in and out."}};
    static const std::vector<ParamDescriptor> noisySort = {
        {.key = "sigma", .label = "σ (row-norm noise)", .minimum = 0.0, .maximum = 1e6, .defaultValue = 1.0,
         .learnMinimum = 0.01, .learnMaximum = 1000.0, .logScale = true, .learnable = false,
         .doc = "The noise added to the row norms before sorting: σ = 0 always gives the sorted Coulomb matrix, "
                "larger σ mixes atoms of similar norm. The evidence is piecewise constant in σ (no gradient)."}};
    if (name == "vonmises") return vonMises;
    if (name == "uniform") return kind == GroupKind::Translation ? uniformShift : uniformAngle;
    if (name == "gaussian") return gaussian;
    if (name == "lognormal") return logNormal;
    if (name == "noisysort") return noisySort;
    return none;
}

} // namespace orbit

// ParamDescriptor: its checks and words, and the building blocks of the registry's tables.
#include "orbit/registry/Parameters.hpp"

#include "orbit/util/Spec.hpp"
#include "registry/Builders.hpp"

#include <cctype>
#include <cmath>
#include <limits>

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

std::string integerText(double v) { return std::to_string(static_cast<long long>(v)); }

} // namespace

std::string ParamDescriptor::synopsis() const
{
    if (type == ParamType::Choice) return key + "=" + registry::joined(choices, "|", "|");
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
    case ParamType::Choice: return "one of " + registry::joined(choices, ", ", ", ");
    case ParamType::Text: return {};
    case ParamType::Integer: return "an integer in [" + integerText(minimum) + ", " + integerText(maximum) + "]";
    case ParamType::Real: break;
    }
    std::string text;
    if (minimum > std::numeric_limits<double>::lowest()) text = (minimumOpen ? "> " : ">= ") + formatNumber(minimum);
    if (maximum < std::numeric_limits<double>::max())
        text += (text.empty() ? "" : " and ") + std::string(maximumOpen ? "< " : "<= ") + formatNumber(maximum);
    if (!choices.empty()) text += (text.empty() ? "" : ", or ") + registry::joined(choices, " or ", " or ");
    return text.empty() ? "any number" : text;
}

// ---- building blocks of the tables (registry/Builders.hpp) ----

namespace registry {

std::string joined(const std::vector<std::string>& words, const std::string& sep, const std::string& last)
{
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? last : sep) + words[i];
    return out;
}

ParamDescriptor integer(std::string key, double lo, double hi, bool required, double def, std::string doc,
                        std::string defaultText)
{
    ParamDescriptor p;
    p.key = key;
    p.label = std::move(key);
    p.type = ParamType::Integer;
    p.minimum = lo;
    p.maximum = hi;
    p.required = required;
    p.defaultValue = def;
    p.defaultText = std::move(defaultText);
    p.learnMinimum = lo;
    p.learnMaximum = hi;
    p.sweepable = false;
    p.decimals = 0;
    p.doc = std::move(doc);
    return p;
}

ParamDescriptor real(std::string key, double lo, bool loOpen, double hi, bool hiOpen, bool required, double def,
                     double typicalLo, double typicalHi, bool logScale, std::string doc, std::string defaultText)
{
    ParamDescriptor p;
    p.key = key;
    p.label = std::move(key);
    p.minimum = lo;
    p.minimumOpen = loOpen;
    p.maximum = hi;
    p.maximumOpen = hiOpen;
    p.required = required;
    p.defaultValue = def;
    p.defaultText = std::move(defaultText);
    p.learnMinimum = typicalLo;
    p.learnMaximum = typicalHi;
    p.logScale = logScale;
    p.sweepable = false;
    // Enough digits for the lower end of the typical range.
    p.decimals = typicalLo > 0 ? std::max(3, static_cast<int>(std::ceil(-std::log10(typicalLo) - 1e-9))) : 3;
    p.doc = std::move(doc);
    return p;
}

ParamDescriptor choice(std::string key, std::vector<std::string> words, std::string doc)
{
    ParamDescriptor p;
    p.key = key;
    p.label = std::move(key);
    p.type = ParamType::Choice;
    p.required = false;
    p.defaultText = words.front();
    p.choices = std::move(words);
    p.sweepable = false;
    p.doc = std::move(doc);
    return p;
}

} // namespace registry

} // namespace orbit

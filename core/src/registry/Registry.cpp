// The registry's common part: what every descriptor has (its synopsis), the lookups of learners and
// evaluations by name, the one check of a spec's keys, the readers of its values and the --help
// lines. The tables are by area: Groups.cpp, Distributions.cpp, Kernels.cpp, FeatureMaps.cpp,
// Learners.cpp.
#include "orbit/registry/Registry.hpp"

#include "orbit/util/Error.hpp"
#include "registry/Builders.hpp"

#include <algorithm>

namespace orbit {

using registry::joined;

namespace {

std::string valueText(const Spec& spec, const std::vector<std::string>& keys)
{
    std::string out;
    for (const std::string& k : keys)
        if (spec.has(k)) out += (out.empty() ? "" : ",") + k + "=" + spec.text(k, "");
    return out;
}

} // namespace

// ---- SpecDescriptor ----

const ParamDescriptor* SpecDescriptor::parameter(const std::string& key) const
{
    for (const ParamDescriptor& p : parameters)
        if (p.key == key) return &p;
    return nullptr;
}

std::vector<std::string> SpecDescriptor::keys() const
{
    std::vector<std::string> out;
    for (const ParamDescriptor& p : parameters) out.push_back(p.key);
    return out;
}

std::string SpecDescriptor::synopsis(bool withOptional) const
{
    std::vector<std::string> shown;  // required ones and required alternatives, in spec order
    std::vector<std::string> optional;
    std::vector<std::string> done;
    for (const ParamDescriptor& p : parameters) {
        if (std::find(done.begin(), done.end(), p.key) != done.end()) continue;
        const KeyAlternatives* alt = nullptr;
        for (const KeyAlternatives& a : alternatives)
            if (std::find(a.keys.begin(), a.keys.end(), p.key) != a.keys.end()) alt = &a;
        if (alt) {
            std::vector<std::string> parts;
            for (const std::string& k : alt->keys) parts.push_back(parameter(k)->synopsis());
            done.insert(done.end(), alt->keys.begin(), alt->keys.end());
            (alt->required ? shown : optional).push_back(joined(parts, "|", "|"));
        } else {
            (p.required ? shown : optional).push_back(p.synopsis());
        }
    }
    std::string text = name;
    if (!shown.empty()) text += ":" + joined(shown, ",", ",");
    if (withOptional)
        for (std::size_t i = 0; i < optional.size(); ++i)
            text += "[" + std::string(shown.empty() && i == 0 ? ":" : ",") + optional[i] + "]";
    return text;
}

std::string EvaluationDescriptor::synopsis(bool) const
{
    return parameters.empty() ? name : name + ":" + parameters.front().placeholder;
}

std::string synopsisList(const std::vector<const SpecDescriptor*>& descriptors)
{
    std::vector<std::string> parts;
    for (const SpecDescriptor* d : descriptors) parts.push_back(d->synopsis());
    return joined(parts, ", ", ", ");
}

// ---- checks ----

void checkSpecKeys(const Spec& spec, const std::vector<ParamDescriptor>& parameters,
                   const std::vector<KeyAlternatives>& alternatives)
{
    std::vector<std::string> keys;
    for (const ParamDescriptor& p : parameters) keys.push_back(p.key);
    spec.allowOnly(keys);
    for (const KeyAlternatives& a : alternatives) {
        std::size_t given = 0;
        for (const std::string& k : a.keys) given += spec.has(k) ? 1 : 0;
        std::vector<std::string> forms;
        for (const std::string& k : a.keys)
            for (const ParamDescriptor& p : parameters)
                if (p.key == k) forms.push_back(p.synopsis());
        if (given > 1)
            throw SpecError(spec.field + " " + spec.name, "give " + joined(a.keys, ", ", " or ") + ", not more than one",
                            valueText(spec, a.keys));
        if (given == 0 && a.required)
            throw SpecError(spec.field, spec.name + " needs exactly one of " + joined(forms, ", ", " or "));
    }
    for (const ParamDescriptor& p : parameters) {
        if (p.required && !spec.has(p.key)) throw SpecError(spec.field, spec.name + " needs " + p.key + "=");
        if (p.type == ParamType::Choice && spec.has(p.key)) {
            const std::string v = spec.text(p.key, "");
            if (std::find(p.choices.begin(), p.choices.end(), v) == p.choices.end())
                throw SpecError(spec.field + " " + spec.name + "." + p.key, "must be " + joined(p.choices, ", ", " or "), v);
        }
    }
}

void checkSpecKeys(const Spec& spec, const SpecDescriptor& descriptor)
{
    checkSpecKeys(spec, descriptor.parameters, descriptor.alternatives);
}

double readReal(const Spec& spec, const ParamDescriptor& p)
{
    if (!spec.has(p.key)) return p.defaultValue;
    const double v = spec.number(p.key);
    const std::string why = p.violation(v);
    if (!why.empty()) throw SpecError(spec.field + " " + spec.name + "." + p.key, why, spec.text(p.key, ""));
    return v;
}

long long readInteger(const Spec& spec, const ParamDescriptor& p)
{
    const auto lo = static_cast<long long>(p.minimum), hi = static_cast<long long>(p.maximum);
    if (p.required) return spec.integer(p.key, lo, hi);
    return spec.integer(p.key, static_cast<long long>(p.defaultValue), lo, hi);
}

std::string readText(const Spec& spec, const ParamDescriptor& p) { return spec.text(p.key, p.defaultText); }

// ---- help ----

namespace {

/// Code points in UTF-8 text (the width of the line on a terminal, near enough).
std::size_t columns(const std::string& text)
{
    std::size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

/// `head` padded to `indent` columns (or followed by two spaces), then `text` wrapped at `width`
/// columns with continuation lines indented by `indent`.
std::string hanging(const std::string& head, const std::string& text, std::size_t indent, std::size_t width)
{
    std::string line = head;
    if (columns(line) + 2 > indent) {
        line += "\n";
        line += std::string(indent, ' ');
    } else {
        line += std::string(indent - columns(line), ' ');
    }
    std::string out;
    std::size_t used = columns(line.substr(line.rfind('\n') == std::string::npos ? 0 : line.rfind('\n') + 1));
    bool first = true;
    for (const std::string& word : split(text, ' ')) {
        if (word.empty()) continue;
        if (!first && used + 1 + columns(word) > width) {
            line += "\n" + std::string(indent, ' ');
            used = indent;
        } else if (!first) {
            line += ' ';
            ++used;
        }
        line += word;
        used += columns(word);
        first = false;
    }
    return line + "\n";
}

} // namespace

std::string helpLines(const SpecDescriptor& d, bool withParameters, const std::string& extra)
{
    constexpr std::size_t indent = 28, width = 110;
    std::string out = d.name.empty() ? std::string() : hanging("  " + d.synopsis(true), d.doc + extra, indent, width);
    if (!withParameters) return out;
    for (const ParamDescriptor& p : d.parameters) {
        std::string facts = p.rangeText();
        if (!p.required) {
            const std::string def = !p.defaultText.empty() ? p.defaultText
                                    : p.type == ParamType::Integer ? std::to_string(static_cast<long long>(p.defaultValue))
                                                                   : formatNumber(p.defaultValue);
            facts += (facts.empty() ? "" : "; ") + std::string("default ") + def;
        }
        if (!p.unit.empty()) facts += (facts.empty() ? "" : "; ") + std::string("in ") + p.unit;
        out += hanging("      " + p.key, p.doc + (facts.empty() ? "" : " (" + facts + ")"), indent, width);
    }
    return out;
}

} // namespace orbit
#include "orbit/util/Spec.hpp"

#include "orbit/util/Error.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace orbit {

std::vector<std::string> split(const std::string& text, char sep)
{
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    for (;;) {
        auto pos = text.find(sep, start);
        parts.push_back(text.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
        if (pos == std::string::npos) break;
        start = pos + 1;
    }
    return parts;
}

std::string trim(const std::string& text)
{
    auto b = text.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    auto e = text.find_last_not_of(" \t\r\n");
    return text.substr(b, e - b + 1);
}

std::optional<double> parseDouble(const std::string& text)
{
    // std::from_chars, not strtod: independent of the C locale (the GUI's QApplication sets it from
    // the environment, and a "de_DE" LC_NUMERIC would make strtod stop at the '.' of "0.5").
    const std::string t = trim(text);
    if (t.empty()) return std::nullopt;
    const char* first = t.data();
    const char* last = t.data() + t.size();
    if (*first == '+') ++first;
    if (first == last || *first == '+') return std::nullopt;
    double v = 0.0;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last) return std::nullopt;
    if (!std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<long long> parseInteger(const std::string& text)
{
    const std::string t = trim(text);
    if (t.empty()) return std::nullopt;
    long long v = 0;
    const char* first = t.data();
    if (*first == '+') ++first;
    auto [ptr, ec] = std::from_chars(first, t.data() + t.size(), v);
    if (ec != std::errc() || ptr != t.data() + t.size()) return std::nullopt;
    return v;
}

Spec parseSpec(const std::string& text, const std::string& field)
{
    Spec spec;
    spec.field = field;
    const std::string t = trim(text);
    if (t.empty()) throw SpecError(field, "empty specification", text);
    const auto colon = t.find(':');
    spec.name = trim(t.substr(0, colon));
    if (spec.name.empty()) throw SpecError(field, "missing name before ':'", text);
    for (char c : spec.name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'))
            throw SpecError(field, "bad name", spec.name);
    if (colon == std::string::npos) return spec;
    const std::string rest = t.substr(colon + 1);
    if (trim(rest).empty()) throw SpecError(field, "expected key=value after ':'", text);
    for (const auto& part : split(rest, ',')) {
        const auto eq = part.find('=');
        if (eq == std::string::npos) throw SpecError(field, "expected key=value", part);
        const std::string key = trim(part.substr(0, eq));
        const std::string value = trim(part.substr(eq + 1));
        if (key.empty() || value.empty()) throw SpecError(field, "expected key=value", part);
        if (spec.params.count(key)) throw SpecError(field, "parameter given twice", key);
        spec.params[key] = value;
    }
    return spec;
}

std::string formatNumber(double v)
{
    if (v == 0.0) v = 0.0;  // no "-0"
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

std::string formatSpec(const Spec& spec)
{
    std::string text = spec.name;
    char sep = ':';
    for (const auto& [key, value] : spec.params) {
        text += sep + key + "=" + value;
        sep = ',';
    }
    return text;
}

std::string formatSpec(const std::string& name, const std::vector<std::pair<std::string, double>>& params)
{
    std::string text = name;
    char sep = ':';
    for (const auto& [key, value] : params) {
        text += sep + key + "=" + formatNumber(value);
        sep = ',';
    }
    return text;
}

double Spec::number(const std::string& key) const
{
    auto it = params.find(key);
    if (it == params.end()) throw SpecError(field, name + " needs " + key + "=");
    auto v = parseDouble(it->second);
    if (!v) throw SpecError(field + " " + name + "." + key, "not a finite number", it->second);
    return *v;
}

double Spec::number(const std::string& key, double fallback) const
{
    return has(key) ? number(key) : fallback;
}

long long Spec::integer(const std::string& key, long long lo, long long hi) const
{
    auto it = params.find(key);
    if (it == params.end()) throw SpecError(field, name + " needs " + key + "=");
    auto v = parseInteger(it->second);
    if (!v) throw SpecError(field + " " + name + "." + key, "not an integer", it->second);
    if (*v < lo || *v > hi)
        throw SpecError(field + " " + name + "." + key,
                        "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", it->second);
    return *v;
}

long long Spec::integer(const std::string& key, long long fallback, long long lo, long long hi) const
{
    return has(key) ? integer(key, lo, hi) : fallback;
}

std::string Spec::text(const std::string& key, const std::string& fallback) const
{
    auto it = params.find(key);
    return it == params.end() ? fallback : it->second;
}

void Spec::allowOnly(const std::vector<std::string>& allowed) const
{
    for (const auto& [k, v] : params)
        if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
            std::string list;
            for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
            throw SpecError(field + " " + name, "unknown parameter (allowed: " + (list.empty() ? "none" : list) + ")", k);
        }
}

} // namespace orbit

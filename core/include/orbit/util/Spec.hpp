#pragma once
// Spec strings of the CLI and sessions: `name:key=value,key=value` (see docs/cli.md).
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace orbit {

/// A parsed spec string. `field` names the option it came from, for error messages.
struct Spec {
    std::string field;                          ///< e.g. "distribution" (orbit/util/Error.hpp lists the names)
    std::string name;                           ///< e.g. "vonmises"
    std::map<std::string, std::string> params;  ///< e.g. {"kappa": "0.2"}

    bool has(const std::string& key) const { return params.count(key) != 0; }
    /// A finite number; throws SpecError naming field.key and the value if it is not one.
    double number(const std::string& key) const;
    double number(const std::string& key, double fallback) const;
    /// An integer in [lo, hi]; throws SpecError otherwise.
    long long integer(const std::string& key, long long lo, long long hi) const;
    long long integer(const std::string& key, long long fallback, long long lo, long long hi) const;
    std::string text(const std::string& key, const std::string& fallback) const;
    /// Throws SpecError if a key outside `allowed` is present (catches typos like kapa=2).
    void allowOnly(const std::vector<std::string>& allowed) const;
};

/// Parses `name` or `name:k=v,k=v`. Throws SpecError(field, ...) on malformed text.
Spec parseSpec(const std::string& text, const std::string& field);

/// The serialiser next to parseSpec: `name`, or `name:k=v,k=v` with the keys in the order of
/// spec.params. Guarantees parseSpec(formatSpec(s), f) has the name and parameters of s (for a
/// spec parseSpec accepted).
std::string formatSpec(const Spec& spec);
/// `name:k=v,...` from numbers, in the given order, each written by formatNumber; `name` alone
/// for no parameters. The form every spec() of a distribution, kernel and panel setting takes.
std::string formatSpec(const std::string& name, const std::vector<std::pair<std::string, double>>& params);

/// The one number format of spec strings: the shortest text that reads back as the same double
/// (std::to_chars; zero is written "0", never "-0"). parseDouble(formatNumber(v)) == v for finite v.
std::string formatNumber(double v);

/// Splits on a separator, keeping empty parts.
std::vector<std::string> split(const std::string& text, char sep);
std::string trim(const std::string& text);

/// Strict number parsing: the whole string must be a finite double / integer.
std::optional<double> parseDouble(const std::string& text);
std::optional<long long> parseInteger(const std::string& text);

} // namespace orbit

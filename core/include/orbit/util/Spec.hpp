#pragma once
// Spec strings of the CLI and sessions: `name:key=value,key=value` (see ../shared/CLI.md).
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace orbit {

/// A parsed spec string. `field` names the option it came from, for error messages.
struct Spec {
    std::string field;                          ///< e.g. "--dist"
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

/// Splits on a separator, keeping empty parts.
std::vector<std::string> split(const std::string& text, char sep);
std::string trim(const std::string& text);

/// Strict number parsing: the whole string must be a finite double / integer.
std::optional<double> parseDouble(const std::string& text);
std::optional<long long> parseInteger(const std::string& text);

} // namespace orbit

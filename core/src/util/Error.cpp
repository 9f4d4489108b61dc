#include "orbit/util/Error.hpp"

#include "orbit/util/SafeText.hpp"

namespace orbit {

const char* toString(LoadErrorKind kind)
{
    switch (kind) {
    case LoadErrorKind::FileNotFound: return "file not found";
    case LoadErrorKind::UnknownFormat: return "unknown format";
    case LoadErrorKind::BadMagic: return "bad magic number";
    case LoadErrorKind::Truncated: return "truncated";
    case LoadErrorKind::TooLarge: return "too large";
    case LoadErrorKind::CountMismatch: return "count mismatch";
    case LoadErrorKind::Ragged: return "ragged rows";
    case LoadErrorKind::NotANumber: return "not a number";
    case LoadErrorKind::NonFinite: return "non-finite value";
    case LoadErrorKind::UnknownElement: return "unknown element";
    case LoadErrorKind::CoincidentAtoms: return "coincident atoms";
    case LoadErrorKind::UnreadableImage: return "unreadable image";
    case LoadErrorKind::MissingVariable: return "missing variable";
    case LoadErrorKind::BadShape: return "bad shape";
    case LoadErrorKind::BadValue: return "bad value";
    case LoadErrorKind::Empty: return "empty";
    case LoadErrorKind::NotAFile: return "not a regular file";
    case LoadErrorKind::Changed: return "changed while reading";
    }
    return "error";
}

namespace {

/// Longest detail and field text a message carries (they are written by the core but may embed
/// names or paths; a longer one is cut rather than flooding a terminal).
constexpr std::size_t kDetailMaxChars = 600;
constexpr std::size_t kFieldMaxChars = 80;

/// " (value 'v')" with the value escaped, or " (value 'v…', N bytes)" when it had to be cut;
/// empty for an empty value.
std::string valueSuffix(const std::string& value)
{
    if (value.empty()) return {};
    bool cut = false;
    const std::string text = safeText(value, kQuoteMaxChars, cut);
    return " (value '" + text + "'" + (cut ? ", " + std::to_string(value.size()) + " bytes)" : std::string(")"));
}

std::string loadMessage(const std::string& file, const std::string& position, const std::string& detail,
                        const std::string& value)
{
    std::string m = file.empty() ? std::string("<input>") : safePath(file);
    if (!position.empty()) m += ": " + safeText(position, kFieldMaxChars);
    m += ": " + safeText(detail, kDetailMaxChars);
    return m + valueSuffix(value);
}

} // namespace

LoadError::LoadError(LoadErrorKind kind, std::string file, std::string position, std::string detail,
                     std::string value)
    : std::runtime_error(loadMessage(file, position, detail, value))
    , kind_(kind)
    , file_(std::move(file))
    , position_(std::move(position))
    , detail_(std::move(detail))
    , value_(std::move(value))
{
}

SpecError::SpecError(std::string field, std::string detail, std::string value)
    : std::runtime_error(safeText(field, kFieldMaxChars) + ": " + safeText(detail, kDetailMaxChars) + valueSuffix(value))
    , field_(std::move(field))
    , detail_(std::move(detail))
    , value_(std::move(value))
{
}

ContractError::ContractError(std::string where, std::string detail)
    : std::logic_error(safeText(where, kFieldMaxChars) + ": " + safeText(detail, kDetailMaxChars))
    , where_(std::move(where))
    , detail_(std::move(detail))
{
}

void requireSize(const char* where, const char* what, long long got, long long expected)
{
    if (got != expected)
        throw ContractError(where, std::string(what) + ": expected " + std::to_string(expected) + ", got " +
                                       std::to_string(got));
}

} // namespace orbit

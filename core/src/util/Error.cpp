#include "orbit/util/Error.hpp"

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
    }
    return "error";
}

namespace {
std::string loadMessage(const std::string& file, const std::string& position, const std::string& detail,
                        const std::string& value)
{
    std::string m = file.empty() ? std::string("<input>") : file;
    if (!position.empty()) m += ": " + position;
    m += ": " + detail;
    if (!value.empty()) m += " (value '" + value + "')";
    return m;
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
    : std::runtime_error(field + ": " + detail + (value.empty() ? std::string() : " (value '" + value + "')"))
    , field_(std::move(field))
    , detail_(std::move(detail))
    , value_(std::move(value))
{
}

} // namespace orbit

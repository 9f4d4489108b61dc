#pragma once
// Typed errors of the core. Every message names where the problem is (file and position, or the
// option/field) and the offending value, so the CLI and the GUI can show it as one line.
// what() is safe text (orbit/util/SafeText.hpp): every part taken from a file or an argument is
// escaped, the value is cut to kQuoteMaxChars and the path to kPathMaxChars; the accessors keep the
// raw parts.
#include <stdexcept>
#include <string>

namespace orbit {

/// What went wrong while reading a data file.
enum class LoadErrorKind {
    FileNotFound,     ///< the path does not exist or cannot be opened
    UnknownFormat,    ///< neither extension nor content identifies a supported format
    BadMagic,         ///< the file's magic number / header is not the format's
    Truncated,        ///< the file ends before the data its header promises
    TooLarge,         ///< header sizes the file cannot hold, or that exceed the memory limit
    CountMismatch,    ///< e.g. number of labels differs from number of images
    Ragged,           ///< rows of different length
    NotANumber,       ///< a field that should be a number is not
    NonFinite,        ///< NaN or Inf in the data
    UnknownElement,   ///< a chemical symbol we have no charge for
    CoincidentAtoms,  ///< two atoms at the same position (the Coulomb matrix would be infinite)
    UnreadableImage,  ///< OpenCV could not decode an image file
    MissingVariable,  ///< a MAT file lacks a required variable (X, T)
    BadShape,         ///< a variable or record has the wrong dimensions
    BadValue,         ///< a value outside its allowed range (e.g. a label byte > 9)
    Empty,            ///< no records at all
    NotAFile,         ///< a directory, named pipe (FIFO), socket or device where a data file belongs
    Changed           ///< the file changed (size or modification time) while it was read
};

const char* toString(LoadErrorKind kind);

/// A loader failure: `file: position: detail (value 'value')`.
class LoadError : public std::runtime_error {
public:
    LoadError(LoadErrorKind kind, std::string file, std::string position, std::string detail,
              std::string value = {});
    LoadErrorKind kind() const noexcept { return kind_; }
    const std::string& file() const noexcept { return file_; }
    const std::string& position() const noexcept { return position_; }
    const std::string& detail() const noexcept { return detail_; }
    const std::string& value() const noexcept { return value_; }

private:
    LoadErrorKind kind_;
    std::string file_, position_, detail_, value_;
};

/// A bad spec string, option or parameter: `field: detail (value 'value')`.
class SpecError : public std::runtime_error {
public:
    SpecError(std::string field, std::string detail, std::string value = {});
    const std::string& field() const noexcept { return field_; }
    const std::string& detail() const noexcept { return detail_; }
    const std::string& value() const noexcept { return value_; }

private:
    std::string field_, detail_, value_;
};

/// The core was asked to stop (a cancel callback returned true).
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

} // namespace orbit

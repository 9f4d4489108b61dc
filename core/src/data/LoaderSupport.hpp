#pragma once
// Private helpers shared by the loaders: error construction, size checks before allocating,
// strict number parsing of text fields, and a line reader with line numbers.
#include "orbit/data/Dataset.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace orbit::data {

[[noreturn]] void fail(LoadErrorKind kind, const std::string& file, const std::string& position,
                       const std::string& detail, const std::string& value = {});

/// Throws FileNotFound unless `path` is an existing regular file.
void requireFile(const std::string& path);
/// Throws FileNotFound unless `path` is an existing directory.
void requireDirectory(const std::string& path);
std::uintmax_t fileSize(const std::string& path);

/// a * b * ... without overflow; returns SIZE_MAX if the product does not fit.
std::size_t checkedProduct(std::initializer_list<std::size_t> factors);

/// Throws TooLarge if rows x cols float32 values exceed `maxBytes` (or overflow).
void checkFloatMemory(const std::string& file, const std::string& position, std::size_t rows, std::size_t cols,
                      std::size_t maxBytes);

/// The number of samples to keep: min(n, limit) when limit > 0.
std::size_t applyLimit(std::size_t n, std::size_t limit);

/// Sets source/format and checks the dataset's invariants (a failure there is a loader bug).
Dataset finish(Dataset d, const std::string& path, Format format);

/// Result of parsing one text field as a number.
enum class FieldStatus { Ok, NotANumber, NonFinite };
/// Strict: the whole field must be a number ("+1", "1e-3", "7.0000"); nan/inf parse as NonFinite.
FieldStatus parseField(std::string_view text, double& value);

/// Splits on runs of spaces/tabs (and a trailing '\r').
void splitWhitespace(std::string_view line, std::vector<std::string_view>& out);

/// "line 12", "line 12, field 3".
std::string linePos(std::size_t line);
std::string fieldPos(std::size_t line, std::size_t field);

/// Parses a number field or throws NotANumber / NonFinite naming file, line, field and the text.
double numberOrThrow(std::string_view text, const std::string& file, std::size_t line, std::size_t field,
                     const std::string& what);

/// Reads a text file line by line, counting lines from 1.
class LineReader {
public:
    explicit LineReader(const std::string& path);
    /// The next line without its '\n' / "\r\n"; false at end of file.
    bool next(std::string& line);
    std::size_t lineNumber() const { return line_; }

private:
    std::ifstream in_;
    std::size_t line_ = 0;
};

/// Counts the non-blank lines of a text file (a cheap first pass to size the allocation).
std::size_t countNonBlankLines(const std::string& path);
bool isBlank(std::string_view line);

/// The unit of the data file's field `key` as its README states it: the README (README.md, README.txt
/// or README, at most 256 KiB) in the file's folder is read line by line; every line naming the field
/// in backquotes (`energy`) is searched for a known unit (kcal/mol, kJ/mol, eV, meV, Hartree, Ry, K).
/// Returns that unit when such lines name exactly one, else "" (no README, no such line, or two units).
std::string unitFromReadme(const std::string& dataPath, const std::string& key);

/// Labels 0..K-1 -> numClasses = max + 1; throws BadValue for negative labels.
int classCount(const std::vector<int>& labels);

} // namespace orbit::data

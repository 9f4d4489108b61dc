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
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace orbit::data {

[[noreturn]] void fail(LoadErrorKind kind, const std::string& file, const std::string& position,
                       const std::string& detail, const std::string& value = {});

/// Throws FileNotFound unless `path` exists, and NotAFile unless it is a regular file (checked
/// before opening it: opening a named pipe would block until something writes to it).
void requireFile(const std::string& path);
/// Throws FileNotFound unless `path` is an existing directory.
void requireDirectory(const std::string& path);
std::uintmax_t fileSize(const std::string& path);

/// Size and modification time of a path, to notice a file that changes while it is read.
struct FileStamp {
    bool regular = false;  ///< false: not a regular file (a folder); nothing to compare
    std::uintmax_t size = 0;
    long long mtimeNs = 0;
    bool operator==(const FileStamp&) const = default;
};
FileStamp stampOf(const std::string& path);
/// Throws Changed if `path` no longer has the stamp `before`.
void requireUnchanged(const std::string& path, const FileStamp& before);

/// "2.0 GiB" / "512 MiB" / "812 bytes".
std::string bytesText(std::uintmax_t bytes);

/// a * b * ... without overflow; returns SIZE_MAX if the product does not fit.
std::size_t checkedProduct(std::initializer_list<std::size_t> factors);

/// Throws TooLarge if rows x cols float32 values exceed `maxBytes` (or overflow); the message names
/// the sizes, the memory they need, the limit and the size of the file.
void checkFloatMemory(const std::string& file, const std::string& position, std::size_t rows, std::size_t cols,
                      std::size_t maxBytes);
/// Throws TooLarge if `bytes` (what `what` needs) exceed `maxBytes`, naming both and the file size.
void checkMemory(const std::string& file, const std::string& position, std::size_t bytes, std::size_t maxBytes,
                 const std::string& what);

/// The number of samples to keep: min(n, limit) when limit > 0.
std::size_t applyLimit(std::size_t n, std::size_t limit);

/// Sets source/format and checks the dataset's invariants (a failure there is a loader bug).
Dataset finish(Dataset d, const std::string& path, Format format);
/// The Dataset::held of a load of n samples with these options: empty when every row is wanted
/// (LoadOptions::rows unset or marking all n), else n entries.
std::vector<char> heldMask(const LoadOptions& options, std::size_t n);
/// How many of n samples a load with these options decodes (what its memory check counts).
std::size_t wantedCount(const LoadOptions& options, std::size_t n);

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

/// The longest line a text loader reads (a longer one is refused: a file without line breaks).
inline constexpr std::size_t kMaxLineBytes = std::size_t(64) << 20;

/// Reads a text file line by line, counting lines from 1. A line longer than kMaxLineBytes throws
/// TooLarge (memory follows the longest line, not the file). `progress` (may be empty) gets the
/// fraction of the file read after the first line and then about every MiB.
class LineReader {
public:
    explicit LineReader(const std::string& path, Progress progress = {});
    /// The next line without its '\n' / "\r\n"; false at end of file.
    bool next(std::string& line);
    std::size_t lineNumber() const { return line_; }

private:
    bool fill();
    std::string path_;
    std::ifstream in_;
    std::vector<char> buffer_;
    std::size_t pos_ = 0, end_ = 0;
    std::size_t line_ = 0;
    std::uintmax_t consumed_ = 0, size_ = 0, nextReport_ = 0;
    Progress progress_;
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

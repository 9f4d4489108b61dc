#include "data/LoaderSupport.hpp"

#include "orbit/util/SafeText.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

namespace orbit::data {

namespace fs = std::filesystem;

void fail(LoadErrorKind kind, const std::string& file, const std::string& position, const std::string& detail,
          const std::string& value)
{
    throw LoadError(kind, file, position, detail, value);
}

void requireFile(const std::string& path)
{
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) fail(LoadErrorKind::FileNotFound, path, {}, "no such file");
    if (fs::is_directory(status)) fail(LoadErrorKind::FileNotFound, path, {}, "is a directory, not a file");
    std::ifstream probe(path, std::ios::binary);
    if (!probe) fail(LoadErrorKind::FileNotFound, path, {}, "cannot be opened for reading");
}

void requireDirectory(const std::string& path)
{
    std::error_code ec;
    if (!fs::is_directory(path, ec)) fail(LoadErrorKind::FileNotFound, path, {}, "no such directory");
}

std::uintmax_t fileSize(const std::string& path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec) fail(LoadErrorKind::FileNotFound, path, {}, "cannot read the file size");
    return size;
}

std::size_t checkedProduct(std::initializer_list<std::size_t> factors)
{
    std::size_t p = 1;
    for (std::size_t f : factors)
        if (__builtin_mul_overflow(p, f, &p)) return std::numeric_limits<std::size_t>::max();
    return p;
}

void checkFloatMemory(const std::string& file, const std::string& position, std::size_t rows, std::size_t cols,
                      std::size_t maxBytes)
{
    const std::size_t bytes = checkedProduct({rows, cols, sizeof(float)});
    if (bytes > maxBytes)
        fail(LoadErrorKind::TooLarge, file, position,
             std::to_string(rows) + " samples x " + std::to_string(cols) + " values need more than the memory limit of " +
                 std::to_string(maxBytes) + " bytes",
             std::to_string(rows));
}

std::size_t applyLimit(std::size_t n, std::size_t limit) { return limit > 0 ? std::min(n, limit) : n; }

Dataset finish(Dataset d, const std::string& path, Format format)
{
    d.source = path;
    d.format = toString(format);
    // Names and units come from the file (a folder's name, a comment line's name=): escaped and cut
    // here once, so no view has to remember to.
    d.targetUnit = safeText(d.targetUnit, kQuoteMaxChars);
    for (auto* texts : {&d.classNames, &d.names})
        for (std::string& t : *texts) t = safeText(t, kQuoteMaxChars);
    d.checkInvariants();
    return d;
}

FieldStatus parseField(std::string_view text, double& value)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    if (text.empty()) return FieldStatus::NotANumber;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (*first == '+') ++first;
    if (first == last || *first == '+') return FieldStatus::NotANumber;
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ptr != last) return FieldStatus::NotANumber;
    if (ec == std::errc::result_out_of_range) return FieldStatus::NonFinite;
    if (ec != std::errc()) return FieldStatus::NotANumber;
    return std::isfinite(value) ? FieldStatus::Ok : FieldStatus::NonFinite;
}

void splitWhitespace(std::string_view line, std::vector<std::string_view>& out)
{
    out.clear();
    std::size_t i = 0;
    const std::size_t n = line.size();
    while (i < n) {
        while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        const std::size_t b = i;
        while (i < n && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
        if (i > b) out.push_back(line.substr(b, i - b));
    }
}

std::string linePos(std::size_t line) { return "line " + std::to_string(line); }
std::string fieldPos(std::size_t line, std::size_t field)
{
    return "line " + std::to_string(line) + ", field " + std::to_string(field);
}

double numberOrThrow(std::string_view text, const std::string& file, std::size_t line, std::size_t field,
                     const std::string& what)
{
    double v = 0;
    switch (parseField(text, v)) {
    case FieldStatus::Ok: return v;
    case FieldStatus::NonFinite:
        fail(LoadErrorKind::NonFinite, file, fieldPos(line, field), what + " is not finite", std::string(text));
    case FieldStatus::NotANumber:
        break;
    }
    fail(LoadErrorKind::NotANumber, file, fieldPos(line, field), what + " is not a number", std::string(text));
}

LineReader::LineReader(const std::string& path)
    : in_(path, std::ios::binary)
{
    if (!in_) fail(LoadErrorKind::FileNotFound, path, {}, "cannot be opened for reading");
}

bool LineReader::next(std::string& line)
{
    if (!std::getline(in_, line)) return false;
    ++line_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
}

bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

std::size_t countNonBlankLines(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(LoadErrorKind::FileNotFound, path, {}, "cannot be opened for reading");
    std::vector<char> buffer(1 << 20);
    std::size_t count = 0;
    bool lineHasContent = false;
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const std::size_t got = static_cast<std::size_t>(in.gcount());
        for (std::size_t i = 0; i < got; ++i) {
            const char c = buffer[i];
            if (c == '\n') {
                count += lineHasContent ? 1 : 0;
                lineHasContent = false;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                lineHasContent = true;
            }
        }
    }
    return count + (lineHasContent ? 1 : 0);
}

int classCount(const std::vector<int>& labels)
{
    int maxLabel = -1;
    for (int l : labels) {
        if (l < 0) throw std::logic_error("classCount: negative label");
        maxLabel = std::max(maxLabel, l);
    }
    return maxLabel + 1;
}

} // namespace orbit::data

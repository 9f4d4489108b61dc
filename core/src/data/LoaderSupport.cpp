#include "data/LoaderSupport.hpp"

#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
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
    // Before any open(): opening a named pipe blocks until a writer appears, which may be never.
    switch (status.type()) {
    case fs::file_type::regular: break;
    case fs::file_type::directory:
        fail(LoadErrorKind::NotAFile, path, {}, "is a directory, not a file (a folder of class sub-folders loads as format 'folder')");
    case fs::file_type::fifo:
        fail(LoadErrorKind::NotAFile, path, {}, "is a named pipe (FIFO), not a file: reading it would wait for a writer");
    case fs::file_type::socket: fail(LoadErrorKind::NotAFile, path, {}, "is a socket, not a file");
    case fs::file_type::character: fail(LoadErrorKind::NotAFile, path, {}, "is a character device, not a file");
    case fs::file_type::block: fail(LoadErrorKind::NotAFile, path, {}, "is a block device, not a file");
    default: fail(LoadErrorKind::NotAFile, path, {}, "is not a regular file");
    }
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

FileStamp stampOf(const std::string& path)
{
    FileStamp s;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return s;
    s.size = fs::file_size(path, ec);
    const auto t = fs::last_write_time(path, ec);
    if (ec) return {};
    s.mtimeNs = static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
    s.regular = true;
    return s;
}

void requireUnchanged(const std::string& path, const FileStamp& before)
{
    if (!before.regular) return;
    const FileStamp now = stampOf(path);
    if (now == before) return;
    const std::string what = !now.regular           ? "was removed or replaced"
                             : now.size != before.size ? "grew or shrank from " + std::to_string(before.size) + " to " +
                                                             std::to_string(now.size) + " bytes"
                                                       : "was modified";
    fail(LoadErrorKind::Changed, path, {},
         "the file " + what + " while it was read; it is probably still being written: load it again when it is complete");
}

std::string bytesText(std::uintmax_t bytes)
{
    char text[48];
    if (bytes >= (std::uintmax_t(1) << 30)) std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(1 << 30));
    else if (bytes >= (std::uintmax_t(1) << 20)) std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1 << 20));
    else std::snprintf(text, sizeof text, "%ju bytes", bytes);
    return text;
}

std::size_t checkedProduct(std::initializer_list<std::size_t> factors)
{
    std::size_t p = 1;
    for (std::size_t f : factors)
        if (__builtin_mul_overflow(p, f, &p)) return std::numeric_limits<std::size_t>::max();
    return p;
}

namespace {
/// " (the file is 2147483648 bytes, 2.0 GiB)", or "" for what is not a regular file.
std::string fileSizeNote(const std::string& file)
{
    std::error_code ec;
    if (file.empty() || !fs::is_regular_file(file, ec)) return {};
    const std::uintmax_t size = fs::file_size(file, ec);
    return ec ? std::string() : " (the file is " + std::to_string(size) + " bytes, " + bytesText(size) + ")";
}
} // namespace

void checkFloatMemory(const std::string& file, const std::string& position, std::size_t rows, std::size_t cols,
                      std::size_t maxBytes)
{
    const std::size_t bytes = checkedProduct({rows, cols, sizeof(float)});
    if (bytes > maxBytes)
        fail(LoadErrorKind::TooLarge, file, position,
             std::to_string(rows) + " samples x " + std::to_string(cols) + " values need " +
                 (bytes == SIZE_MAX ? std::string("more than 16 EiB")
                                    : std::to_string(bytes) + " bytes (" + bytesText(bytes) + ")") +
                 ", more than the memory limit of " + std::to_string(maxBytes) + " bytes (" + bytesText(maxBytes) + ")" +
                 fileSizeNote(file),
             std::to_string(rows));
}

void checkMemory(const std::string& file, const std::string& position, std::size_t bytes, std::size_t maxBytes,
                 const std::string& what)
{
    if (bytes > maxBytes)
        fail(LoadErrorKind::TooLarge, file, position,
             what + " need " + (bytes == SIZE_MAX ? std::string("more than 16 EiB")
                                                  : std::to_string(bytes) + " bytes (" + bytesText(bytes) + ")") +
                 ", more than the memory limit of " + std::to_string(maxBytes) +
                 " bytes (" + bytesText(maxBytes) + ")" + fileSizeNote(file),
             std::to_string(bytes));
}

std::size_t applyLimit(std::size_t n, std::size_t limit) { return limit > 0 ? std::min(n, limit) : n; }

std::vector<char> heldMask(const LoadOptions& options, std::size_t n)
{
    if (!options.rows) return {};
    std::vector<char> held(n, 0);
    bool all = true;
    for (std::size_t i = 0; i < n; ++i) {
        held[i] = i < options.rows->size() && (*options.rows)[i] ? 1 : 0;
        all = all && held[i];
    }
    if (all) held.clear();
    return held;
}

std::size_t wantedCount(const LoadOptions& options, std::size_t n)
{
    if (!options.rows) return n;
    std::size_t wanted = 0;
    for (std::size_t i = 0; i < n && i < options.rows->size(); ++i) wanted += (*options.rows)[i] ? 1 : 0;
    return wanted;
}

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

LineReader::LineReader(const std::string& path, Progress progress)
    : path_(path), in_(path, std::ios::binary), buffer_(std::size_t(1) << 16), progress_(std::move(progress))
{
    if (!in_) fail(LoadErrorKind::FileNotFound, path, {}, "cannot be opened for reading");
    std::error_code ec;
    size_ = fs::file_size(path, ec);
    if (ec) size_ = 0;
}

bool LineReader::fill()
{
    if (!in_) return false;
    in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    pos_ = 0;
    end_ = static_cast<std::size_t>(in_.gcount());
    return end_ > 0;
}

bool LineReader::next(std::string& line)
{
    line.clear();
    bool any = false;
    for (;;) {
        if (pos_ == end_ && !fill()) break;
        any = true;
        const char* begin = buffer_.data() + pos_;
        const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', end_ - pos_));
        const std::size_t take = nl ? static_cast<std::size_t>(nl - begin) : end_ - pos_;
        if (line.size() + take > kMaxLineBytes)
            fail(LoadErrorKind::TooLarge, path_, linePos(line_ + 1),
                 "the line is longer than " + bytesText(kMaxLineBytes) + " (the file is " + std::to_string(size_) +
                     " bytes, " + bytesText(size_) + "): not a text file with one record per line");
        line.append(begin, take);
        pos_ += take;
        consumed_ += take;
        if (nl) {
            ++pos_;
            ++consumed_;
            break;
        }
    }
    if (!any) return false;
    ++line_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (progress_ && consumed_ >= nextReport_) {
        nextReport_ = consumed_ + (std::uintmax_t(1) << 20);
        reportProgress(progress_, size_ > 0 ? std::min(1.0, double(consumed_) / double(size_)) : 1.0, "reading " + path_);
    }
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
        if (l < 0) throw ContractError("classCount", "negative label " + std::to_string(l));
        maxLabel = std::max(maxLabel, l);
    }
    return maxLabel + 1;
}

} // namespace orbit::data

namespace orbit {

namespace {
/// The first number of a small text file (a /proc or cgroup entry), or nullopt ("max", absent).
std::optional<std::uintmax_t> numberIn(const char* path, const char* key = nullptr)
{
    std::ifstream in(path);
    std::string word;
    if (!key) {
        if (in >> word) {
            if (const auto v = parseInteger(word); v && *v >= 0) return static_cast<std::uintmax_t>(*v);
        }
        return std::nullopt;
    }
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) {
            std::istringstream fields(line.substr(std::strlen(key)));
            long long kb = 0;
            if (fields >> kb && kb >= 0) return static_cast<std::uintmax_t>(kb) * 1024;
        }
    return std::nullopt;
}
} // namespace

std::size_t loadMemoryLimit(std::size_t maxBytes)
{
    std::optional<std::uintmax_t> available = numberIn("/proc/meminfo", "MemAvailable:");
    const auto cgroupMax = numberIn("/sys/fs/cgroup/memory.max");
    const auto cgroupUsed = numberIn("/sys/fs/cgroup/memory.current");
    if (cgroupMax && cgroupUsed) {
        const std::uintmax_t left = *cgroupMax > *cgroupUsed ? *cgroupMax - *cgroupUsed : 0;
        available = available ? std::min(*available, left) : left;
    }
    if (!available) return maxBytes;  // not Linux: the configured limit only
    return static_cast<std::size_t>(std::min<std::uintmax_t>(maxBytes, *available / 2));
}

} // namespace orbit

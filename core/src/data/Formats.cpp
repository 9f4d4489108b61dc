// Format names, detection (magic bytes first, then the extension, then a look at text content)
// and the dispatching loadDataset.
#include "data/ByteSource.hpp"
#include "data/LoaderSupport.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace orbit {

using namespace orbit::data;
namespace fs = std::filesystem;

namespace {

struct FormatName {
    Format format;
    const char* name;
};
constexpr FormatName kNames[] = {{Format::Auto, "auto"},          {Format::Idx, "idx"},
                                 {Format::Cifar, "cifar"},        {Format::Amat, "amat"},
                                 {Format::Image, "image"},        {Format::ImageFolder, "folder"},
                                 {Format::DigitsSheet, "digits"}, {Format::Mat, "mat"},
                                 {Format::ExtXyz, "extxyz"},      {Format::Csv, "csv"}};

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

bool startsWith(const std::vector<std::uint8_t>& b, std::initializer_list<int> magic)
{
    if (b.size() < magic.size()) return false;
    std::size_t i = 0;
    for (int m : magic)
        if (b[i++] != m) return false;
    return true;
}

bool isImageMagic(const std::vector<std::uint8_t>& b)
{
    return startsWith(b, {0x89, 'P', 'N', 'G'}) || startsWith(b, {0xFF, 0xD8, 0xFF}) || startsWith(b, {'B', 'M'}) ||
           startsWith(b, {'I', 'I', 0x2A, 0x00}) || startsWith(b, {'M', 'M', 0x00, 0x2A}) ||
           (b.size() >= 12 && startsWith(b, {'R', 'I', 'F', 'F'}) && std::memcmp(b.data() + 8, "WEBP", 4) == 0) ||
           (b.size() >= 3 && b[0] == 'P' && b[1] >= '1' && b[1] <= '6' && std::isspace(b[2]));
}

/// A 2000 x 1000 greyscale PNG: the shape of OpenCV's digits sheet (from the IHDR chunk).
bool isDigitsSheetPng(const std::vector<std::uint8_t>& b)
{
    if (b.size() < 26 || !startsWith(b, {0x89, 'P', 'N', 'G'})) return false;
    return bigEndian32(b.data() + 16) == 2000 && bigEndian32(b.data() + 20) == 1000 && b[25] == 0;
}

/// An IDX images/labels header whose sizes match the (uncompressed) file size exactly.
bool isConsistentIdx(const std::vector<std::uint8_t>& b, std::uintmax_t size)
{
    if (startsWith(b, {0, 0, 8, 3}) && b.size() >= 16) {
        const std::size_t bytes = checkedProduct({bigEndian32(b.data() + 4), bigEndian32(b.data() + 8), bigEndian32(b.data() + 12)});
        return bytes != SIZE_MAX && bytes + 16 == size;
    }
    if (startsWith(b, {0, 0, 8, 1}) && b.size() >= 8) return std::uintmax_t(bigEndian32(b.data() + 4)) + 8 == size;
    return false;
}

Format fromExtension(const std::string& path)
{
    const fs::path p(path);
    const std::string name = lower(p.filename().string());
    const std::string ext = lower(p.extension().string());
    auto endsWith = [&](const char* s) {
        const std::size_t k = std::strlen(s);
        return name.size() >= k && name.compare(name.size() - k, k, s) == 0;
    };
    if (endsWith("-ubyte") || endsWith("-ubyte.gz") || ext == ".idx" || endsWith(".idx.gz")) return Format::Idx;
    if (ext == ".bin") return Format::Cifar;
    if (ext == ".amat") return Format::Amat;
    if (ext == ".mat") return Format::Mat;
    if (ext == ".extxyz" || ext == ".xyz") return Format::ExtXyz;
    if (ext == ".csv" || ext == ".tsv") return Format::Csv;
    if (name == "digits.png") return Format::DigitsSheet;
    static const char* kImage[] = {".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".ppm", ".pbm", ".pnm", ".tif", ".tiff", ".webp"};
    if (std::any_of(std::begin(kImage), std::end(kImage), [&](const char* e) { return ext == e; })) return Format::Image;
    return Format::Auto;
}

/// A look at the first lines of a text file: XYZ (count line + energy= comment), Larochelle .amat
/// (785 whitespace-separated numbers) or CSV (separated numbers).
Format fromText(const std::string& path)
{
    // Only the head of the file: a binary file without newlines must not be read whole.
    std::string head(std::size_t(1) << 18, '\0');
    {
        std::ifstream in(path, std::ios::binary);
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
    }
    std::vector<std::string> lines;
    for (std::size_t b = 0; b < head.size() && lines.size() < 2;) {
        const std::size_t e = std::min(head.find('\n', b), head.size());
        std::string line = head.substr(b, e - b);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!lines.empty() || !isBlank(line)) lines.push_back(std::move(line));
        b = e + 1;
    }
    lines.resize(2);
    const std::string& first = lines[0];
    const std::string& second = lines[1];
    std::vector<std::string_view> fields;
    splitWhitespace(first, fields);
    if (fields.size() == 1 && parseInteger(std::string(fields[0])) && second.find("energy=") != std::string::npos)
        return Format::ExtXyz;
    double v = 0;
    const bool numericWords = !fields.empty() && std::all_of(fields.begin(), fields.end(), [&](std::string_view f) {
        return parseField(f, v) != FieldStatus::NotANumber;
    });
    if (numericWords && fields.size() == 785) return Format::Amat;
    if (first.find_first_of(",;\t") != std::string::npos) return Format::Csv;
    return Format::Auto;
}

} // namespace

const char* toString(Format format)
{
    for (const auto& n : kNames)
        if (n.format == format) return n.name;
    return "unknown";
}

Format parseFormat(const std::string& name)
{
    const std::string key = lower(trim(name));
    for (const auto& n : kNames)
        if (key == n.name) return n.format;
    throw SpecError("format", "unknown format; expected one of auto, idx, cifar, amat, image, folder, digits, mat, extxyz, csv",
                    name);
}

Format detectFormat(const std::string& path)
{
    std::error_code ec;
    if (!fs::exists(path, ec)) fail(LoadErrorKind::FileNotFound, path, {}, "no such file or directory");
    if (fs::is_directory(path, ec)) return Format::ImageFolder;
    requireFile(path);

    std::vector<std::uint8_t> raw(32);
    {
        std::ifstream in(path, std::ios::binary);
        in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size()));
        raw.resize(static_cast<std::size_t>(in.gcount()));
    }
    const Format byName = fromExtension(path);
    if (startsWith(raw, {0x1f, 0x8b})) {
        const auto inner = peekBytes(path, 4);
        if (startsWith(inner, {0, 0, 8, 3}) || startsWith(inner, {0, 0, 8, 1})) return Format::Idx;
        if (byName == Format::Idx) return Format::Idx;
        fail(LoadErrorKind::UnknownFormat, path, {}, "a gzip file that does not hold IDX data");
    }
    if (raw.size() >= 6 && std::memcmp(raw.data(), "MATLAB", 6) == 0) return Format::Mat;
    if (isImageMagic(raw)) {
        if (byName == Format::DigitsSheet || isDigitsSheetPng(raw)) return Format::DigitsSheet;
        return Format::Image;
    }
    if (isConsistentIdx(raw, fileSize(path))) return Format::Idx;
    if (byName != Format::Auto) return byName;
    if (startsWith(raw, {0, 0, 8, 3}) || startsWith(raw, {0, 0, 8, 1})) return Format::Idx;
    const Format byText = fromText(path);
    if (byText != Format::Auto) return byText;
    fail(LoadErrorKind::UnknownFormat, path, {},
         "neither the content nor the extension identifies a supported format (idx, cifar, amat, image, folder, digits, "
         "mat, extxyz, csv); choose the format explicitly");
}

namespace {
Dataset dispatch(const std::string& path, Format format, const LoadOptions& options)
{
    switch (format) {
    case Format::Idx: return loadIdx(path, options);
    case Format::Cifar: return loadCifar(path, options);
    case Format::Amat: return loadAmat(path, options);
    case Format::Image: return loadImage(path, options);
    case Format::ImageFolder: return loadImageFolder(path, options);
    case Format::DigitsSheet: return loadDigitsSheet(path, options);
    case Format::Mat: return loadMat(path, options);
    case Format::ExtXyz: return loadExtXyz(path, options);
    case Format::Csv: return loadCsv(path, options);
    case Format::Auto: break;
    }
    fail(LoadErrorKind::UnknownFormat, path, {}, "no loader for this format");
}
} // namespace

Dataset loadDataset(const std::string& path, const LoadOptions& options)
{
    const FileStamp before = stampOf(path);
    const Format format = options.format == Format::Auto ? detectFormat(path) : options.format;
    LoadOptions o = options;
    o.maxBytes = loadMemoryLimit(options.maxBytes);
    try {
        Dataset d = dispatch(path, format, o);
        requireUnchanged(path, before);
        if (options.rows && d.holdsAll()) {
            // A loader that reads every row anyway: the rows not wanted go back now.
            d.held = heldMask(options, d.count());
            releaseRows(d.X, d.held);
        }
        return d;
    } catch (const LoadError& e) {
        // A file still being written fails in odd places (a truncated record, a ragged last line):
        // say what happened rather than what it looked like.
        if (e.kind() != LoadErrorKind::Changed) requireUnchanged(path, before);
        throw;
    }
}

} // namespace orbit

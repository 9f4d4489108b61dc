// MNIST IDX: big-endian header (magic 0x00000803 + N, rows, cols for images; 0x00000801 + N for
// labels), then unsigned bytes. Raw or gzip-compressed.
#include "data/ByteSource.hpp"
#include "data/LoaderSupport.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

namespace orbit {

using namespace orbit::data;

namespace {

constexpr std::uint32_t kImagesMagic = 0x00000803;
constexpr std::uint32_t kLabelsMagic = 0x00000801;

std::string hex(std::uint32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

/// Reads the magic number and `rank` big-endian dimensions.
std::vector<std::size_t> readHeader(ByteSource& src, std::uint32_t expectedMagic, std::size_t rank, const char* what)
{
    std::uint8_t head[16] = {};
    const std::size_t want = 4 + 4 * rank;
    const std::size_t got = src.read(head, want);
    if (got < 4) fail(LoadErrorKind::Truncated, src.path(), "header", std::string("the file ends inside the IDX header of the ") + what);
    const std::uint32_t magic = bigEndian32(head);
    if (magic != expectedMagic) {
        std::string detail = std::string("not an IDX ") + what + " file: the magic number should be " + hex(expectedMagic);
        if (magic == kLabelsMagic) detail += " (this is an IDX labels file)";
        if (magic == kImagesMagic) detail += " (this is an IDX images file)";
        fail(LoadErrorKind::BadMagic, src.path(), "header", detail, hex(magic));
    }
    if (got < want) fail(LoadErrorKind::Truncated, src.path(), "header", std::string("the file ends inside the IDX header of the ") + what);
    std::vector<std::size_t> dims(rank);
    for (std::size_t i = 0; i < rank; ++i) dims[i] = bigEndian32(head + 4 + 4 * i);
    return dims;
}

/// For a raw file: throws unless its size is exactly the header plus the promised records.
void checkRawSize(ByteSource& src, std::size_t headerBytes, std::size_t promised, std::size_t recordBytes, const char* what)
{
    const std::size_t promisedBytes = checkedProduct({promised, recordBytes});
    if (!src.compressed()) {
        const std::uintmax_t available = fileSize(src.path()) - headerBytes;
        if (available < promisedBytes)
            fail(LoadErrorKind::Truncated, src.path(), std::string(what) + " " + std::to_string(available / recordBytes),
                 "the header promises " + std::to_string(promised) + " " + what + "s (" + std::to_string(promisedBytes) +
                     " bytes) but the file holds only " + std::to_string(available) + " bytes after the header",
                 std::to_string(promised));
        if (available > promisedBytes)
            fail(LoadErrorKind::BadShape, src.path(), "byte " + std::to_string(headerBytes + promisedBytes),
                 std::to_string(available - promisedBytes) + " bytes follow the " + std::to_string(promised) + " " + what +
                     "s the header promises",
                 std::to_string(promised));
    }
}

/// Reads `keep` of the `promised` records of `recordBytes` each that follow a header of
/// `headerBytes`, checking the promise against the file size (raw) or the bytes delivered (gzip),
/// and hands them to `sink(bytes, first record, records)` in chunks of about 16 MiB of whole records
/// (so memory holds one chunk, not a copy of the file). `progress` (may be empty) after each chunk.
void readRecords(ByteSource& src, std::size_t headerBytes, std::size_t promised, std::size_t keep,
                 std::size_t recordBytes, const char* what, const Progress& progress,
                 const std::function<void(const std::uint8_t*, std::size_t, std::size_t)>& sink,
                 const std::vector<char>& wanted = {})
{
    checkRawSize(src, headerBytes, promised, recordBytes, what);
    const std::size_t promisedBytes = checkedProduct({promised, recordBytes});
    const std::size_t perChunk = std::max<std::size_t>(1, (std::size_t(16) << 20) / recordBytes);
    // A raw file (its size checked above) moves over the runs of records not wanted; a compressed
    // one is read through, and the sink sees every record.
    const bool skips = !src.compressed() && !wanted.empty();
    std::vector<std::uint8_t> bytes;
    std::size_t got = 0;
    for (std::size_t first = 0; first < keep;) {
        std::size_t records = std::min(perChunk, keep - first);
        if (skips) {
            const bool want = wanted[first] != 0;
            std::size_t end = first + 1;
            while (end < first + records && (wanted[end] != 0) == want) ++end;
            records = end - first;
            if (!want) {
                src.skip(records * recordBytes);
                got += records * recordBytes;
                first = end;
                continue;
            }
        }
        const std::size_t delivered = src.readInto(bytes, records * recordBytes);
        got += delivered;
        if (delivered < records * recordBytes)
            fail(LoadErrorKind::Truncated, src.path(), std::string(what) + " " + std::to_string(got / recordBytes),
                 "the header promises " + std::to_string(promised) + " " + what + "s but the data ends after " +
                     std::to_string(got) + " bytes",
                 std::to_string(promised));
        sink(bytes.data(), first, records);
        reportProgress(progress, double(first + records) / double(keep), "reading " + src.path());
        first += records;
    }
    if (src.compressed() && keep == promised) {
        std::uint8_t extra = 0;
        if (src.read(&extra, 1) == 1)
            fail(LoadErrorKind::BadShape, src.path(), "byte " + std::to_string(headerBytes + promisedBytes),
                 "data follows the " + std::to_string(promised) + " " + what + "s the header promises",
                 std::to_string(promised));
    }
}

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The labels file next to an images file by the standard MNIST names, or "" if there is none.
std::string findLabels(const std::string& imagesPath)
{
    namespace fs = std::filesystem;
    const fs::path p(imagesPath);
    std::string name = p.filename().string();
    const bool gz = endsWith(name, ".gz");
    if (gz) name.resize(name.size() - 3);
    static const std::pair<const char*, const char*> kNames[] = {{"images-idx3-ubyte", "labels-idx1-ubyte"},
                                                                 {"images.idx3-ubyte", "labels.idx1-ubyte"}};
    for (const auto& [from, to] : kNames) {
        if (!endsWith(name, from)) continue;
        const std::string base = name.substr(0, name.size() - std::string(from).size()) + to;
        for (const std::string& candidate : {base + (gz ? ".gz" : ""), base + (gz ? "" : ".gz")}) {
            const fs::path c = p.parent_path() / candidate;
            std::error_code ec;
            if (fs::is_regular_file(c, ec)) return c.string();
        }
    }
    return {};
}

/// The class names of Fashion-MNIST (Xiao, Rasul & Vollgraf 2017), label 0 to 9, as in the
/// dataset's README (Debian: /usr/share/doc/dataset-fashion-mnist/README.md.gz).
const std::vector<std::string> kFashionNames = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};

/// Fashion-MNIST ships under the MNIST file names and no file holds its class names, so the files
/// cannot tell it from MNIST; where it lives can: the Debian package dataset-fashion-mnist installs
/// it in /usr/share/datasets/fashion-mnist and the upstream repository in data/fashion. True when
/// the file name or its folder's name contains "fashion" (any case).
bool looksLikeFashion(const std::string& imagesPath)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p = fs::absolute(fs::path(imagesPath), ec);
    if (ec) p = fs::path(imagesPath);
    for (std::string name : {p.filename().string(), p.parent_path().filename().string()}) {
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (name.find("fashion") != std::string::npos) return true;
    }
    return false;
}

} // namespace

Dataset loadIdx(const std::string& path, const LoadOptions& options)
{
    requireFile(path);
    ByteSource images(path);
    const auto dims = readHeader(images, kImagesMagic, 3, "images");
    const std::size_t n = dims[0], rows = dims[1], cols = dims[2];
    if (n == 0) fail(LoadErrorKind::Empty, path, "header", "the header promises no images", "0");
    if (rows == 0 || cols == 0 || rows > 65536 || cols > 65536)
        fail(LoadErrorKind::BadShape, path, "header", "image size must be between 1 and 65536 pixels a side",
             std::to_string(rows) + "x" + std::to_string(cols));
    const std::size_t keep = applyLimit(n, options.limit);
    const std::size_t pixels = rows * cols;
    checkFloatMemory(path, "header", wantedCount(options, keep), pixels, options.maxBytes);

    // Labels first (small): a mismatch is reported before the big read.
    std::vector<int> labels;
    const std::string labelsPath = options.labels.empty() ? findLabels(path) : options.labels;
    if (!labelsPath.empty()) {
        requireFile(labelsPath);
        ByteSource lsrc(labelsPath);
        const auto ldims = readHeader(lsrc, kLabelsMagic, 1, "labels");
        if (ldims[0] != n)
            fail(LoadErrorKind::CountMismatch, labelsPath, "header",
                 std::to_string(ldims[0]) + " labels for the " + std::to_string(n) + " images of " + path,
                 std::to_string(ldims[0]));
        labels.resize(keep);
        readRecords(lsrc, 8, n, keep, 1, "label", {}, [&](const std::uint8_t* bytes, std::size_t first, std::size_t count) {
            std::copy(bytes, bytes + count, labels.begin() + static_cast<std::ptrdiff_t>(first));
        });
    }

    Dataset d;
    d.kind = DataKind::Images;
    d.shape = {static_cast<int>(rows), static_cast<int>(cols), 1};
    const auto toFloats = [](const std::uint8_t* bytes, std::size_t count, float* out) {
        for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(bytes[i]) / 255.0f;
    };
    if (images.compressed()) {
        // The header's promise is unverified until the data arrives: memory follows the bytes
        // actually delivered, and the floats are allocated once they all have.
        // Only the rows wanted are kept (LoadOptions::rows), in order.
        d.held = heldMask(options, keep);
        std::vector<std::uint8_t> raw;
        readRecords(images, 16, n, keep, pixels, "image", options.progress,
                    [&](const std::uint8_t* bytes, std::size_t first, std::size_t count) {
                        if (d.holdsAll()) {
                            raw.insert(raw.end(), bytes, bytes + count * pixels);
                            return;
                        }
                        for (std::size_t i = 0; i < count; ++i)
                            if (d.holds(first + i))
                                raw.insert(raw.end(), bytes + i * pixels, bytes + (i + 1) * pixels);
                    });
        d.X.resize(static_cast<Eigen::Index>(keep), static_cast<Eigen::Index>(pixels));
        releaseRows(d.X, d.held);
        const std::uint8_t* next = raw.data();
        for (std::size_t r = 0; r < keep; ++r)
            if (d.holds(r)) {
                toFloats(next, pixels, d.X.data() + r * pixels);
                next += pixels;
            }
    } else {
        // The file size matches the header: the floats are allocated once and filled chunk by chunk.
        checkRawSize(images, 16, n, pixels, "image");
        d.X.resize(static_cast<Eigen::Index>(keep), static_cast<Eigen::Index>(pixels));
        d.held = heldMask(options, keep);
        releaseRows(d.X, d.held);
        readRecords(
            images, 16, n, keep, pixels, "image", options.progress,
            [&](const std::uint8_t* bytes, std::size_t first, std::size_t count) {
                for (std::size_t i = 0; i < count; ++i)
                    if (d.holds(first + i)) toFloats(bytes + i * pixels, pixels, d.X.data() + (first + i) * pixels);
            },
            d.held);
    }
    if (!labels.empty()) {
        d.numClasses = classCount(labels);
        d.labels = std::move(labels);
        if (d.numClasses <= int(kFashionNames.size()) && looksLikeFashion(path))
            d.classNames.assign(kFashionNames.begin(), kFashionNames.begin() + d.numClasses);
    }
    return finish(std::move(d), path, Format::Idx);
}

} // namespace orbit

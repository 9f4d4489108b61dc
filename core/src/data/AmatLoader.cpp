// Larochelle .amat (rotated MNIST and friends): one sample per line, 784 whitespace-separated
// floats then the label as a float (e.g. 7.0000). The images are stored column-major (transposed);
// they are transposed back so digits stand upright.
#include "data/LoaderSupport.hpp"

#include <cmath>

namespace orbit {

using namespace orbit::data;

namespace {
constexpr int kAmatSide = 28;
constexpr std::size_t kAmatPixels = kAmatSide * kAmatSide;
constexpr std::size_t kFields = kAmatPixels + 1;
} // namespace

Dataset loadAmat(const std::string& path, const LoadOptions& options)
{
    requireFile(path);
    const std::size_t lines = countNonBlankLines(path);
    if (lines == 0) fail(LoadErrorKind::Empty, path, {}, "the file has no data lines");
    const std::size_t n = applyLimit(lines, options.limit);
    checkFloatMemory(path, {}, n, kAmatPixels, options.maxBytes);

    Dataset d;
    d.kind = DataKind::Images;
    d.shape = {kAmatSide, kAmatSide, 1};
    d.X.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(kAmatPixels));
    d.labels.resize(n);

    LineReader reader(path, options.progress);
    std::string line;
    std::vector<std::string_view> fields;
    std::size_t row = 0;
    while (row < n && reader.next(line)) {
        if (isBlank(line)) continue;
        const std::size_t at = reader.lineNumber();
        splitWhitespace(line, fields);
        if (fields.size() != kFields)
            fail(LoadErrorKind::Ragged, path, linePos(at),
                 "expected 785 fields (784 pixels and a label), found " + std::to_string(fields.size()),
                 std::to_string(fields.size()));
        float* x = d.X.data() + row * kAmatPixels;
        for (std::size_t f = 0; f < kAmatPixels; ++f) {
            const double v = numberOrThrow(fields[f], path, at, f + 1, "pixel");
            if (v < 0.0 || v > 1.0)
                fail(LoadErrorKind::BadValue, path, fieldPos(at, f + 1), "pixel outside [0, 1]", std::string(fields[f]));
            // Stored column-major: field f = c * 28 + r holds pixel (r, c).
            const std::size_t r = f % kAmatSide, c = f / kAmatSide;
            x[r * kAmatSide + c] = static_cast<float>(v);
        }
        const double label = numberOrThrow(fields[kAmatPixels], path, at, kFields, "label");
        if (label < 0 || label >= 1000 || label != std::floor(label))
            fail(LoadErrorKind::BadValue, path, fieldPos(at, kFields), "the label must be an integer in [0, 1000)",
                 std::string(fields[kAmatPixels]));
        d.labels[row] = static_cast<int>(label);
        ++row;
    }
    if (row != n) fail(LoadErrorKind::Changed, path, linePos(reader.lineNumber()), "the file changed while it was read");
    d.numClasses = classCount(d.labels);
    return finish(std::move(d), path, Format::Amat);
}

} // namespace orbit

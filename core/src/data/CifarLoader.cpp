// CIFAR-10 binary batches: records of 1 label byte + 3072 pixel bytes (1024 R, 1024 G, 1024 B
// planes, each 32 x 32 row-major). Stored as interleaved HWC RGB in [0, 1].
#include "data/LoaderSupport.hpp"

#include <fstream>

namespace orbit {

using namespace orbit::data;

namespace {
constexpr std::size_t kSide = 32;
constexpr std::size_t kPlane = kSide * kSide;
constexpr std::size_t kRecord = 1 + 3 * kPlane;  // 3073
constexpr int kClasses = 10;
const std::vector<std::string> kClassNames = {"airplane", "automobile", "bird", "cat", "deer",
                                              "dog", "frog", "horse", "ship", "truck"};
} // namespace

Dataset loadCifar(const std::string& path, const LoadOptions& options)
{
    requireFile(path);
    const std::uintmax_t size = fileSize(path);
    if (size == 0) fail(LoadErrorKind::Empty, path, {}, "the file is empty");
    if (size % kRecord != 0)
        fail(LoadErrorKind::Truncated, path, "record " + std::to_string(size / kRecord),
             "a CIFAR-10 batch is a sequence of 3073-byte records; the last record has only " +
                 std::to_string(size % kRecord) + " bytes",
             std::to_string(size));
    const std::size_t n = applyLimit(static_cast<std::size_t>(size / kRecord), options.limit);
    checkFloatMemory(path, {}, wantedCount(options, n), 3 * kPlane, options.maxBytes);

    std::ifstream in(path, std::ios::binary);
    Dataset d;
    d.kind = DataKind::Images;
    d.shape = {static_cast<int>(kSide), static_cast<int>(kSide), 3};
    d.X.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(3 * kPlane));
    d.held = heldMask(options, n);
    releaseRows(d.X, d.held);
    d.labels.resize(n);
    std::vector<unsigned char> record(kRecord);
    for (std::size_t r = 0; r < n; ++r) {
        in.read(reinterpret_cast<char*>(record.data()), kRecord);
        if (static_cast<std::size_t>(in.gcount()) != kRecord)
            fail(LoadErrorKind::Truncated, path, "record " + std::to_string(r), "the file ended while reading");
        if (record[0] >= kClasses)
            fail(LoadErrorKind::BadValue, path, "record " + std::to_string(r),
                 "the label byte must be below 10 (is this a CIFAR-100 file?)", std::to_string(record[0]));
        d.labels[r] = record[0];
        if (!d.holds(r)) continue;
        float* x = d.X.data() + r * 3 * kPlane;
        const unsigned char* planes = record.data() + 1;
        for (std::size_t p = 0; p < kPlane; ++p)
            for (std::size_t c = 0; c < 3; ++c) x[3 * p + c] = static_cast<float>(planes[c * kPlane + p]) / 255.0f;
    }
    d.numClasses = kClasses;
    d.classNames = kClassNames;
    return finish(std::move(d), path, Format::Cifar);
}

} // namespace orbit

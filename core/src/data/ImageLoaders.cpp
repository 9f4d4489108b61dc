// Image files through OpenCV: one image, a folder of class sub-folders, and OpenCV's digits sheet.
// Colour images are stored as interleaved RGB (HWC), grey ones with one channel, values in [0, 1].
#include "data/LoaderSupport.hpp"
#include "data/SilentDecoders.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace orbit {

using namespace orbit::data;
namespace fs = std::filesystem;

namespace {

/// Decodes an image file into CV_32F with 1 or 3 (RGB) channels in [0, 1].
cv::Mat readImage(const std::string& path, std::size_t maxBytes)
{
    requireFile(path);
    if (fileSize(path) == 0) fail(LoadErrorKind::UnreadableImage, path, {}, "the image file is empty");
    // PNG and JPEG through their libraries with silent handlers (no library line on the terminal);
    // the other formats through OpenCV.
    cv::Mat raw;
    if (std::optional<cv::Mat> decoded = decodeSilently(path, maxBytes)) {
        raw = std::move(*decoded);
    } else {
        try {
            raw = cv::imread(path, cv::IMREAD_UNCHANGED);
        } catch (const cv::Exception& e) {
            fail(LoadErrorKind::UnreadableImage, path, {}, std::string("OpenCV could not decode the image: ") + e.what());
        }
    }
    if (raw.empty()) fail(LoadErrorKind::UnreadableImage, path, {}, "OpenCV could not decode the image");
    checkFloatMemory(path, {}, 1, checkedProduct({std::size_t(raw.rows), std::size_t(raw.cols), 3}), maxBytes);

    cv::Mat colour;
    switch (raw.channels()) {
    case 1: colour = raw; break;
    case 2: cv::extractChannel(raw, colour, 0); break;  // grey + alpha: drop alpha
    case 3: cv::cvtColor(raw, colour, cv::COLOR_BGR2RGB); break;
    case 4: cv::cvtColor(raw, colour, cv::COLOR_BGRA2RGB); break;
    default:
        fail(LoadErrorKind::BadShape, path, {}, "unsupported number of channels", std::to_string(raw.channels()));
    }
    double scale = 1.0;
    switch (colour.depth()) {
    case CV_8U: scale = 1.0 / 255.0; break;
    case CV_16U: scale = 1.0 / 65535.0; break;
    case CV_32F:
    case CV_64F: scale = 1.0; break;
    default:
        fail(LoadErrorKind::UnreadableImage, path, {}, "unsupported pixel depth", std::to_string(colour.depth()));
    }
    cv::Mat f;
    colour.convertTo(f, CV_MAKETYPE(CV_32F, colour.channels()), scale);
    if (!cv::checkRange(f, true, nullptr, 0.0, 1.0 + 1e-6))
        fail(LoadErrorKind::BadValue, path, {}, "floating-point image values must lie in [0, 1]");
    cv::min(f, 1.0, f);
    return f.isContinuous() ? f : f.clone();
}

std::string describe(const cv::Mat& m)
{
    return std::to_string(m.rows) + "x" + std::to_string(m.cols) + "x" + std::to_string(m.channels());
}

void copyInto(Dataset& d, std::size_t row, const cv::Mat& img)
{
    std::copy_n(img.ptr<float>(0), d.X.cols(), d.X.data() + row * static_cast<std::size_t>(d.X.cols()));
}

bool isImageFile(const fs::path& p)
{
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    static const char* kExt[] = {".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".ppm", ".pbm", ".pnm",
                                 ".tif", ".tiff", ".webp"};
    return std::any_of(std::begin(kExt), std::end(kExt), [&](const char* e) { return ext == e; });
}

bool hidden(const fs::path& p) { return p.filename().string().starts_with("."); }

/// Sorted image files directly inside `dir`.
std::vector<fs::path> imagesIn(const fs::path& dir)
{
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && !hidden(e.path()) && isImageFile(e.path())) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

Dataset loadImage(const std::string& path, const LoadOptions& options)
{
    const cv::Mat img = readImage(path, options.maxBytes);
    Dataset d;
    d.kind = DataKind::Images;
    d.shape = {img.rows, img.cols, img.channels()};
    d.X.resize(1, d.shape.dim());
    copyInto(d, 0, img);
    return finish(std::move(d), path, Format::Image);
}

std::vector<float> loadImageAsInput(const std::string& path, const Shape& shape, std::string* note)
{
    if (shape.height < 1 || shape.width < 1 || (shape.channels != 1 && shape.channels != 3))
        throw ContractError("loadImageAsInput", "an image input has 1 or 3 channels and a positive size");
    cv::Mat img = readImage(path, LoadOptions{}.maxBytes);
    const std::string was = describe(img);
    std::string changed;
    if (img.channels() == 3 && shape.channels == 1) {
        cv::Mat grey;
        cv::cvtColor(img, grey, cv::COLOR_RGB2GRAY);
        img = grey;
        changed = "made grey";
    } else if (img.channels() == 1 && shape.channels == 3) {
        cv::Mat rgb;
        cv::cvtColor(img, rgb, cv::COLOR_GRAY2RGB);
        img = rgb;
        changed = "grey repeated in R, G and B";
    }
    if (img.rows != shape.height || img.cols != shape.width) {
        const bool shrink = img.rows * img.cols > shape.height * shape.width;
        cv::Mat resized;
        cv::resize(img, resized, cv::Size(shape.width, shape.height), 0, 0, shrink ? cv::INTER_AREA : cv::INTER_LINEAR);
        img = resized;
        changed += std::string(changed.empty() ? "" : ", ") + "scaled to " + std::to_string(shape.height) + "x" +
                   std::to_string(shape.width);
    }
    if (!img.isContinuous()) img = img.clone();
    if (note) *note = changed.empty() ? std::string() : path + " (" + was + ") " + changed + " for the model's input shape";
    const float* p = img.ptr<float>(0);
    std::vector<float> out(p, p + shape.dim());
    for (float& v : out) v = std::clamp(v, 0.0f, 1.0f);
    return out;
}

Dataset loadImageFolder(const std::string& path, const LoadOptions& options)
{
    requireDirectory(path);
    std::vector<fs::path> classDirs;
    for (const auto& e : fs::directory_iterator(path))
        if (e.is_directory() && !hidden(e.path())) classDirs.push_back(e.path());
    std::sort(classDirs.begin(), classDirs.end());

    // (file, class) in order: classes sorted by name, files sorted within a class. Without class
    // sub-folders, the images directly inside the folder form an unlabelled set.
    std::vector<std::pair<fs::path, int>> files;
    std::vector<std::string> classNames;
    if (classDirs.empty()) {
        for (const auto& f : imagesIn(path)) files.emplace_back(f, -1);
    } else {
        for (const auto& dir : classDirs) {
            const auto inClass = imagesIn(dir);
            if (inClass.empty()) fail(LoadErrorKind::Empty, dir.string(), {}, "the class folder holds no image files");
            for (const auto& f : inClass) files.emplace_back(f, static_cast<int>(classNames.size()));
            classNames.push_back(dir.filename().string());
        }
    }
    if (files.empty()) fail(LoadErrorKind::Empty, path, {}, "the folder holds no image files or class sub-folders");
    const std::size_t n = applyLimit(files.size(), options.limit);

    Dataset d;
    d.kind = DataKind::Images;
    cv::Mat first;
    for (std::size_t i = 0; i < n; ++i) {
        const std::string file = files[i].first.string();
        const cv::Mat img = readImage(file, options.maxBytes);
        if (i == 0) {
            first = img;
            d.shape = {img.rows, img.cols, img.channels()};
            checkFloatMemory(path, {}, n, static_cast<std::size_t>(d.shape.dim()), options.maxBytes);
            d.X.resize(static_cast<Eigen::Index>(n), d.shape.dim());
        } else if (img.rows != first.rows || img.cols != first.cols || img.channels() != first.channels()) {
            fail(LoadErrorKind::BadShape, file, {},
                 "all images must have the size and channels of " + files[0].first.string() + " (" + describe(first) + ")",
                 describe(img));
        }
        copyInto(d, i, img);
        if (files[i].second >= 0) d.labels.push_back(files[i].second);
    }
    if (!classNames.empty()) {
        d.numClasses = static_cast<int>(classNames.size());
        d.classNames = std::move(classNames);
    }
    return finish(std::move(d), path, Format::ImageFolder);
}

Dataset loadDigitsSheet(const std::string& path, const LoadOptions& options)
{
    // Layout (OpenCV samples/data/digits.png): 20 x 20 cells, 100 per row, 50 rows, 5 rows per digit.
    constexpr int kCell = 20, kPerRow = 100, kRows = 50, kRowsPerClass = 5;
    const cv::Mat sheet = readImage(path, options.maxBytes);
    if (sheet.cols != kCell * kPerRow || sheet.rows != kCell * kRows || sheet.channels() != 1)
        fail(LoadErrorKind::BadShape, path, {}, "the digits sheet must be one grey 2000 x 1000 image", describe(sheet));
    const std::size_t n = applyLimit(std::size_t(kPerRow) * kRows, options.limit);
    Dataset d;
    d.kind = DataKind::Images;
    d.shape = {kCell, kCell, 1};
    d.X.resize(static_cast<Eigen::Index>(n), kCell * kCell);
    d.labels.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const int row = static_cast<int>(i) / kPerRow, col = static_cast<int>(i) % kPerRow;
        const cv::Mat cell = sheet(cv::Rect(col * kCell, row * kCell, kCell, kCell));
        float* x = d.X.data() + i * kCell * kCell;
        for (int r = 0; r < kCell; ++r) std::copy_n(cell.ptr<float>(r), kCell, x + r * kCell);
        d.labels[i] = row / kRowsPerClass;
    }
    d.numClasses = kRows / kRowsPerClass;
    for (int c = 0; c < d.numClasses; ++c) d.classNames.push_back(std::to_string(c));
    return finish(std::move(d), path, Format::DigitsSheet);
}

} // namespace orbit

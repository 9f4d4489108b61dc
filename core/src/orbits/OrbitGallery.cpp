#include "orbit/orbits/OrbitGallery.hpp"

#include "orbit/util/Error.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace orbit {

namespace {

/// One copy as an 8-bit BGR picture at sample resolution (h x w).
cv::Mat copyPicture(const float* v, DataKind kind, const Shape& shape, float lo, float hi)
{
    const int h = kind == DataKind::Vectors ? 1 : shape.height;
    const int w = kind == DataKind::Vectors ? shape.dim() : shape.width;
    const int c = kind == DataKind::Vectors ? 1 : shape.channels;
    if (kind == DataKind::Images) {
        const bool colour = c == 3;
        cv::Mat pic(h, w, colour ? CV_8UC3 : CV_8UC1);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const float* p = v + (static_cast<std::size_t>(y) * w + x) * c;
                auto byte = [](float f) { return cv::saturate_cast<uchar>(std::lround(std::clamp(f, 0.0f, 1.0f) * 255.0f)); };
                if (colour)
                    pic.at<cv::Vec3b>(y, x) = cv::Vec3b(byte(p[2]), byte(p[1]), byte(p[0]));  // RGB -> BGR
                else
                    pic.at<uchar>(y, x) = byte(p[0]);
            }
        if (!colour) cv::cvtColor(pic, pic, cv::COLOR_GRAY2BGR);
        return pic;
    }
    cv::Mat level(h, w, CV_8UC1);
    const float span = hi > lo ? hi - lo : 1.0f;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float f = v[static_cast<std::size_t>(y) * w + x];
            if (kind == DataKind::Coulomb) f = std::log1p(std::max(f, 0.0f));
            level.at<uchar>(y, x) = cv::saturate_cast<uchar>(std::lround((f - lo) / span * 255.0f));
        }
    cv::Mat pic;
    cv::applyColorMap(level, pic, cv::COLORMAP_VIRIDIS);
    return pic;
}

} // namespace

GalleryLayout galleryLayout(int count, DataKind kind, const Shape& shape, int cellPx)
{
    GalleryLayout l;
    l.cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(std::max(count, 1))))));
    l.rows = (std::max(count, 1) + l.cols - 1) / l.cols;
    const int target = cellPx > 0 ? cellPx : 96;
    if (kind == DataKind::Vectors) {
        const int d = shape.dim();
        l.cellWidth = d * std::max(1, target / d);
        l.cellHeight = 16;
    } else {
        const int factor = std::max(1, target / std::max(shape.height, shape.width));
        l.cellWidth = shape.width * factor;
        l.cellHeight = shape.height * factor;
    }
    const double width = static_cast<double>(l.cols) * l.cellWidth + (l.cols + 1.0) * l.separator;
    const double height = static_cast<double>(l.rows) * l.cellHeight + (l.rows + 1.0) * l.separator;
    if (width > 32767 || height > 32767 || width * height > double(1 << 26))
        throw SpecError("cell",
                        "the gallery would be " + std::to_string(static_cast<long long>(width)) + " x " +
                            std::to_string(static_cast<long long>(height)) +
                            " pixels; use fewer copies or smaller cells",
                        std::to_string(cellPx));
    l.width = static_cast<int>(width);
    l.height = static_cast<int>(height);
    return l;
}

cv::Mat renderGallery(const MatrixXfR& copies, DataKind kind, const Shape& shape, const GalleryLayout& layout)
{
    float lo = 0.0f, hi = 1.0f;
    if (kind != DataKind::Images && copies.size() > 0) {
        if (kind == DataKind::Coulomb) {
            lo = 0.0f;
            hi = std::log1p(std::max(copies.maxCoeff(), 0.0f));
        } else {
            lo = copies.minCoeff();
            hi = copies.maxCoeff();
        }
    }
    cv::Mat canvas(layout.height, layout.width, CV_8UC3, cv::Scalar(128, 128, 128));
    for (Eigen::Index k = 0; k < copies.rows(); ++k) {
        const int row = static_cast<int>(k) / layout.cols, col = static_cast<int>(k) % layout.cols;
        if (row >= layout.rows) break;
        const cv::Mat pic = copyPicture(copies.data() + k * copies.cols(), kind, shape, lo, hi);
        const cv::Rect cell(layout.separator + col * (layout.cellWidth + layout.separator),
                            layout.separator + row * (layout.cellHeight + layout.separator), layout.cellWidth,
                            layout.cellHeight);
        cv::Mat target = canvas(cell);
        cv::resize(pic, target, target.size(), 0, 0, cv::INTER_NEAREST);
    }
    return canvas;
}

} // namespace orbit

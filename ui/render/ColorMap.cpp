#include "render/ColorMap.hpp"

#include "render/SampleImage.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>

namespace orbitui {

QColor colorAt(ColorMap map, double t)
{
    if (map == ColorMap::Sequential)
        return heatColor(t);
    // ColorBrewer RdBu, reversed: negative blue, zero white, positive red.
    static const std::array<std::array<int, 3>, 5> anchors{
        {{5, 48, 97}, {67, 147, 195}, {247, 247, 247}, {214, 96, 77}, {103, 0, 31}}};
    t = std::clamp(std::isfinite(t) ? t : 0.5, 0.0, 1.0) * (anchors.size() - 1);
    const int i = std::min(static_cast<int>(t), static_cast<int>(anchors.size()) - 2);
    const double f = t - i;
    auto mix = [&](int c) { return static_cast<int>(std::lround(anchors[i][c] * (1 - f) + anchors[i + 1][c] * f)); };
    return QColor(mix(0), mix(1), mix(2));
}

std::pair<double, double> colorRange(const Eigen::MatrixXd& matrix, ColorMap map,
                                     const std::optional<std::pair<double, double>>& fixed)
{
    double lo = 0.0, hi = 1.0;
    if (fixed) {
        std::tie(lo, hi) = *fixed;
    } else if (matrix.size() > 0) {
        // Over the finite cells (cells not computed yet hold NaN).
        const auto finite = matrix.array().isFinite();
        if (finite.any()) {
            lo = finite.select(matrix.array(), std::numeric_limits<double>::infinity()).minCoeff();
            hi = finite.select(matrix.array(), -std::numeric_limits<double>::infinity()).maxCoeff();
        }
    }
    if (map == ColorMap::Diverging) {
        const double m = std::max(std::abs(lo), std::abs(hi));
        lo = -m;
        hi = m;
    }
    if (!(hi > lo)) {
        const double pad = std::max(std::abs(hi) * 0.5, 1e-12);
        lo -= pad;
        hi += pad;
    }
    return {lo, hi};
}

QImage colorImage(const Eigen::MatrixXd& matrix, ColorMap map, double lo, double hi)
{
    QImage image(static_cast<int>(matrix.cols()), static_cast<int>(matrix.rows()), QImage::Format_RGB32);
    for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(static_cast<int>(i)));
        for (Eigen::Index j = 0; j < matrix.cols(); ++j)  // a cell without a value yet: grey
            line[j] = std::isfinite(matrix(i, j)) ? colorAt(map, (matrix(i, j) - lo) / (hi - lo)).rgb()
                                                  : qRgb(0xdd, 0xdd, 0xdd);
    }
    return image;
}

int colorBarPrecision(double lo, double hi)
{
    const double magnitude = std::max(std::abs(lo), std::abs(hi)), span = hi - lo;
    if (!(span > 0) || !(magnitude > 0))
        return 3;
    return std::clamp(static_cast<int>(std::ceil(std::log10(magnitude / span))) + 2, 3, 8);
}

QString colorBarText(double v, int precision)
{
    if (v == 0.0)
        return QStringLiteral("0");
    return QString::number(v, 'g', precision);
}

} // namespace orbitui

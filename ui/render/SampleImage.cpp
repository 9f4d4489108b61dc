#include "render/SampleImage.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace orbitui {

QColor heatColor(double t)
{
    // Anchors of matplotlib's "magma", evenly spaced.
    static const std::array<std::array<int, 3>, 9> anchors{{{0, 0, 4},
                                                             {28, 16, 68},
                                                             {79, 18, 123},
                                                             {129, 37, 129},
                                                             {181, 54, 122},
                                                             {229, 80, 100},
                                                             {251, 135, 97},
                                                             {254, 194, 135},
                                                             {252, 253, 191}}};
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * (anchors.size() - 1);
    const int i = std::min(static_cast<int>(t), static_cast<int>(anchors.size()) - 2);
    const double f = t - i;
    auto mix = [&](int c) { return static_cast<int>(std::lround(anchors[i][c] * (1 - f) + anchors[i + 1][c] * f)); };
    return QColor(mix(0), mix(1), mix(2));
}

int atomCount(const orbit::Dataset& d, std::size_t i)
{
    if (d.kind != orbit::DataKind::Coulomb || i >= d.charges.size())
        return 0;
    return static_cast<int>(d.charges[i].size());
}

QImage renderSample(const orbit::Dataset& d, std::size_t i)
{
    return renderSample(d.sample(i), d.shape, d.kind, atomCount(d, i));
}

QImage renderSample(const float* x, const orbit::Shape& shape, orbit::DataKind kind, int atoms)
{
    const int dim = shape.dim();
    if (kind == orbit::DataKind::Images) {
        const int h = shape.height, w = shape.width, c = shape.channels;
        QImage img(w, h, c >= 3 ? QImage::Format_RGB888 : QImage::Format_Grayscale8);
        for (int y = 0; y < h; ++y) {
            uchar* line = img.scanLine(y);
            for (int xx = 0; xx < w; ++xx) {
                const float* px = x + (static_cast<std::ptrdiff_t>(y) * w + xx) * c;
                if (c >= 3) {
                    for (int k = 0; k < 3; ++k)
                        line[3 * xx + k] = static_cast<uchar>(std::lround(std::clamp(px[k], 0.f, 1.f) * 255.f));
                } else {
                    line[xx] = static_cast<uchar>(std::lround(std::clamp(px[0], 0.f, 1.f) * 255.f));
                }
            }
        }
        return img;
    }
    int w = shape.width, h = shape.height;
    if (kind == orbit::DataKind::Vectors) {
        w = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(dim))));
        h = (dim + w - 1) / w;
    }
    double maxAbs = 0.0;
    for (int i = 0; i < dim; ++i)
        maxAbs = std::max(maxAbs, static_cast<double>(std::fabs(x[i])));
    const bool coulomb = kind == orbit::DataKind::Coulomb;
    const int stride = w;
    if (coulomb && atoms > 0 && atoms < w)
        w = h = atoms;
    QImage img(w, h, QImage::Format_RGB32);
    img.fill(QColor(40, 40, 40));
    const double logMax = std::log1p(maxAbs);
    for (int i = 0; i < w * h; ++i) {
        const int src = coulomb ? (i / w) * stride + i % w : i;
        if (src >= dim)
            break;
        double t;
        if (coulomb)
            t = logMax > 0 ? std::log1p(std::fabs(x[src])) / logMax : 0.0;
        else
            t = maxAbs > 0 ? 0.5 + 0.5 * x[src] / maxAbs : 0.5;
        img.setPixelColor(i % w, i / w, heatColor(t));
    }
    return img;
}

QString targetText(const orbit::Dataset& d, double target)
{
    const QString value = QString::number(target, 'f', 1);
    return d.targetUnit.empty() ? value : value + QChar(' ') + QString::fromStdString(d.targetUnit);
}

QString sampleCaption(const orbit::Dataset& d, std::size_t i)
{
    QString name = i < d.names.size() ? QString::fromStdString(d.names[i]) : QString();
    if (d.isClassification()) {
        const int label = d.labels[i];
        if (label >= 0 && static_cast<std::size_t>(label) < d.classNames.size())
            return QString::fromStdString(d.classNames[static_cast<std::size_t>(label)]);
        return QString::number(label);
    }
    if (d.isRegression()) {
        const QString e = targetText(d, d.targets[i]);
        return name.isEmpty() ? e : QStringLiteral("%1: %2").arg(name, e);
    }
    return name.isEmpty() ? QStringLiteral("#%1").arg(i) : name;
}

QColor seriesColor(int i)
{
    static const std::array<QColor, 10> colors{QColor(31, 119, 180), QColor(214, 39, 40),  QColor(44, 160, 44),
                                               QColor(255, 127, 14), QColor(148, 103, 189), QColor(140, 86, 75),
                                               QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                                               QColor(23, 190, 207)};
    return colors[static_cast<std::size_t>(i) % colors.size()];
}

} // namespace orbitui

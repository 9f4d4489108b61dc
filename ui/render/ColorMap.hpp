#pragma once
// The colours of a heatmap: the two colour maps, the colour range of a matrix, the matrix as one
// pixel per cell, and the texts of the colour bar's ticks.
#include <Eigen/Core>

#include <QColor>
#include <QImage>
#include <QString>

#include <optional>
#include <utility>

namespace orbitui {

/// Sequential: magma from the minimum (dark) to the maximum (light). Diverging: blue, white, red
/// around zero with a range symmetric about it (differences).
enum class ColorMap { Sequential, Diverging };

/// The colour of value t in [0, 1] of the colour map (t outside is clamped; NaN is the low end of
/// the sequential map and the middle of the diverging one).
QColor colorAt(ColorMap map, double t);

/// The range [lo, hi] the colours span: `fixed` when given, else the finite cells' minimum and
/// maximum (0..1 when there are none); symmetric about 0 for the diverging map; widened around a
/// single value (lo < hi always).
std::pair<double, double> colorRange(const Eigen::MatrixXd& matrix, ColorMap map,
                                     const std::optional<std::pair<double, double>>& fixed);

/// One pixel per cell (column j, row i), coloured over [lo, hi]; cells without a finite value grey.
QImage colorImage(const Eigen::MatrixXd& matrix, ColorMap map, double lo, double hi);

/// Significant digits that tell the colour bar's ticks over [lo, hi] apart (3 to 8: a narrow range
/// far from 0 needs more).
int colorBarPrecision(double lo, double hi);
/// A colour bar tick's text: `v` with `precision` significant digits, "0" for zero.
QString colorBarText(double v, int precision = 3);

} // namespace orbitui

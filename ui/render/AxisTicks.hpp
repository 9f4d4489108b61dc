#pragma once
// Where the ticks of the charts' numeric axes go: heatmap rows and columns that stand for a
// continuous quantity (points ordered by target), and the decade range of a log axis. Pure
// functions of the values, so they are tested without a widget.
#include <QString>

#include <utility>
#include <vector>

namespace orbitui {

/// A tick on an axis of cells: `value` falls at `position`, in cells from the top / left edge
/// (cell k spans [k, k + 1]; its centre is k + 0.5), and is written as `text`.
struct AxisTick {
    double position = 0;
    double value = 0;
    QString text;
};

/// Ticks for sorted `values` (one per cell): at most `count` rounded values (1–2 significant digits
/// of the range's step) inside [front, back], each placed by linear interpolation between the cells
/// whose values enclose it. A geometric grid spanning at least a factor 20 gets ticks at 1, 2 and 5
/// times powers of ten (only the powers of ten when there are enough of them), placed in log space.
/// One value throughout: one tick in the middle. Empty when `values` is empty, not sorted or not finite.
std::vector<AxisTick> numericTicks(const std::vector<double>& values, int count = 5);

/// The whole decades around [lo, hi] for a log axis: [10^floor(log10 lo), 10^ceil(log10 hi)] (at
/// least one decade; lo at least 1e-12), widened by a hair (0.1 %) so the end decades keep their
/// tick labels.
std::pair<double, double> decadeRange(double lo, double hi);

} // namespace orbitui

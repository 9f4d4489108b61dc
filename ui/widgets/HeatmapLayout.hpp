#pragma once
// Where the parts of a heatmap go in a rectangle: title, square cells, row labels (or ticks) on the
// left, column labels (or ticks) underneath, captions beside them and the colour bar on the right.
// A function of the texts and the font only, so it is tested without painting.
#include "render/AxisTicks.hpp"

#include <QFont>
#include <QRect>
#include <QString>
#include <QStringList>

#include <vector>

namespace orbitui {

/// A run of equal consecutive labels (points ordered by class): rows / columns [begin, end).
struct LabelRun {
    int begin, end;
    QString label;
};
/// The runs of `labels`, in order.
std::vector<LabelRun> labelRuns(const QStringList& labels);

/// What the layout depends on.
struct HeatmapLayoutInput {
    QFont font;
    QString title;
    QString rowCaption, columnCaption;  ///< empty: none
    QStringList rowLabels, columnLabels;  ///< empty or one per row / column
    std::vector<AxisTick> rowTicks, columnTicks;  ///< non-empty: the axis shows these instead of labels
    int rows = 0, columns = 0;
    QStringList barTexts;  ///< the texts of the colour bar's ticks
};

struct HeatmapLayout {
    QRect title, cells, bar;
    double cellW = 1, cellH = 1;
    bool rowLabels = false, columnLabels = false;  ///< labels or ticks are drawn on that axis
    bool rotatedColumns = false;  ///< column labels written upwards (names wider than a cell)
    int columnLabelHeight = 0;    ///< height reserved under the cells for the column labels
    int rowLabelWidth = 0;        ///< width reserved left of the cells for the row labels
};

/// Width of the colour bar, in pixels.
constexpr int kColorBarWidth = 14;

/// The layout of `in` inside `area`. Labels are drawn when they form blocks (runs of equal labels)
/// or when one per row / column fits; one label per column wider than a cell is written upwards when
/// a line height per column fits. Cells are square, the picture centred horizontally and a third of
/// the spare height put above it.
HeatmapLayout layoutHeatmap(const QRect& area, const HeatmapLayoutInput& in);

} // namespace orbitui

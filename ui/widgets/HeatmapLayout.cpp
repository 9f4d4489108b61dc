#include "widgets/HeatmapLayout.hpp"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace orbitui {

namespace {

/// Labels are drawn when they form blocks (runs of equal labels) or when one per row fits.
bool labelsFit(const QStringList& labels, int extent, int each)
{
    if (labels.isEmpty())
        return false;
    return static_cast<int>(labelRuns(labels).size()) < labels.size() || labels.size() * each <= extent;
}

} // namespace

std::vector<LabelRun> labelRuns(const QStringList& labels)
{
    std::vector<LabelRun> runs;
    for (int i = 0; i < labels.size(); ++i) {
        if (runs.empty() || labels[i] != runs.back().label)
            runs.push_back({i, i + 1, labels[i]});
        else
            runs.back().end = i + 1;
    }
    return runs;
}

HeatmapLayout layoutHeatmap(const QRect& area, const HeatmapLayoutInput& in)
{
    HeatmapLayout g;
    const QFontMetrics fm(in.font);
    const QRect all = area.adjusted(4, 4, -4, -4);
    int top = all.top();
    if (!in.title.isEmpty()) {
        QFont bold = in.font;
        bold.setBold(true);
        const int h = QFontMetrics(bold).height() + 4;
        g.title = QRect(all.left(), top, all.width(), h);
        top += h;
    }
    int left = all.left() + (in.rowCaption.isEmpty() ? 0 : fm.height() + 4);
    const int captionHeight = in.columnCaption.isEmpty() ? 0 : fm.height() + 2;
    const bool rowNumeric = !in.rowTicks.empty(), columnNumeric = !in.columnTicks.empty();
    g.rowLabels = rowNumeric || labelsFit(in.rowLabels, all.height() - 30, fm.height());
    g.columnLabels = columnNumeric || labelsFit(in.columnLabels, all.width() - 80, fm.horizontalAdvance("0000"));
    if (g.rowLabels) {
        int widest = 0;
        if (rowNumeric)
            for (const AxisTick& tick : in.rowTicks)
                widest = std::max(widest, fm.horizontalAdvance(tick.text) + 3);  // + the tick mark
        else
            for (const LabelRun& run : labelRuns(in.rowLabels))
                widest = std::max(widest, fm.horizontalAdvance(run.label));
        g.rowLabelWidth = std::min(widest, 110) + 6;
        left += g.rowLabelWidth;
    }
    // Column labels wider than a cell (class names under a confusion matrix) are written upwards,
    // one per column, when a line height per column fits.
    const int columnCount = std::max(1, in.columns);
    const int roughCell = (all.right() - kColorBarWidth - 60 - left) / columnCount;
    int widestColumn = 0;
    const std::vector<LabelRun> columnRuns = labelRuns(in.columnLabels);
    for (const LabelRun& run : columnRuns)
        widestColumn = std::max(widestColumn, fm.horizontalAdvance(run.label));
    const bool onePerColumn = !columnNumeric && !in.columnLabels.isEmpty() &&
                              static_cast<int>(columnRuns.size()) == in.columnLabels.size();
    if (onePerColumn && widestColumn + 4 > roughCell && in.columnLabels.size() * fm.height() <= all.width() - 80) {
        g.columnLabels = g.rotatedColumns = true;
    }
    if (g.columnLabels)
        g.columnLabelHeight = g.rotatedColumns ? std::min(widestColumn + 4, 114) + 6 : fm.height() + (columnNumeric ? 7 : 4);
    const int bottom = all.bottom() - g.columnLabelHeight - captionHeight;
    int barTextWidth = 0;
    for (const QString& text : in.barTexts)
        barTextWidth = std::max(barTextWidth, fm.horizontalAdvance(text));
    const int right = all.right() - kColorBarWidth - barTextWidth - 14;
    const int rows = std::max(1, in.rows);
    const int cols = std::max(1, in.columns);
    const double cell = std::max(0.5, std::min(double(right - left) / cols, double(bottom - top) / rows));
    g.cellW = g.cellH = cell;
    const int w = static_cast<int>(std::floor(cell * cols)), h = static_cast<int>(std::floor(cell * rows));
    // Centre the picture (cells, labels and bar) in the width left over; in the height left over,
    // put a third above and two thirds below (a little above centre reads as centred).
    const int extra = std::max(0, (right - left) - w) / 2;
    const int extraV = std::max(0, (bottom - top) - h) / 3;
    top += extraV;
    g.title.translate(0, extraV);
    g.cells = QRect(left + extra, top, w, h);
    if (!g.title.isNull()) {  // centred over the cells when it fits there, else over the widget
        QFont bold = in.font;
        bold.setBold(true);
        const int cx = g.cells.center().x(), half = std::min(cx - all.left(), all.right() - cx);
        if (QFontMetrics(bold).horizontalAdvance(in.title) <= 2 * half)
            g.title = QRect(cx - half, g.title.top(), 2 * half, g.title.height());
    }
    g.bar = QRect(g.cells.right() + 10, top, kColorBarWidth, h);
    return g;
}

} // namespace orbitui

#include "widgets/HeatmapView.hpp"

#include "widgets/ExportActions.hpp"
#include "widgets/SampleImage.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QTextDocument>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

namespace orbitui {

namespace {

/// Runs of equal consecutive labels: [begin, end) and the label.
struct Run {
    int begin, end;
    QString label;
};

std::vector<Run> runsOf(const QStringList& labels)
{
    std::vector<Run> runs;
    for (int i = 0; i < labels.size(); ++i) {
        if (runs.empty() || labels[i] != runs.back().label)
            runs.push_back({i, i + 1, labels[i]});
        else
            runs.back().end = i + 1;
    }
    return runs;
}

QString formatValue(double v, int precision = 3)
{
    if (v == 0.0)
        return QStringLiteral("0");
    return QString::number(v, 'g', precision);
}

constexpr int kBarWidth = 14;

/// Significant digits that tell the colour bar's ticks apart (a narrow range far from 0 needs more).
int tickPrecision(double lo, double hi)
{
    const double magnitude = std::max(std::abs(lo), std::abs(hi)), span = hi - lo;
    if (!(span > 0) || !(magnitude > 0))
        return 3;
    return std::clamp(static_cast<int>(std::ceil(std::log10(magnitude / span))) + 2, 3, 8);
}

/// Labels are drawn when they form blocks (runs of equal labels) or when one per row fits.
bool labelsFit(const QStringList& labels, int extent, int each)
{
    if (labels.isEmpty())
        return false;
    return static_cast<int>(runsOf(labels).size()) < labels.size() || labels.size() * each <= extent;
}

} // namespace

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QColor HeatmapView::colorAt(ColorMap map, double t)
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

void HeatmapView::setMatrix(const Eigen::MatrixXd& matrix, const QStringList& rowLabels, const QStringList& columnLabels)
{
    matrix_ = matrix;
    rowLabels_ = rowLabels.size() == matrix.rows() ? rowLabels : QStringList();
    columnLabels_ = columnLabels.size() == matrix.cols() ? columnLabels : QStringList();
    rebuildTicks();
    rebuildImage();
}

void HeatmapView::clear()
{
    matrix_.resize(0, 0);
    rowLabels_.clear();
    columnLabels_.clear();
    rowValues_.clear();
    columnValues_.clear();
    overlay_.clear();
    overlayHighlight_ = -1;
    rebuildTicks();
    rebuildImage();
}

void HeatmapView::setAxisValues(const std::vector<double>& rowValues, const std::vector<double>& columnValues)
{
    rowValues_ = rowValues;
    columnValues_ = columnValues;
    rebuildTicks();
    update();
}

void HeatmapView::rebuildTicks()
{
    rowTicks_ = static_cast<Eigen::Index>(rowValues_.size()) == matrix_.rows() ? numericTicks(rowValues_)
                                                                                : std::vector<AxisTick>();
    columnTicks_ = static_cast<Eigen::Index>(columnValues_.size()) == matrix_.cols() ? numericTicks(columnValues_)
                                                                                      : std::vector<AxisTick>();
}

std::vector<HeatmapView::AxisTick> HeatmapView::numericTicks(const std::vector<double>& v, int count)
{
    std::vector<AxisTick> ticks;
    if (v.empty() || count < 1 || !std::is_sorted(v.begin(), v.end()) ||
        !std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }))
        return ticks;
    const double lo = v.front(), hi = v.back();
    const auto n = static_cast<double>(v.size());
    if (!(hi > lo)) {  // one value throughout: one tick in the middle
        ticks.push_back({n / 2, lo, QString::number(lo, 'g', 4)});
        return ticks;
    }
    // Geometric values (a log-spaced grid over decades): ticks at 1, 2 and 5 times powers of ten,
    // placed in log space; only the powers of ten when there are enough of them.
    bool geometric = lo > 0 && hi / lo >= 20 && v.size() >= 3;
    for (std::size_t k = 2; geometric && k < v.size(); ++k)
        geometric = std::abs(std::log(v[k] / v[k - 1]) - std::log(v[1] / v[0])) < 0.02 * std::abs(std::log(v[1] / v[0]));
    if (geometric) {
        const double step = std::log(v[1] / v[0]);
        const int first = static_cast<int>(std::floor(std::log10(lo))), last = static_cast<int>(std::ceil(std::log10(hi)));
        const bool decadesOnly = last - first >= count - 1;
        for (int e = first; e <= last; ++e)
            for (double m : {1.0, 2.0, 5.0}) {
                if (decadesOnly && m != 1.0)
                    continue;
                const double u = m * std::pow(10.0, e);
                if (u < lo * (1 - 1e-9) || u > hi * (1 + 1e-9))
                    continue;
                ticks.push_back({0.5 + std::log(u / lo) / step, u, QString::number(u, 'g', 3)});
            }
        return ticks;
    }
    // Round to a power of ten below the spacing of `count` even steps: 1–2 significant digits.
    const double step = std::pow(10.0, std::floor(std::log10((hi - lo) / std::max(1, count - 1))));
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step))));
    // Where u falls: between the centres of the cells k - 1 and k with v[k - 1] < u <= v[k].
    auto positionOf = [&v, n](double u) {
        const auto k = static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), u) - v.begin());
        if (k == 0)
            return 0.5;
        if (k == v.size())
            return n - 0.5;
        return static_cast<double>(k) - 0.5 + (u - v[k - 1]) / (v[k] - v[k - 1]);
    };
    // Candidates at evenly spaced cells (the values there, rounded inside [lo, hi]).
    for (int j = 0; j < count; ++j) {
        const double f = count == 1 ? 0.5 : static_cast<double>(j) / (count - 1);
        const double at = v[static_cast<std::size_t>(std::lround(f * (n - 1)))];
        double u = std::round(at / step) * step;
        if (u < lo)
            u += step;
        if (u > hi)
            u -= step;
        if (u < lo || (!ticks.empty() && u <= ticks.back().value))
            continue;
        u += 0.0;  // no "-0"
        ticks.push_back({positionOf(u), u, QString::number(u, 'f', decimals)});
    }
    return ticks;
}

void HeatmapView::setTitle(const QString& title)
{
    title_ = title;
    update();
}

void HeatmapView::setColorMap(ColorMap map)
{
    map_ = map;
    rebuildImage();
}

void HeatmapView::setRange(double lo, double hi)
{
    fixedRange_ = std::make_pair(lo, hi);
    rebuildImage();
}

void HeatmapView::setAutoRange()
{
    fixedRange_.reset();
    rebuildImage();
}

std::pair<double, double> HeatmapView::range() const
{
    double lo = 0.0, hi = 1.0;
    if (fixedRange_) {
        std::tie(lo, hi) = *fixedRange_;
    } else if (matrix_.size() > 0) {
        // Over the finite cells (cells not computed yet hold NaN).
        const auto finite = matrix_.array().isFinite();
        if (finite.any()) {
            lo = finite.select(matrix_.array(), std::numeric_limits<double>::infinity()).minCoeff();
            hi = finite.select(matrix_.array(), -std::numeric_limits<double>::infinity()).maxCoeff();
        }
    }
    if (map_ == ColorMap::Diverging) {
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

void HeatmapView::setShowValues(bool show, int decimals)
{
    showValues_ = show;
    decimals_ = decimals;
    update();
}

void HeatmapView::setAxisNames(const QString& row, const QString& column, const QString& value)
{
    rowName_ = row;
    columnName_ = column;
    valueName_ = value;
}

void HeatmapView::setAxisCaptions(const QString& row, const QString& column)
{
    rowCaption_ = row;
    columnCaption_ = column;
    update();
}

void HeatmapView::setCellTextFunction(std::function<QString(int, int)> text)
{
    cellTextFunction_ = std::move(text);
}

void HeatmapView::setPlaceholder(const QString& text)
{
    placeholder_ = text;
    update();
}

void HeatmapView::rebuildImage()
{
    image_ = QImage();
    if (matrix_.size() > 0) {
        // The range once, not per cell: an automatic range scans the whole matrix (per cell, a 100 × 100
        // difference heatmap took 80 ms of GUI-thread time).
        const auto [lo, hi] = range();
        image_ = QImage(static_cast<int>(matrix_.cols()), static_cast<int>(matrix_.rows()), QImage::Format_RGB32);
        for (Eigen::Index i = 0; i < matrix_.rows(); ++i) {
            auto* line = reinterpret_cast<QRgb*>(image_.scanLine(static_cast<int>(i)));
            for (Eigen::Index j = 0; j < matrix_.cols(); ++j)  // a cell without a value yet: grey
                line[j] = std::isfinite(matrix_(i, j)) ? colorAt(map_, (matrix_(i, j) - lo) / (hi - lo)).rgb()
                                                       : qRgb(0xdd, 0xdd, 0xdd);
        }
    }
    update();
}

HeatmapView::Geometry HeatmapView::geometry(const QRect& area) const
{
    Geometry g;
    const QFontMetrics fm(font());
    const QRect all = area.adjusted(4, 4, -4, -4);
    int top = all.top();
    if (!title_.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        const int h = QFontMetrics(bold).height() + 4;
        g.title = QRect(all.left(), top, all.width(), h);
        top += h;
    }
    int left = all.left() + (rowCaption_.isEmpty() ? 0 : fm.height() + 4);
    const int captionHeight = columnCaption_.isEmpty() ? 0 : fm.height() + 2;
    const bool rowNumeric = !rowTicks_.empty(), columnNumeric = !columnTicks_.empty();
    g.rowLabels = rowNumeric || labelsFit(rowLabels_, all.height() - 30, fm.height());
    g.columnLabels = columnNumeric || labelsFit(columnLabels_, all.width() - 80, fm.horizontalAdvance("0000"));
    if (g.rowLabels) {
        int widest = 0;
        if (rowNumeric)
            for (const AxisTick& tick : rowTicks_)
                widest = std::max(widest, fm.horizontalAdvance(tick.text) + 3);  // + the tick mark
        else
            for (const Run& run : runsOf(rowLabels_))
                widest = std::max(widest, fm.horizontalAdvance(run.label));
        g.rowLabelWidth = std::min(widest, 110) + 6;
        left += g.rowLabelWidth;
    }
    // Column labels wider than a cell (class names under a confusion matrix) are written upwards,
    // one per column, when a line height per column fits.
    const int columnCount = std::max<int>(1, static_cast<int>(matrix_.cols()));
    const int roughCell = (all.right() - kBarWidth - 60 - left) / columnCount;
    int widestColumn = 0;
    for (const Run& run : runsOf(columnLabels_))
        widestColumn = std::max(widestColumn, fm.horizontalAdvance(run.label));
    const bool onePerColumn = !columnNumeric && !columnLabels_.isEmpty() &&
                              static_cast<int>(runsOf(columnLabels_).size()) == columnLabels_.size();
    if (onePerColumn && widestColumn + 4 > roughCell && columnLabels_.size() * fm.height() <= all.width() - 80) {
        g.columnLabels = g.rotatedColumns = true;
    }
    if (g.columnLabels)
        g.columnLabelHeight = g.rotatedColumns ? std::min(widestColumn + 4, 114) + 6 : fm.height() + (columnNumeric ? 7 : 4);
    const int bottom = all.bottom() - g.columnLabelHeight - captionHeight;
    const auto [lo, hi] = range();
    const int digits = tickPrecision(lo, hi);
    const int tickWidth = std::max({fm.horizontalAdvance(formatValue(lo, digits)), fm.horizontalAdvance(formatValue(hi, digits)),
                                    fm.horizontalAdvance(formatValue((lo + hi) / 2, digits))});
    const int right = all.right() - kBarWidth - tickWidth - 14;
    const int rows = std::max<int>(1, static_cast<int>(matrix_.rows()));
    const int cols = std::max<int>(1, static_cast<int>(matrix_.cols()));
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
        QFont bold = font();
        bold.setBold(true);
        const int cx = g.cells.center().x(), half = std::min(cx - all.left(), all.right() - cx);
        if (QFontMetrics(bold).horizontalAdvance(title_) <= 2 * half)
            g.title = QRect(cx - half, g.title.top(), 2 * half, g.title.height());
    }
    g.bar = QRect(g.cells.right() + 10, top, kBarWidth, h);
    return g;
}

std::optional<std::pair<int, int>> HeatmapView::cellAt(QPoint pos) const
{
    if (matrix_.size() == 0)
        return std::nullopt;
    const Geometry g = geometry(rect());
    if (!g.cells.contains(pos))
        return std::nullopt;
    const int row = std::clamp(static_cast<int>((pos.y() - g.cells.top()) / g.cellH), 0, static_cast<int>(matrix_.rows()) - 1);
    const int col = std::clamp(static_cast<int>((pos.x() - g.cells.left()) / g.cellW), 0, static_cast<int>(matrix_.cols()) - 1);
    return std::make_pair(row, col);
}

QString HeatmapView::cellText(int row, int column) const
{
    if (row < 0 || column < 0 || row >= matrix_.rows() || column >= matrix_.cols())
        return {};
    if (cellTextFunction_)
        return cellTextFunction_(row, column);
    auto part = [](const QString& name, int index, const QStringList& labels) {
        QString text = QStringLiteral("%1 = %2").arg(name).arg(index);
        if (!labels.isEmpty())
            text += QStringLiteral(" (%1)").arg(labels[index]);
        return text;
    };
    return QStringLiteral("%1, %2\n%3 = %4")
        .arg(part(rowName_, row, rowLabels_), part(columnName_, column, columnLabels_), valueName_)
        .arg(matrix_(row, column), 0, 'g', 6);
}

bool HeatmapView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (const auto cell = cellAt(help->pos()))
            // Labels are names from the data: shown as plain text, never as markup.
            QToolTip::showText(help->globalPos(), Qt::convertFromPlainText(cellText(cell->first, cell->second)), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void HeatmapView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p, rect(), false);
}

void HeatmapView::paint(QPainter& p, const QRect& area, bool vectorCells) const
{
    p.fillRect(area, palette().window());
    const Geometry g = geometry(area);
    if (!title_.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(g.title, Qt::AlignHCenter | Qt::AlignVCenter, title_);
        p.setFont(font());
    }
    if (image_.isNull()) {
        p.setPen(QColor(0x55, 0x55, 0x55));
        p.drawText(area.adjusted(10, g.title.height(), -10, -10), Qt::AlignCenter | Qt::TextWordWrap, placeholder_);
        return;
    }
    if (vectorCells && matrix_.size() <= 128 * 128) {
        for (Eigen::Index i = 0; i < matrix_.rows(); ++i)
            for (Eigen::Index j = 0; j < matrix_.cols(); ++j)
                p.fillRect(QRectF(g.cells.left() + j * g.cellW, g.cells.top() + i * g.cellH, g.cellW, g.cellH),
                           QColor::fromRgb(image_.pixel(static_cast<int>(j), static_cast<int>(i))));
    } else {
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(g.cells, image_);
    }

    if (!overlay_.empty()) {
        auto at = [&g](const QPointF& c) { return QPointF(g.cells.left() + c.x() * g.cellW, g.cells.top() + c.y() * g.cellH); };
        p.save();
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setClipRect(g.cells);
        p.setPen(QPen(QColor(0, 170, 255), 2));
        for (std::size_t k = std::size_t(overlayJoinFrom_) + 1; k < overlay_.size(); ++k)
            p.drawLine(at(overlay_[k - 1]), at(overlay_[k]));
        p.setPen(QPen(Qt::white, 1));
        p.setBrush(QColor(0, 170, 255));
        for (const QPointF& c : overlay_) p.drawEllipse(at(c), 3.5, 3.5);
        if (overlayHighlight_ >= 0 && overlayHighlight_ < static_cast<int>(overlay_.size())) {
            p.setPen(QPen(Qt::white, 2));
            p.setBrush(QColor(230, 30, 30));
            p.drawEllipse(at(overlay_[std::size_t(overlayHighlight_)]), 7.0, 7.0);
        }
        p.restore();
    }

    // Class blocks: thin lines between runs of equal labels, each label centred on its run.
    const QFontMetrics fm(font());
    const QColor text = palette().color(QPalette::WindowText);
    const auto rowRuns = g.rowLabels && rowTicks_.empty() ? runsOf(rowLabels_) : std::vector<Run>();
    const auto colRuns = g.columnLabels && columnTicks_.empty() ? runsOf(columnLabels_) : std::vector<Run>();
    const bool rowBlocks = !rowRuns.empty() && static_cast<int>(rowRuns.size()) < rowLabels_.size();
    const bool colBlocks = !colRuns.empty() && static_cast<int>(colRuns.size()) < columnLabels_.size();
    p.setPen(QPen(QColor(255, 255, 255, 150), 1));
    if (rowBlocks)
        for (std::size_t k = 1; k < rowRuns.size(); ++k) {
            const int y = g.cells.top() + static_cast<int>(std::lround(rowRuns[k].begin * g.cellH));
            p.drawLine(g.cells.left(), y, g.cells.right(), y);
        }
    if (colBlocks)
        for (std::size_t k = 1; k < colRuns.size(); ++k) {
            const int x = g.cells.left() + static_cast<int>(std::lround(colRuns[k].begin * g.cellW));
            p.drawLine(x, g.cells.top(), x, g.cells.bottom());
        }
    p.setPen(text);
    const int captionSpace = rowCaption_.isEmpty() ? 0 : fm.height() + 8;
    int lastBottom = -1000;
    for (const Run& run : rowRuns) {
        const double y0 = g.cells.top() + run.begin * g.cellH, y1 = g.cells.top() + run.end * g.cellH;
        const int centre = static_cast<int>((y0 + y1) / 2);
        if (centre - fm.height() / 2 < lastBottom)
            continue;  // no room: skip rather than overlap
        const int labelWidth = std::min(g.cells.left() - 5 - area.left() - captionSpace, 116);
        const QRect box(g.cells.left() - 5 - labelWidth, centre - fm.height() / 2, labelWidth, fm.height());
        p.drawText(box, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(run.label, Qt::ElideRight, box.width()));
        lastBottom = box.bottom() + 1;
    }
    int lastRight = -1000;
    for (const Run& run : g.rotatedColumns ? colRuns : std::vector<Run>()) {
        const double x0 = g.cells.left() + run.begin * g.cellW, x1 = g.cells.left() + run.end * g.cellW;
        const int centre = static_cast<int>((x0 + x1) / 2);
        if (centre - fm.height() / 2 < lastRight)
            continue;  // no room: skip rather than overlap
        const int length = g.columnLabelHeight - 6;
        p.save();
        p.translate(centre, g.cells.bottom() + 3);
        p.rotate(-90);  // x now points up: the text reads upwards and ends just under the cells
        p.drawText(QRect(-length, -fm.height() / 2, length, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(run.label, Qt::ElideRight, length));
        p.restore();
        lastRight = centre + fm.height() / 2;
    }
    for (const Run& run : g.rotatedColumns ? std::vector<Run>() : colRuns) {
        const double x0 = g.cells.left() + run.begin * g.cellW, x1 = g.cells.left() + run.end * g.cellW;
        const int w = fm.horizontalAdvance(run.label);
        const int centre = static_cast<int>((x0 + x1) / 2);
        if (centre - w / 2 < lastRight + 4)
            continue;
        p.drawText(QRect(centre - w / 2 - 1, g.cells.bottom() + 3, w + 2, fm.height()), Qt::AlignCenter, run.label);
        lastRight = centre + w / 2;
    }
    paintTicks(p, g, area);
    if (!columnCaption_.isEmpty()) {
        const int y = g.cells.bottom() + 3 + (g.columnLabels ? g.columnLabelHeight - 2 : 0);
        p.drawText(QRect(g.cells.left(), y, g.cells.width(), fm.height()), Qt::AlignCenter,
                   fm.elidedText(columnCaption_, Qt::ElideRight, g.cells.width()));
    }
    if (!rowCaption_.isEmpty()) {
        p.save();
        // Beside the row labels (not at the widget's edge when the picture is centred in a wide widget).
        p.translate(std::max(area.left() + 4 + fm.ascent(), g.cells.left() - g.rowLabelWidth - 4 - fm.descent()),
                    g.cells.center().y());
        p.rotate(-90);
        p.drawText(QRect(-g.cells.height() / 2, -fm.ascent(), g.cells.height(), fm.height()), Qt::AlignCenter,
                   fm.elidedText(rowCaption_, Qt::ElideRight, g.cells.height()));
        p.restore();
    }

    // Values in the cells, where they fit.
    if (showValues_) {
        const QString widest = QString::number(matrix_.cwiseAbs().maxCoeff(), 'f', decimals_) + "-";
        if (fm.horizontalAdvance(widest) + 4 <= g.cellW && fm.height() <= g.cellH) {
            for (Eigen::Index i = 0; i < matrix_.rows(); ++i)
                for (Eigen::Index j = 0; j < matrix_.cols(); ++j) {
                    const QRectF cell(g.cells.left() + j * g.cellW, g.cells.top() + i * g.cellH, g.cellW, g.cellH);
                    const QColor c = QColor::fromRgb(image_.pixel(static_cast<int>(j), static_cast<int>(i)));
                    p.setPen(c.lightnessF() > 0.55 ? Qt::black : Qt::white);
                    p.drawText(cell, Qt::AlignCenter, QString::number(matrix_(i, j), 'f', decimals_));
                }
        }
    }

    // The colour bar with its range.
    const auto [lo, hi] = range();
    QLinearGradient gradient(g.bar.bottomLeft(), g.bar.topLeft());
    for (int k = 0; k <= 16; ++k)
        gradient.setColorAt(k / 16.0, colorAt(map_, k / 16.0));
    p.fillRect(g.bar, gradient);
    p.setPen(QColor(0x88, 0x88, 0x88));
    p.drawRect(g.bar.adjusted(0, 0, -1, -1));
    p.setPen(text);
    const std::array<double, 3> ticks{hi, (lo + hi) / 2, lo};
    for (std::size_t k = 0; k < ticks.size(); ++k) {
        const int y = g.bar.top() + static_cast<int>(std::lround(k * (g.bar.height() - 1) / 2.0));
        p.drawLine(g.bar.right() + 1, y, g.bar.right() + 4, y);
        const int ty = std::clamp(y - fm.height() / 2, g.bar.top() - 2, g.bar.bottom() - fm.height() + 2);
        p.drawText(QRect(g.bar.right() + 6, ty, area.right() - g.bar.right() - 5, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   formatValue(ticks[k], tickPrecision(lo, hi)));
    }
}

void HeatmapView::setOverlay(std::vector<QPointF> path, int highlight, int joinFrom)
{
    overlay_ = std::move(path);
    overlayHighlight_ = highlight;
    overlayJoinFrom_ = std::max(0, joinFrom);
    update();
}

void HeatmapView::paintTicks(QPainter& p, const Geometry& g, const QRect& area) const
{
    // Tick marks outside the cells; texts that would overlap the previous one are skipped, and the
    // outermost texts are kept beside the cells (not under the other axis's texts).
    const QFontMetrics fm(font());
    const int captionSpace = rowCaption_.isEmpty() ? 0 : fm.height() + 8;
    int lastBottom = -1000;
    for (const AxisTick& tick : g.rowLabels ? rowTicks_ : std::vector<AxisTick>()) {
        const int y = g.cells.top() + static_cast<int>(std::lround(tick.position * g.cellH));
        const int ty = std::clamp(y - fm.height() / 2, g.cells.top() - 2, g.cells.bottom() - fm.height() + 2);
        if (ty < lastBottom)
            continue;
        p.drawLine(g.cells.left() - 4, y, g.cells.left() - 1, y);
        const int labelWidth = std::min(g.cells.left() - 7 - area.left() - captionSpace, 116);
        const QRect box(g.cells.left() - 7 - labelWidth, ty, labelWidth, fm.height());
        p.drawText(box, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(tick.text, Qt::ElideRight, box.width()));
        lastBottom = box.bottom() + 1;
    }
    int lastRight = -1000;
    for (const AxisTick& tick : g.columnLabels ? columnTicks_ : std::vector<AxisTick>()) {
        const int x = g.cells.left() + static_cast<int>(std::lround(tick.position * g.cellW));
        const int w = fm.horizontalAdvance(tick.text);
        const int tx = std::clamp(x - w / 2, g.cells.left() - 2, g.cells.right() - w + 2);
        if (tx < lastRight + 6)
            continue;
        p.drawLine(x, g.cells.bottom() + 1, x, g.cells.bottom() + 4);
        p.drawText(QRect(tx - 1, g.cells.bottom() + 5, w + 2, fm.height()), Qt::AlignCenter, tick.text);
        lastRight = tx + w;
    }
}

QImage HeatmapView::toImage() const
{
    return const_cast<HeatmapView*>(this)->grab().toImage();
}

bool HeatmapView::exportPng(const QString& path) const { return toImage().save(path, "PNG"); }

bool HeatmapView::exportSvg(const QString& path) const
{
    return writeSvg(path, size(), title_, QStringLiteral("Orbit Lab heatmap"),
                    [this](QPainter& painter) { paint(painter, rect(), true); });
}

} // namespace orbitui

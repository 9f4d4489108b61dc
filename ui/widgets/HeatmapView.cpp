#include "widgets/HeatmapView.hpp"

#include "widgets/ExportActions.hpp"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTextDocument>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace orbitui {

namespace {

/// A label or tick text beside an axis, centred on pixel `centre` (a row's y or a column's x).
struct AxisText {
    int centre;
    QString text;
};

/// Texts left of the cells, right-aligned, top to bottom; a text that would overlap the one above
/// is skipped. `marks`: numeric ticks, each with a tick mark and its text kept beside the cells
/// (not under the column texts).
void drawRowTexts(QPainter& p, const QFontMetrics& fm, const std::vector<AxisText>& texts, const HeatmapLayout& g,
                  const QRect& area, int captionSpace, bool marks)
{
    const int gap = marks ? 7 : 5;
    int lastBottom = -1000;
    for (const AxisText& t : texts) {
        int top = t.centre - fm.height() / 2;
        if (marks)
            top = std::clamp(top, g.cells.top() - 2, g.cells.bottom() - fm.height() + 2);
        if (top < lastBottom)
            continue;  // no room: skip rather than overlap
        if (marks)
            p.drawLine(g.cells.left() - 4, t.centre, g.cells.left() - 1, t.centre);
        const int labelWidth = std::min(g.cells.left() - gap - area.left() - captionSpace, 116);
        const QRect box(g.cells.left() - gap - labelWidth, top, labelWidth, fm.height());
        p.drawText(box, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(t.text, Qt::ElideRight, box.width()));
        lastBottom = box.bottom() + 1;
    }
}

/// Texts under the cells, left to right; a text that would overlap the one before is skipped.
/// `marks`: numeric ticks, each with a tick mark and its text kept under the cells.
void drawColumnTexts(QPainter& p, const QFontMetrics& fm, const std::vector<AxisText>& texts, const HeatmapLayout& g,
                     bool marks)
{
    int lastRight = -1000;
    for (const AxisText& t : texts) {
        const int w = fm.horizontalAdvance(t.text);
        int left = t.centre - w / 2;
        if (marks)
            left = std::clamp(left, g.cells.left() - 2, g.cells.right() - w + 2);
        if (left < lastRight + (marks ? 6 : 4))
            continue;
        if (marks)
            p.drawLine(t.centre, g.cells.bottom() + 1, t.centre, g.cells.bottom() + 4);
        p.drawText(QRect(left - 1, g.cells.bottom() + (marks ? 5 : 3), w + 2, fm.height()), Qt::AlignCenter, t.text);
        lastRight = marks ? left + w : t.centre + w / 2;
    }
}

/// Where the ticks fall on an axis that starts at pixel `origin` with cells `cell` pixels long.
std::vector<AxisText> tickTexts(const std::vector<AxisTick>& ticks, int origin, double cell)
{
    std::vector<AxisText> texts;
    for (const AxisTick& tick : ticks)
        texts.push_back({origin + static_cast<int>(std::lround(tick.position * cell)), tick.text});
    return texts;
}

/// The middles of the runs of labels on an axis that starts at pixel `origin`.
std::vector<AxisText> runTexts(const std::vector<LabelRun>& runs, int origin, double cell)
{
    std::vector<AxisText> texts;
    for (const LabelRun& run : runs) {
        const double from = origin + run.begin * cell, to = origin + run.end * cell;
        texts.push_back({static_cast<int>((from + to) / 2), run.label});
    }
    return texts;
}

} // namespace

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HeatmapView::setMatrix(const Eigen::MatrixXd& matrix, const QStringList& rowLabels, const QStringList& columnLabels)
{
    matrix_ = matrix;
    rowLabels_ = rowLabels.size() == matrix.rows() ? rowLabels : QStringList();
    columnLabels_ = columnLabels.size() == matrix.cols() ? columnLabels : QStringList();
    marked_.reset();
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
    marked_.reset();
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

std::pair<double, double> HeatmapView::range() const { return colorRange(matrix_, map_, fixedRange_); }

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
        image_ = colorImage(matrix_, map_, lo, hi);
    }
    update();
}

HeatmapLayout HeatmapView::geometry(const QRect& area) const
{
    const auto [lo, hi] = range();
    const int digits = colorBarPrecision(lo, hi);
    return layoutHeatmap(area, {.font = font(),
                                .title = title_,
                                .rowCaption = rowCaption_,
                                .columnCaption = columnCaption_,
                                .rowLabels = rowLabels_,
                                .columnLabels = columnLabels_,
                                .rowTicks = rowTicks_,
                                .columnTicks = columnTicks_,
                                .rows = static_cast<int>(matrix_.rows()),
                                .columns = static_cast<int>(matrix_.cols()),
                                .barTexts = {colorBarText(lo, digits), colorBarText(hi, digits),
                                             colorBarText((lo + hi) / 2, digits)}});
}

std::optional<std::pair<int, int>> HeatmapView::cellAt(QPoint pos) const
{
    if (matrix_.size() == 0)
        return std::nullopt;
    const HeatmapLayout g = geometry(rect());
    if (!g.cells.contains(pos))
        return std::nullopt;
    const int row = std::clamp(static_cast<int>((pos.y() - g.cells.top()) / g.cellH), 0, static_cast<int>(matrix_.rows()) - 1);
    const int col = std::clamp(static_cast<int>((pos.x() - g.cells.left()) / g.cellW), 0, static_cast<int>(matrix_.cols()) - 1);
    return std::make_pair(row, col);
}

QPoint HeatmapView::cellCentre(int row, int column) const
{
    const HeatmapLayout g = geometry(rect());
    return QPoint(static_cast<int>(g.cells.left() + (column + 0.5) * g.cellW),
                  static_cast<int>(g.cells.top() + (row + 0.5) * g.cellH));
}

void HeatmapView::setMarkedCell(std::optional<std::pair<int, int>> cell)
{
    marked_ = cell;
    update();
}

void HeatmapView::mousePressEvent(QMouseEvent* e)
{
    pressed_ = e->button() == Qt::LeftButton ? cellAt(e->position().toPoint()) : std::nullopt;
    QWidget::mousePressEvent(e);
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* e)
{
    // A click is a press and a release on the same cell (a drag across cells selects nothing).
    const auto cell = e->button() == Qt::LeftButton ? cellAt(e->position().toPoint()) : std::nullopt;
    if (cell && pressed_ == cell)
        emit cellClicked(cell->first, cell->second);
    pressed_.reset();
    QWidget::mouseReleaseEvent(e);
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
    const HeatmapLayout g = geometry(area);
    if (!title_.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(palette().color(QPalette::WindowText));
        // Elided at its end when the view is narrower than the title (not cut at both sides).
        p.drawText(g.title, Qt::AlignHCenter | Qt::AlignVCenter,
                   QFontMetrics(bold).elidedText(title_, Qt::ElideRight, g.title.width()));
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
    paintOverlay(p, g);
    if (marked_ && marked_->first < matrix_.rows() && marked_->second < matrix_.cols()) {
        // The inspected cell: a white frame in a dark one, visible on every colour of the map,
        // at least 8 px wide however small the cells are.
        const double w = std::max(8.0, g.cellW), h = std::max(8.0, g.cellH);
        const QRectF r(g.cells.left() + (marked_->second + 0.5) * g.cellW - w / 2,
                       g.cells.top() + (marked_->first + 0.5) * g.cellH - h / 2, w, h);
        p.save();
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 3));
        p.drawRect(r);
        p.setPen(QPen(Qt::white, 1.5));
        p.drawRect(r);
        p.restore();
    }
    paintAxes(p, g, area);
    paintValues(p, g);
    paintColorBar(p, g, area);
}

void HeatmapView::paintOverlay(QPainter& p, const HeatmapLayout& g) const
{
    if (overlay_.empty())
        return;
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

void HeatmapView::paintAxes(QPainter& p, const HeatmapLayout& g, const QRect& area) const
{
    // Class blocks: thin lines between runs of equal labels, each label centred on its run.
    const QFontMetrics fm(font());
    const auto rowRuns = g.rowLabels && rowTicks_.empty() ? labelRuns(rowLabels_) : std::vector<LabelRun>();
    const auto colRuns = g.columnLabels && columnTicks_.empty() ? labelRuns(columnLabels_) : std::vector<LabelRun>();
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
    p.setPen(palette().color(QPalette::WindowText));

    // Row labels or ticks on the left, column labels or ticks underneath; column names wider than a
    // cell are written upwards instead.
    const int captionSpace = rowCaption_.isEmpty() ? 0 : fm.height() + 8;
    const bool rowMarks = !rowTicks_.empty(), columnMarks = !columnTicks_.empty();
    if (g.rowLabels)
        drawRowTexts(p, fm, rowMarks ? tickTexts(rowTicks_, g.cells.top(), g.cellH) : runTexts(rowRuns, g.cells.top(), g.cellH),
                     g, area, captionSpace, rowMarks);
    if (g.rotatedColumns) {
        int lastRight = -1000;
        for (const AxisText& t : runTexts(colRuns, g.cells.left(), g.cellW)) {
            if (t.centre - fm.height() / 2 < lastRight)
                continue;  // no room: skip rather than overlap
            const int length = g.columnLabelHeight - 6;
            p.save();
            p.translate(t.centre, g.cells.bottom() + 3);
            p.rotate(-90);  // x now points up: the text reads upwards and ends just under the cells
            p.drawText(QRect(-length, -fm.height() / 2, length, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                       fm.elidedText(t.text, Qt::ElideRight, length));
            p.restore();
            lastRight = t.centre + fm.height() / 2;
        }
    } else if (g.columnLabels) {
        drawColumnTexts(p, fm,
                        columnMarks ? tickTexts(columnTicks_, g.cells.left(), g.cellW) : runTexts(colRuns, g.cells.left(), g.cellW),
                        g, columnMarks);
    }
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
}

void HeatmapView::paintValues(QPainter& p, const HeatmapLayout& g) const
{
    // Values in the cells, where they fit: in the widget's font, or in one down to 70 % of it (the
    // second of two matrices side by side may have a few pixels less per cell than the first).
    if (!showValues_ || matrix_.size() == 0)
        return;
    const QString widest = QString::number(matrix_.cwiseAbs().maxCoeff(), 'f', decimals_) +
                           (matrix_.minCoeff() < 0 ? "-" : "");
    QFont f = font();
    const qreal full = f.pointSizeF();
    auto fits = [&] {
        const QFontMetricsF fm(f);
        return fm.horizontalAdvance(widest) + 4 <= g.cellW && fm.height() <= g.cellH;
    };
    while (!fits() && full > 0 && f.pointSizeF() > 0.7 * full + 1e-9)
        f.setPointSizeF(std::max(0.7 * full, f.pointSizeF() - 0.5));
    if (!fits())
        return;
    p.save();
    p.setFont(f);
    for (Eigen::Index i = 0; i < matrix_.rows(); ++i)
        for (Eigen::Index j = 0; j < matrix_.cols(); ++j) {
            const QRectF cell(g.cells.left() + j * g.cellW, g.cells.top() + i * g.cellH, g.cellW, g.cellH);
            const QColor c = QColor::fromRgb(image_.pixel(static_cast<int>(j), static_cast<int>(i)));
            p.setPen(c.lightnessF() > 0.55 ? Qt::black : Qt::white);
            p.drawText(cell, Qt::AlignCenter, QString::number(matrix_(i, j), 'f', decimals_));
        }
    p.restore();
}

void HeatmapView::paintColorBar(QPainter& p, const HeatmapLayout& g, const QRect& area) const
{
    // The colour bar with its range.
    const QFontMetrics fm(font());
    const auto [lo, hi] = range();
    QLinearGradient gradient(g.bar.bottomLeft(), g.bar.topLeft());
    for (int k = 0; k <= 16; ++k)
        gradient.setColorAt(k / 16.0, colorAt(map_, k / 16.0));
    p.fillRect(g.bar, gradient);
    p.setPen(QColor(0x88, 0x88, 0x88));
    p.drawRect(g.bar.adjusted(0, 0, -1, -1));
    p.setPen(palette().color(QPalette::WindowText));
    const std::array<double, 3> ticks{hi, (lo + hi) / 2, lo};
    for (std::size_t k = 0; k < ticks.size(); ++k) {
        const int y = g.bar.top() + static_cast<int>(std::lround(k * (g.bar.height() - 1) / 2.0));
        p.drawLine(g.bar.right() + 1, y, g.bar.right() + 4, y);
        const int ty = std::clamp(y - fm.height() / 2, g.bar.top() - 2, g.bar.bottom() - fm.height() + 2);
        p.drawText(QRect(g.bar.right() + 6, ty, area.right() - g.bar.right() - 5, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   colorBarText(ticks[k], colorBarPrecision(lo, hi)));
    }
}

void HeatmapView::setOverlay(std::vector<QPointF> path, int highlight, int joinFrom)
{
    overlay_ = std::move(path);
    overlayHighlight_ = highlight;
    overlayJoinFrom_ = std::max(0, joinFrom);
    update();
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

#pragma once
// A heatmap of any matrix (kernel matrices, confusion matrices): one cell per entry drawn with
// crisp pixels, a colour bar with its range, row/column labels (runs of equal labels, such as
// points ordered by class, are drawn once per block), optional values written in the cells, and a
// tooltip naming row, column, their labels and the value. Rows and columns that stand for a continuous
// quantity (points ordered by target) get numeric ticks instead of labels.
// The colour map, the ticks and the layout are their own files (ColorMap, AxisTicks, HeatmapLayout);
// this widget keeps the state and paints.
#include "render/AxisTicks.hpp"
#include "render/ColorMap.hpp"
#include "widgets/HeatmapLayout.hpp"

#include <Eigen/Core>

#include <QImage>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QPainter;

namespace orbitui {

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    /// Sequential or Diverging (ColorMap.hpp).
    using ColorMap = orbitui::ColorMap;
    /// A numeric axis's tick (AxisTicks.hpp).
    using AxisTick = orbitui::AxisTick;

    explicit HeatmapView(QWidget* parent = nullptr);

    /// Shows `matrix`; labels may be empty or have one entry per row / column.
    void setMatrix(const Eigen::MatrixXd& matrix, const QStringList& rowLabels = {}, const QStringList& columnLabels = {});
    void clear();
    const Eigen::MatrixXd& matrix() const { return matrix_; }
    bool isEmpty() const { return matrix_.size() == 0; }
    QStringList rowLabels() const { return rowLabels_; }
    QStringList columnLabels() const { return columnLabels_; }

    /// Continuous coordinates of the rows and columns (e.g. the targets of points ordered by target),
    /// one non-decreasing value per row / column: the axes then show a few rounded values (ticks) at
    /// the rows / columns where they fall instead of the labels, which stay in the tooltip. A vector
    /// that is empty, unsorted or of another length than the matrix's side leaves that axis to its
    /// labels. The ticks are numericTicks(values). Kept across setMatrix; clear() removes them. The
    /// unit belongs in setAxisCaptions.
    void setAxisValues(const std::vector<double>& rowValues, const std::vector<double>& columnValues);
    /// The ticks of the numeric axes (empty when the axis has labels instead).
    const std::vector<AxisTick>& rowTicks() const { return rowTicks_; }
    const std::vector<AxisTick>& columnTicks() const { return columnTicks_; }

    void setTitle(const QString& title);
    QString title() const { return title_; }
    void setColorMap(ColorMap map);
    /// Fixes the colour range (e.g. shared by several heatmaps); without it the matrix's own range.
    void setRange(double lo, double hi);
    void setAutoRange();
    /// The range in use: [lo, hi].
    std::pair<double, double> range() const;
    /// Writes each value in its cell when the cells are large enough (confusion matrices).
    void setShowValues(bool show, int decimals = 2);
    /// Names used in the tooltip, e.g. ("i", "j", "k") or ("true", "predicted", "count").
    void setAxisNames(const QString& row, const QString& column, const QString& value);
    /// Axis captions written beside the row labels (rotated) and under the column labels, e.g.
    /// ("true class", "predicted class"); empty strings (the default) draw none.
    void setAxisCaptions(const QString& row, const QString& column);
    std::pair<QString, QString> axisCaptions() const { return {rowCaption_, columnCaption_}; }
    /// Replaces the default tooltip text of a cell (cellText) by `text(row, column)`; empty restores it.
    void setCellTextFunction(std::function<QString(int, int)> text);
    void setPlaceholder(const QString& text);
    /// A path drawn over the cells (e.g. an optimiser's steps on an evidence surface): points in cell
    /// coordinates (x = column, y = row; cell k spans [k, k + 1]), each a small dot, joined in order
    /// from point `joinFrom` on (the points before it, e.g. a scan, stand alone); point `highlight`
    /// (if in range) is drawn as a larger ringed marker. Kept across setMatrix.
    void setOverlay(std::vector<QPointF> path, int highlight = -1, int joinFrom = 0);
    const std::vector<QPointF>& overlay() const { return overlay_; }

    /// The cell under a widget position, if any: (row, column).
    std::optional<std::pair<int, int>> cellAt(QPoint pos) const;
    /// The centre of cell (row, column) in widget coordinates (where a click selects it).
    QPoint cellCentre(int row, int column) const;
    /// Frames cell (row, column) (e.g. the one an inspector shows); std::nullopt removes the frame.
    /// Cleared by setMatrix and clear().
    void setMarkedCell(std::optional<std::pair<int, int>> cell);
    std::optional<std::pair<int, int>> markedCell() const { return marked_; }
    /// The tooltip text of cell (row, column).
    QString cellText(int row, int column) const;
    /// The widget as a picture (heatmap, labels, colour bar).
    QImage toImage() const;
    bool exportPng(const QString& path) const;
    /// The same picture as vector graphics (cells as rectangles when there are at most 128 x 128).
    bool exportSvg(const QString& path) const;

signals:
    /// A left click released over cell (row, column).
    void cellClicked(int row, int column);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    QSize sizeHint() const override { return {360, 360}; }
    QSize minimumSizeHint() const override { return {160, 160}; }

private:
    HeatmapLayout geometry(const QRect& area) const;
    /// Draws the whole picture into `area`; `vectorCells` draws cells as rectangles (SVG).
    void paint(QPainter& p, const QRect& area, bool vectorCells) const;
    void paintOverlay(QPainter& p, const HeatmapLayout& g) const;
    /// Lines between blocks of equal labels, the labels or ticks of both axes and the captions.
    void paintAxes(QPainter& p, const HeatmapLayout& g, const QRect& area) const;
    void paintValues(QPainter& p, const HeatmapLayout& g) const;
    void paintColorBar(QPainter& p, const HeatmapLayout& g, const QRect& area) const;
    void rebuildImage();
    void rebuildTicks();

    Eigen::MatrixXd matrix_;
    QStringList rowLabels_, columnLabels_;
    std::vector<double> rowValues_, columnValues_;
    std::vector<AxisTick> rowTicks_, columnTicks_;  ///< of rowValues_ / columnValues_ when they fit the matrix
    QString title_, placeholder_;
    QString rowName_ = QStringLiteral("i"), columnName_ = QStringLiteral("j"), valueName_ = QStringLiteral("value");
    QString rowCaption_, columnCaption_;
    std::function<QString(int, int)> cellTextFunction_;
    ColorMap map_ = ColorMap::Sequential;
    std::optional<std::pair<double, double>> fixedRange_;
    bool showValues_ = false;
    int decimals_ = 2;
    QImage image_;
    std::vector<QPointF> overlay_;
    int overlayHighlight_ = -1;
    int overlayJoinFrom_ = 0;
    std::optional<std::pair<int, int>> marked_;
    std::optional<std::pair<int, int>> pressed_;  ///< the cell a left button went down on
};

} // namespace orbitui

#pragma once
// The markers of a chart's scatter series painted by one scene item.
//
// Qt Charts 6.4 gives a QScatterSeries one QGraphicsItem per point, and lays every one of them out
// again whenever the plot area moves (a resize, a panel shown for the first time, presentation
// mode's fonts) and makes them all anew when the marker size changes. With a thousand points (the
// Orbits panel's embedding at r = 400) that was 20-50 ms of the GUI thread in one pass.
//
// A series given to add() keeps its points, name, colours, pen, marker size and shape, axes and
// legend entry (the CSV export, the legend and the linked views read it as before), but its own
// point items are hidden (setPointsVisible(false)); this layer paints its markers instead: for each
// point p, a circle or square (markerShape) of markerSize() pixels centred on
// chart->mapToPosition(p, series), filled with the series' brush and outlined with its pen, clipped
// to the plot area. Series are painted in the order they were added, each over the ones before.
// Changes of points, pen, brush, marker size, the axes' ranges or the plot area repaint it; a series that is deleted
// (QChart::removeAllSeries) is forgotten.
#include <QGraphicsObject>
#include <QList>
#include <QPointer>

class QChart;
class QScatterSeries;

namespace orbitui {

class ScatterLayer : public QGraphicsObject {
    Q_OBJECT
public:
    /// A layer over `chart`'s plot area (a child item of the chart, under its legend).
    explicit ScatterLayer(QChart* chart);

    /// Paints `series` from now on; call it before the series is added to the chart (its items are
    /// made then), on the chart's value axes (added before). Circle and rectangle markers only:
    /// other shapes are left to the series.
    void add(QScatterSeries* series);
    /// The series painted here that still exist.
    QList<QScatterSeries*> series() const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void plotAreaMoved();
    void repaint();

    QChart* chart_;
    QRectF area_;
    QList<QPointer<QScatterSeries>> series_;
};

} // namespace orbitui

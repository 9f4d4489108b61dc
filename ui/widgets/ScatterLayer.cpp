#include "widgets/ScatterLayer.hpp"

#include <QChart>
#include <QLegend>
#include <QPainter>
#include <QPixmap>
#include <QScatterSeries>
#include <QValueAxis>

#include <cmath>

namespace orbitui {

ScatterLayer::ScatterLayer(QChart* chart) : QGraphicsObject(chart), chart_(chart), area_(chart->plotArea())
{
    setZValue(chart->legend()->zValue() - 1.0);  // over the grid and the series, under the legend
    setFlag(QGraphicsItem::ItemClipsToShape);
    setAcceptedMouseButtons(Qt::NoButton);  // clicks and tooltips go to the chart, as before
    connect(chart, &QChart::plotAreaChanged, this, &ScatterLayer::plotAreaMoved);
}

void ScatterLayer::add(QScatterSeries* series)
{
    if (series->markerShape() != QScatterSeries::MarkerShapeCircle &&
        series->markerShape() != QScatterSeries::MarkerShapeRectangle)
        return;
    // Before the chart makes the series' items: it reads pointsVisible then, and a later change
    // does not reach the scatter item of Qt Charts 6.4.
    series->setPointsVisible(false);
    series_.append(series);
    connect(series, &QXYSeries::pointsReplaced, this, &ScatterLayer::repaint);
    connect(series, &QXYSeries::pointsRemoved, this, &ScatterLayer::repaint);
    connect(series, &QXYSeries::pointAdded, this, &ScatterLayer::repaint);
    connect(series, &QXYSeries::pointRemoved, this, &ScatterLayer::repaint);
    connect(series, &QXYSeries::pointReplaced, this, &ScatterLayer::repaint);
    connect(series, &QXYSeries::penChanged, this, &ScatterLayer::repaint);
    connect(series, &QScatterSeries::colorChanged, this, &ScatterLayer::repaint);
    connect(series, &QScatterSeries::borderColorChanged, this, &ScatterLayer::repaint);
    connect(series, &QScatterSeries::markerSizeChanged, this, &ScatterLayer::repaint);
    connect(series, &QScatterSeries::markerShapeChanged, this, &ScatterLayer::repaint);
    connect(series, &QAbstractSeries::visibleChanged, this, &ScatterLayer::repaint);
    connect(series, &QObject::destroyed, this, &ScatterLayer::repaint);
    for (QAbstractAxis* axis : chart_->axes())  // a new range moves the markers, not the plot area
        if (auto* values = qobject_cast<QValueAxis*>(axis))
            connect(values, &QValueAxis::rangeChanged, this, &ScatterLayer::repaint, Qt::UniqueConnection);
    update();
}

void ScatterLayer::repaint() { update(); }

QList<QScatterSeries*> ScatterLayer::series() const
{
    QList<QScatterSeries*> alive;
    for (const QPointer<QScatterSeries>& s : series_)
        if (s)
            alive.append(s);
    return alive;
}

void ScatterLayer::plotAreaMoved()
{
    prepareGeometryChange();
    area_ = chart_->plotArea();
    update();
}

QRectF ScatterLayer::boundingRect() const { return area_; }

void ScatterLayer::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    series_.removeAll(nullptr);
    painter->save();
    painter->setClipRect(area_);
    const qreal ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    for (QScatterSeries* s : series()) {
        if (!s->isVisible() || s->chart() != chart_)
            continue;
        // One antialiased marker drawn once, then copied to every point: a thousand antialiased
        // ellipses with a translucent fill cost the raster engine 10-20 ms a paint.
        const qreal size = s->markerSize();
        const QPen pen = s->pen();
        const qreal margin = pen.style() == Qt::NoPen ? 1.0 : pen.widthF() / 2.0 + 1.0;
        const qreal extent = std::ceil(size + 2.0 * margin);
        QPixmap marker(QSize(int(extent * ratio), int(extent * ratio)));
        marker.setDevicePixelRatio(ratio);
        marker.fill(Qt::transparent);
        {
            QPainter m(&marker);
            m.setRenderHints(painter->renderHints());
            m.setPen(pen);
            m.setBrush(s->brush());
            const QRectF shape((extent - size) / 2.0, (extent - size) / 2.0, size, size);
            if (s->markerShape() == QScatterSeries::MarkerShapeCircle)
                m.drawEllipse(shape);
            else
                m.drawRect(shape);
        }
        const QList<QPointF> points = s->points();
        for (const QPointF& p : points) {
            const QPointF at = chart_->mapToPosition(p, s);
            const QRectF box(at.x() - extent / 2.0, at.y() - extent / 2.0, extent, extent);
            if (box.intersects(area_))
                painter->drawPixmap(QPointF(std::round(box.x() * ratio) / ratio, std::round(box.y() * ratio) / ratio), marker);
        }
    }
    painter->restore();
}

} // namespace orbitui

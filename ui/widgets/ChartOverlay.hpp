#pragma once
// Line series laid over a chart that a panel owns (the A of an A/B comparison drawn over B): each
// attached to the chart's own axes, dashed by default, named for the legend. The panel may remove
// every series of its chart when it redraws (QChart::removeAllSeries deletes them): the overlay
// notices and makes its series again on the next draw.
#include <QColor>
#include <QList>
#include <QPointF>
#include <QPointer>
#include <QString>

#include <vector>

class QChart;
class QLineSeries;

namespace orbitui {

class ChartOverlay {
public:
    explicit ChartOverlay(QChart* chart) : chart_(chart) {}
    ~ChartOverlay();
    ChartOverlay(const ChartOverlay&) = delete;
    ChartOverlay& operator=(const ChartOverlay&) = delete;

    struct Curve {
        QString name;
        QList<QPointF> points;
        QColor color;
        Qt::PenStyle style = Qt::DashLine;
        double width = 2.0;
    };
    /// Shows exactly `curves` over the chart (on its first horizontal and vertical axes); then
    /// widens those axes to take them in (value axes: to their range; log axes: to whole decades).
    void draw(const std::vector<Curve>& curves);
    /// Removes the overlay's series from the chart.
    void clear();
    /// The overlay's series now in the chart (tests, exports).
    std::vector<QLineSeries*> series() const;
    /// Whether `s` is one of the overlay's series.
    bool owns(const QLineSeries* s) const;
    /// Puts `prefix` in front of the legend names of the chart's other series (those the overlay
    /// does not own), or with `on` false takes it off again: "B: density q" while A is drawn over B.
    void markOthers(const QString& prefix, bool on);

private:
    QChart* chart_;
    std::vector<QPointer<QLineSeries>> series_;
};

} // namespace orbitui

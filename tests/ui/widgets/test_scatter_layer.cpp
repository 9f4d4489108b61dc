// ScatterLayer: a chart's scatter markers painted by one item. The series keep their points but
// show no item per point; the markers appear where Qt Charts would draw them, in the series'
// colours, and follow the marker size (presentation mode), the plot area (a resize) and the series'
// deletion.
#include "widgets/ScatterLayer.hpp"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QGraphicsEllipseItem>
#include <QGraphicsScene>
#include <QImage>
#include <QScatterSeries>
#include <QValueAxis>
#include <QtTest>

#include <memory>

using namespace orbitui;

namespace {

/// A 600 x 400 chart view with axes 0..10 and a scatter series of `points` on a grid (markers 8 px,
/// translucent red with a dark border), painted by a ScatterLayer when `layered`.
struct ScatterChart {
    explicit ScatterChart(bool layered, int points = 300)
    {
        auto* chart = new QChart;
        chart->legend()->hide();
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        x->setRange(0, 10);
        y->setRange(0, 10);
        series->setMarkerSize(8);
        series->setBorderColor(QColor(120, 0, 0));
        series->setColor(QColor(255, 0, 0, 150));
        QList<QPointF> grid;
        for (int i = 0; i < points; ++i)
            grid.append(QPointF(0.5 + (i % 20) * 0.45, 0.5 + (i / 20) * 0.45));
        series->replace(grid);
        if (layered)
            layer = new ScatterLayer(chart);
        if (layer)
            layer->add(series);  // before the chart makes the series' items
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        view = std::make_unique<QChartView>(chart);
        view->setRenderHint(QPainter::Antialiasing);
        view->resize(600, 400);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        QCoreApplication::processEvents();
    }
    /// The view's pixel at the centre of the marker of point `p` (chart coordinates).
    QColor pixelAt(const QImage& image, QPointF p) const
    {
        const QPointF inChart = view->chart()->mapToPosition(p, series);
        const QPoint at = view->mapFromScene(view->chart()->mapToScene(inChart));
        return image.pixelColor(at);
    }
    int visibleEllipseItems() const
    {
        int n = 0;
        for (QGraphicsItem* item : view->scene()->items())
            if (item->type() == QGraphicsEllipseItem::Type && item->isVisible())
                ++n;
        return n;
    }
    QImage grab() const { return view->grab().toImage(); }

    QValueAxis* x = new QValueAxis;
    QValueAxis* y = new QValueAxis;
    QScatterSeries* series = new QScatterSeries;
    ScatterLayer* layer = nullptr;
    std::unique_ptr<QChartView> view;
};

bool near(const QColor& a, const QColor& b, int tolerance)
{
    return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}

} // namespace

class TestScatterLayer : public QObject {
    Q_OBJECT
private slots:
    void theSeriesShowsNoItemPerPointAndKeepsItsPoints()
    {
        ScatterChart plain(false), layered(true);
        QCOMPARE(plain.visibleEllipseItems(), 300);  // what the layer saves: an item per point
        QCOMPARE(layered.visibleEllipseItems(), 0);
        QCOMPARE(layered.series->points().size(), 300);  // the CSV and the linked views read them
        QCOMPARE(layered.layer->series(), QList<QScatterSeries*>{layered.series});
    }

    void theMarkersLookLikeQtChartsOwn()
    {
        ScatterChart plain(false), layered(true);
        const QImage a = plain.grab(), b = layered.grab();
        const QColor white(255, 255, 255);
        for (const QPointF p : {QPointF(0.5, 0.5), QPointF(5.0, 2.3), QPointF(9.05, 6.35)}) {
            const QColor qt = plain.pixelAt(a, p), ours = layered.pixelAt(b, p);
            QVERIFY2(!near(qt, white, 30), qPrintable(qt.name()));  // a marker is there
            QVERIFY2(near(qt, ours, 12), qPrintable(qt.name() + " vs " + ours.name()));
        }
        // Between the markers, the background, in both.
        QVERIFY(near(plain.pixelAt(a, QPointF(9.8, 9.8)), layered.pixelAt(b, QPointF(9.8, 9.8)), 12));
    }

    void theMarkersFollowTheirSizeThePlotAreaAndTheSeries()
    {
        ScatterChart c(true, 1);  // one marker at (0.5, 0.5)
        const QColor white(255, 255, 255);
        const QPointF beside(0.5 + 9.0 * 10.0 / c.view->chart()->plotArea().width(), 0.5);  // 9 px right
        QVERIFY(near(c.pixelAt(c.grab(), beside), white, 30));
        c.series->setMarkerSize(24);  // as presentation mode does
        QCoreApplication::processEvents();
        QVERIFY(!near(c.pixelAt(c.grab(), beside), white, 30));

        c.view->resize(800, 500);  // the plot area moves: the marker with it
        QCoreApplication::processEvents();
        QVERIFY(!near(c.pixelAt(c.grab(), QPointF(0.5, 0.5)), white, 30));

        c.view->chart()->removeAllSeries();  // the panels redraw so
        QCoreApplication::processEvents();
        QVERIFY(c.layer->series().isEmpty());
        const QImage after = c.view->grab().toImage();
        const QPointF corner = c.view->chart()->plotArea().topLeft() + QPointF(30, c.view->chart()->plotArea().height() - 30);
        QVERIFY(near(after.pixelColor(c.view->mapFromScene(c.view->chart()->mapToScene(corner))), white, 30));
    }
};

QTEST_MAIN(TestScatterLayer)
#include "test_scatter_layer.moc"

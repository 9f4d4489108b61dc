// The heatmap's logic without a main window: its colour maps and colour range, the layout of cells,
// labels and colour bar, and the ticks a HeatmapView keeps for rows ordered by a continuous value.
#include "render/ColorMap.hpp"
#include "widgets/HeatmapLayout.hpp"
#include "widgets/HeatmapView.hpp"

#include <QApplication>
#include <QFontMetrics>
#include <QTest>
#include <QColor>
#include <QFontMetricsF>
#include <QImage>
#include <QObject>
#include <QPoint>
#include <QRect>
#include <QSize>
#include <QString>

#include <cmath>
#include <limits>

using namespace orbitui;

namespace {

HeatmapLayoutInput square(int n)
{
    HeatmapLayoutInput in;
    in.font = QApplication::font();
    in.rows = in.columns = n;
    in.barTexts = {"0", "0.5", "1"};
    return in;
}

} // namespace

class TestHeatmap : public QObject {
    Q_OBJECT
private slots:
    // Sequential runs dark to light (magma); diverging is white at the middle (zero) and blue below,
    // red above; t outside [0, 1] is clamped.
    void colourMapsRunTheirWay()
    {
        QVERIFY(colorAt(ColorMap::Sequential, 0.0).lightnessF() < 0.05);
        QVERIFY(colorAt(ColorMap::Sequential, 1.0).lightnessF() > 0.8);
        for (int k = 1; k <= 10; ++k)
            QVERIFY(colorAt(ColorMap::Sequential, k / 10.0).lightnessF() >= colorAt(ColorMap::Sequential, (k - 1) / 10.0).lightnessF());
        QCOMPARE(colorAt(ColorMap::Diverging, 0.5), QColor(247, 247, 247));
        QVERIFY(colorAt(ColorMap::Diverging, 0.0).blue() > colorAt(ColorMap::Diverging, 0.0).red());
        QVERIFY(colorAt(ColorMap::Diverging, 1.0).red() > colorAt(ColorMap::Diverging, 1.0).blue());
        QCOMPARE(colorAt(ColorMap::Diverging, -3.0), colorAt(ColorMap::Diverging, 0.0));
        QCOMPARE(colorAt(ColorMap::Sequential, 7.0), colorAt(ColorMap::Sequential, 1.0));
    }

    // The automatic range is that of the finite cells (cells not computed yet hold NaN); the
    // diverging range is symmetric about 0; one value throughout is widened; a fixed range wins.
    void colourRangeFollowsTheFiniteCells()
    {
        Eigen::MatrixXd m(2, 2);
        m << 0.2, std::numeric_limits<double>::quiet_NaN(), -0.1, 0.7;
        QCOMPARE(colorRange(m, ColorMap::Sequential, std::nullopt), std::make_pair(-0.1, 0.7));
        QCOMPARE(colorRange(m, ColorMap::Diverging, std::nullopt), std::make_pair(-0.7, 0.7));
        QCOMPARE(colorRange(m, ColorMap::Sequential, std::make_pair(0.0, 2.0)), std::make_pair(0.0, 2.0));
        const auto [lo, hi] = colorRange(Eigen::MatrixXd::Constant(3, 3, 4.0), ColorMap::Sequential, std::nullopt);
        QVERIFY(lo < 4.0 && hi > 4.0);
        QCOMPARE(colorRange(Eigen::MatrixXd(), ColorMap::Sequential, std::nullopt), std::make_pair(0.0, 1.0));
        // One pixel per cell; the NaN cell grey, the others coloured over the range.
        const QImage image = colorImage(m, ColorMap::Sequential, -0.1, 0.7);
        QCOMPARE(image.size(), QSize(2, 2));
        QCOMPARE(QColor(image.pixel(1, 0)), QColor(0xdd, 0xdd, 0xdd));
        QCOMPARE(QColor(image.pixel(0, 1)), colorAt(ColorMap::Sequential, 0.0));
        QCOMPARE(QColor(image.pixel(1, 1)), colorAt(ColorMap::Sequential, 1.0));
    }

    // The colour bar's ticks get enough digits to tell a narrow range far from 0 apart.
    void colourBarTicksAreDistinct()
    {
        for (const auto& [lo, hi] : {std::make_pair(0.0, 1.0), std::make_pair(0.999, 1.0), std::make_pair(-1e-6, 1e-6),
                                     std::make_pair(1e5, 1e5 + 3)}) {
            const int digits = colorBarPrecision(lo, hi);
            QVERIFY(digits >= 3 && digits <= 8);
            const QString a = colorBarText(lo, digits), m = colorBarText((lo + hi) / 2, digits), b = colorBarText(hi, digits);
            QVERIFY2(a != m && m != b, qPrintable(a + " " + m + " " + b));
        }
        QCOMPARE(colorBarText(0.0), QString("0"));
    }

    // Cells are square and inside the area, the colour bar right of them with the cells' height.
    void cellsAreSquareWithTheBarBeside()
    {
        for (const QRect area : {QRect(0, 0, 400, 300), QRect(10, 20, 300, 500)}) {
            const HeatmapLayout g = layoutHeatmap(area, square(20));
            QCOMPARE(g.cellW, g.cellH);
            QVERIFY(area.contains(g.cells));
            QVERIFY(area.contains(g.bar));
            QCOMPARE(g.cells.width(), int(std::floor(20 * g.cellW)));
            QCOMPARE(g.bar.left(), g.cells.right() + 10);
            QCOMPARE(g.bar.height(), g.cells.height());
            QCOMPARE(g.bar.width(), kColorBarWidth);
        }
    }

    // Labels in runs (points ordered by class) are written once per block; one label per column
    // wider than a cell (class names under a confusion matrix) is written upwards; numeric ticks
    // reserve room for their texts and marks.
    void labelsChooseTheirPlace()
    {
        QCOMPARE(labelRuns({"a", "a", "b", "b", "b", "a"}).size(), std::size_t(3));
        QCOMPARE(labelRuns({"a", "a", "b"})[1].begin, 2);

        HeatmapLayoutInput blocks = square(100);
        for (int i = 0; i < 100; ++i)
            blocks.rowLabels << QString::number(i / 10);
        blocks.columnLabels = blocks.rowLabels;
        const HeatmapLayout b = layoutHeatmap(QRect(0, 0, 400, 400), blocks);
        QVERIFY(b.rowLabels && b.columnLabels && !b.rotatedColumns);

        HeatmapLayoutInput names = square(10);
        for (int i = 0; i < 10; ++i)
            names.columnLabels << QStringLiteral("a long class name %1").arg(i);
        names.rowLabels = names.columnLabels;
        const HeatmapLayout n = layoutHeatmap(QRect(0, 0, 500, 500), names);
        QVERIFY(n.rotatedColumns);
        QVERIFY(n.columnLabelHeight > QFontMetrics(names.font).height());

        HeatmapLayoutInput ticks = square(40);
        ticks.rowTicks = ticks.columnTicks = {{0.5, -80, "-80"}, {20.5, -40, "-40"}, {39.5, 0, "0"}};
        const HeatmapLayout t = layoutHeatmap(QRect(0, 0, 400, 400), ticks);
        QVERIFY(t.rowLabels && t.columnLabels && !t.rotatedColumns);
        QVERIFY(t.rowLabelWidth >= QFontMetrics(ticks.font).horizontalAdvance("-80") + 3);
        QVERIFY(t.cells.left() >= t.rowLabelWidth);
    }

    // A view keeps numericTicks of its axis values while they fit the matrix, and drops them for a
    // matrix of another size (the axis goes back to its labels) or on clear().
    void viewTicksFollowTheAxisValues()
    {
        HeatmapView view;
        view.resize(300, 300);
        std::vector<double> targets(30);
        for (int k = 0; k < 30; ++k)
            targets[std::size_t(k)] = -100.0 + 3.0 * k;
        view.setMatrix(Eigen::MatrixXd::Identity(30, 30));
        view.setAxisValues(targets, targets);
        const auto expected = numericTicks(targets);
        QCOMPARE(view.rowTicks().size(), expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
            QCOMPARE(view.rowTicks()[k].position, expected[k].position);
            QCOMPARE(view.columnTicks()[k].text, expected[k].text);
        }
        view.setMatrix(Eigen::MatrixXd::Identity(20, 20));
        QVERIFY(view.rowTicks().empty() && view.columnTicks().empty());
        view.setMatrix(Eigen::MatrixXd::Identity(30, 30));  // the values are kept across setMatrix
        QCOMPARE(view.rowTicks().size(), expected.size());
        view.clear();
        QVERIFY(view.rowTicks().empty());
        // The picture with its ticks drawn (a grab of the widget, never shown).
        view.setMatrix(Eigen::MatrixXd::Identity(30, 30));
        QCOMPARE(view.toImage().size(), view.size());
    }

    // Counts are written in the cells where they fit, in a font down to 70 % of the widget's when
    // the cells are a little small for the full one (the second confusion matrix of A/B), and not
    // at all in cells far too small. A cell with text has pixels of the text colour in its middle.
    void valuesAreWrittenWhereTheyFit()
    {
        Eigen::MatrixXd counts = Eigen::MatrixXd::Zero(10, 10);
        counts.diagonal().setConstant(21);
        const QFontMetricsF fm(QApplication::font());
        const double fullCell = std::max(fm.horizontalAdvance("21") + 4, fm.height());
        auto textPixels = [&](int cell) {
            HeatmapView view;
            view.setShowValues(true, 0);
            view.setMatrix(counts);
            // The smallest square view whose cells are `cell` pixels wide (cell width grows with the view).
            auto cellWidth = [&](int side) {
                view.resize(side, side);
                return view.cellCentre(0, 9).x() - view.cellCentre(0, 8).x();
            };
            int lo = 40, hi = 2000;
            while (lo < hi) {
                const int mid = (lo + hi) / 2;
                cellWidth(mid) >= cell ? hi = mid : lo = mid + 1;
            }
            cellWidth(lo);
            const QImage image = view.toImage();
            const QPoint c = view.cellCentre(3, 6);  // off the diagonal, among dark cells: count 0, in white
            int n = 0;
            for (int dy = -2; dy <= 2; ++dy)
                for (int dx = -3; dx <= 3; ++dx)
                    n += QColor(image.pixel(c + QPoint(dx, dy))).lightnessF() > 0.5;
            return n;
        };
        QVERIFY2(textPixels(int(std::ceil(fullCell)) + 2) > 0, "full font");
        QVERIFY2(textPixels(int(std::floor(0.9 * fullCell))) > 0, "a smaller font");
        QCOMPARE(textPixels(int(std::floor(0.4 * fullCell))), 0);
    }
};

QTEST_MAIN(TestHeatmap)
#include "test_heatmap.moc"

// The progress bar the panels share: a worker's fraction done (0..1) shows as round(1000 f) of 1000
// steps, clamped, and NaN as nothing done.
#include "widgets/FractionBar.hpp"

#include <QTest>
#include <QObject>

#include <cmath>

using namespace orbitui;

class TestFractionBar : public QObject {
    Q_OBJECT
private slots:
    void fractionsBecomeSteps_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addColumn<int>("steps");
        QTest::newRow("start") << 0.0 << 0;
        QTest::newRow("done") << 1.0 << 1000;
        QTest::newRow("rounded up") << 0.4567 << 457;
        QTest::newRow("rounded down") << 0.12341 << 123;
        QTest::newRow("below 0") << -0.2 << 0;
        QTest::newRow("above 1") << 1.7 << 1000;
        QTest::newRow("NaN") << std::nan("") << 0;
    }
    void fractionsBecomeSteps()
    {
        QFETCH(double, fraction);
        QFETCH(int, steps);
        FractionBar bar;
        QCOMPARE(bar.minimum(), 0);
        QCOMPARE(bar.maximum(), FractionBar::kSteps);
        QCOMPARE(bar.value(), 0);
        bar.setFraction(fraction);
        QCOMPARE(bar.value(), steps);
        QCOMPARE(bar.fraction(), steps / 1000.0);
    }
};

QTEST_MAIN(TestFractionBar)
#include "test_fraction_bar.moc"

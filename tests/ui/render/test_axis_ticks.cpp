// Tick placement, without a window: numeric ticks of heatmap rows ordered by a continuous value sit
// between the cells whose values enclose them, rounded to the range's power of ten; a geometric grid
// gets 1-2-5 or decade ticks placed in log space; log chart axes span whole decades.
#include "render/AxisTicks.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <vector>

using namespace orbitui;

class TestAxisTicks : public QObject {
    Q_OBJECT
private slots:
    void numericTicksSitWhereTheirValuesFall()
    {
        // Values 10 k (k = 0..99): value u lies at cell u / 10, whose centre is u / 10 + 0.5.
        std::vector<double> v(100);
        for (int k = 0; k < 100; ++k)
            v[std::size_t(k)] = 10.0 * k;
        const auto ticks = numericTicks(v);
        QVERIFY(ticks.size() >= 4 && ticks.size() <= 6);
        for (std::size_t t = 0; t < ticks.size(); ++t) {
            QVERIFY(ticks[t].value >= v.front() && ticks[t].value <= v.back());
            QCOMPARE(ticks[t].position, ticks[t].value / 10.0 + 0.5);
            QCOMPARE(ticks[t].text.toDouble(), ticks[t].value);
            QCOMPARE(std::fmod(ticks[t].value, 100.0), 0.0);  // rounded to the range's power of ten
            if (t > 0)
                QVERIFY(ticks[t].value > ticks[t - 1].value);
        }
        // A log-spaced grid (0.01 .. 100, 10 points): ticks at the powers of ten, placed in log space.
        std::vector<double> g(10);
        for (int k = 0; k < 10; ++k)
            g[std::size_t(k)] = 0.01 * std::pow(1e4, k / 9.0);
        const auto logTicks = numericTicks(g);
        QCOMPARE(int(logTicks.size()), 5);
        for (std::size_t t = 0; t < logTicks.size(); ++t) {
            QCOMPARE(logTicks[t].value, std::pow(10.0, double(t) - 2.0));
            QCOMPARE(logTicks[t].position, 0.5 + 9.0 * double(t) / 4.0);
        }
        // Over less than a decade and a half: 1, 2 and 5 times powers of ten.
        const auto fine = numericTicks({0.1, 0.3, 0.9, 2.7});
        QCOMPARE(int(fine.size()), 5);  // 0.1, 0.2, 0.5, 1, 2
        QCOMPARE(fine[1].value, 0.2);
        QCOMPARE(fine[3].value, 1.0);
        QCOMPARE(fine[3].position, 0.5 + std::log(10.0) / std::log(3.0));
        // Unsorted or empty values: no ticks (the axis keeps its labels).
        QVERIFY(numericTicks({3.0, 1.0, 2.0}).empty());
        QVERIFY(numericTicks({}).empty());
    }

    // Unevenly spaced values (energies of molecules): a tick between two cells is placed by linear
    // interpolation between their centres, so a value a quarter of the way from v[k-1] to v[k] sits
    // a quarter of a cell after the centre of cell k - 1.
    void ticksInterpolateBetweenUnevenValues()
    {
        const std::vector<double> v{-80.0, -62.0, -61.0, -30.0, -2.0};
        const auto ticks = numericTicks(v, 4);
        QVERIFY(!ticks.empty());
        for (const AxisTick& t : ticks) {
            QVERIFY(t.value >= v.front() && t.value <= v.back());
            const auto k = std::size_t(std::lower_bound(v.begin(), v.end(), t.value) - v.begin());
            const double expected = k == 0 ? 0.5 : double(k) - 0.5 + (t.value - v[k - 1]) / (v[k] - v[k - 1]);
            QCOMPARE(t.position, expected);
            QCOMPARE(std::fmod(t.value, 10.0), 0.0);  // a range of 78 over 4 ticks: steps of 10
        }
    }

    // One value throughout: a single tick in the middle of the axis, written with 4 digits.
    void aConstantAxisHasOneTickInTheMiddle()
    {
        const auto ticks = numericTicks(std::vector<double>(6, 2.5));
        QCOMPARE(int(ticks.size()), 1);
        QCOMPARE(ticks[0].position, 3.0);
        QCOMPARE(ticks[0].value, 2.5);
        QCOMPARE(ticks[0].text, QString("2.5"));
        QVERIFY(numericTicks({1.0, std::nan(""), 2.0}).empty());  // not finite: no ticks
    }

    // A log axis spans whole decades around the data, widened by 0.1 % so the end labels show.
    void decadeRangeSpansWholeDecades_data()
    {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<double>("from");  // the decades (before widening)
        QTest::addColumn<double>("to");
        QTest::newRow("inside one decade") << 0.03 << 0.08 << 0.01 << 0.1;
        QTest::newRow("over two decades") << 0.03 << 4.0 << 0.01 << 10.0;
        QTest::newRow("on a power of ten") << 1.0 << 100.0 << 1.0 << 100.0;
        QTest::newRow("one value on a decade") << 10.0 << 10.0 << 10.0 << 100.0;
        QTest::newRow("s from 100 to 1600") << 100.0 << 1600.0 << 100.0 << 10000.0;
        QTest::newRow("hi below lo") << 5.0 << 2.0 << 1.0 << 10.0;
    }
    void decadeRangeSpansWholeDecades()
    {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(double, from);
        QFETCH(double, to);
        const auto [a, b] = decadeRange(lo, hi);
        QVERIFY(std::abs(a / 0.999 - from) <= 1e-12 * from);
        QVERIFY(std::abs(b / 1.001 - to) <= 1e-12 * to);
        QVERIFY(a < std::max(lo, 1e-12) && b > std::max(hi, lo));
    }
    void decadeRangeOfZeroStaysPositive()
    {
        const auto [a, b] = decadeRange(0.0, 0.5);  // errors of exactly 0 on a log axis
        QVERIFY(a > 0 && a < 1e-11);
        QCOMPARE(b, 1.001);
    }
};

QTEST_APPLESS_MAIN(TestAxisTicks)
#include "test_axis_ticks.moc"

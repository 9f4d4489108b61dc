// The one spacing of sweeps (orbit/util/Spacing.hpp): ends exact, evenly in the value or its
// logarithm, and position() its inverse.
#include "orbit/util/Spacing.hpp"

#include <QtTest>

#include <cmath>

using namespace orbit;

class TestSpacing : public QObject {
    Q_OBJECT
private slots:
    void linear()
    {
        const Spacing s{0.02, 3.141592653589793, 40, Spacing::Scale::Linear};
        const std::vector<double> v = s.values();
        QCOMPARE(v.size(), std::size_t(40));
        QCOMPARE(v.front(), 0.02);
        QCOMPARE(v.back(), 3.141592653589793);
        for (std::size_t i = 1; i < v.size(); ++i) QVERIFY(std::abs(v[i] - v[i - 1] - s.step()) < 1e-12);
        QVERIFY(std::abs(s.position(v[17]) - 17.0) < 1e-9);
    }
    void logEndsAreExact()
    {
        // exp(log(1000)) is 999.9999999999989: the last value is `to` itself.
        const Spacing s{0.01, 1000.0, 11, Spacing::Scale::Log};
        const std::vector<double> v = s.values();
        QCOMPARE(v.front(), 0.01);
        QCOMPARE(v.back(), 1000.0);
        QVERIFY(std::abs(v[4] - 1.0) < 1e-12);  // evenly in the logarithm: five decades in ten steps
        QVERIFY(std::abs(s.step() - std::sqrt(10.0)) < 1e-12);
        for (int i = 0; i < 11; ++i) QVERIFY(std::abs(s.position(v[std::size_t(i)]) - i) < 1e-9);
        QCOMPARE(s.position(0.0), -10.0);
        QVERIFY(s.position(1e4) > 10.0);
    }
    void oneValueIsTheMidpoint()
    {
        QCOMPARE((Spacing{1.0, 3.0, 1, Spacing::Scale::Linear}.values()), std::vector<double>{2.0});
        QVERIFY(std::abs(Spacing{1.0, 100.0, 1, Spacing::Scale::Log}.value(0) - 10.0) < 1e-12);
    }
    void indicesAreClamped()
    {
        const Spacing s{1.0, 2.0, 3, Spacing::Scale::Linear};
        QCOMPARE(s.value(-4), 1.0);
        QCOMPARE(s.value(9), 2.0);
    }
};

QTEST_APPLESS_MAIN(TestSpacing)
#include "test_spacing.moc"

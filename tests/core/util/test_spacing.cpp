// orbit/util/Spacing.hpp: even and log spacing over a range, and its inverse.
#include "orbit/util/Spacing.hpp"

#include <QTest>

#include <cmath>

class SpacingTest : public QObject {
    Q_OBJECT
private slots:
    void evenSpacingTakesEqualSteps()
    {
        const auto v = orbit::spacedValues(-1.0, 3.0, 5, false);
        QCOMPARE(v, (std::vector<double>{-1.0, 0.0, 1.0, 2.0, 3.0}));
    }

    void logSpacingTakesEqualRatios()
    {
        const auto v = orbit::spacedValues(0.5, 8.0, 5, true);
        QCOMPARE(v.size(), std::size_t(5));
        for (std::size_t i = 0; i < v.size(); ++i)
            QVERIFY2(std::abs(v[i] - 0.5 * std::pow(2.0, double(i))) < 1e-12, qPrintable(QString::number(v[i], 'g', 17)));
        for (std::size_t i = 1; i < v.size(); ++i)
            QVERIFY(std::abs(v[i] / v[i - 1] - 2.0) < 1e-12);
    }

    void theEndsAreExact()
    {
        // evidence's LO:HI:N[:log] promises HI itself as its last value (exp(log HI) need not be)
        for (bool log : {false, true}) {
            const auto v = orbit::spacedValues(0.02, 3.141592653589793, 40, log);
            QCOMPARE(v.front(), 0.02);
            QCOMPARE(v.back(), 3.141592653589793);
        }
    }

    void oneValueIsTheMiddleAndNoneIsEmpty()
    {
        QCOMPARE(orbit::spacedValues(2.0, 4.0, 1, false), std::vector<double>{3.0});
        QVERIFY(std::abs(orbit::spacedValues(1.0, 100.0, 1, true).front() - 10.0) < 1e-12);
        QVERIFY(orbit::spacedValues(1.0, 2.0, 0, false).empty());
    }

    void theFractionInvertsTheValue()
    {
        for (bool log : {false, true})
            for (double f : {0.0, 0.125, 0.5, 0.9, 1.0, 1.5})
                QVERIFY(std::abs(orbit::spacedFraction(0.01, 1000.0, orbit::spacedValue(0.01, 1000.0, f, log), log) - f) < 1e-12);
        QCOMPARE(orbit::spacedFraction(1.0, 10.0, 0.0, true), -1.0);
        QCOMPARE(orbit::spacedFraction(1.0, 10.0, -3.0, true), -1.0);
    }
};

QTEST_APPLESS_MAIN(SpacingTest)
#include "test_spacing.moc"

#include "orbit/util/Random.hpp"

#include <QTest>
#include <QObject>
#include <QString>
#include <cmath>

using namespace orbit;

class TestRandom : public QObject {
    Q_OBJECT
private slots:
    void sameSeedSameStream()
    {
        Rng a = makeRng(42, 7), b = makeRng(42, 7), c = makeRng(42, 8);
        bool differs = false;
        for (int i = 0; i < 100; ++i) {
            const auto x = a(), y = b(), z = c();
            QCOMPARE(x, y);
            differs |= x != z;
        }
        QVERIFY(differs);
    }
    void normalMoments()
    {
        Rng rng = makeRng(1);
        const int n = 200000;
        double m = 0, m2 = 0;
        for (int i = 0; i < n; ++i) {
            const double z = standardNormal(rng);
            m += z;
            m2 += z * z;
        }
        m /= n;
        m2 /= n;
        QVERIFY2(std::abs(m) < 5.0 / std::sqrt(n), qPrintable(QString::number(m)));
        QVERIFY2(std::abs(m2 - 1.0) < 5.0 * std::sqrt(2.0 / n), qPrintable(QString::number(m2)));
    }
    void uniformIndexCoversRange()
    {
        Rng rng = makeRng(3);
        int counts[5] = {};
        for (int i = 0; i < 50000; ++i) ++counts[uniformIndex(rng, 5)];
        for (int c : counts) QVERIFY(std::abs(c - 10000) < 500);
    }
};

QTEST_APPLESS_MAIN(TestRandom)
#include "test_random.moc"

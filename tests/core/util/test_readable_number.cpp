// Numbers as people write them (orbit/util/ReadableNumber.hpp): the status lines' "kappa = 10"
// where the log-spaced landscape value was 9.999999999999993.
#include "orbit/util/ReadableNumber.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <limits>

using namespace orbit;

class TestReadableNumber : public QObject {
    Q_OBJECT
private slots:
    void readableNumber_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("digits");
        QTest::addColumn<QString>("text");
        QTest::newRow("log-spaced ten") << std::exp(std::log(0.01) + 0.6 * (std::log(1000.0) - std::log(0.01))) << 4 << "10";
        QTest::newRow("rounding carries") << 9.99996 << 4 << "10";
        QTest::newRow("learned kappa") << 14.002544300074476 << 4 << "14";
        QTest::newRow("more digits") << 14.002544300074476 << 6 << "14.0025";
        QTest::newRow("small") << 0.0314382 << 4 << "0.03144";
        QTest::newRow("pi") << 3.141592653589793 << 4 << "3.142";
        QTest::newRow("negative") << -2.5 << 4 << "-2.5";
        QTest::newRow("thousand") << 999.96 << 4 << "1000";
        QTest::newRow("large") << 2.5e7 << 4 << "2.5e7";
        QTest::newRow("tiny") << 1.2e-5 << 4 << "1.2e-5";
        QTest::newRow("at the fixed-point limit") << 1e-4 << 4 << "0.0001";
        QTest::newRow("zero") << 0.0 << 4 << "0";
        QTest::newRow("negative zero") << -0.0 << 4 << "0";
        QTest::newRow("rounds to zero") << -1e-300 << 4 << "-1e-300";
        QTest::newRow("one digit") << 0.26 << 1 << "0.3";
        QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << 4 << "inf";
        QTest::newRow("nan") << std::nan("") << 4 << "nan";
    }
    void readableNumber()
    {
        QFETCH(double, value);
        QFETCH(int, digits);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(orbit::readableNumber(value, digits)), text);
    }
    void parameters()
    {
        QCOMPARE(readableParameter("kappa", 9.999999999999993), std::string("kappa = 10"));
        QCOMPARE(readableParameters({{"rotation.a", 0.5}, {"translation.sigma", 1.23456}}),
                 std::string("rotation.a = 0.5, translation.sigma = 1.235"));
        QCOMPARE(readableParameters({}), std::string());
    }
};

QTEST_APPLESS_MAIN(TestReadableNumber)
#include "test_readable_number.moc"

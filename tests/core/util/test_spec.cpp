#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <QtTest>

using namespace orbit;

class TestSpec : public QObject {
    Q_OBJECT
private slots:
    void parsesNameAndParameters()
    {
        const Spec s = parseSpec("lognormal:mu=0,sigma=0.3", "--dist");
        QCOMPARE(QString::fromStdString(s.name), QString("lognormal"));
        QCOMPARE(s.number("mu"), 0.0);
        QCOMPARE(s.number("sigma"), 0.3);
        QCOMPARE(parseSpec("haar", "--dist").params.size(), size_t(0));
    }
    void rejectsMalformedText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << "";
        QTest::newRow("colon only") << "vonmises:";
        QTest::newRow("no value") << "vonmises:kappa=";
        QTest::newRow("no equals") << "vonmises:kappa";
        QTest::newRow("twice") << "vonmises:kappa=1,kappa=2";
        QTest::newRow("bad name") << "von mises:kappa=1";
    }
    void rejectsMalformedText()
    {
        QFETCH(QString, text);
        QVERIFY_THROWS_EXCEPTION(SpecError, parseSpec(text.toStdString(), "--dist"));
    }
    void numbersAreStrictAndNamed()
    {
        const Spec s = parseSpec("vonmises:kappa=nan,r=2.5,n=7", "--dist");
        try {
            s.number("kappa");
            QFAIL("NaN accepted");
        } catch (const SpecError& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("kappa") && m.contains("nan"), qPrintable(m));
        }
        QVERIFY_THROWS_EXCEPTION(SpecError, s.integer("r", 1, 10));
        QCOMPARE(s.integer("n", 1, 10), 7LL);
        QVERIFY_THROWS_EXCEPTION(SpecError, s.integer("n", 1, 5));
        QVERIFY_THROWS_EXCEPTION(SpecError, s.number("missing"));
        QVERIFY_THROWS_EXCEPTION(SpecError, s.allowOnly({"kappa"}));
    }
    void strictParsers()
    {
        QVERIFY(!parseDouble("1.5x"));
        QVERIFY(!parseDouble("inf"));
        QCOMPARE(*parseDouble(" -2e3 "), -2000.0);
        QVERIFY(!parseInteger("3.0"));
        QCOMPARE(*parseInteger("+12"), 12LL);
    }
};

QTEST_APPLESS_MAIN(TestSpec)
#include "test_spec.moc"

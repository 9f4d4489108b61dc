#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <limits>
#include <random>

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
    void formatNumberIsShortestAndRoundTrips()
    {
        QCOMPARE(formatNumber(0.1), std::string("0.1"));
        QCOMPARE(formatNumber(-0.0), std::string("0"));
        QCOMPARE(formatNumber(1e6), std::string("1e+06"));  // shortest, as std::to_chars writes it
        QCOMPARE(formatNumber(2000), std::string("2000"));
        QCOMPARE(formatNumber(0.1 + 0.2), std::string("0.30000000000000004"));  // not rounded to 0.3
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> exponent(-300, 300), mantissa(-1, 1);
        for (int i = 0; i < 20000; ++i) {
            const double v = mantissa(rng) * std::pow(10.0, exponent(rng));
            QCOMPARE(*parseDouble(formatNumber(v)), v);
        }
        for (double v : {std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min(), -1e-308})
            QCOMPARE(*parseDouble(formatNumber(v)), v);
    }
    void formatSpecIsTheInverseOfParseSpec()
    {
        for (const char* text : {"haar", "vonmises:kappa=0.2", "lognormal:mu=-1,sigma=0.3", "irf:form=cos,mode=auto,r=10,s=2000",
                                 "kif:eta=moments:3,k=5"}) {
            const Spec s = parseSpec(text, "--x");
            const Spec back = parseSpec(formatSpec(s), "--x");
            QCOMPARE(back.name, s.name);
            QCOMPARE(back.params, s.params);
            QCOMPARE(formatSpec(s), std::string(text));  // keys in map order: these texts already are
        }
        QCOMPARE(formatSpec("lognormal", {{"mu", 0.0}, {"sigma", 0.3}}), std::string("lognormal:mu=0,sigma=0.3"));
        QCOMPARE(formatSpec("delta", {}), std::string("delta"));
        const Spec n = parseSpec(formatSpec("gaussian", {{"sigma", 1.0 / 3.0}}), "--kernel");
        QCOMPARE(n.number("sigma"), 1.0 / 3.0);  // every bit survives
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

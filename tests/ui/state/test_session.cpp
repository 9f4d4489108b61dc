// Sessions: every setting (dataset path, selection, embedding inputs, group, each distribution's
// parameters, r, a 64-bit seed, panel) survives save -> load; malformed files are refused with
// the field and the value; presets carry the papers' settings.
#include "state/Presets.hpp"
#include "state/Session.hpp"

#include "orbit/util/Error.hpp"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QByteArray>
#include <QDir>
#include <QIODevice>
#include <QObject>
#include <QString>
#include <QStringList>

using namespace orbitui;

namespace {

SessionState unusualSession()
{
    SessionState s;
    s.dataPath = "/data/some where/qm7.extxyz";
    s.selectedIndex = 4242;
    s.embeddingInputs = {3, 1, 4, 1, 5};
    s.orbit.group = "affine";
    s.orbit.groupValues["cyclic.n"] = 7;
    s.orbit.groupValues["orthogonal.k"] = 33;
    s.orbit.dist = {"noisysort", {{"kappa", 2.5}, {"a", 0.25}, {"sigma", 3.75}, {"mu", -0.5}}};
    s.orbit.factorDists.at("rotation") = {"uniform", {{"kappa", 0.125}, {"a", 1.0625}, {"sigma", 9.0}, {"mu", 0.0}}};
    s.orbit.factorDists.at("translation") = {"gaussian", {{"kappa", 1.0}, {"a", 0.5}, {"sigma", 2.125}, {"mu", 0.0}}};
    s.orbit.factorDists.at("scale") = {"lognormal", {{"kappa", 1.0}, {"a", 0.5}, {"sigma", 0.4375}, {"mu", -0.3125}}};
    s.orbit.r = 77;
    s.orbit.seed = 18446744073709551557ull;  // needs all 64 bits: not representable as a double
    s.training.learn = {"rotation.a", "translation.sigma"};
    s.training.learnEvaluations = 57;
    s.training.learnLandscape = 0;
    s.training.learnPerInput = false;
    s.panel = "orbits";
    return s;
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void saveThenLoadRoundTripsEverySetting()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("s.json");
        const SessionState s = unusualSession();
        QCOMPARE(saveSession(path, s), QString());
        QString error;
        const auto back = loadSession(path, &error);
        QVERIFY2(back.has_value(), qPrintable(error));
        QVERIFY(*back == s);
        QCOMPARE(back->orbit.seed, s.orbit.seed);
        QCOMPARE(back->orbit.distSpec(), s.orbit.distSpec());
    }
    void defaultsRoundTripToo()
    {
        QVERIFY(sessionFromJson(toJson(SessionState{})) == SessionState{});
    }
    void writesNoTemporaryFilesBehind()
    {
        QTemporaryDir dir;
        QCOMPARE(saveSession(dir.filePath("a.json"), unusualSession()), QString());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"a.json"});
    }
    void failedWriteKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("a.json");
        QCOMPARE(saveSession(path, unusualSession()), QString());
        const QByteArray before = [&] { QFile f(path); f.open(QIODevice::ReadOnly); return f.readAll(); }();
        const QString error = saveSession(dir.filePath("missing-dir/a.json"), SessionState{});
        QVERIFY(error.contains("missing-dir"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }
    void malformedSessionsNameTheFieldAndValue_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{\"format\": ") << "not valid JSON";
        QTest::newRow("wrong format") << QByteArray(R"({"format":"other"})") << "format";
        QTest::newRow("newer version") << QByteArray(R"({"format":"orbitlab-session","version":99})") << "version";
        QTest::newRow("negative r") << QByteArray(R"({"format":"orbitlab-session","orbit":{"r":-3}})") << "orbit.r";
        QTest::newRow("fractional r") << QByteArray(R"({"format":"orbitlab-session","orbit":{"r":2.5}})") << "2.5";
        QTest::newRow("unknown group") << QByteArray(R"({"format":"orbitlab-session","orbit":{"group":"spin"}})") << "spin";
        QTest::newRow("unknown distribution")
            << QByteArray(R"({"format":"orbitlab-session","orbit":{"distribution":{"name":"cauchy"}}})") << "cauchy";
        QTest::newRow("kappa as text")
            << QByteArray(R"({"format":"orbitlab-session","orbit":{"distribution":{"kappa":"big"}}})")
            << "orbit.distribution.kappa";
        QTest::newRow("learn as text")
            << QByteArray(R"({"format":"orbitlab-session","training":{"learn":"kappa"}})") << "training.learn";
        QTest::newRow("learn budget too small")
            << QByteArray(R"({"format":"orbitlab-session","training":{"learn_evaluations":1}})") << "training.learn_evaluations";
        QTest::newRow("seed as number") << QByteArray(R"({"format":"orbitlab-session","orbit":{"seed":12}})") << "orbit.seed";
        QTest::newRow("bad index")
            << QByteArray(R"({"format":"orbitlab-session","data":{"embedding":[1,-2]}})") << "data.embedding[1]";
    }
    void malformedSessionsNameTheFieldAndValue()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json);
        f.close();
        QString error;
        QVERIFY(!loadSession(path, &error).has_value());
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY2(error.contains("bad.json"), qPrintable(error));
    }
    void presetsCarryThePapersSettings()
    {
        const auto list = presets();
        QCOMPARE(list.size(), std::size_t(3));
        QCOMPARE(list[0].settings.distSpec(), std::string("vonmises:kappa=0.2"));
        QCOMPARE(list[0].settings.r, 100);
        QCOMPARE(list[1].settings.groupSpec(), std::string("permutation"));
        QCOMPARE(list[1].settings.distSpec(), std::string("noisysort:sigma=1"));
        QCOMPARE(list[1].settings.r, 70);
        QCOMPARE(list[2].settings.groupSpec(), std::string("affine"));
        QCOMPARE(list[2].settings.distSpec(),
                 std::string("rotation=vonmises:kappa=9,translation=gaussian:sigma=0.3,scale=lognormal:mu=0,sigma=0.3"));
        QCOMPARE(list[2].settings.r, 50);
        // The menu names each preset by its data, paper, distributions (the registry's names and
        // symbols; the affine factors in the order they act) and r.
        QCOMPARE(list[0].name, QString("Rotated MNIST — LGIKA: von Mises κ = 0.2, r = 100"));
        QCOMPARE(list[1].name, QString("QM7 — LGIKA: noisy sort σ = 1, r = 70"));
        QCOMPARE(list[2].name, QString("CIFAR-10 — LGIKA: log-normal μ = 0, σ = 0.3 × Gaussian σ = 0.3 × von Mises κ = 9, r = 50"));
    }
    void presetSpecsAreAcceptedByTheCore()
    {
        for (const Preset& p : presets()) {
            const auto group = orbit::makeGroup(p.settings.groupSpec(), orbit::Shape{28, 28, 1}, 0);
            try {
                orbit::makeDistribution(p.settings.distSpec(), *group);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(p.name + ": " + e.what()));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestSession)
#include "test_session.moc"

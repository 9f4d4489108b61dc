// Sessions: every setting (dataset path, selection, embedding inputs, group, each distribution's
// parameters, r, a 64-bit seed, panel) survives save -> load; malformed files are refused with
// the field and the value; presets carry the papers' settings. A panel's own part of the session
// (state/SessionParts.hpp) is read, written, compared and pinned by the session without the session
// naming it; a part this program has no panel for is written back as it was found.
#include "state/JsonFields.hpp"
#include "state/Presets.hpp"
#include "state/Session.hpp"
#include "state/TrainingSettings.hpp"

#include "orbit/training/TrainSettings.hpp"
#include "orbit/util/Spec.hpp"

#include "orbit/util/Error.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QByteArray>
#include <QDir>
#include <QIODevice>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cmath>

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

/// A new panel's settings, as its folder would bring them: the session knows it only as a part.
struct HelloSettings {
    static constexpr const char* kSessionKey = "hello";
    static constexpr bool kPinned = true;
    int count = 3;
    QString word = QStringLiteral("orbit");
    bool operator==(const HelloSettings&) const = default;
    QJsonObject toJson() const { return {{"count", count}, {"word", word}}; }
    static HelloSettings fromJson(const QJsonObject& o)
    {
        HelloSettings h;
        h.count = readInt(o, "count", kSessionKey, h.count, 1, 100);
        h.word = readString(o, "word", kSessionKey, h.word);
        return h;
    }
};

/// A part A of a comparison leaves out, written only off its defaults.
struct ScratchSettings {
    static constexpr const char* kSessionKey = "scratch";
    static constexpr bool kPinned = false;
    QString note;
    bool operator==(const ScratchSettings&) const = default;
    QJsonObject toJson() const { return note.isEmpty() ? QJsonObject{} : QJsonObject{{"note", note}}; }
    static ScratchSettings fromJson(const QJsonObject& o) { return {readString(o, "note", kSessionKey, {})}; }
};

QString refusedField(const QJsonObject& json)
{
    try {
        sessionFromJson(json);
    } catch (const orbit::SpecError& e) {
        return QString::fromStdString(e.field());
    }
    return {};
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
    void aPanelsOwnPartIsKeptWithoutTheSessionNamingIt()
    {
        SessionState s = unusualSession();
        QCOMPARE(s.part<HelloSettings>(), HelloSettings{});  // not kept yet: its defaults
        QVERIFY(s == unusualSession());
        s.part<HelloSettings>().count = 42;
        s.part<ScratchSettings>().note = "look at the tails";
        QVERIFY(!(s == unusualSession()));
        QCOMPARE(sessionDifferences(unusualSession(), s), (QStringList{"hello.count", "scratch.note"}));

        const QJsonObject json = toJson(s);
        QCOMPARE(json.value("hello").toObject(), (QJsonObject{{"count", 42}, {"word", "orbit"}}));
        QCOMPARE(json.value("scratch").toObject(), (QJsonObject{{"note", "look at the tails"}}));
        QCOMPARE(toJson(unusualSession()).value("hello").toObject(), HelloSettings{}.toJson());  // written at its defaults
        QVERIFY(!toJson(unusualSession()).contains("scratch"));  // an empty object is left out
        const SessionState back = sessionFromJson(json);
        QVERIFY(back == s);
        QCOMPARE(back.part<HelloSettings>().count, 42);
        QCOMPARE(back.part<ScratchSettings>().note, QString("look at the tails"));

        // Malformed, it is refused by its field, as the session's own fields are.
        QJsonObject bad = json;
        bad.insert("hello", QJsonObject{{"count", 1000}});
        QCOMPARE(refusedField(bad), QString("hello.count"));
        bad.insert("hello", 7);
        QCOMPARE(refusedField(bad), QString("hello"));

        // Pinned as A: the pinned parts go with it, the others stay with the session.
        s.pinned = pinnedOf(s);
        s.part<HelloSettings>().count = 5;
        QCOMPARE(s.pinned->part<HelloSettings>().count, 42);
        QCOMPARE(s.pinned->part<ScratchSettings>(), ScratchSettings{});
        const QJsonObject pinned = toJson(s).value("pinned").toObject();
        QCOMPARE(pinned.value("hello").toObject().value("count").toInt(), 42);
        QVERIFY(!pinned.contains("scratch"));
        QVERIFY(sessionFromJson(toJson(s)) == s);
        QCOMPARE(sessionDifferences(sessionFromJson(toJson(s)), s), QStringList());
        QJsonObject badPinned = toJson(s);
        QJsonObject p = badPinned.value("pinned").toObject();
        p.insert("hello", QJsonObject{{"word", 3}});
        badPinned.insert("pinned", p);
        QCOMPARE(refusedField(badPinned), QString("pinned.hello.word"));
    }

    void aPartNoPanelHereKeepsIsWrittenBackAsFound()
    {
        // A file from a program with a panel this one lacks: its part comes back unchanged, and is
        // compared as JSON.
        const QJsonObject plugin{{"anything", "at all"}, {"values", QJsonArray{1, 2}}};
        QJsonObject json = toJson(unusualSession());
        json.insert("a_plugin_panel", plugin);
        json.insert("a_note", "not an object: not a part, ignored as before");
        const SessionState s = sessionFromJson(json);
        const QJsonObject back = toJson(s);
        QCOMPARE(back.value("a_plugin_panel").toObject(), plugin);
        QVERIFY(!back.contains("a_note"));
        QVERIFY(sessionFromJson(back) == s);
        QVERIFY(!(s == unusualSession()));
        QCOMPARE(sessionDifferences(unusualSession(), s), (QStringList{"a_plugin_panel.anything", "a_plugin_panel.values"}));
        // Pinned, A keeps it too (it may be pinned in the program that wrote it).
        SessionState pinned = s;
        pinned.pinned = pinnedOf(s);
        QCOMPARE(toJson(pinned).value("pinned").toObject().value("a_plugin_panel").toObject(), plugin);
        QVERIFY(sessionFromJson(toJson(pinned)) == pinned);
    }

    void theTablesRowsTheFormDoesNotSetTravelInTheSession()
    {
        // inner_folds and block_rows: read by the table, kept under their keys, applied to the run.
        SessionState s = unusualSession();
        s.training.more = {{"inner_folds", "5"}, {"block_rows", "256"}};
        const QJsonObject training = toJson(s).value("training").toObject();
        QCOMPARE(training.value("inner_folds").toDouble(), 5.0);
        QCOMPARE(training.value("block_rows").toDouble(), 256.0);
        SessionState back = sessionFromJson(toJson(s));
        QVERIFY(back == s);
        QCOMPARE(sessionDifferences(unusualSession(), s), (QStringList{"training.block_rows", "training.inner_folds"}));
        const orbit::TrainConfig config = makeTrainConfig(back.training, back.orbit);
        QCOMPARE(config.innerFolds, 5);
        QCOMPARE(config.blockRows, 256LL);
        QCOMPARE(makeTrainConfig(unusualSession().training, unusualSession().orbit).blockRows, orbit::TrainConfig{}.blockRows);

        // Every row the form does not set, at a value of its type and range: a row added to the table
        // travels with no change to the session.
        int rows = 0;
        for (const orbit::TrainSetting& row : orbit::trainSettings()) {
            if (formSetsRow(row.key))
                continue;
            ++rows;
            std::string text = row.defaultText();
            if (row.type == orbit::SettingType::Integer || row.type == orbit::SettingType::Number)
                text = orbit::formatNumber(row.type == orbit::SettingType::Integer ? std::floor((row.minimum + row.maximum) / 2)
                                                                                    : (row.minimum + row.maximum) / 2);
            SessionState one;
            one.training.more[row.key] = text;
            const SessionState read = sessionFromJson(toJson(one));
            QVERIFY2(read == one, row.key.c_str());
            QCOMPARE(orbit::settingValue(row, makeTrainConfig(read.training, read.orbit)).text,
                     orbit::readSetting(row, text).text);
        }
        QVERIFY(rows >= 4);  // mean, validation, inner_folds, block_rows

        // Written any way the table reads ("0.250" as text), it reads back as what is written.
        QJsonObject loose = toJson(SessionState{});
        QJsonObject lt = loose.value("training").toObject();
        lt.insert("validation", "0.250");
        lt.insert("block_rows", 256.0);
        loose.insert("training", lt);
        const SessionState first = sessionFromJson(loose);
        QCOMPARE(first.training.more.at("validation"), std::string("0.25"));
        QVERIFY(sessionFromJson(toJson(first)) == first);

        // Malformed, refused by its field.
        QJsonObject bad = toJson(s);
        QJsonObject t = bad.value("training").toObject();
        t.insert("inner_folds", 500);
        bad.insert("training", t);
        QCOMPARE(refusedField(bad), QString("training.inner_folds"));
        t.insert("inner_folds", "many");
        bad.insert("training", t);
        QCOMPARE(refusedField(bad), QString("training.inner_folds"));
        t.insert("inner_folds", 5);
        t.insert("block_rows", QJsonObject{});
        bad.insert("training", t);
        QCOMPARE(refusedField(bad), QString("training.block_rows"));
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

// The working state's file (state/WorkingState.hpp): a process killed (SIGKILL) at random moments
// while it rewrites the file leaves the old content or the new one, never a broken file; the JSON
// round trip keeps every field; a malformed field is refused naming it; the autosave writes off the
// calling thread, the newest state last.
#include "state/WorkingState.hpp"

#include "orbit/util/Error.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QByteArray>
#include <QChar>
#include <QDate>
#include <QDateTime>
#include <QIODevice>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QString>
#include <QTime>

#include <csignal>
#include <random>

#include <sys/wait.h>
#include <unistd.h>

using orbitui::WorkingState;

namespace {

orbit::EvidencePoint point(double kappa, double logEvidence, const std::string& stage)
{
    orbit::EvidencePoint p;
    p.params = {{"kappa", kappa}};
    p.logEvidence = logEvidence;
    p.stage = stage;
    return p;
}

WorkingState sample(double kappa)
{
    WorkingState w;
    w.session.dataPath = "/data/digits.png";
    w.session.orbit.setParameter("kappa", kappa);
    w.session.panel = "group";
    w.sessionFile = "/home/u/plan.json";
    w.savedSession = w.session;
    w.lesson = 1;
    w.lessonStep = 2;
    orbitui::OrbitSettings undo = w.session.orbit;
    undo.setParameter("kappa", 1.0);
    w.learnUndo = undo;
    w.learned = "Learned κ = 7.5 (log evidence 2460.70)";
    w.learnedAt = QDateTime(QDate(2026, 11, 26), QTime(12, 0), Qt::UTC);
    w.trained = "accuracy 0.92";
    w.learnPicture.parameters = {"kappa"};
    w.learnPicture.learnedLandscape = true;
    w.learnPicture.landscapePoints = {point(1.0, -12.5, ""), point(7.5, -3.25, "")};
    w.learnPicture.path = {point(1.0, -12.5, "scan"), point(7.5, -3.25, "lbfgs")};
    w.learnPicture.best = 1;
    w.groupFactor = "scale";
    w.thumbnailSize = 120;
    w.savedAt = QDateTime(QDate(2026, 11, 26), QTime(12, 2, 30), Qt::UTC);
    return w;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool sameState(const WorkingState& a, const WorkingState& b)
{
    return QJsonDocument(orbitui::toJson(a)).toJson() == QJsonDocument(orbitui::toJson(b)).toJson();
}

} // namespace

class TestWorkingStateFile : public QObject {
    Q_OBJECT
private slots:
    void roundTripKeepsEveryField()
    {
        const WorkingState w = sample(7.5);
        const WorkingState back = orbitui::workingStateFromJson(orbitui::toJson(w));
        QVERIFY(sameState(back, w));
        QCOMPARE(back.session, w.session);
        QCOMPARE(back.learnUndo, w.learnUndo);
        QCOMPARE(back.lesson, 1);
        QCOMPARE(back.lessonStep, 2);
        QCOMPARE(back.groupFactor, QString("scale"));
        QCOMPARE(back.thumbnailSize, 120);
        QCOMPARE(back.learnPicture.parameters, w.learnPicture.parameters);
        QCOMPARE(back.learnPicture.path.size(), std::size_t(2));
        QCOMPARE(back.learnPicture.path[1].stage, std::string("lbfgs"));
        QCOMPARE(back.learnPicture.path[1].params.at("kappa"), 7.5);
        QCOMPARE(back.learnPicture.landscapePoints[0].logEvidence, -12.5);
        QCOMPARE(back.learnPicture.best, 1);
        QVERIFY(back.learnPicture.learnedLandscape);
        QVERIFY(!back.sessionModified());
        WorkingState changed = back;
        changed.session.orbit.setParameter("kappa", 3.0);
        QVERIFY(changed.sessionModified());
        changed = back;
        changed.session.panel = "kernels";  // looking at another panel is no change
        QVERIFY(!changed.sessionModified());
    }

    void timesThatAreNotSetReadBackAsNotSet()
    {
        WorkingState w = sample(2.0);
        w.learnedAt = {};
        w.savedAt = {};
        const WorkingState back = orbitui::workingStateFromJson(orbitui::toJson(w));
        QVERIFY(!back.learnedAt.isValid() && !back.savedAt.isValid());
        QCOMPARE(back.learned, w.learned);
    }

    void describesWhatWasThere()
    {
        const QString text = orbitui::describe(sample(7.5));
        QVERIFY2(text.startsWith("digits.png, rotation, vonmises κ=7.5") && text.contains("lesson 2, step 3") &&
                     text.contains("learned 2 min before the end"),
                 qPrintable(text));
    }

    void malformedFieldsAreNamed_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("field");
        QTest::newRow("format") << "format" << QJsonValue("x") << "format";
        QTest::newRow("newer") << "version" << QJsonValue(2) << "version";
        QTest::newRow("session field") << "session" << QJsonValue(QJsonObject{{"format", "orbitlab-session"}, {"orbit", QJsonObject{{"r", -1}}}})
                                       << "session.orbit.r";
        QTest::newRow("time") << "saved_at" << QJsonValue("yesterday") << "saved_at";
        QTest::newRow("clean") << "clean_exit" << QJsonValue(1) << "clean_exit";
        QTest::newRow("lesson") << "lesson" << QJsonValue(QJsonObject{{"index", -2}, {"step", 0}}) << "lesson.index";
        QTest::newRow("thumbnails") << "view" << QJsonValue(QJsonObject{{"thumbnail_size", 5000}}) << "view.thumbnail_size";
        QTest::newRow("factor") << "view" << QJsonValue(QJsonObject{{"group_factor", 3}}) << "view.group_factor";
    }
    void malformedPicturesAreNamed_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("field");
        QTest::newRow("no parameters") << "parameters" << QJsonValue(QJsonArray{}) << "learned.picture.parameters";
        QTest::newRow("a point without kappa")
            << "path" << QJsonValue(QJsonArray{QJsonObject{{"params", QJsonObject{{"a", 1.0}}}, {"log_evidence", 1.0}}})
            << "learned.picture.path[0].params";
        QTest::newRow("NaN evidence written as a string")
            << "landscape_points" << QJsonValue(QJsonArray{QJsonObject{{"params", QJsonObject{{"kappa", 1.0}}}, {"log_evidence", "nan"}}})
            << "learned.picture.landscape_points[0].log_evidence";
        QTest::newRow("best past the path") << "best" << QJsonValue(9) << "learned.picture.best";
        QTest::newRow("grid for two parameters") << "landscape" << QJsonValue(QJsonArray{QJsonArray{1.0}, QJsonArray{2.0}})
                                                 << "learned.picture.landscape";
    }
    void malformedPicturesAreNamed()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, field);
        QJsonObject json = orbitui::toJson(sample(1.0));
        QJsonObject learned = json.value("learned").toObject();
        QJsonObject picture = learned.value("picture").toObject();
        picture.insert(key, value);
        learned.insert("picture", picture);
        json.insert("learned", learned);
        try {
            orbitui::workingStateFromJson(json);
            QFAIL("accepted");
        } catch (const orbit::SpecError& e) {
            QCOMPARE(QString::fromStdString(e.field()), field);
        }
    }
    void malformedFieldsAreNamed()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, field);
        QJsonObject json = orbitui::toJson(sample(1.0));
        json.insert(path, value);
        try {
            orbitui::workingStateFromJson(json);
            QFAIL("accepted");
        } catch (const orbit::SpecError& e) {
            QCOMPARE(QString::fromStdString(e.field()), field);
        }
    }

    /// The test: kill during autosave leaves either the old or the new file.
    void killedWhileWritingLeavesTheOldOrTheNewFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("working-state.json");
        // Two states of different sizes (the larger one several pages), so a torn write would show.
        WorkingState a = sample(0.5), b = sample(7.5);
        b.trained = QString(20000, QChar('x'));
        const QByteArray bytesA = QJsonDocument(orbitui::toJson(a)).toJson(QJsonDocument::Compact);
        const QByteArray bytesB = QJsonDocument(orbitui::toJson(b)).toJson(QJsonDocument::Compact);
        QVERIFY(orbitui::writeAtomically(path, bytesA).isEmpty());
        std::mt19937 rng(32);
        int sawA = 0, sawB = 0;
        for (int kill = 0; kill < 50; ++kill) {
            const pid_t child = fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                for (long i = 0;; ++i)
                    if (!orbitui::writeAtomically(path, i % 2 ? bytesA : bytesB).isEmpty())
                        _exit(3);
            }
            usleep(std::uniform_int_distribution<int>(200, 20000)(rng));
            ::kill(child, SIGKILL);
            int status = 0;
            QCOMPARE(waitpid(child, &status, 0), child);
            QVERIFY(WIFSIGNALED(status));  // killed while writing, not finished or failed
            const QByteArray now = readAll(path);
            QVERIFY2(now == bytesA || now == bytesB, qPrintable(QString("kill %1: %2 bytes, neither state").arg(kill).arg(now.size())));
            (now == bytesA ? sawA : sawB) += 1;
            orbitui::workingStateFromJson(QJsonDocument::fromJson(now).object());  // and it reads
        }
        qInfo("50 kills: the old state %d times, the new one %d times, never a broken file", sawA, sawB);
    }

    void autosaveWritesTheNewestStateOffTheCallingThread()
    {
        QTemporaryDir dir;
        orbitui::StateStore store(dir.filePath("state"));
        QVERIFY(store.acquire());
        for (int i = 1; i <= 20; ++i)
            store.schedule(sample(i));
        QVERIFY(QTest::qWaitFor([&] {
            const QByteArray now = readAll(store.filePath());
            return !now.isEmpty() && orbitui::workingStateFromJson(QJsonDocument::fromJson(now).object()).session.orbit.parameter("kappa") == 20.0;
        }));
        QVERIFY(store.writes() >= 1 && store.writes() <= 20);
        WorkingState last = sample(21);
        last.cleanExit = true;
        QVERIFY(store.writeNow(last).isEmpty());
        store.schedule(sample(22));  // after a clean quit's state nothing more is written
        QTest::qWait(200);
        const auto previous = store.readPrevious();
        QCOMPARE(previous.kind, orbitui::StateStore::Previous::Kind::Clean);
        QCOMPARE(previous.state.session.orbit.parameter("kappa"), 21.0);
    }
};

QTEST_GUILESS_MAIN(TestWorkingStateFile)
#include "test_working_state_file.moc"

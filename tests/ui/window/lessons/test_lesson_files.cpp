// Lessons are data (resources/lessons/*.json, read by state/Lessons.cpp): every bundled file loads,
// in file-name order, and every step after the first sets exactly one real session field (a panel,
// a distribution parameter within its range, ...). A lesson file that is broken is refused at load
// with one line naming the file, the place in it and what is wrong. A lesson's panel is one the
// window registers (window/shell/PanelList.cpp), as in the application.
#include "state/Lessons.hpp"
#include "state/Session.hpp"
#include "window/panels/PanelDescriptor.hpp"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QTest>

#include <algorithm>
#include <stdexcept>

using namespace orbitui;

namespace {

/// A small valid lesson with `extra` steps after its first, as a lesson file's text.
QByteArray lessonText(const QString& extraSteps, const QString& start = R"({"panel": "orbits"})")
{
    return QString(R"({"name": "toy", "title": "A toy", "data": "digits.png", "start": %1,
                      "steps": [{"title": "First", "text": ["<p>One.</p>", "<p>Two.</p>"]}%2]})")
        .arg(start, extraSteps)
        .toUtf8();
}

/// The message parseLesson refuses `text` with; empty when it takes it.
QString refusal(const QByteArray& text)
{
    try {
        parseLesson(text, "toy.json");
    } catch (const std::logic_error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestLessonFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(!panelDescriptors().empty()); }  // the panels are registered and linked in

    void bundledLessonsLoadInFileOrder()
    {
        const QStringList files = QDir(":/lessons").entryList({"*.json"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 6);
        QCOMPARE(lessons().size(), std::size_t(files.size()));
        QCOMPARE(lessons().front().name, QString("orbit"));
        for (std::size_t i = 0; i < lessons().size(); ++i) {
            const Lesson& l = lessons()[i];
            QVERIFY2(files[int(i)].endsWith("-" + l.name + ".json"), qPrintable(files[int(i)]));
            QVERIFY(!l.steps.empty() && !l.steps.front().change);
            QVERIFY(lessonPanelNames().contains(l.start.panel));
            SessionState s = sessionAt(l, 0, "/data/" + l.dataFile);
            for (int k = 1; k < int(l.steps.size()); ++k) {
                const LessonStep& step = l.steps[std::size_t(k)];
                const SessionState next = sessionAt(l, k, "/data/" + l.dataFile);
                QStringList diff = sessionDifferences(s, next);
                if (!step.dataFile.isEmpty()) {
                    // Another bundled file (it is in resources/data), with the settings its "with" names.
                    QVERIFY2(QFileInfo::exists(QStringLiteral(ORBIT_SOURCE_DIR "/resources/data/") + step.dataFile), qPrintable(step.dataFile));
                    QCOMPARE(QFileInfo(next.dataPath).fileName(), step.dataFile);
                    diff.removeIf([&step](const QString& f) {
                        return f != step.field && std::any_of(step.with.begin(), step.with.end(),
                                                              [&f](const QString& w) { return f == w || f.startsWith(w + "."); });
                    });
                }
                QCOMPARE(diff, QStringList{step.field});
                QVERIFY(lessonPanelNames().contains(next.panel));
                s = next;
            }
        }
    }

    void aGoodFileReadsAsWritten()
    {
        const Lesson l = parseLesson(lessonText(R"(, {"title": "Wider", "set": {"orbit.distribution.kappa": 0.5}, "text": "<p>Wide.</p>"},
                                                 {"title": "Kernels", "set": {"panel": "kernels"}, "text": "<p>K.</p>"})"),
                                     "toy.json");
        QCOMPARE(l.name, QString("toy"));
        QCOMPARE(l.steps.size(), std::size_t(3));
        QCOMPARE(l.steps[0].text, QString("<p>One.</p><p>Two.</p>"));
        QCOMPARE(l.steps[1].field, QString("orbit.distribution.kappa"));
        const SessionState s = sessionAt(l, 2, "/x.png");
        QCOMPARE(s.orbit.dist.value("kappa"), 0.5);
        QCOMPARE(s.panel, QString("kernels"));
        QCOMPARE(s.dataPath, QString("/x.png"));
    }

    // A step may open another bundled data file with the settings that suit it; the steps after it
    // build on that session. Lesson 7 ends on G2 this way.
    void aStepOpensAnotherDataFile()
    {
        const Lesson l = parseLesson(lessonText(R"(, {"title": "Molecules", "set": {"data": "g2.extxyz"},
                                                    "with": {"orbit": {"group": "permutation", "distribution": {"name": "noisysort", "sigma": 1}},
                                                             "training": {"sweep_axis": ""}, "data": {"selected": 100}, "panel": "training"},
                                                    "text": "<p>M.</p>"},
                                                   {"title": "Sharper", "set": {"orbit.distribution.sigma": 0.5}, "text": "<p>S.</p>"})"),
                                     "toy.json");
        QCOMPARE(l.steps[1].field, QStringLiteral("data.path"));
        QCOMPARE(l.steps[1].dataFile, QStringLiteral("g2.extxyz"));
        const SessionState s = sessionAt(l, 2, "/x.png");
        QCOMPARE(QFileInfo(s.dataPath).fileName(), QStringLiteral("g2.extxyz"));
        QVERIFY(QFileInfo::exists(s.dataPath));
        QCOMPARE(s.orbit.group, std::string("permutation"));
        QCOMPARE(s.orbit.dist.value("sigma"), 0.5);
        QCOMPARE(s.selectedIndex, 100);
        QCOMPARE(s.panel, QStringLiteral("training"));
        const Lesson seven = lessons()[std::size_t(findLesson("breaks"))];
        QCOMPARE(seven.steps.back().field, QStringLiteral("predict.swap"));
        QCOMPARE(QFileInfo(sessionAt(seven, int(seven.steps.size()) - 1, "/d/digits.png").dataPath).fileName(), QStringLiteral("g2.extxyz"));
    }

    void brokenFilesAreRefusedSayingWhere_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{\"name\": ") << "toy.json: byte";
        QTest::newRow("unknown key") << lessonText("").replace("\"title\": \"A toy\"", "\"tittle\": \"A toy\"")
                                     << "unknown key tittle";
        QTest::newRow("no such field") << lessonText(R"(, {"title": "x", "set": {"orbit.distribution.kapa": 2}, "text": "t"})")
                                       << "not exactly orbit.distribution.kapa";
        QTest::newRow("through a value") << lessonText(R"(, {"title": "x", "set": {"panel.name": "group"}, "text": "t"})")
                                         << "steps[1].set: no session field panel.name";
        QTest::newRow("two fields") << lessonText(R"(, {"title": "x", "set": {"panel": "group", "orbit.r": 4}, "text": "t"})")
                                    << "steps[1].set: expected exactly one session field";
        QTest::newRow("no such panel") << lessonText(R"(, {"title": "x", "set": {"panel": "kernal"}, "text": "t"})")
                                       << "no panel kernal";
        QTest::newRow("value out of range") << lessonText(R"(, {"title": "x", "set": {"orbit.distribution.kappa": -1}, "text": "t"})")
                                            << "kappa";
        QTest::newRow("set that changes nothing") << lessonText(R"(, {"title": "x", "set": {"panel": "orbits"}, "text": "t"})")
                                                  << "not exactly panel";
        QTest::newRow("first step sets") << QByteArray(R"({"name": "toy", "title": "t", "data": "digits.png", "start": {},
                                                          "steps": [{"title": "x", "set": {"panel": "group"}, "text": "t"}]})")
                                         << "the first step loads the lesson";
        QTest::newRow("bad start") << lessonText("", R"({"orbit": {"group": "rotashun"}})") << "start";
        QTest::newRow("data with a path") << lessonText(R"(, {"title": "x", "set": {"data": "../g2.extxyz"}, "text": "t"})")
                                          << "a bundled data file's name";
        QTest::newRow("data and another field") << lessonText(R"(, {"title": "x", "set": {"data": "g2.extxyz", "panel": "group"}, "text": "t"})")
                                                << "alone";
        QTest::newRow("with without data") << lessonText(R"(, {"title": "x", "set": {"panel": "group"}, "with": {"orbit": {}}, "text": "t"})")
                                           << "only a step that sets \"data\" has \"with\"";
        QTest::newRow("with a bad group") << lessonText(R"(, {"title": "x", "set": {"data": "g2.extxyz"}, "with": {"orbit": {"group": "rotashun"}}, "text": "t"})")
                                          << "rotashun";
        QTest::newRow("no text") << lessonText(R"(, {"title": "x", "set": {"panel": "group"}})") << "steps[1].text: expected text";
    }

    void brokenFilesAreRefusedSayingWhere()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const QString message = refusal(text);
        QVERIFY2(message.startsWith("lesson file toy.json"), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(!message.contains('\n'), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestLessonFiles)
#include "test_lesson_files.moc"

// Guided lessons: the table names only what the registry has and each step changes the one field
// it names; every lesson, walked from its first step to its last with the dock's Next button, loads
// its data, shows its panel, changes exactly that field in the window's session (captureSession),
// shows a new text and leaves no error strip; Back puts back the session from before the Next.
#include "WindowFixture.hpp"

#include "state/AnalysisSettings.hpp"
#include "state/LabState.hpp"
#include "state/Lessons.hpp"
#include "widgets/Panel.hpp"
#include "window/lessons/LessonDock.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QPushButton>
#include <QTest>

#include <algorithm>
#include <QObject>
#include <QString>
#include <QStringList>

#include <set>
#include <stdexcept>

using orbittest::WindowFixture;
using orbitui::Lesson;
using orbitui::SessionState;

namespace {

/// True once the data have loaded and every panel is idle (a minute at most).
bool settle(orbitui::MainWindow& w)
{
    return QTest::qWaitFor([&] { return !w.dataPanel()->isLoading() && w.isIdle(); }, 120000);
}

/// The text of the first panel that shows an error, or empty.
QString anyError(const orbitui::MainWindow& w)
{
    for (orbitui::Panel* p : w.panels())
        if (p->hasError())
            return p->name() + ": " + p->errorText();
    return {};
}

} // namespace

class TestLessons : public QObject {
    Q_OBJECT
private slots:
    void theTableHasTheSixLessons()
    {
        const auto& all = orbitui::lessons();
        QVERIFY(all.size() >= 6);
        const QStringList names{"orbit", "locality", "kernels", "features", "molecules", "evidence"};
        std::set<QString> seen;
        for (std::size_t i = 0; i < all.size(); ++i) {
            const Lesson& l = all[i];
            if (i < static_cast<std::size_t>(names.size()))
                QCOMPARE(l.name, names[static_cast<int>(i)]);
            QVERIFY2(seen.insert(l.name).second, qPrintable(l.name));
            QVERIFY2(l.steps.size() >= 3, qPrintable(l.name));
            QVERIFY(!QFileInfo(orbittest::bundled(l.dataFile.toUtf8().constData())).filePath().isEmpty());
            QVERIFY2(QFileInfo::exists(orbittest::bundled(l.dataFile.toUtf8().constData())), qPrintable(l.dataFile));
            for (const auto& s : l.steps)
                QVERIFY2(!s.text.isEmpty() && !s.title.isEmpty(), qPrintable(l.name));
            QCOMPARE(orbitui::findLesson(l.name), static_cast<int>(i));
            QCOMPARE(orbitui::findLesson(QString::number(i + 1)), static_cast<int>(i));
        }
        QCOMPARE(orbitui::findLesson("nope"), -1);
        QCOMPARE(orbitui::findLesson("0"), -1);
        QCOMPARE(orbitui::findLesson(QString::number(all.size() + 1)), -1);
    }

    void differencesNameTheFieldThatChanged()
    {
        const SessionState a;
        QVERIFY(orbitui::sessionDifferences(a, a).isEmpty());
        auto one = [&](auto edit) -> QStringList {
            SessionState b = a;
            edit(b);
            if (a == b)
                return {"(no change)"};
            return orbitui::sessionDifferences(a, b);
        };
        QCOMPARE(one([](SessionState& s) { s.orbit.dist.setValue("kappa", 7); }), QStringList{"orbit.distribution.kappa"});
        QCOMPARE(one([](SessionState& s) { s.orbit.factorDists.at("rotation").setValue("kappa", 7); }), QStringList{"orbit.rotation.kappa"});
        QCOMPARE(one([](SessionState& s) { s.orbit.r = 7; }), QStringList{"orbit.r"});
        QCOMPARE(one([](SessionState& s) { s.panel = "group"; }), QStringList{"panel"});
        QCOMPARE(one([](SessionState& s) { s.part<orbitui::KernelsSettings>().s = 7; }), QStringList{"kernels.s"});
        QCOMPARE(one([](SessionState& s) { s.part<orbitui::ApproximationSettings>().rList = {7}; }), QStringList{"approximation.r_list"});
        QCOMPARE(one([](SessionState& s) { s.training.learn = {"kappa"}; }), QStringList{"training.learn"});
        QCOMPARE(one([](SessionState& s) { s.dataPath = "x"; }), QStringList{"data.path"});
        const QStringList two = one([](SessionState& s) {
            s.orbit.dist.setValue("sigma", 3);
            s.embeddingInputs = {1};
        });
        QCOMPARE(two, (QStringList{"data.embedding", "orbit.distribution.sigma"}));
    }

    void aLessonNamingWhatTheRegistryLacksIsRefused()
    {
        const Lesson good = orbitui::lessons().front();
        orbitui::checkLesson(good);  // the table's own lesson passes

        auto refusal = [](const Lesson& l) -> QString {
            try {
                orbitui::checkLesson(l);
            } catch (const std::logic_error& e) {
                return QString::fromUtf8(e.what());
            }
            return {};
        };
        Lesson bad = good;
        bad.start.orbit.dist.name = "vonmisses";
        QVERIFY2(refusal(bad).contains("no distribution vonmisses"), qPrintable(refusal(bad)));
        bad = good;
        bad.start.orbit.group = "rotations";
        QVERIFY2(refusal(bad).contains("no group rotations"), qPrintable(refusal(bad)));
        bad = good;
        bad.start.training.learner = "lasso";
        QVERIFY2(refusal(bad).contains("no learner lasso"), qPrintable(refusal(bad)));
        bad = good;
        bad.start.panel = "kernel";
        QVERIFY2(refusal(bad).contains("no panel kernel"), qPrintable(refusal(bad)));
        bad = good;
        bad.steps[1].change = [](SessionState& s) { s.orbit.dist.setValue("kappa", -1); };
        bad.steps[1].field = "orbit.distribution.kappa";
        QVERIFY2(refusal(bad).contains("kappa") && refusal(bad).contains("step 2"), qPrintable(refusal(bad)));
        // A step that changes two things, or another field than it names.
        bad = good;
        bad.steps[1].change = [](SessionState& s) {
            s.orbit.dist.setValue("kappa", 2);
            s.orbit.r = 5;
        };
        bad.steps[1].field = "orbit.distribution.kappa";
        QVERIFY2(refusal(bad).contains("not exactly orbit.distribution.kappa"), qPrintable(refusal(bad)));
        bad = good;
        bad.steps[1].field = "orbit.r";
        QVERIFY2(refusal(bad).contains("not exactly orbit.r"), qPrintable(refusal(bad)));
    }

    void everyLessonWalksForwardAndBackThroughTheDock_data()
    {
        QTest::addColumn<int>("index");
        const auto& all = orbitui::lessons();
        for (std::size_t i = 0; i < all.size(); ++i)
            QTest::newRow(all[i].name.toUtf8().constData()) << static_cast<int>(i);
    }
    void everyLessonWalksForwardAndBackThroughTheDock()
    {
        QFETCH(int, index);
        const Lesson& lesson = orbitui::lessons()[static_cast<std::size_t>(index)];
        WindowFixture fx;
        orbitui::MainWindow& w = *fx.window;
        w.show();
        orbitui::LessonDock* dock = w.lessonDock();
        QVERIFY(dock && !dock->isVisible());

        // Started from the Lessons menu, as a user would.
        QAction* entry = nullptr;
        for (QAction* a : dock->menu()->actions())
            if (a->text() == lesson.title)
                entry = a;
        QVERIFY2(entry, qPrintable(lesson.title));
        entry->trigger();
        QVERIFY(dock->isVisible());
        QVERIFY(settle(w));
        QVERIFY2(w.state()->dataset(), qPrintable(anyError(w)));
        QCOMPARE(QFileInfo(w.state()->datasetPath()).fileName(), lesson.dataFile);
        QCOMPARE(w.currentPanel()->name(), lesson.start.panel);
        QCOMPARE(w.state()->orbitSettings().dist, lesson.start.orbit.dist);
        QVERIFY2(anyError(w).isEmpty(), qPrintable(anyError(w)));
        QCOMPARE(dock->stepIndex(), 0);
        QVERIFY(!dock->backButton()->isEnabled());

        for (std::size_t i = 1; i < lesson.steps.size(); ++i) {
            const orbitui::LessonStep& step = lesson.steps[i];
            const SessionState before = w.session()->capture();
            const QString textBefore = dock->text();
            QVERIFY(dock->nextButton()->isEnabled());
            QTest::mouseClick(dock->nextButton(), Qt::LeftButton);
            QVERIFY(settle(w));
            const SessionState after = w.session()->capture();
            QVERIFY2(!(before == after), qPrintable(step.title));
            QStringList diff = orbitui::sessionDifferences(before, after);
            if (!step.dataFile.isEmpty())  // another data file, with the settings its "with" names
                diff.removeIf([&step](const QString& f) {
                    return f != step.field && std::any_of(step.with.begin(), step.with.end(),
                                                          [&f](const QString& w) { return f == w || f.startsWith(w + "."); });
                });
            QCOMPARE(diff, QStringList{step.field});
            // The value the step sets: the step applied to the session before gives the one after.
            SessionState expected = before;
            step.change(expected);
            QVERIFY2(expected == after, qPrintable(step.title + ": " + orbitui::sessionDifferences(expected, after).join(", ") + " " +
                                                   expected.dataPath + " " + after.dataPath));
            QCOMPARE(dock->stepIndex(), static_cast<int>(i));
            QVERIFY(dock->text() != textBefore);
            QCOMPARE(w.currentPanel()->name(), after.panel);
            QVERIFY2(anyError(w).isEmpty(), qPrintable(step.title + ": " + anyError(w)));
            QVERIFY(w.isEnabled() && dock->isVisible() && dock->backButton()->isEnabled());

            // Back returns to the session before the Next, and Next again to the one after it.
            QTest::mouseClick(dock->backButton(), Qt::LeftButton);
            QVERIFY(settle(w));
            QVERIFY2(w.session()->capture() == before, qPrintable(orbitui::sessionDifferences(before, w.session()->capture()).join(", ")));
            QCOMPARE(dock->text(), textBefore);
            QCOMPARE(dock->stepIndex(), static_cast<int>(i) - 1);
            QTest::mouseClick(dock->nextButton(), Qt::LeftButton);
            QVERIFY(settle(w));
            QVERIFY(w.session()->capture() == after);
        }
        QVERIFY(!dock->nextButton()->isEnabled());  // the last step
        QVERIFY2(anyError(w).isEmpty(), qPrintable(anyError(w)));
    }

    void startingAtAStepAppliesTheStepsBefore()
    {
        const Lesson& lesson = orbitui::lessons()[1];  // locality: κ 0 → 1 → 4 → 16
        WindowFixture fx;
        orbitui::MainWindow& w = *fx.window;
        QVERIFY(w.lessonDock()->start(1, 2));
        QVERIFY(settle(w));
        QCOMPARE(w.state()->orbitSettings().dist.value("kappa"), 4.0);
        QCOMPARE(w.lessonDock()->text(), lesson.steps[2].text);
        QTest::mouseClick(w.lessonDock()->backButton(), Qt::LeftButton);
        QVERIFY(settle(w));
        QCOMPARE(w.state()->orbitSettings().dist.value("kappa"), 1.0);
        QVERIFY(!w.lessonDock()->start(1, static_cast<int>(lesson.steps.size())));  // out of range
    }
};

QTEST_MAIN(TestLessons)
#include "test_lessons.moc"

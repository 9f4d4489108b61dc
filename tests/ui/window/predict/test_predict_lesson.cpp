// Lesson 7's molecule steps walked as a student walks them, offscreen at 1280 x 720: the step that
// opens the bundled G2 set loads it with its settings; Run and Pin as A (plain rf), Next, Run (the
// noisy-sort irf model as B), Next to the Predict panel, Next to the swap of atoms 0 and 4 of
// acetamide. What the last step's text says is what the run gives: B's energy changes within its
// Monte Carlo error, A's (no Monte Carlo error) by more, and the line under the bars says both.
// With ORBIT_SCREENSHOTS=DIR the window is saved as DIR/lesson7-g2-swap.png and, with a jitter of
// 0.05 Å on top, DIR/predict-molecule-swap-jitter.png (1280 x 720).
#include "state/LabState.hpp"
#include "state/Lessons.hpp"
#include "state/workers/PredictTask.hpp"
#include "widgets/Panel.hpp"
#include "window/compare/CompareActions.hpp"
#include "window/compare/ComparisonViews.hpp"
#include "window/lessons/LessonDock.hpp"
#include "window/predict/PredictPanel.hpp"
#include "window/training/TrainingComparison.hpp"
#include "window/training/TrainingPanel.hpp"

#include "WindowFixture.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QPushButton>
#include <QSlider>
#include <QTest>

#include <cmath>

using namespace orbitui;

class TestPredictLesson : public QObject {
    Q_OBJECT

    std::unique_ptr<orbittest::WindowFixture> fx_;
    MainWindow& w() { return *fx_->window; }

    bool settle(int ms = 300000)
    {
        return QTest::qWaitFor([&] { return !w().dataPanel()->isLoading() && w().isIdle() && w().predictPanel()->isIdle(); }, ms);
    }

    void shoot(const QString& name)
    {
        const QString dir = qEnvironmentVariable("ORBIT_SCREENSHOTS");
        if (dir.isEmpty())
            return;
        QTest::qWait(300);  // the charts follow the last answer
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(w().grab().save(QDir(dir).filePath(name)));
        qInfo("saved %s", qPrintable(QDir(dir).filePath(name)));
    }

private slots:
    void walkTheMoleculeSteps()
    {
        fx_ = std::make_unique<orbittest::WindowFixture>();
        w().resize(1280, 720);
        w().show();
        const int seven = findLesson("breaks");
        QVERIFY(seven >= 0);
        const Lesson& lesson = lessons()[std::size_t(seven)];
        int g2Step = -1;
        for (std::size_t i = 0; i < lesson.steps.size(); ++i)
            if (lesson.steps[i].dataFile == "g2.extxyz")
                g2Step = int(i);
        QVERIFY2(g2Step > 0, "lesson 7 has no step that opens g2.extxyz");
        QCOMPARE(int(lesson.steps.size()), g2Step + 4);

        // The step that opens G2 (started there, as --lesson breaks --step K does).
        QVERIFY(w().lessonDock()->start(seven, g2Step));
        QVERIFY(settle());
        qInfo("step %d: %s", g2Step + 1, qPrintable(lesson.steps[std::size_t(g2Step)].title));
        QVERIFY(w().state()->dataset());
        QCOMPARE(QFileInfo(w().state()->datasetPath()).fileName(), QStringLiteral("g2.extxyz"));
        QCOMPARE(w().state()->orbitSettings().group, std::string("permutation"));
        QCOMPARE(w().state()->selectedIndex(), 100);
        QCOMPARE(w().currentPanel()->name(), QStringLiteral("training"));
        // Run, Pin as A: the plain model.
        w().compare()->pinCurrentAsA();
        // Next: irf; Run: A and B.
        w().lessonDock()->next();
        QVERIFY(settle());
        QCOMPARE(w().trainingPanel()->settings().preset, std::string("irf"));
        QVERIFY(w().trainingPanel()->run());
        qInfo("running A and B");
        QVERIFY(settle(600000));
        QVERIFY2(w().trainingPanel()->lastResult(), qPrintable(w().trainingPanel()->errorText()));
        QVERIFY2(w().comparisonViews()->training()->resultA(), qPrintable(w().comparisonViews()->training()->noteText()));
        // Next: the Predict panel; Next: atoms 0 and 5 swapped.
        w().lessonDock()->next();
        QVERIFY(settle());
        QCOMPARE(w().currentPanel()->name(), QStringLiteral("predict"));
        w().lessonDock()->next();
        QVERIFY(settle());
        PredictPanel& p = *w().predictPanel();
        const bool answered =
            QTest::qWaitFor([&] { return p.isIdle() && p.answer() && p.answer()->asInFile[0] && p.answer()->asInFile[1]; }, 120000);
        QVERIFY2(answered, qPrintable(QString("A: %1; B: %2; status: %3; error: %4; swap %5")
                                          .arg(p.modelName(0), p.modelName(1), p.statusText(), p.errorText())
                                          .arg(p.settings().swap.size())));
        QVERIFY2(!p.hasError(), qPrintable(p.errorText()));
        QCOMPARE(p.settings().swap, (QList<int>{0, 4}));
        QVERIFY(p.swapButton()->isChecked());
        QCOMPARE(p.atomPicker(1)->currentText(), QStringLiteral("4 H"));
        QVERIFY2(p.modelName(0).contains("rf") && p.modelName(1).contains("irf"), qPrintable(p.modelName(0) + " / " + p.modelName(1)));

        // What the step's text says, from the run: B within its Monte Carlo error, A not.
        const PredictAnswer& a = *p.answer();
        const double changeA = a.results[0]->value.front() - a.asInFile[0]->first;
        const double changeB = a.results[1]->value.front() - a.asInFile[1]->first;
        const double mcB = a.asInFile[1]->second;
        qInfo("lesson 7, swap 0,4 of acetamide: A %.6g -> %.6g (change %.4g, Monte Carlo error %g); B %.6g -> %.6g (change %.4g, "
              "Monte Carlo error %.4g)",
              a.asInFile[0]->first, a.results[0]->value.front(), changeA, a.asInFile[0]->second, a.asInFile[1]->first,
              a.results[1]->value.front(), changeB, mcB);
        qInfo("status: %s", qPrintable(p.statusText()));
        QCOMPARE(a.asInFile[0]->second, 0.0);
        QVERIFY(mcB > 0);
        QVERIFY2(std::abs(changeB) <= 2 * mcB, qPrintable(p.statusText()));
        QVERIFY2(std::abs(changeA) > 2 * mcB, qPrintable(p.statusText()));
        QVERIFY2(p.statusText().contains("within it") && p.statusText().contains("larger than it"), qPrintable(p.statusText()));
        shoot("lesson7-g2-swap.png");

        // The jitter on top: the molecule itself moves, so both models do.
        p.jitterSlider()->setValue(5);
        QVERIFY(QTest::qWaitFor([&] { return p.isIdle() && p.answer() && p.answer()->request.input == p.input() &&
                                             p.input()->what.contains("jittered"); }, 300000));
        QVERIFY(settle());
        QVERIFY2(!p.hasError(), qPrintable(p.errorText()));
        qInfo("status with jitter 0.05: %s", qPrintable(p.statusText()));
        shoot("predict-molecule-swap-jitter.png");
    }
};

QTEST_MAIN(TestPredictLesson)
#include "test_predict_lesson.moc"

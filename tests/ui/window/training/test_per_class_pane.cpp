// Per-class locality in the Learn locality pane (issue 31), offscreen on 300 bundled digits: the
// chart fills in one bar per class as each is learned, the bars are the classes' windows in degrees,
// the two confusion matrices (one locality, per class) count the held-out rows; a click on a bar
// shows that class's distribution in the Group panel's settings and one of its samples in the
// Orbits panel; Cancel keeps the classes learned so far; the per-class distributions travel in
// sessions, and Copy as command writes them as `--dist-per-class`.
#include "state/LabState.hpp"
#include "state/Lessons.hpp"
#include "state/Session.hpp"
#include "state/commands/CliCommand.hpp"
#include "state/workers/LocalityTask.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ConfusionMatrixView.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/PerClassView.hpp"
#include "window/training/TrainingPanel.hpp"

#include "PanelFixture.hpp"
#include "QuickSettings.hpp"

#include <QBarSeries>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QJsonObject>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>

using namespace orbitui;

namespace {

struct Fixture : orbittest::TrainingPanelFixture {
    LocalityPane& pane() { return *panel.locality(); }

    Fixture() : TrainingPanelFixture("digits.png")
    {
        OrbitSettings o;
        o.dist = DistributionParams{"uniform", {{"a", 0.5}}};
        state.setOrbitSettings(o);
        pane().perClassBox()->setChecked(true);
        pane().evaluationsBox()->setValue(5);
    }
    TrainingSettings settings(int subset = 300, int s = 150, int r = 6)
    {
        TrainingSettings t = orbittest::quickInvariantBlr(s, r, 2);
        t.subset = subset;
        t.learn = pane().checkedParameters();
        t.learnEvaluations = pane().evaluationsBox()->value();
        t.learnLandscape = 0;
        t.learnPerClass = true;
        return t;
    }
    bool learn()
    {
        panel.setSettings(settings());
        QSignalSpy stopped(&pane(), &LocalityPane::stopped);
        QTest::mouseClick(pane().learnButton(), Qt::LeftButton);
        return QTest::qWaitFor([&] { return stopped.count() == 1; }, 240000) && stopped.front().front().toString().isEmpty();
    }
};

/// Clicks the middle of class `label`'s bar in the chart.
void clickBar(PerClassView& view, int label)
{
    QChartView* chartView = view.chartBox()->view();
    QChart* chart = view.chartBox()->chart();
    QBarSeries* bars = nullptr;
    for (QAbstractSeries* s : chart->series())
        if (auto* b = qobject_cast<QBarSeries*>(s))
            bars = b;
    QVERIFY(bars);
    const QPointF scene = chart->mapToScene(chart->mapToPosition(QPointF(label, 0.5 * view.barHeight(label)), bars));
    QTest::mouseClick(chartView->viewport(), Qt::LeftButton, {}, chartView->mapFromScene(scene));
}

} // namespace

class TestPerClassPane : public QObject {
    Q_OBJECT
private slots:
    void perClassLearnFillsTheChartAndAClickShowsTheClass()
    {
        Fixture fx;
        fx.panel.resize(1400, 900);
        fx.panel.show();
        QSignalSpy partial(fx.pane().runner(), &TaskRunner::partial);
        QVERIFY(fx.learn());
        // One partial result per class, as it was learned; every bar filled with its window.
        QCOMPARE(partial.count(), 10);
        PerClassView& view = *fx.pane().perClassView();
        QVERIFY(!view.isHidden());
        QCOMPARE(int(view.filled().size()), 10);
        const auto result = fx.pane().lastResult();
        QVERIFY(result && result->perClass);
        for (const orbit::ClassLocality& c : result->perClass->classes) {
            QVERIFY(c.windowDegrees);
            QCOMPARE(view.barHeight(c.label), *c.windowDegrees);
            QVERIFY(*c.windowDegrees > 0.0 && *c.windowDegrees <= 360.0);
        }
        // The axis fits the widest bar or the line: above it, by less than a step of 10° or 30°.
        double widest = result->perClass->globalWindowDegrees.value_or(0.0);
        for (const orbit::ClassLocality& c : result->perClass->classes) widest = std::max(widest, *c.windowDegrees);
        QCOMPARE(view.axisTop(), perClassAxisTop(widest, true));
        QVERIFY2(view.axisTop() >= widest && view.axisTop() < 1.1 * widest + 30.0,
                 qPrintable(QString::number(view.axisTop())));
        // A/B: both models' confusion matrices count the held-out rows.
        const long long held = static_cast<long long>(result->perClass->testRows.size());
        QCOMPARE(static_cast<long long>(view.globalConfusion()->matrix().sum()), held);
        QCOMPARE(static_cast<long long>(view.perClassConfusion()->matrix().sum()), held);
        QVERIFY(view.perClassConfusion()->isVisible());
        // The learned classes are the per-class distributions of the settings; the default is the global one.
        orbit::ClassDistributions d;
        for (const orbit::ClassLocality& c : result->perClass->classes) d.named[c.label] = c.dist;
        QCOMPARE(fx.state.orbitSettings().distPerClass, d.text());
        QCOMPARE(fx.state.orbitSettings().dist.value("a"), result->perClass->global.learned.at("a"));
        // A click on class 6's bar: its own window in the Group panel, one of its sixes in the Orbits panel.
        clickBar(view, 6);
        QCOMPARE(fx.state.orbitSettings().dist.value("a"), result->perClass->classes[6].learned.at("a"));
        QCOMPARE(fx.state.dataset()->labels[std::size_t(fx.state.selectedIndex())], 6);
        clickBar(view, 1);
        QCOMPARE(fx.state.orbitSettings().dist.value("a"), result->perClass->classes[1].learned.at("a"));
        QCOMPARE(fx.state.dataset()->labels[std::size_t(fx.state.selectedIndex())], 1);
    }
    void theAxisFitsNarrowWindows()
    {
        // Fashion-MNIST's windows of 6° to 29° (docs/results.md c) on a 40° axis, not a fixed 120°;
        // wide ones round up by 30° and stop at the whole circle.
        QCOMPARE(perClassAxisTop(29.0, true), 40.0);
        QCOMPARE(perClassAxisTop(6.0, true), 10.0);
        QCOMPARE(perClassAxisTop(87.6, true), 120.0);
        QCOMPARE(perClassAxisTop(342.0, true), 360.0);
        QCOMPARE(perClassAxisTop(0.0, true), 10.0);  // before the first bar
        QCOMPARE(perClassAxisTop(20.0, false), 22.0);  // a parameter's own value: 10 % above
    }
    void cancelKeepsTheClassesLearnedSoFar()
    {
        Fixture fx;
        fx.pane().evaluationsBox()->setValue(40);
        fx.panel.setSettings(fx.settings(2000, 600, 16));
        QSignalSpy partial(fx.pane().runner(), &TaskRunner::partial);
        QVERIFY(fx.panel.learnLocality());
        QVERIFY(QTest::qWaitFor([&] { return partial.count() >= 1; }, 240000));
        fx.panel.cancel();
        QVERIFY(fx.panel.isIdle());
        const int kept = int(fx.pane().learnedClasses().size());
        QVERIFY(kept >= 1 && kept < 10);
        QCOMPARE(int(fx.pane().perClassView()->filled().size()), kept);
        QVERIFY2(fx.pane().summaryText().startsWith("Cancelled; kept"), qPrintable(fx.pane().summaryText()));
        orbit::ClassDistributions d;
        for (const auto& [label, c] : fx.pane().learnedClasses()) d.named[label] = c.dist;
        QCOMPARE(fx.state.orbitSettings().distPerClass, d.text());
        // Undo puts the settings back, the per-class distributions too.
        QTest::mouseClick(fx.pane().undoButton(), Qt::LeftButton);
        QVERIFY(fx.state.orbitSettings().distPerClass.empty());
    }
    void lessonTwoAsksForAGuessThenLearnsPerClass()
    {
        const Lesson& l = lessons()[std::size_t(findLesson("locality"))];
        const int reveal = int(l.steps.size()) - 1, guess = reveal - 1;
        QVERIFY(l.steps[std::size_t(guess)].text.contains("write down your guess"));
        const SessionState before = sessionAt(l, guess, "digits.png"), after = sessionAt(l, reveal, "digits.png");
        QCOMPARE(before.panel, QString("training"));
        QVERIFY(!before.training.learnPerClass);
        QVERIFY(after.training.learnPerClass);
        QCOMPARE(sessionDifferences(before, after), QStringList{"training.learn_per_class"});
    }
    void trainingFitsThePerClassModelWithRidgeAndSvm_data()
    {
        QTest::addColumn<QString>("learner");
        QTest::newRow("ridge") << "ridge";
        QTest::newRow("svm") << "svm";
    }
    void trainingFitsThePerClassModelWithRidgeAndSvm()
    {
        // The Training panel with per-class distributions in the settings and ridge or svm: the
        // one-vs-rest per-class model with the learner's grid searched. Every class at --dist's
        // distribution (spelled otherwise) is the one-distribution run to the bit; the 6 and 9 at a
        // wide window change the validation scores.
        QFETCH(QString, learner);
        Fixture fx;
        TrainingSettings t = fx.settings();
        t.learnPerClass = false;
        t.learner = learner.toStdString();
        t.lambdas = {1e-3, 1e-1};
        t.costs = {0.1, 1.0};
        t.localityAxis.clear();  // no sweep of a: the one-distribution run to compare with
        auto runWith = [&](const std::string& perClass) {
            OrbitSettings o = fx.state.orbitSettings();
            o.distPerClass = perClass;
            fx.state.setOrbitSettings(o);
            const bool ran = fx.runAndSettle(t);
            return ran && fx.panel.lastResult() ? std::optional<orbit::TrainResult>(fx.panel.lastResult()->result) : std::nullopt;
        };
        const auto plain = runWith(""), same = runWith("6=uniform:a=0.50;9=uniform:a=0.500"),
                   wide = runWith("6=uniform:a=3;9=uniform:a=3");
        QVERIFY2(plain && same && wide, qPrintable(fx.panel.errorText()));
        QCOMPARE(plain->grid.size(), std::size_t(2));
        QCOMPARE(same->grid.size(), plain->grid.size());
        QVERIFY(same->predictions == plain->predictions);
        std::vector<double> a, b;
        for (std::size_t i = 0; i < plain->grid.size(); ++i) {
            QCOMPARE(same->grid[i].validation, plain->grid[i].validation);
            a.push_back(plain->grid[i].validation);
            b.push_back(wide->grid[i].validation);
        }
        QVERIFY(a != b);
        QCOMPARE(wide->confusion.rows(), Eigen::Index(10));
    }
    void sessionsAndCommandsCarryThePerClassDistributions()
    {
        SessionState s;
        s.dataPath = "digits.png";
        s.orbit.dist = DistributionParams{"uniform", {{"a", 3.0}}};
        s.orbit.distPerClass = "6=uniform:a=0.3;9=uniform:a=0.3";
        s.training = orbittest::quickInvariantBlr(150, 6, 2);
        s.training.learn = {"a"};
        s.training.learnPerClass = true;
        const SessionState back = sessionFromJson(toJson(s));
        QCOMPARE(back.orbit.distPerClass, s.orbit.distPerClass);
        QVERIFY(back.training.learnPerClass);
        const auto has = [](const std::vector<std::string>& args, const std::string& a, const std::string& b) {
            const auto it = std::find(args.begin(), args.end(), a);
            return it != args.end() && (b.empty() || (it + 1 != args.end() && *(it + 1) == b));
        };
        const CliCommand train = trainingCommand(s);
        QVERIFY(has(train.args, "--dist-per-class", s.orbit.distPerClass));
        QVERIFY(has(train.args, "--learner", "blr"));
        QVERIFY(!has(train.args, "--grid", ""));  // each class maximises its own evidence
        CommandContext learnContext;
        learnContext.learn = true;
        QVERIFY(has(trainingCommand(s, learnContext).args, "--per-class", ""));
        // ridge and svm: one-vs-rest per class, with their own axis searched; krr: the
        // one-distribution run, no per-class line.
        s.training.learner = "ridge";
        s.training.lambdas = {1e-3, 1e-1};
        const CliCommand ridge = trainingCommand(s);
        QVERIFY(has(ridge.args, "--dist-per-class", s.orbit.distPerClass));
        QVERIFY(has(ridge.args, "--learner", "ridge"));
        QVERIFY(has(ridge.args, "--grid", "lambda=0.001,0.1;median=1"));
        s.training.learner = "svm";
        QVERIFY(has(trainingCommand(s).args, "--dist-per-class", s.orbit.distPerClass));
        s.training.learner = "krr";
        QVERIFY(!has(trainingCommand(s).args, "--dist-per-class", ""));
        // A session's per-class text that is not "C=SPEC;..." is refused, naming the field.
        QJsonObject json = toJson(s);
        QJsonObject orbit = json.value("orbit").toObject();
        orbit.insert("dist_per_class", "6uniform");
        json.insert("orbit", orbit);
        QVERIFY_THROWS_EXCEPTION(orbit::SpecError, sessionFromJson(json));
    }
};

QTEST_MAIN(TestPerClassPane)
#include "test_per_class_pane.moc"

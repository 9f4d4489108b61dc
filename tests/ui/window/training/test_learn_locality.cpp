// Learn locality in the Training panel, offscreen, on 300 bundled digits (and the bundled G2
// molecules): the evidence landscape and the optimiser's path are drawn as they are computed; every
// step moves the distribution's parameter in the shared settings (so the Group panel's slider, the
// density and the orbits follow); the end leaves the learned value, the same one `orbitlab-cli learn`
// finds; Cancel keeps the best point so far and Undo puts the session back byte for byte.
#include "state/LabState.hpp"
#include "state/Session.hpp"
#include "state/workers/LocalityTask.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/HeatmapView.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/LocalityView.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/data/Loaders.hpp"
#include "orbit/locality/LocalityLearning.hpp"

#include "PanelFixture.hpp"
#include "QuickSettings.hpp"
#include "TestPaths.hpp"

#include <QCheckBox>
#include <QJsonDocument>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>
#include <QVariant>

#include <cmath>
#include <set>

using namespace orbitui;

namespace {

/// 300 digits, irf s = 150, r = 6, one hold-out split: a learn takes a second or two.
/// Every evaluation of a learn: full size and on its pilots (each is handed over as it happens).
int evaluationsOf(const orbit::LearnResult& r)
{
    int n = int(r.trajectory.size());
    for (const orbit::PilotLevel& level : r.pilots)
        n += int(level.trajectory.size());
    return n;
}

TrainingSettings quick() { return orbittest::quickInvariantBlr(150, 6, 2); }

/// Affine orbits with two parameters to learn: a uniform rotation window a = 0.8, a Gaussian shift
/// σ = 0.8, no zoom (delta).
OrbitSettings affineWindows()
{
    OrbitSettings affine;
    affine.group = "affine";
    affine.factorDists.at("rotation") = DistributionParams{"uniform", {{"a", 0.8}}};
    affine.factorDists.at("translation") = DistributionParams{"gaussian", {{"sigma", 0.8}}};
    affine.factorDists.at("scale") = DistributionParams{"delta", {}};
    return affine;
}

/// quick() on `subset` digits with s templates of r samples: a learn that runs long enough to cancel.
TrainingSettings slowLearn(int subset, int s, int r)
{
    TrainingSettings t = quick();
    t.subset = subset;
    t.s = s;
    t.r = r;
    return t;
}

/// The panel on a bundled file (orbittest::TrainingPanelFixture) with, on the digits, `orbit` in force.
struct Fixture : orbittest::TrainingPanelFixture {
    LocalityPane& pane() { return *panel.locality(); }

    explicit Fixture(const char* file = "digits.png", OrbitSettings orbit = {}) : TrainingPanelFixture(file)
    {
        if (orbit.group == "rotation")
            orbit.dist = DistributionParams{"vonmises", {{"kappa", 1.0}}};
        if (std::string(file) == "digits.png")
            state.setOrbitSettings(orbit);
    }
    /// Presses Learn locality and waits for the run to stop.
    bool learn(TrainingSettings s)
    {
        s.learn = pane().checkedParameters();  // what the test ticked in the pane stays
        s.learnEvaluations = pane().evaluationsBox()->value();
        s.learnLandscape = pane().landscapeBox()->value();
        s.learnPerInput = pane().perInputBox()->isChecked();
        panel.setSettings(s);
        QSignalSpy stopped(&pane(), &LocalityPane::stopped);
        QTest::mouseClick(pane().learnButton(), Qt::LeftButton);
        return QTest::qWaitFor([&] { return stopped.count() == 1; }, 120000) && stopped.front().front().toString().isEmpty();
    }
    QByteArray sessionBytes() const
    {
        SessionState s;
        s.orbit = state.orbitSettings();
        return QJsonDocument(toJson(s)).toJson();
    }
};

} // namespace

class TestLearnLocality : public QObject {
    Q_OBJECT
private slots:
    void learnMovesTheSliderLiveAndLandsOnTheBest()
    {
        Fixture fx;
        QCOMPARE(fx.pane().checkedParameters(), (std::vector<std::string>{"kappa"}));
        fx.pane().evaluationsBox()->setValue(8);
        fx.pane().landscapeBox()->setValue(6);
        std::vector<double> seen;
        QObject::connect(&fx.state, &LabState::orbitSettingsChanged, [&] { seen.push_back(fx.state.orbitSettings().dist.value("kappa")); });
        QSignalSpy partial(fx.pane().runner(), &TaskRunner::partial);
        QVERIFY(fx.learn(quick()));
        // 6 landscape points, then at most 8 evaluations, each handed over as it happened.
        QCOMPARE(fx.pane().view()->landscapePoints(), 6);
        const auto result = fx.pane().lastResult();
        QVERIFY(result);
        QCOMPARE(fx.pane().view()->pathPoints(), int(result->learn.trajectory.size()));
        QCOMPARE(partial.count(), 6 + evaluationsOf(result->learn));
        QVERIFY(result->curve && result->curve->values.size() == 6);
        // The slider moved with the optimiser (several values) and rests on the learned one.
        QVERIFY2(std::set<double>(seen.begin(), seen.end()).size() >= 3, qPrintable(QString::number(seen.size())));
        const double learned = result->learn.learned.at("kappa");
        QCOMPARE(fx.state.orbitSettings().dist.value("kappa"), learned);
        QVERIFY2(fx.pane().summaryText().contains("Learned κ"), qPrintable(fx.pane().summaryText()));
        QVERIFY(fx.pane().undoButton()->isEnabled());
        // A learn that ran to its end says "finished", not "stopped" (that is for a cancel).
        QVERIFY2(fx.panel.statusText().startsWith("Learn locality finished in"), qPrintable(fx.panel.statusText()));
        // The same numbers as the core (and so `orbitlab-cli learn`) on the same rows and seed.
        orbit::Dataset kept;
        const orbit::Dataset& rows = seededSubset(*fx.state.dataset(), 300, 2, kept);
        const orbit::LearnResult core = orbit::learnLocality(rows, result->request.config);
        QCOMPARE(core.learned.at("kappa"), learned);
        QCOMPARE(core.logEvidence, result->learn.logEvidence);
        // Own orbit samples per input by default (shared ones over-estimate windows).
        QCOMPARE(result->request.config.features, std::string("irf:s=150,r=6,mode=data"));
        fx.pane().perInputBox()->setChecked(false);
        QVERIFY(fx.learn(quick()));
        QCOMPARE(fx.pane().lastResult()->request.config.features, std::string("irf:s=150,r=6"));
    }
    void theDefaultLandscapeIsTheLearnsOwnEvaluations()
    {
        // No landscape evaluated before the learn: the curve is drawn from the learn's own points
        // (issue 29: one Learn click cost 16 landscape evaluations on top of the learn).
        Fixture fx;
        QCOMPARE(fx.pane().landscapeBox()->value(), 0);
        QSignalSpy partial(fx.pane().runner(), &TaskRunner::partial);
        QVERIFY(fx.learn(quick()));
        const auto result = fx.pane().lastResult();
        QVERIFY(result);
        QVERIFY(!result->curve && !result->surface);
        QCOMPARE(partial.count(), evaluationsOf(result->learn));
        QCOMPARE(result->learnedLandscape.size(), orbit::learnLandscape(result->learn).size());
        QVERIFY(!result->learnedLandscape.empty());
        QCOMPARE(fx.pane().view()->landscapePoints(), int(result->learnedLandscape.size()));
        QVERIFY2(fx.pane().summaryText().contains("full-size evaluations"), qPrintable(fx.pane().summaryText()));
    }
    void undoPutsTheSessionBack()
    {
        Fixture fx;
        fx.pane().evaluationsBox()->setValue(5);
        fx.pane().landscapeBox()->setValue(0);
        const QByteArray before = fx.sessionBytes();
        QVERIFY(fx.learn(quick()));
        QVERIFY(fx.sessionBytes() != before);  // the learned value is in the session
        QTest::mouseClick(fx.pane().undoButton(), Qt::LeftButton);
        QCOMPARE(fx.sessionBytes(), before);
        QVERIFY(!fx.pane().undoButton()->isEnabled());
    }
    void cancelKeepsTheBestPointSoFar()
    {
        Fixture fx;
        TrainingSettings slow = slowLearn(2000, 1500, 24);
        slow.learnEvaluations = 200;
        slow.learnLandscape = 0;
        const QByteArray before = fx.sessionBytes();
        fx.panel.setSettings(slow);
        QSignalSpy partial(fx.pane().runner(), &TaskRunner::partial);
        QVERIFY(fx.panel.learnLocality());
        QVERIFY(!fx.panel.isIdle());
        QVERIFY(QTest::qWaitFor([&] { return partial.count() >= 2; }, 120000));
        // The best full-size point delivered so far; before the first one, the last pilot's best
        // (a pilot's evidence is on its own scale: they are not compared).
        double best = -1e300, bestKappa = 0, pilotKappa = 0;
        for (const QList<QVariant>& args : partial) {
            const auto step = args.at(1).value<std::shared_ptr<const LocalityStep>>();
            if (step->stage == LocalityStep::Stage::Pilot)
                pilotKappa = step->best.params.at("kappa");
            else if (step->best.logEvidence > best) {
                best = step->best.logEvidence;
                bestKappa = step->best.params.at("kappa");
            }
        }
        if (best == -1e300)
            bestKappa = pilotKappa;
        fx.panel.cancel();  // Esc does the same
        QVERIFY(fx.panel.isIdle());
        QCOMPARE(fx.state.orbitSettings().dist.value("kappa"), bestKappa);
        QVERIFY2(fx.pane().summaryText().startsWith("Cancelled"), qPrintable(fx.pane().summaryText()));
        QVERIFY2(fx.panel.statusText().startsWith("Learn locality stopped after"), qPrintable(fx.panel.statusText()));
        QTest::mouseClick(fx.pane().undoButton(), Qt::LeftButton);
        QCOMPARE(fx.sessionBytes(), before);
    }
    void cancelBeforeTheFirstStepLeavesTheSessionAsItWas()
    {
        Fixture fx;
        TrainingSettings slow = slowLearn(3000, 2000, 32);
        slow.learnLandscape = 40;
        const QByteArray before = fx.sessionBytes();
        fx.panel.setSettings(slow);
        QVERIFY(fx.panel.learnLocality());
        fx.panel.cancel();
        QVERIFY(fx.panel.isIdle());
        QCOMPARE(fx.sessionBytes(), before);
        QVERIFY(!fx.pane().undoButton()->isEnabled());
        QVERIFY(!fx.panel.hasError());
    }
    void leavingTheSettingMidLearnStopsItAndAppliesNothing()
    {
        // The random-click run's crash: a learn of rotation's kappa kept moving "kappa" after the user
        // chose the affine group, whose parameters are "rotation.a" and so on.
        for (const bool newData : {false, true}) {
            Fixture fx;
            TrainingSettings slow = slowLearn(2000, 1500, 24);
            slow.learnEvaluations = 200;
            slow.learnLandscape = 0;
            fx.panel.setSettings(slow);
            QSignalSpy partial(fx.pane().runner(), &TaskRunner::partial);
            QSignalSpy stopped(&fx.pane(), &LocalityPane::stopped);
            QVERIFY(fx.panel.learnLocality());
            QVERIFY(QTest::qWaitFor([&] { return partial.count() >= 1; }, 120000));
            if (newData) {
                fx.state.setDataset(orbittest::bundledDataset("g2.extxyz"),
                                    QString::fromStdString(orbittest::bundledFile("g2.extxyz")));
            } else {
                fx.state.setOrbitSettings(affineWindows());
            }
            QVERIFY(fx.panel.isIdle());
            QCOMPARE(stopped.count(), 1);
            QVERIFY2(fx.pane().summaryText().startsWith("Stopped learning"), qPrintable(fx.pane().summaryText()));
            QVERIFY(!fx.pane().undoButton()->isEnabled());
            QVERIFY(fx.pane().learnButton()->isEnabled());
            if (!newData) {
                const QByteArray mine = fx.sessionBytes();
                QTest::qWait(300);  // answers already on their way are dropped
                QCOMPARE(fx.sessionBytes(), mine);
                QCOMPARE(fx.state.orbitSettings().factorDists.at("rotation").value("a"), 0.8);
            }
        }
    }
    void twoParametersDrawASurfaceWithThePath()
    {
        Fixture fx("digits.png", affineWindows());
        QListWidget* list = fx.pane().parameterList();
        QCOMPARE(list->count(), 2);  // rotation a, translation sigma (delta has none)
        for (int i = 0; i < list->count(); ++i) list->item(i)->setCheckState(Qt::Checked);
        QCOMPARE(fx.pane().landscapeBox()->value(), 0);  // a grid costs n x n evaluations: only on request
        fx.pane().landscapeBox()->setValue(3);
        fx.pane().evaluationsBox()->setValue(6);
        QVERIFY(fx.learn(quick()));
        QVERIFY(fx.pane().view()->showsSurface());
        const Eigen::MatrixXd& m = fx.pane().view()->surface()->matrix();
        QCOMPARE(m.rows(), Eigen::Index(3));
        QVERIFY(m.array().isFinite().all());
        const auto result = fx.pane().lastResult();
        QCOMPARE(m, result->surface->logEvidence);
        QCOMPARE(int(fx.pane().view()->surface()->overlay().size()), int(result->learn.trajectory.size()));
        QCOMPARE(fx.state.orbitSettings().factorDists.at("rotation").value("a"), result->learn.learned.at("rotation.a"));
        QCOMPARE(fx.state.orbitSettings().factorDists.at("translation").value("sigma"), result->learn.learned.at("translation.sigma"));
    }
    void theChoicesTravelWithTheSettings()
    {
        Fixture fx("digits.png", affineWindows());
        QCOMPARE(fx.pane().checkedParameters(), (std::vector<std::string>{"rotation.a"}));  // the first by default
        TrainingSettings s = quick();
        s.learn = {"translation.sigma", "scale.sigma"};  // scale is the delta here: not offered, ignored
        s.learnEvaluations = 12;
        s.learnLandscape = 5;
        fx.panel.setSettings(s);
        QCOMPARE(fx.pane().checkedParameters(), (std::vector<std::string>{"translation.sigma"}));
        QCOMPARE(fx.pane().evaluationsBox()->value(), 12);
        QCOMPARE(fx.pane().landscapeBox()->value(), 5);
        const TrainingSettings back = fx.panel.settings();
        QCOMPARE(back.learn, (std::vector<std::string>{"translation.sigma"}));
        QCOMPARE(back.learnEvaluations, 12);
        QCOMPARE(back.learnLandscape, 5);
        // Through a session file and into a fresh panel.
        SessionState session;
        session.orbit = fx.state.orbitSettings();
        session.training = back;
        const SessionState read = sessionFromJson(toJson(session));
        Fixture other("digits.png", read.orbit);
        other.panel.setSettings(read.training);
        QCOMPARE(other.pane().checkedParameters(), (std::vector<std::string>{"translation.sigma"}));
        // Names this distribution does not have check the first offered.
        s.learn = {"kappa"};
        fx.panel.setSettings(s);
        QCOMPARE(fx.pane().checkedParameters(), (std::vector<std::string>{"rotation.a"}));
    }
    void noisySortIsSearchedOnMolecules()
    {
        Fixture fx("g2.extxyz");
        QCOMPARE(fx.state.orbitSettings().dist.name, std::string("noisysort"));
        QCOMPARE(fx.pane().parameterList()->count(), 1);
        QVERIFY(fx.pane().parameterList()->item(0)->text().contains("no gradient"));
        fx.pane().evaluationsBox()->setValue(6);
        fx.pane().landscapeBox()->setValue(4);
        TrainingSettings s = quick();
        s.subset = 0;
        QVERIFY(fx.learn(s));
        QCOMPARE(fx.pane().lastResult()->learn.method, std::string("bracket"));
        QVERIFY(fx.pane().summaryText().contains("kcal/mol"));  // the held-out RMSE in the data's unit
    }
    void nothingToLearnIsSaidInline()
    {
        Fixture fx;
        OrbitSettings s = fx.state.orbitSettings();
        s.dist = DistributionParams{"haar", {}};
        fx.state.setOrbitSettings(s);
        QCOMPARE(fx.pane().parameterList()->count(), 0);
        QVERIFY(!fx.pane().learnButton()->isEnabled());
        fx.panel.setSettings(quick());
        QVERIFY(!fx.panel.learnLocality());
        QVERIFY(fx.panel.hasError());
        QVERIFY(fx.panel.isIdle());
    }
};

QTEST_MAIN(TestLearnLocality)
#include "test_learn_locality.moc"

// Learn locality by the exact GP (issue 43), offscreen on a few bundled digits: the learner box
// offers BLR and the GP; the GP learns κ with the bandwidth, signal and noise on the pane's hold-out
// split (orbit::learnExactGp on exact:r=4, the same numbers as the core), puts κ into the orbit
// settings (Undo takes it back), says the learned values, the log marginal likelihood and the test
// score, and draws the curve it climbed; each value it tries arrives as a step while it runs (the
// slider follows, as with BLR) and Cancel keeps the best so far (Undo puts the session back); the
// per-class learn is refused in one line.
#include "state/LabState.hpp"
#include "state/LearnPicture.hpp"
#include "state/Session.hpp"
#include "state/workers/LocalityTask.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/ChartBox.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/LocalityView.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/training/ExactKernelMachines.hpp"

#include "PanelFixture.hpp"
#include "QuickSettings.hpp"

#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <set>

using namespace orbitui;

namespace {

/// `subset` digits, one hold-out quarter, the GP on exact:r=4 (the features are irf: the GP takes
/// the CLI's default exact kernel), `evaluations` values of κ at most.
TrainingSettings gpLearn(int subset, int evaluations)
{
    TrainingSettings t = orbittest::quickInvariantBlr(100, 4, 3);
    t.subset = subset;
    t.learn = {"kappa"};
    t.learnEvaluations = evaluations;
    t.learnLearner = "gp";
    return t;
}

struct Fixture : orbittest::TrainingPanelFixture {
    LocalityPane& pane() { return *panel.locality(); }
    Fixture()
    {
        OrbitSettings orbit;
        orbit.dist = DistributionParams{"vonmises", {{"kappa", 1.0}}};
        state.setOrbitSettings(orbit);
    }
    QByteArray sessionBytes() const
    {
        SessionState s;
        s.orbit = state.orbitSettings();
        return QJsonDocument(toJson(s)).toJson();
    }
};

} // namespace

class TestLearnGp : public QObject {
    Q_OBJECT
private slots:
    void theGpLearnsKappaWithItsCurve()
    {
        Fixture fx;
        QComboBox* learner = fx.pane().learnerBox();
        QCOMPARE(learner->count(), 2);
        QCOMPARE(learner->itemData(0).toString(), QString("blr"));
        QCOMPARE(learner->itemData(1).toString(), QString("gp"));
        const QByteArray before = fx.sessionBytes();
        fx.panel.setSettings(gpLearn(80, 7));
        QCOMPARE(fx.pane().learner(), std::string("gp"));
        QVERIFY(!fx.pane().perClassBox()->isEnabled());  // a BLR choice
        QSignalSpy progress(&fx.pane(), &LocalityPane::progress);
        QSignalSpy stopped(&fx.pane(), &LocalityPane::stopped);
        QSignalSpy partial(fx.pane().runner(), &TaskRunner::partial);
        std::vector<double> seen;
        QObject::connect(&fx.state, &LabState::orbitSettingsChanged,
                         [&] { seen.push_back(fx.state.orbitSettings().dist.value("kappa")); });
        QTest::mouseClick(fx.pane().learnButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return stopped.count() == 1; }, 120000));
        QVERIFY2(stopped.front().front().toString().isEmpty(), qPrintable(stopped.front().front().toString()));
        QVERIFY(progress.count() >= 5);  // one report per value at least
        const auto result = fx.pane().lastResult();
        QVERIFY(result && result->exact);
        QCOMPARE(result->request.config.features, std::string("exact:r=4"));
        QCOMPARE(result->request.config.eval, std::string("holdout:0.25"));
        const orbit::ExactLearnResult& r = *result->exact;
        QCOMPARE(r.folds.size(), std::size_t(1));  // the pane's hold-out split
        const orbit::ExactLearnFold& fold = r.folds.front();
        const double kappa = fold.params.at("kappa");
        QCOMPARE(fx.state.orbitSettings().dist.value("kappa"), kappa);
        QVERIFY(fold.test.has_value());
        QVERIFY(fold.hyper.sigma > 0 && fold.hyper.signal > 0 && fold.hyper.noise > 0);
        QVERIFY(fold.curve.size() >= 5);
        // One step per value tried, as it was tried: the slider went through them.
        QCOMPARE(partial.count(), int(fold.curve.size()));
        QVERIFY2(std::set<double>(seen.begin(), seen.end()).size() >= 5, qPrintable(QString::number(seen.size())));
        // The curve the GP climbed, with its best point marked.
        QCOMPARE(fx.pane().view()->landscapePoints(), int(fold.curve.size()));
        QCOMPARE(fx.pane().view()->pathPoints(), int(fold.curve.size()));
        // The picture says it is the GP's: a restored session draws it as such.
        const LearnPicture picture = fx.pane().picture();
        QVERIFY(picture.marginalLikelihood);
        QVERIFY(fx.pane().view()->chartBox()->chart()->title().startsWith("Log marginal likelihood"));
        const LearnPicture back = learnPictureFromJson(toJson(picture), "learned.picture");
        QVERIFY(back.marginalLikelihood);
        QCOMPARE(back.path.size(), picture.path.size());
        Fixture restored;
        restored.pane().restore(QString(), back);
        QCOMPARE(restored.pane().view()->pathPoints(), int(fold.curve.size()));
        QVERIFY2(restored.pane().view()->chartBox()->chart()->title().startsWith("Log marginal likelihood"),
                 qPrintable(restored.pane().view()->chartBox()->chart()->title()));
        LearnPicture blr;  // a BLR picture stays one
        blr.parameters = {"kappa"};
        QVERIFY(!learnPictureFromJson(toJson(blr), "p").marginalLikelihood);
        const QString summary = fx.pane().summaryText();
        for (const char* word : {"Learned κ", "bandwidth", "signal", "noise", "log marginal likelihood", "Held-out accuracy"})
            QVERIFY2(summary.contains(word), qPrintable(word + (" in " + summary)));
        QVERIFY2(fx.panel.statusText().startsWith("Learn locality finished in"), qPrintable(fx.panel.statusText()));
        // The same numbers as the core (and so `orbitlab-cli learn --learner gp`) on the same rows.
        orbit::Dataset kept;
        const orbit::Dataset& rows = seededSubset(*fx.state.dataset(), 80, 3, kept);
        const orbit::ExactLearnResult core =
            orbit::learnExactGp(rows, result->request.config, kGpInnerEvaluations, kGpScan);
        QCOMPARE(core.folds.front().params.at("kappa"), kappa);
        QCOMPARE(core.folds.front().logEvidence, fold.logEvidence);
        QCOMPARE(*core.folds.front().test, *fold.test);
        // Undo puts the session back.
        QTest::mouseClick(fx.pane().undoButton(), Qt::LeftButton);
        QCOMPARE(fx.sessionBytes(), before);
    }

    void cancelStopsTheGpAndLeavesTheSession()
    {
        Fixture fx;
        const QByteArray before = fx.sessionBytes();
        fx.panel.setSettings(gpLearn(600, 40));
        QSignalSpy stopped(&fx.pane(), &LocalityPane::stopped);
        QSignalSpy partial(fx.pane().runner(), &TaskRunner::partial);
        QVERIFY(fx.panel.learnLocality());
        QVERIFY(QTest::qWaitFor([&] { return partial.count() >= 2; }, 120000));
        // The best value tried so far is what a cancel keeps.
        double best = -1e300, bestKappa = 0.0;
        for (const QList<QVariant>& args : partial) {
            const auto step = args.at(1).value<std::shared_ptr<const LocalityStep>>();
            if (step->best.logEvidence > best) {
                best = step->best.logEvidence;
                bestKappa = step->best.params.at("kappa");
            }
        }
        fx.panel.cancel();
        QVERIFY(QTest::qWaitFor([&] { return stopped.count() == 1; }, 120000));
        QVERIFY(fx.panel.isIdle());
        QVERIFY2(fx.pane().summaryText().startsWith("Cancelled"), qPrintable(fx.pane().summaryText()));
        QCOMPARE(fx.state.orbitSettings().dist.value("kappa"), bestKappa);
        QVERIFY(!fx.panel.hasError());
        QTest::mouseClick(fx.pane().undoButton(), Qt::LeftButton);
        QCOMPARE(fx.sessionBytes(), before);
    }

    void whatTheGpCannotLearnIsRefusedInOneLine()
    {
        Fixture fx;
        TrainingSettings t = gpLearn(60, 6);
        t.learnPerClass = true;  // set while BLR was the learner; the GP learns one locality
        fx.panel.setSettings(t);
        QVERIFY(!fx.panel.learnLocality());
        QVERIFY(fx.panel.hasError());
        QVERIFY2(fx.panel.errorText().contains("per-class") && !fx.panel.errorText().contains('\n'),
                 qPrintable(fx.panel.errorText()));
        QVERIFY(fx.state.dataset());
    }
};

QTEST_MAIN(TestLearnGp)
#include "test_learn_gp.moc"

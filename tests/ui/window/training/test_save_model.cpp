// Training ▸ Save model… and Edit ▸ Copy as Python, offscreen on the bundled digits: the button is
// off before a run; after a run (ridge, or krr) it writes a .npz that the core's loader reads and
// whose predictions of the run's test rows are the run's own; a save into a
// folder that does not exist fails with one line and leaves the panel's results; Copy as Python
// names the panel's subset, features and learner (python/tests runs such lines and compares the
// numbers with the panel's).
#include "state/LabState.hpp"
#include "state/workers/TrainingTask.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/ShareActions.hpp"
#include "window/training/ModelSaver.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/models/SavedModel.hpp"

#include "PanelFixture.hpp"
#include "QuickSettings.hpp"
#include "WindowFixture.hpp"

#include <QAction>
#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>

using namespace orbitui;

namespace {

/// quickInvariantBlr's run (irf, 300 digits, one hold-out split) with ridge over two strengths.
TrainingSettings ridge()
{
    TrainingSettings s = orbittest::quickInvariantBlr(128, 4, 7);
    s.learner = "ridge";
    s.lambdas = {1e-3, 1e-1};
    s.learningCurve = false;
    return s;
}

bool saveAndSettle(TrainingPanel& panel, const QString& path)
{
    return panel.modelSaver()->save(path) && QTest::qWaitFor([&] { return panel.isIdle(); }, 120000);
}

/// The last run's test rows (of its own 300-row subset) that the model saved at `path` predicts as
/// the run did, and how many test rows there were.
struct Agreement {
    int same = 0, tested = 0;
};
Agreement withTheRun(const TrainingPanel& panel, const orbit::SavedModel& model, const QString& path)
{
    const auto last = panel.lastResult();
    orbit::Dataset kept;
    const orbit::Dataset& rows = seededSubset(*last->request.dataset, last->request.subset, last->request.config.seed, kept);
    if (rows.count() != 300) QTest::qFail("the run's subset is not its 300 rows", __FILE__, __LINE__);
    const orbit::ModelPredictor predictor(model, path.toStdString());
    const std::vector<int> predicted = predictor.classes(predictor.scores(rows.X));
    Agreement a;
    for (const orbit::TestPrediction& p : last->result.predictions) {
        ++a.tested;
        a.same += predicted[p.row] == p.predicted;
    }
    return a;
}

} // namespace

class TestSaveModel : public QObject {
    Q_OBJECT
private slots:
    void theSavedModelPredictsTheRunsTestRows()
    {
        orbittest::TrainingPanelFixture fx;
        QPushButton* button = fx.panel.modelSaver()->button();
        QVERIFY(!button->isEnabled());  // nothing to save before a run
        QVERIFY(fx.runAndSettle(ridge()));
        QVERIFY(button->isEnabled());

        QTemporaryDir dir;
        const QString path = dir.filePath("digits-model.npz");
        QVERIFY(saveAndSettle(fx.panel, path));
        QVERIFY2(!fx.panel.hasError(), qPrintable(fx.panel.errorText()));
        QVERIFY(QFileInfo::exists(path));
        QVERIFY(!QFileInfo::exists(path + ".part"));
        QVERIFY2(fx.panel.statusText().contains("Model saved to"), qPrintable(fx.panel.statusText()));

        const orbit::SavedModel model = orbit::loadModel(path.toStdString());
        QCOMPARE(model.learner, std::string("ridge"));
        QVERIFY(model.isClassification());
        QCOMPARE(model.outputs(), 10);

        // The run's test rows (its own 300-row subset), predicted by the file, as the run did.
        const Agreement a = withTheRun(fx.panel, model, path);
        QVERIFY(a.tested >= 70);
        // The trainer sums its normal equations in another order: a tie may flip, no more.
        QVERIFY2(a.tested - a.same <= 1,
                 qPrintable(QString("%1 of %2 test rows predicted differently").arg(a.tested - a.same).arg(a.tested)));
    }

    // krr saves its training rows' features and dual weights: the file predicts the run's test rows
    // as the run did, every one of them (the same kernel values and the same solve).
    void krrIsSavedAndPredictsTheRunsTestRows()
    {
        orbittest::TrainingPanelFixture fx;
        TrainingSettings s = ridge();
        s.learner = "krr";
        s.preset = "raw";  // krr's Gaussian kernel on the pixels
        QVERIFY2(fx.runAndSettle(s), qPrintable(fx.panel.errorText()));
        QPushButton* button = fx.panel.modelSaver()->button();
        QVERIFY(button->isEnabled());
        QTemporaryDir dir;
        const QString path = dir.filePath("krr.npz");
        QVERIFY(saveAndSettle(fx.panel, path));
        QVERIFY2(!fx.panel.hasError(), qPrintable(fx.panel.errorText()));
        QVERIFY2(fx.panel.statusText().contains("krr keeps the features of its"), qPrintable(fx.panel.statusText()));

        const orbit::SavedModel model = orbit::loadModel(path.toStdString());
        QCOMPARE(model.learner, std::string("krr"));
        QCOMPARE(model.support.rows(), Eigen::Index(model.trainRows));
        QCOMPARE(model.support.cols(), Eigen::Index(400));  // the 20 x 20 pixels
        const Agreement a = withTheRun(fx.panel, model, path);
        QVERIFY(a.tested >= 70);
        QCOMPARE(a.same, a.tested);
    }

    void aSaveIntoAMissingFolderFailsInOneLineAndKeepsTheResults()
    {
        orbittest::TrainingPanelFixture fx;
        QVERIFY(fx.runAndSettle(ridge()));
        QTemporaryDir dir;
        const QString path = dir.filePath("no/such/folder/model.npz");
        QVERIFY(saveAndSettle(fx.panel, path));  // it starts, and fails on the worker
        QVERIFY(fx.panel.hasError());
        QVERIFY2(fx.panel.errorText().contains("Could not save the model") && fx.panel.errorText().contains("model.npz"),
                 qPrintable(fx.panel.errorText()));
        QVERIFY(!fx.panel.errorText().contains('\n'));
        QVERIFY(fx.panel.showsResults());
        QVERIFY(fx.panel.modelSaver()->button()->isEnabled());
    }

    void copyAsPythonNamesThePanelsRun()
    {
        orbittest::WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(orbittest::loadAndSettle(w, orbittest::digitsPng()));
        w.trainingPanel()->setSettings(ridge());
        QAction* action = w.share()->copyPythonAction();
        QVERIFY(action);
        action->trigger();
        const QString text = QGuiApplication::clipboard()->text();
        QVERIFY2(text.contains("import orbitlab"), qPrintable(text));
        QVERIFY2(text.contains("n=300"), qPrintable(text));
        QVERIFY2(text.contains("ridge"), qPrintable(text));
        QVERIFY2(text.contains("digits.png"), qPrintable(text));
        QVERIFY(!w.trainingPanel()->hasError());
    }
};

QTEST_MAIN(TestSaveModel)
#include "test_save_model.moc"

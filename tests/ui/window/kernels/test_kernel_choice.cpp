// The base-kernel choice of the window (issue 43), offscreen on the bundled digits: the Kernels
// panel offers the registry's kernels with their parameters and draws the one chosen (the Laplacian
// changes the matrices and their title); a kernel a map cannot take (random Fourier features of the
// polynomial kernel) is refused in one line while the session stays; the choices of the Kernels panel, the
// Training form and Learn locality's learner round-trip a session, and files without them load as
// before (the Gaussian of the median rule, BLR); Copy as command passes the kernel on.
#include "state/AnalysisSettings.hpp"
#include "state/LabState.hpp"
#include "state/Session.hpp"
#include "state/KernelChoice.hpp"
#include "state/commands/CliCommand.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/HeatmapView.hpp"
#include "widgets/KernelEditor.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/TrainingForm.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"

#include "PanelFixture.hpp"
#include "QuickSettings.hpp"
#include "TestPaths.hpp"
#include "WindowFixture.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace orbitui;
using namespace orbittest;

namespace {

/// Applies `k`, computes, and waits until the panel is idle; true when a new result or an error came.
bool computeUntilIdle(KernelsPanel& panel, const KernelsSettings& k)
{
    const auto before = panel.lastResult();
    panel.applySettings(k);
    panel.compute();
    return QTest::qWaitFor([&] { return panel.isIdle() && (panel.lastResult() != before || panel.hasError()); }, 60000);
}

bool contains(const std::vector<std::string>& words, const std::string& w)
{
    return std::find(words.begin(), words.end(), w) != words.end();
}

} // namespace

class TestKernelChoice : public QObject {
    Q_OBJECT
private slots:
    void editorOffersTheRegistrysKernels()
    {
        KernelEditor editor;
        QCOMPARE(editor.kernelBox()->count(), int(orbit::kernelDescriptors().size()));
        for (int i = 0; i < editor.kernelBox()->count(); ++i)
            QCOMPARE(editor.kernelBox()->itemData(i).toString().toStdString(), orbit::kernelDescriptors()[std::size_t(i)].name);
        QCOMPARE(editor.choice(), QString("gaussian"));
        QVERIFY(editor.usesMedian());
        // Matérn: ν is a box of the registry's words, σ appears with the fixed rule.
        editor.kernelBox()->setCurrentIndex(editor.kernelBox()->findData("matern"));
        auto* nu = qobject_cast<QComboBox*>(editor.control("nu"));
        QVERIFY(nu);
        nu->setCurrentIndex(nu->findData("2.5"));
        QCOMPARE(editor.choice(), QString("matern:nu=2.5"));
        editor.ruleBox()->setCurrentIndex(editor.ruleBox()->findData("sigma"));
        qobject_cast<QDoubleSpinBox*>(editor.control("sigma"))->setValue(3.0);
        QCOMPARE(editor.choice(), QString("matern:nu=2.5,sigma=3"));
        QVERIFY(!editor.usesMedian());
        KernelEditor other;
        other.setChoice(editor.choice());
        QCOMPARE(other.choice(), editor.choice());
        // The spec the panels send: the median multiple added only when the rule is the median's.
        QCOMPARE(baseKernelSpec("laplacian", 2.0), std::string("laplacian:median=2"));
        QCOMPARE(baseKernelSpec("matern:nu=2.5,sigma=3", 2.0), std::string("matern:nu=2.5,sigma=3"));
        QCOMPARE(baseKernelSpec("polynomial:degree=2,c=1", 2.0), std::string("polynomial:degree=2,c=1"));
        QVERIFY_THROWS_EXCEPTION(orbit::SpecError, checkKernelChoice("cosine"));
        QVERIFY_THROWS_EXCEPTION(orbit::SpecError, checkKernelChoice("matern:nu=3"));
    }

    void laplacianChangesTheDrawnKernel()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        KernelsPanel* panel = w.kernelsPanel();
        KernelsSettings k = smallKernels(30);
        QVERIFY(computeUntilIdle(*panel, k));
        QVERIFY2(!panel->hasError(), qPrintable(panel->errorText()));
        const Eigen::MatrixXd gaussian = panel->heatmap(KernelsPanel::Base)->matrix();
        QVERIFY(panel->lastResult()->kernelSpec.rfind("gaussian:sigma=", 0) == 0);
        // The Laplacian, chosen in the panel's own box.
        panel->kernelEditor()->kernelBox()->setCurrentIndex(panel->kernelEditor()->kernelBox()->findData("laplacian"));
        QCOMPARE(panel->settings().kernel, QString("laplacian"));
        k = panel->settings();
        QVERIFY(computeUntilIdle(*panel, k));
        QVERIFY2(!panel->hasError(), qPrintable(panel->errorText()));
        const auto result = panel->lastResult();
        QVERIFY2(result->kernelSpec.rfind("laplacian:sigma=", 0) == 0, result->kernelSpec.c_str());
        const Eigen::MatrixXd& laplacian = panel->heatmap(KernelsPanel::Base)->matrix();
        QCOMPARE(laplacian.rows(), gaussian.rows());
        QVERIFY((laplacian.diagonal().array() - 1.0).abs().maxCoeff() < 1e-5);  // exp(-0) = 1
        QVERIFY((laplacian - gaussian).cwiseAbs().maxCoeff() > 0.05);
        QVERIFY2(panel->heatmap(KernelsPanel::Base)->title().contains("Laplacian σ ="),
                 qPrintable(panel->heatmap(KernelsPanel::Base)->title()));
        // Copy as command passes the kernel the panel drew.
        CommandContext context;
        context.samples = w.state()->dataset()->count();
        const CliCommand cmd = panelCommand(w.session()->capture(), "kernels", context);
        const auto at = std::find(cmd.args.begin(), cmd.args.end(), "--kernel");
        QVERIFY(at != cmd.args.end());
        QCOMPARE(*(at + 1), std::string("laplacian:median=1"));
    }

    void refusedKernelIsOneLineAndTheSessionStays()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        KernelsPanel* panel = w.kernelsPanel();
        KernelsSettings k = smallKernels(20);
        QVERIFY(computeUntilIdle(*panel, k));
        const auto drawn = panel->lastResult();
        // Random Fourier features of the polynomial kernel: the core refuses them (no spectral
        // density: it is not shift-invariant).
        k.kernel = "polynomial";
        k.method = "rf";
        k.s = 10;
        QVERIFY(computeUntilIdle(*panel, k));
        QVERIFY(panel->hasError());
        const QString error = panel->errorText();
        QVERIFY2(error.contains("shift-invariant", Qt::CaseInsensitive) && !error.contains('\n'), qPrintable(error));
        QCOMPARE(panel->lastResult(), drawn);  // the matrices drawn stay
        const SessionState s = w.session()->capture();
        QVERIFY2(s.part<KernelsSettings>().kernel.startsWith("polynomial"), qPrintable(s.part<KernelsSettings>().kernel));
        QCOMPARE(s.part<KernelsSettings>().method, QString("rf"));
        QVERIFY(w.state()->dataset());
        // The Gaussian again: computed as before.
        k.kernel = "gaussian";
        QVERIFY(computeUntilIdle(*panel, k));
        QVERIFY2(!panel->hasError(), qPrintable(panel->errorText()));
    }

    void sessionRoundTripsTheChoices()
    {
        WindowFixture fx;
        KernelsSettings k = smallKernels(40);
        k.kernel = "matern:nu=2.5";
        fx.window->kernelsPanel()->applySettings(k);
        TrainingSettings t = quickInvariantBlr(100, 4, 1);
        t.kernel = "laplacian:sigma=3";
        t.learnLearner = "gp";
        fx.window->trainingPanel()->setSettings(t);
        const SessionState s = fx.window->session()->capture();
        QCOMPARE(s.part<KernelsSettings>().kernel, k.kernel);
        QCOMPARE(s.training.kernel, t.kernel);
        QCOMPARE(s.training.learnLearner, std::string("gp"));
        const QString path = fx.dir.filePath("session.json");
        QCOMPARE(saveSession(path, s), QString());
        QString error;
        const auto loaded = loadSession(path, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->part<KernelsSettings>().kernel, k.kernel);
        QCOMPARE(loaded->training.kernel, t.kernel);
        QCOMPARE(loaded->training.learnLearner, std::string("gp"));
        WindowFixture other;
        other.window->session()->apply(*loaded);
        QCOMPARE(other.window->kernelsPanel()->settings().kernel, k.kernel);
        QCOMPARE(other.window->trainingPanel()->form()->kernelEditor()->choice(), QString::fromStdString(t.kernel));
        QCOMPARE(other.window->trainingPanel()->locality()->learner(), std::string("gp"));

        // A file of before the choice: the Gaussian of the median rule and BLR, as then.
        QJsonObject json = toJson(s);
        QJsonObject kernels = json["kernels"].toObject();
        kernels.remove("kernel");
        json["kernels"] = kernels;
        QJsonObject training = json["training"].toObject();
        training.remove("kernel");
        training.remove("learn_learner");
        json["training"] = training;
        const SessionState old = sessionFromJson(json);
        QCOMPARE(old.part<KernelsSettings>().kernel, QString("gaussian"));
        QCOMPARE(old.training.kernel, std::string("gaussian"));
        QCOMPARE(old.training.learnLearner, std::string("blr"));
        QCOMPARE(baseKernelSpec(old.training.kernel, 1.0), std::string("gaussian:median=1"));
        // A kernel the registry does not have is named with its field.
        kernels["kernel"] = "cosine";
        json["kernels"] = kernels;
        const QString rejected = sessionRejection(json);
        QVERIFY2(rejected.contains("kernels.kernel") && rejected.contains("cosine"), qPrintable(rejected));
    }

    void trainingUsesTheKernelAndTheExactMachines()
    {
        OrbitSettings orbit;
        // The Gaussian of the median rule: the bandwidth grid, no --kernel (as before the choice).
        TrainingSettings t = quickInvariantBlr(100, 4, 1);
        t.medians = {0.5, 1.0};
        orbit::TrainConfig c = makeTrainConfig(t, orbit);
        QVERIFY(c.kernel.empty());
        QVERIFY(std::any_of(c.grid.begin(), c.grid.end(), [](const orbit::ParamAxis& a) { return a.name == "median"; }));
        // The Laplacian: one fixed kernel, no bandwidth axis (it would conflict); more than one
        // bandwidth is refused with the list's field.
        t.kernel = "laplacian";
        QVERIFY_THROWS_EXCEPTION(orbit::SpecError, checkTrainingKernel(t));
        t.medians = {2.0};
        checkTrainingKernel(t);
        c = makeTrainConfig(t, orbit);
        QCOMPARE(c.kernel, std::string("laplacian:median=2"));
        QVERIFY(std::none_of(c.grid.begin(), c.grid.end(), [](const orbit::ParamAxis& a) { return a.name == "median"; }));
        c.validate();
        // The exact kernel is a preset of the form (kept out of the registry's maps) with krr and gp.
        QVERIFY(contains(featurePresets(), "exact"));
        QCOMPARE(presetSpec("exact", 500, 6), std::string("exact:r=6"));
        t.preset = "exact";
        t.r = 6;
        t.learner = "krr";
        c = makeTrainConfig(t, orbit);
        QCOMPARE(c.features, std::string("exact:r=6"));
        QVERIFY(!c.group.empty());
        QCOMPARE(c.kernel, std::string("laplacian:median=2"));
        c.validate();
        t.learner = "gp";
        t.kernel = "gaussian";
        t.medians = {1.0};
        c = makeTrainConfig(t, orbit);
        QVERIFY(c.kernel.empty() && c.grid.empty());  // the GP fits its own bandwidth
        c.validate();
        // Copy as command: the kernel, and the GP learn on the exact kernel.
        SessionState s;
        s.dataPath = QString::fromStdString(bundledFile("digits.png"));
        s.training = quickInvariantBlr(100, 4, 1);
        s.training.kernel = "matern:nu=0.5";
        s.training.learn = {"kappa"};
        s.orbit.dist = DistributionParams{"vonmises", {{"kappa", 1.0}}};
        const std::string train = shellLine(panelCommand(s, "training").args);
        QVERIFY2(train.find("--kernel matern:nu=0.5,median=1") != std::string::npos, train.c_str());
        s.training.learnLearner = "gp";
        CommandContext learnTab;
        learnTab.learn = true;
        const CliCommand learn = panelCommand(s, "training", learnTab);
        const std::string line = shellLine(learn.args);
        QVERIFY2(line.find("learn --data") == 0 && line.find("--learner gp") != std::string::npos &&
                     line.find("--features exact:r=4") != std::string::npos &&
                     line.find("--kernel matern:nu=0.5,median=1") != std::string::npos,
                 line.c_str());
        QVERIFY(!learn.scalesOut);
    }

    void theTrainingPanelRunsTheExactGpAndRefusesWhatTheCoreRefuses()
    {
        TrainingPanelFixture fx;
        OrbitSettings orbit;
        orbit.dist = DistributionParams{"vonmises", {{"kappa", 1.0}}};
        fx.state.setOrbitSettings(orbit);
        TrainingSettings t = quickInvariantBlr(100, 4, 1);
        t.preset = "exact";
        t.r = 2;
        t.learner = "gp";
        t.kernel = "laplacian";
        t.subset = 120;
        QVERIFY(fx.runAndSettle(t));
        QVERIFY2(!fx.panel.hasError(), qPrintable(fx.panel.errorText()));
        const auto result = fx.panel.lastResult();
        QVERIFY(result);
        QCOMPARE(result->request.config.features, std::string("exact:r=2"));
        QCOMPARE(result->request.config.kernel, std::string("laplacian:median=1"));
        QVERIFY(result->result.folds.front().chosen.count("bandwidth") == 1);
        QVERIFY(result->result.logEvidence.has_value());
        // blr on the exact kernel: the core's one line, and the panel keeps its result.
        t.learner = "blr";
        fx.panel.setSettings(t);
        QVERIFY(fx.panel.run());
        QVERIFY(QTest::qWaitFor([&] { return fx.panel.isIdle() && fx.panel.hasError(); }, 60000));
        const QString error = fx.panel.errorText();
        QVERIFY2(error.contains("krr or gp") && !error.contains('\n'), qPrintable(error));
        QCOMPARE(fx.panel.lastResult(), result);
    }
};

QTEST_MAIN(TestKernelChoice)
#include "test_kernel_choice.moc"

// Copy as command: the orbitlab-cli line a panel copies, split into words by a real POSIX shell and
// run through the CLI (in-process), gives the numbers the panel draws for the same session and seed
// (the Kernels matrices, the Group density and histogram, the Approximation curves, the Training score
// curve); the Training panel's learn line runs; a data path with a space and quotes survives sh -c.
#include "window/shell/HeadlessRun.hpp"
#include "window/shell/ShareActions.hpp"
#include "WindowFixture.hpp"

#include "state/commands/CliCommand.hpp"
#include "state/LabState.hpp"
#include "state/workers/TrainingTask.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/cli/Json.hpp"

#include "ChartCsv.hpp"
#include "CliRunner.hpp"
#include "QuickSettings.hpp"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QProcess>
#include <QTabWidget>
#include <QTest>
#include <QChar>
#include <QFile>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

using orbittest::WindowFixture;
using Json = orbit::cli::Json;

namespace {

/// The words of `line` as /bin/sh splits them (quotes removed, nothing expanded that was quoted).
QStringList shellWords(const QString& line)
{
    QProcess p;
    p.start("/bin/sh", {"-c", "set -- " + line + "\nprintf '%s\\0' \"$@\""});
    if (!p.waitForFinished(10000) || p.exitCode() != 0)
        return {"<sh failed: " + QString::fromUtf8(p.readAllStandardError()) + ">"};
    QStringList words = QString::fromUtf8(p.readAllStandardOutput()).split(QChar(0));
    words.removeLast();  // after the last NUL
    return words;
}

/// Runs a copied `orbitlab-cli ...` line in-process in the folder `cwd` (its output files land
/// there), with `extra` words appended.
orbittest::CliResult runLine(const QString& line, const QString& cwd, const QStringList& extra = {})
{
    const QStringList words = shellWords(line);
    if (words.isEmpty() || words.front() != "orbitlab-cli")
        return {-1, "", "not an orbitlab-cli line: " + line.toStdString()};
    std::vector<std::string> args;
    for (qsizetype i = 1; i < words.size(); ++i)
        args.push_back(words[i].toStdString());
    for (const QString& w : extra)
        args.push_back(w.toStdString());
    const QString here = QDir::currentPath();
    QDir().mkpath(cwd);
    QDir::setCurrent(cwd);
    orbittest::CliResult r = orbittest::runCli(args);
    QDir::setCurrent(here);
    return r;
}

bool settle(orbitui::MainWindow& w)
{
    QTest::qWait(150);
    return QTest::qWaitFor([&] { return w.isIdle(); }, 120000);
}

} // namespace

class TestShareCommand : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString awkward_;  ///< the digits under a path with a space and both quotes

    /// The current panel's Copy as command, through the Edit menu's action and the clipboard.
    QString copied(orbitui::MainWindow& w)
    {
        QGuiApplication::clipboard()->clear();
        w.share()->copyCommandAction()->trigger();
        return QGuiApplication::clipboard()->text();
    }

    /// Loads `data`, sets the group and distribution, seed 7.
    void prepare(orbitui::MainWindow& w, const QString& data, const orbitui::OrbitSettings& orbit, int selected)
    {
        QVERIFY(orbittest::loadAndSettle(w, data));
        w.state()->setOrbitSettings(orbit);
        w.state()->setSelectedIndex(selected);
        QVERIFY(settle(w));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        const QString folder = dir_.filePath("my data's \"copy\"");
        QVERIFY(QDir().mkpath(folder));
        awkward_ = folder + "/digits 1.png";
        QVERIFY(QFile::copy(orbittest::digitsPng(), awkward_));
    }

    // Words with spaces, quotes, shell syntax and the empty word come back from sh -c as they were.
    void quotingRoundTripsThroughSh()
    {
        const std::vector<std::string> words = {"orbitlab-cli", "a b", "it's", "say \"hi\"", "$HOME", "`ls`", "a;b",
                                                "*.png", "~", "", "lambda=1e-3,1e-2;median=1", "=x", "back\\slash",
                                                "tab\there", "plain:k=v,x=1.5/-_@%+"};
        const QString line = QString::fromStdString(orbitui::shellLine(words));
        QVERIFY2(!line.contains('\n'), qPrintable(line));
        const QStringList back = shellWords(line);
        QCOMPARE(back.size(), qsizetype(words.size()));
        for (std::size_t i = 0; i < words.size(); ++i)
            QCOMPARE(back[qsizetype(i)].toStdString(), words[i]);
        QCOMPARE(orbitui::shellQuote("plain:k=v,x=1.5"), std::string("plain:k=v,x=1.5"));  // nothing to quote
        QCOMPARE(orbitui::shellQuote("it's"), std::string("'it'\\''s'"));
    }

    // The Data panel's line on a path with a space and quotes: `info` opens the file.
    void dataCommandOnAnAwkwardPath()
    {
        WindowFixture fx;
        QVERIFY(orbittest::loadAndSettle(*fx.window, awkward_));
        fx.window->showPanel("data");
        const QString line = copied(*fx.window);
        QVERIFY2(line.startsWith("orbitlab-cli info '"), qPrintable(line));
        QCOMPARE(shellWords(line).value(2), awkward_);
        const auto r = runLine(line, dir_.filePath("data"), {"--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(Json::parse(r.out)["count"].get<int>(), 5000);
    }

    // Kernels: the four matrices of the copied `kernel` line are the panel's (auto-apply off, Compute).
    void kernelsCommandMatchesThePanel_data()
    {
        QTest::addColumn<bool>("molecules");
        QTest::addColumn<QString>("method");
        QTest::addColumn<double>("bandwidth");
        QTest::newRow("digits, irf") << false << "rf" << 1.0;
        QTest::newRow("G2, nystrom") << true << "nystrom" << 1.5;
        QTest::newRow("digits, gicdf") << false << "gicdf" << 0.75;
    }
    void kernelsCommandMatchesThePanel()
    {
        QFETCH(bool, molecules);
        QFETCH(QString, method);
        QFETCH(double, bandwidth);
        WindowFixture fx;
        orbitui::MainWindow& w = *fx.window;
        orbitui::OrbitSettings o = orbitui::defaultSettingsFor(molecules ? orbit::DataKind::Coulomb : orbit::DataKind::Images);
        if (molecules) {
            o.dist.setValue("sigma", 0.5);
        } else {
            o.dist.setValue("kappa", 1.5);
        }
        o.r = 12;
        o.seed = 7;
        prepare(w, molecules ? orbittest::g2Xyz() : awkward_, o, 3);
        orbitui::KernelsSettings k;
        k.n = 20;
        k.s = method == "gicdf" ? 3 : 15;
        k.method = method;
        k.bandwidth = bandwidth;
        k.autoApply = false;
        w.kernelsPanel()->applySettings(k);
        w.showPanel("kernels");
        w.kernelsPanel()->compute();
        QVERIFY(settle(w));
        QString error;
        const QString gui = dir_.filePath("gui-kernels-" + QString(QTest::currentDataTag()).replace(' ', '_'));
        QDir().mkpath(gui);
        QVERIFY2(!orbitui::HeadlessRun::exportPanelCharts(w, w.kernelsPanel(), gui, &error).isEmpty(), qPrintable(error));

        const QString line = copied(w);
        QVERIFY2(line.startsWith("orbitlab-cli kernel "), qPrintable(line));
        const QString cli = gui + "-cli";
        const auto r = runLine(line, cli);
        QVERIFY2(r.status == 0, r.err.c_str());
        for (const char* name : {"kernel-base.csv", "kernel-invariant.csv", "kernel-approximation.csv", "kernel-difference.csv"}) {
            const auto a = orbittest::readNumbers(QDir(gui).filePath(name), false);
            const auto b = orbittest::readNumbers(QDir(cli).filePath(name), false);
            QCOMPARE(a.size(), std::size_t(20));
            QVERIFY2(a == b, name);
        }
    }

    // Group: the density curve and the histogram of the copied `density` line are the panel's.
    void groupCommandMatchesThePanel_data()
    {
        QTest::addColumn<bool>("molecules");
        QTest::newRow("digits, von Mises") << false;
        QTest::newRow("G2, noisy sort of sample 5") << true;
    }
    void groupCommandMatchesThePanel()
    {
        QFETCH(bool, molecules);
        WindowFixture fx;
        orbitui::MainWindow& w = *fx.window;
        orbitui::OrbitSettings o = orbitui::defaultSettingsFor(molecules ? orbit::DataKind::Coulomb : orbit::DataKind::Images);
        if (molecules)
            o.dist.setValue("sigma", 0.7);
        else
            o.dist.setValue("kappa", 2.5);
        o.seed = 11;
        prepare(w, molecules ? orbittest::g2Xyz() : orbittest::digitsPng(), o, 5);
        w.showPanel("group");
        QVERIFY(settle(w));
        const QString gui = dir_.filePath(molecules ? "gui-group-g2" : "gui-group-digits");
        QDir().mkpath(gui);
        QString error;
        QVERIFY2(!orbitui::HeadlessRun::exportPanelCharts(w, w.groupPanel(), gui, &error).isEmpty(), qPrintable(error));
        const auto chart = orbittest::readChart(QDir(gui).filePath("density.csv"));

        const QString line = copied(w);
        QVERIFY2(line.startsWith("orbitlab-cli density "), qPrintable(line));
        const QString cli = gui + "-cli";
        const auto r = runLine(line, cli);
        QVERIFY2(r.status == 0, r.err.c_str());
        const auto rows = orbittest::readNumbers(QDir(cli).filePath("density.csv"), true);
        const auto& outline = chart.at("histogram of drawn samples");
        const std::size_t bins = (outline.size() - 2) / 2;
        if (!chart.count("density q")) {  // no density (noisy sort's atoms moved): one row per bin
            QCOMPARE(rows.size(), bins);
            for (std::size_t b = 0; b < bins; ++b) {
                QCOMPARE(rows[b][0], 0.5 * (outline[1 + 2 * b].first + outline[2 + 2 * b].first));
                QVERIFY(std::isnan(rows[b][1]));
                QCOMPARE(outline[1 + 2 * b].second, rows[b][2]);
            }
            return;
        }
        orbittest::compareDensityRows(chart.at("density q"), outline, rows);
    }

    // Orbits: the copied `embed` line's rows are the embedding's points (the inputs and their copies).
    void orbitsCommandMatchesThePanel()
    {
        WindowFixture fx;
        orbitui::MainWindow& w = *fx.window;
        orbitui::OrbitSettings o = orbitui::defaultSettingsFor(orbit::DataKind::Images);
        o.dist.setValue("kappa", 1.5);
        o.r = 12;
        o.seed = 7;
        prepare(w, orbittest::digitsPng(), o, 3000);
        w.state()->setEmbeddingInputs({3000, 4500});
        w.showPanel("orbits");
        QVERIFY(settle(w));
        const QString gui = dir_.filePath("gui-orbits");
        QDir().mkpath(gui);
        QString error;
        QVERIFY2(!orbitui::HeadlessRun::exportPanelCharts(w, w.orbitsPanel(), gui, &error).isEmpty(), qPrintable(error));
        const QString line = copied(w);
        QVERIFY2(line.startsWith("orbitlab-cli embed ") && line.contains("--indices 3000,4500"), qPrintable(line));
        const auto r = runLine(line, gui + "-cli");
        QVERIFY2(r.status == 0, r.err.c_str());
        const auto rows = orbittest::readNumbers(QDir(gui + "-cli").filePath("orbit-embedding.csv"), true);
        const auto chart = orbittest::readChart(QDir(gui).filePath("orbit-embedding.csv"));
        QCOMPARE(rows.size(), std::size_t(2 * 13));  // per input: itself (copy -1), then r = 12 copies
        const auto same = [](double a, double b) { return float(a) == float(b); };  // float32 points
        const auto& inputs = chart.at("the inputs x");
        int copies = 0;
        for (const auto& [name, points] : chart) {
            if (name == "the inputs x")
                continue;
            const std::size_t j = name.startsWith("#3000") ? 0 : 1;
            QCOMPARE(points.size(), std::size_t(12));
            for (std::size_t k = 0; k < 12; ++k, ++copies) {
                const auto& row = rows[j * 13 + 1 + k];
                QVERIFY(same(points[k].first, row[2]) && same(points[k].second, row[3]));
            }
            QVERIFY(same(inputs[j].first, rows[j * 13][2]) && same(inputs[j].second, rows[j * 13][3]));
        }
        QCOMPARE(copies, 24);
    }

    // Approximation: the copied `approx-error` line's rows are the panel's curves.
    void approximationCommandMatchesThePanel()
    {
        WindowFixture fx;
        orbitui::MainWindow& w = *fx.window;
        orbitui::OrbitSettings o = orbitui::defaultSettingsFor(orbit::DataKind::Images);
        o.dist.setValue("kappa", 0.5);
        o.seed = 3;
        prepare(w, orbittest::digitsPng(), o, 0);
        orbitui::ApproximationSettings a = orbittest::manualApproximation(20, {10, 40}, {2, 4});
        a.refR = 6;
        a.repeats = 1;
        w.approximationPanel()->applySettings(a);
        w.showPanel("approximation");
        w.approximationPanel()->compute();
        QVERIFY(settle(w));
        const QString gui = dir_.filePath("gui-approximation");
        QDir().mkpath(gui);
        QString error;
        QVERIFY2(!orbitui::HeadlessRun::exportPanelCharts(w, w.approximationPanel(), gui, &error).isEmpty(), qPrintable(error));
        const QString line = copied(w);
        QVERIFY2(line.startsWith("orbitlab-cli approx-error "), qPrintable(line));
        const auto r = runLine(line, gui + "-cli", {"--json"});  // every digit (the CSV keeps ten)
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(QFile::exists(QDir(gui + "-cli").filePath("approximation.csv")));
        const Json rows = Json::parse(r.out)["rows"];
        QCOMPARE(int(rows.size()), 4);
        orbittest::compareApproximationRows(rows, orbittest::readChart(QDir(gui).filePath("approximation-spectral.csv")),
                                            orbittest::readChart(QDir(gui).filePath("approximation-frobenius.csv")), 10);
    }

    // Training: the copied `train` line runs and its score curve is the panel's; the mpirun variant
    // puts mpirun in front; with the Learned locality tab shown the line is `learn`, and it runs.
    void trainingCommandRuns()
    {
        WindowFixture fx;
        orbitui::MainWindow& w = *fx.window;
        orbitui::OrbitSettings o = orbitui::defaultSettingsFor(orbit::DataKind::Images);
        o.seed = 5;
        prepare(w, orbittest::digitsPng(), o, 0);
        orbitui::TrainingSettings t = orbittest::quickInvariantBlr(60, 4, 7);
        t.holdoutFraction = 0.3;
        t.localityAxis = "kappa";
        t.locality = {0.3, 3.0};
        t.learningCurve = false;
        t.learn = {"kappa"};
        t.learnEvaluations = 3;
        t.learnLandscape = 0;
        w.trainingPanel()->setSettings(t);
        w.showPanel("training");
        QVERIFY(w.trainingPanel()->run());
        QVERIFY(QTest::qWaitFor([&] { return w.trainingPanel()->lastResult() != nullptr; }, 300000));
        QVERIFY(settle(w));
        const auto& panelCurve = w.trainingPanel()->lastResult()->curve;

        const QString line = copied(w);
        QVERIFY2(line.startsWith("orbitlab-cli train "), qPrintable(line));
        QVERIFY2(line.contains("--n 300") && line.contains("--curve-axis kappa"), qPrintable(line));
        auto r = runLine(line, dir_.filePath("train"), {"--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QCOMPARE(j["curve"]["axis"].get<std::string>(), panelCurve.axis);
        QCOMPARE(j["curve"]["x"].size(), panelCurve.x.size());
        for (std::size_t i = 0; i < panelCurve.x.size(); ++i) {
            QCOMPARE(j["curve"]["x"][i].get<double>(), panelCurve.x[i]);
            QCOMPARE(j["curve"]["validation"][i].get<double>(), panelCurve.validation[i]);
            QCOMPARE(j["curve"]["log_evidence"][i].get<double>(), panelCurve.logEvidence[i]);
        }

        const auto mpi = w.share()->commandText(4);
        QVERIFY(mpi && mpi->startsWith("mpirun -np 4 orbitlab-cli train "));
        QCOMPARE(mpi->mid(QString("mpirun -np 4 ").size()), line);

        // The Learned locality tab: learn, with the pane's parameters and budget.
        auto* tabs = w.trainingPanel()->findChild<QTabWidget*>();
        QWidget* locality = w.trainingPanel()->locality()->resultsWidget();
        for (auto* t2 : w.trainingPanel()->findChildren<QTabWidget*>())
            if (t2->indexOf(locality) >= 0)
                tabs = t2;
        QVERIFY(tabs && tabs->indexOf(locality) >= 0);
        tabs->setCurrentWidget(locality);
        const QString learn = copied(w);
        QVERIFY2(learn.startsWith("orbitlab-cli learn ") && learn.contains("--learn kappa") &&
                     learn.contains("--max-evals 3") && learn.contains("mode=data"),
                 qPrintable(learn));
        r = runLine(learn, dir_.filePath("learn"), {"--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(Json::parse(r.out).contains("params"));
    }

    // Commands that run in one process are never put under mpirun; a panel without data says why.
    void singleProcessCommandsAndRefusals()
    {
        WindowFixture fx;
        orbitui::MainWindow& w = *fx.window;
        QVERIFY(orbittest::loadAndSettle(w, orbittest::digitsPng()));
        w.showPanel("kernels");
        const auto plain = w.share()->commandText(0), mpi = w.share()->commandText(8);
        QVERIFY(plain && mpi);
        QCOMPARE(*mpi, *plain);
        QVERIFY(plain->startsWith("orbitlab-cli kernel "));

        orbitui::SessionState none;
        QVERIFY_THROWS_EXCEPTION(orbit::SpecError, orbitui::panelCommand(none, "kernels"));
        orbitui::SessionState noLearn = w.session()->capture();
        noLearn.training.learn.clear();
        orbitui::CommandContext learn;
        learn.learn = true;
        try {
            orbitui::panelCommand(noLearn, "training", learn);
            QFAIL("accepted a learn command without a parameter to learn");
        } catch (const orbit::SpecError& e) {
            QCOMPARE(e.field(), std::string("learn"));
        }
    }
};

QTEST_MAIN(TestShareCommand)
#include "test_share_command.moc"

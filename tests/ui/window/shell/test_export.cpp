// `orbitlab --export DIR --panel NAME` against the command line: the application binary (offscreen)
// opens a session, computes a panel's charts and writes them as its "Data CSV…" buttons do; the CLI
// commands of those figures, given the session's settings and seed, print the same numbers. Also the
// flag's failures: an unknown panel, a panel without charts, a folder that cannot be written.
#include "state/AnalysisSettings.hpp"
#include "state/Session.hpp"
#include "state/TrainingSettings.hpp"

#include "orbit/cli/Json.hpp"
#include "orbit/util/Spec.hpp"

#include "AppRunner.hpp"
#include "ChartCsv.hpp"
#include "CliRunner.hpp"
#include "QuickSettings.hpp"
#include "TestPaths.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <QFile>
#include <QIODevice>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cmath>
#include <map>

namespace {

using Json = orbit::cli::Json;
using orbittest::readChart;
using orbittest::readNumbers;

/// The numbers of two float32 values written as text (the chart's double of the float, the CLI's 9 digits).
bool sameFloat(double a, double b) { return float(a) == float(b); }

} // namespace

class TestExport : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString session_;
    orbitui::SessionState state_;

    /// Runs the application binary with `args`, offscreen, with settings of its own in dir_.
    orbittest::AppRun app(const QStringList& args, int timeoutMs = 300000)
    {
        return orbittest::runApp(dir_.path(), args, timeoutMs);
    }

    /// Exports `panel` into a folder of its own; fails the test unless it exits 0.
    QString exportPanel(const QString& panel)
    {
        const QString out = dir_.filePath("export-" + panel);
        const orbittest::AppRun r = app({"--session", session_, "--export", out, "--panel", panel});
        if (r.status != 0)
            qWarning("orbitlab --export %s: exit %d: %s", qPrintable(panel), r.status, qPrintable(r.err));
        return r.status == 0 ? out : QString();
    }

    std::string data() const { return state_.dataPath.toStdString(); }
    std::string seed() const { return std::to_string(state_.orbit.seed); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        orbitui::SessionState& s = state_;
        s.dataPath = QString::fromStdString(orbittest::bundledFile("digits.png"));
        s.selectedIndex = 3000;
        s.embeddingInputs = {3000, 4500};
        s.orbit.group = "rotation";
        s.orbit.dist.name = "vonmises";
        s.orbit.dist.setValue("kappa", 1.5);
        s.orbit.r = 12;
        s.orbit.seed = 7;
        orbitui::KernelsSettings& kernels = s.part<orbitui::KernelsSettings>();
        kernels.n = 20;
        kernels.r = 0;  // as in Orbits: 12
        kernels.s = 50;
        kernels.autoApply = false;  // the export computes anyway, as Compute would
        orbitui::ApproximationSettings& approximation = s.part<orbitui::ApproximationSettings>();
        approximation.n = 20;
        approximation.sList = {10, 40};
        approximation.rList = {2, 4};
        approximation.refR = 6;
        approximation.repeats = 1;
        s.training = orbittest::quickInvariantBlr(60, 4, 7);
        s.training.holdoutFraction = 0.3;
        s.training.localityAxis = "kappa";
        s.training.locality = {0.3, 3.0};
        s.training.learningCurve = true;
        s.panel = "data";
        session_ = dir_.filePath("session.json");
        QCOMPARE(orbitui::saveSession(session_, s), QString());
    }

    // Group: the density curve is the CLI's density column at the same t; the histogram outline's
    // bar heights are its histogram column (20000 draws, the panel's number).
    void groupMatchesDensity()
    {
        const QString out = exportPanel("group");
        QVERIFY(!out.isEmpty());
        const auto chart = readChart(QDir(out).filePath("density.csv"));
        const auto& curve = chart.at("density q");
        const auto& outline = chart.at("histogram of drawn samples");
        const std::string csv = dir_.filePath("cli-density.csv").toStdString();
        const auto r = orbittest::runCli({"density", "--group", "rotation", "--dist", "vonmises:kappa=1.5", "-n", "20000",
                                          "--data", data(), "--index", "3000", "--seed", seed(), "--out", csv});
        QVERIFY2(r.status == 0, r.err.c_str());
        orbittest::compareDensityRows(curve, outline, readNumbers(QString::fromStdString(csv), true));
    }

    // Orbits: the embedding's points are `embed`'s rows, the probe's curves are `probe`'s columns
    // (the panel's maps: irf:s=200 with the orbit settings' r, fitted on 200 points).
    void orbitsMatchEmbedAndProbe()
    {
        const QString out = exportPanel("orbits");
        QVERIFY(!out.isEmpty());
        const auto embedding = readChart(QDir(out).filePath("orbit-embedding.csv"));
        const std::string csv = dir_.filePath("cli-embed.csv").toStdString();
        auto r = orbittest::runCli({"embed", "--data", data(), "--indices", "3000,4500", "--group", "rotation", "--dist",
                                    "vonmises:kappa=1.5", "-r", "12", "--seed", seed(), "--out", csv});
        QVERIFY2(r.status == 0, r.err.c_str());
        const auto rows = readNumbers(QString::fromStdString(csv), true);
        QCOMPARE(rows.size(), std::size_t(2 * 13));
        const auto& inputs = embedding.at("the inputs x");
        QCOMPARE(inputs.size(), std::size_t(2));
        int copies = 0;
        for (const auto& [name, points] : embedding) {
            if (name == "the inputs x")
                continue;
            const int j = name.startsWith("#3000") ? 0 : name.startsWith("#4500") ? 1 : -1;
            QVERIFY2(j >= 0, qPrintable(name));
            QCOMPARE(points.size(), std::size_t(12));
            for (std::size_t k = 0; k < 12; ++k) {
                const auto& row = rows[std::size_t(j) * 13 + 1 + k];
                QCOMPARE(row[1], double(k));
                QVERIFY(sameFloat(points[k].first, row[2]) && sameFloat(points[k].second, row[3]));
                ++copies;
            }
            const auto& self = rows[std::size_t(j) * 13];
            QCOMPARE(self[1], -1.0);
            QVERIFY(sameFloat(inputs[std::size_t(j)].first, self[2]) && sameFloat(inputs[std::size_t(j)].second, self[3]));
        }
        QCOMPARE(copies, 24);

        const auto probe = readChart(QDir(out).filePath("invariance-probe.csv"));
        const std::string pcsv = dir_.filePath("cli-probe.csv").toStdString();
        r = orbittest::runCli({"probe", "--data", data(), "--index", "3000", "--group", "rotation", "--dist",
                               "vonmises:kappa=1.5", "-r", "12", "--features", "irf:s=200", "--seed", seed(), "--out", pcsv});
        QVERIFY2(r.status == 0, r.err.c_str());
        const auto p = readNumbers(QString::fromStdString(pcsv), true);
        const auto& invariant = probe.at("invariant RF, r = 12");
        const auto& plain = probe.at("plain RF (no group)");
        QCOMPARE(invariant.size(), p.size());
        for (std::size_t i = 0; i < p.size(); ++i) {
            QCOMPARE(invariant[i].first, p[i][0]);
            QCOMPARE(invariant[i].second, p[i][1]);
            QCOMPARE(plain[i].second, p[i][2]);
        }
    }

    // Kernels (auto-apply off in the session): the four matrices are those of `kernel --features`.
    void kernelsMatchKernel()
    {
        const QString out = exportPanel("kernels");
        QVERIFY(!out.isEmpty());
        const auto path = [this](const char* name) { return dir_.filePath(name).toStdString(); };
        const auto r = orbittest::runCli({"kernel", "--data", data(), "--n", "20", "--group", "rotation", "--dist",
                                          "vonmises:kappa=1.5", "-r", "12", "--kernel", "gaussian:median=1", "--features",
                                          "irf:s=50,r=12", "--seed", seed(), "--out", path("k-inv.csv"), "--approx-out",
                                          path("k-app.csv"), "--base-out", path("k-base.csv"), "--difference-out",
                                          path("k-diff.csv"), "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(int(Json::parse(r.out)["indices"].size()), 20);
        const std::pair<const char*, const char*> pairs[] = {{"kernel-base.csv", "k-base.csv"},
                                                             {"kernel-invariant.csv", "k-inv.csv"},
                                                             {"kernel-approximation.csv", "k-app.csv"},
                                                             {"kernel-difference.csv", "k-diff.csv"}};
        for (const auto& [gui, cli] : pairs) {
            const auto a = readNumbers(QDir(out).filePath(gui), false);
            const auto b = readNumbers(dir_.filePath(cli), false);
            QCOMPARE(a.size(), std::size_t(20));
            QVERIFY2(a == b, gui);
        }
    }

    // Approximation: each curve's points (s, error) are `approx-error`'s rows for that r.
    void approximationMatchesApproxError()
    {
        const QString out = exportPanel("approximation");
        QVERIFY(!out.isEmpty());
        const auto r = orbittest::runCli({"approx-error", "--data", data(), "--n", "20", "--group", "rotation", "--dist",
                                          "vonmises:kappa=1.5", "--kernel", "gaussian:median=1", "--features", "rf",
                                          "--s-list", "10,40", "--r-list", "2,4", "--ref-r", "6", "--repeats", "1", "--seed",
                                          seed(), "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json rows = Json::parse(r.out)["rows"];
        QCOMPARE(int(rows.size()), 4);
        orbittest::compareApproximationRows(rows, readChart(QDir(out).filePath("approximation-spectral.csv")),
                                            readChart(QDir(out).filePath("approximation-frobenius.csv")), 10);
    }

    // Training: the score curve and the learning curve are `train --json`'s curve and learning_curve
    // for the TrainConfig the panel builds from the session (the same subset of 300 rows).
    void trainingMatchesTrain()
    {
        const QString out = exportPanel("training");
        QVERIFY(!out.isEmpty());
        const orbit::TrainConfig c = orbitui::makeTrainConfig(state_.training, state_.orbit);
        std::string grid;
        for (const orbit::ParamAxis& a : c.grid) {
            std::string values;
            for (double v : a.values) values += (values.empty() ? "" : ",") + orbit::formatNumber(v);
            grid += (grid.empty() ? "" : ";") + a.name + "=" + values;
        }
        std::string fractions;
        for (double f : c.learningCurve) fractions += (fractions.empty() ? "" : ",") + orbit::formatNumber(f);
        std::vector<std::string> args{"train", "--data", data(), "--n", "300", "--features", c.features, "--group", c.group,
                                      "--dist", c.dist, "--learner", c.learner, "--eval", c.eval, "--grid", grid,
                                      "--validation", orbit::formatNumber(c.validationFraction), "--seed",
                                      std::to_string(c.seed), "--curve-axis", "kappa", "--json"};
        if (!c.kernel.empty())
            args.insert(args.end(), {"--kernel", c.kernel});
        if (!fractions.empty())
            args.insert(args.end(), {"--learning-curve", fractions});
        const auto r = orbittest::runCli(args);
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        const auto score = readChart(QDir(out).filePath("training-score.csv"));
        const auto& validation = score.at("validation accuracy");
        const auto& evidence = score.at("log evidence");
        const Json& curve = j["curve"];
        QCOMPARE(curve["axis"].get<std::string>(), std::string("kappa"));
        QCOMPARE(validation.size(), curve["x"].size());
        for (std::size_t i = 0; i < validation.size(); ++i) {
            QCOMPARE(validation[i].first, curve["x"][i].get<double>());
            QCOMPARE(validation[i].second, curve["validation"][i].get<double>());
            QCOMPARE(evidence[i].second, curve["log_evidence"][i].get<double>());
        }
        const auto learning = readChart(QDir(out).filePath("learning-curve.csv")).at("test accuracy, fold 1");
        QCOMPARE(learning.size(), j["learning_curve"].size());
        for (std::size_t i = 0; i < learning.size(); ++i) {
            QCOMPARE(learning[i].first, j["learning_curve"][i]["train_size"].get<double>());
            QCOMPARE(learning[i].second, j["learning_curve"][i]["score"].get<double>());
        }
        QVERIFY(QFile::exists(QDir(out).filePath("confusion-matrix.csv")));
    }

    // The flag's failures: one line on stderr, non-zero status, before any work where possible.
    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("says");
        const QString blocker = dir_.filePath("a-file");
        QFile f(blocker);
        f.open(QIODevice::WriteOnly);
        f.write("x");
        f.close();
        QTest::newRow("unknown panel") << QStringList{"--session", session_, "--export", dir_.filePath("x"), "--panel", "charts"}
                                       << 2 << "charts";
        QTest::newRow("no charts") << QStringList{"--session", session_, "--export", dir_.filePath("x"), "--panel", "data"} << 2
                                   << "no charts";
        QTest::newRow("folder is a file") << QStringList{"--session", session_, "--export", blocker + "/sub", "--panel", "group"}
                                          << 2 << "a-file";
        QTest::newRow("no panel") << QStringList{"--export", dir_.filePath("x")} << 2 << "--panel";
        QTest::newRow("data missing") << QStringList{"--data", dir_.filePath("missing.png"), "--export", dir_.filePath("y"),
                                                     "--panel", "group"}
                                      << 1 << "no data";
    }
    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, says);
        const orbittest::AppRun r = app(args, 120000);
        QVERIFY2(r.status == status, qPrintable(QString("exit %1: %2").arg(r.status).arg(r.err)));
        QStringList ours;
        for (const QString& line : r.err.split('\n', Qt::SkipEmptyParts))
            if (line.startsWith("orbitlab:"))
                ours << line;
        QVERIFY2(ours.size() == 1, qPrintable(r.err));
        QVERIFY2(ours.front().contains(says), qPrintable(ours.front()));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestExport)
#include "test_export.moc"

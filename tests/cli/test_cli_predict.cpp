// `orbitlab-cli train --save-model` and `predict` in-process (../shared/CLI.md, "Saved models"): a
// model saved with a separate test file predicts that file with the run's own score, its CSV holds
// every row's prediction and scores, and bad models, data and options are one stderr line (exit 2).
#include "CliRunner.hpp"
#include "orbit/cli/Json.hpp"

#include "TestPaths.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <fstream>
#include <sstream>

namespace {

using orbit::cli::Json;

/// Three classes of four features (rows from `first` on): a rule on x0 + x1 in three bands.
void writeClasses(const std::string& path, int n, int first)
{
    std::ofstream f(path);
    for (int i = first; i < first + n; ++i) {
        const double a = std::sin(1.3 * i), b = std::cos(0.7 * i + 1), c = std::sin(0.3 * i), d = std::cos(2.1 * i);
        const double s = a + b;
        f << a << "," << b << "," << c << "," << d << "," << (s < -0.5 ? 0 : s < 0.5 ? 1 : 2) << "\n";
    }
}

/// Targets t = 3 x0 - 2 x1 + 0.5 with a little wiggle.
void writeTargets(const std::string& path, int n, int first)
{
    std::ofstream f(path);
    for (int i = first; i < first + n; ++i) {
        const double a = std::sin(1.3 * i), b = std::cos(0.7 * i + 1);
        f << a << "," << b << "," << 3 * a - 2 * b + 0.5 + 0.01 * std::sin(17.0 * i) << "\n";
    }
}

std::vector<std::string> lines(const std::string& path)
{
    std::ifstream f(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(f, line);) out.push_back(line);
    return out;
}

bool oneLine(const orbittest::CliResult& r) { return r.status == 2 && r.err.find('\n') == r.err.size() - 1; }

} // namespace

class TestCliPredict : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        writeClasses(path("train.csv"), 240, 0);
        writeClasses(path("test.csv"), 90, 1000);
        writeTargets(path("train-t.csv"), 200, 0);
        writeTargets(path("test-t.csv"), 80, 500);
        std::ofstream wide(path("wide-t.csv"));  // four features, like the classes, but a regression target
        for (int i = 0; i < 40; ++i) wide << std::sin(i) << "," << std::cos(i) << ",0.5,0.25," << 0.1 * i + 0.05 << "\n";
    }

    // With --test-data the saved model is the one the run scored: predicting the test file gives
    // the run's score, for each learner that saves.
    void predictingTheTestFileGivesTheRunsScore()
    {
        for (const std::string learner : {"ridge", "blr", "svm"}) {
            const std::string model = path("m.npz");
            auto r = orbittest::runCli({"train", "--data", path("train.csv"), "--test-data", path("test.csv"), "--features",
                                        "rf:s=60", "--learner", learner, "--kernel", "gaussian:sigma=1", "--seed", "2",
                                        "--save-model", model, "--json"});
            QVERIFY2(r.status == 0, r.err.c_str());
            const Json run = Json::parse(r.out);
            QCOMPARE(run["saved_model"]["path"].get<std::string>(), model);
            QCOMPARE(run["saved_model"]["train_rows"].get<int>(), 240);
            r = orbittest::runCli({"predict", "--model", model, "--data", path("test.csv"), "--out", path("p.csv"), "--json"});
            QVERIFY2(r.status == 0, r.err.c_str());
            const Json p = Json::parse(r.out);
            QCOMPARE(p["rows"].get<int>(), 90);
            QCOMPARE(p["metric"].get<std::string>(), std::string("accuracy"));
            QCOMPARE(p["score"].get<double>(), run["mean"].get<double>());
            const auto csv = lines(path("p.csv"));
            QCOMPARE(csv.size(), std::size_t(91));
            QCOMPARE(csv.front(), std::string("row,prediction,score_0,score_1,score_2"));
            QVERIFY(QString::fromStdString(csv[1]).startsWith("0,"));
        }
    }

    void regressionScoresRmseAndMae()
    {
        const std::string model = path("t.npz");
        auto r = orbittest::runCli({"train", "--data", path("train-t.csv"), "--test-data", path("test-t.csv"), "--features",
                                    "rf:s=80", "--learner", "blr", "--kernel", "gaussian:sigma=1.5", "--save-model", model,
                                    "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json run = Json::parse(r.out);
        r = orbittest::runCli({"predict", "--model", model, "--data", path("test-t.csv"), "--out", path("t.csv"), "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json p = Json::parse(r.out);
        QCOMPARE(p["metric"].get<std::string>(), std::string("rmse"));
        QVERIFY(std::abs(p["score"].get<double>() - run["mean"].get<double>()) <= 1e-9 * run["mean"].get<double>());
        QVERIFY(std::abs(p["mae"].get<double>() - run["mae"].get<double>()) <= 1e-9 * run["mae"].get<double>());
        QCOMPARE(lines(path("t.csv")).front(), std::string("row,prediction"));
        // Text output names the model and the metric.
        r = orbittest::runCli({"predict", "--model", model, "--data", path("test-t.csv")});
        QVERIFY2(r.status == 0 && r.out.find("rmse") != std::string::npos, r.out.c_str());
    }

    void badInputIsOneLine()
    {
        const std::string model = path("m.npz");
        QVERIFY(orbittest::runCli({"train", "--data", path("train.csv"), "--features", "rf:s=20", "--kernel", "gaussian:sigma=1",
                                   "--learner", "ridge", "--save-model", model})
                    .status == 0);
        struct Case {
            std::vector<std::string> args;
            const char* says;
        };
        const std::vector<Case> cases = {
            {{"predict", "--data", path("test.csv")}, "--model: is required"},
            {{"predict", "--model", path("nope.npz"), "--data", path("test.csv")}, "nope.npz"},
            {{"predict", "--model", path("train.csv"), "--data", path("test.csv")}, "not a .npz archive"},
            {{"predict", "--model", model, "--data", orbittest::bundledFile("g2.extxyz")}, "(input_shape)"},
            {{"predict", "--model", model, "--data", path("wide-t.csv")}, "a classifier cannot score regression targets"},
            {{"predict", "--model", model, "--data", path("test-t.csv")}, "vectors of 1 x 4 x 1 (input_shape), the data are vectors of 1 x 2 x 1"},
            {{"predict", "--model", model, "--data", path("test.csv"), "--out", path("no/such/dir/p.csv")}, "--out"},
            {{"train", "--data", path("train.csv"), "--features", "raw", "--learner", "krr", "--save-model", model},
             "a krr model keeps every training row"},
        };
        for (const Case& c : cases) {
            const auto r = orbittest::runCli(c.args);
            QVERIFY2(oneLine(r) && r.err.find(c.says) != std::string::npos, (c.says + std::string(" -> ") + r.err).c_str());
        }
    }

    // Images: the digits model refuses another image size, and with --n and --seed predicts the rows train used.
    void imagesKeepTheirShape()
    {
        const std::string digits = orbittest::bundledFile("digits.png"), model = path("d.npz");
        auto r = orbittest::runCli({"train", "--data", digits, "--n", "200", "--features", "irf:s=50,r=4", "--group", "rotation",
                                    "--dist", "vonmises:kappa=1", "--learner", "blr", "--eval", "holdout:0.5", "--save-model",
                                    model, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        r = orbittest::runCli({"predict", "--model", model, "--data", digits, "--n", "200", "--rotate", "--pad", "24"});
        QVERIFY2(oneLine(r) && r.err.find("images of 20 x 20 x 1 (input_shape), the data are images of 24 x 24 x 1") != std::string::npos,
                 r.err.c_str());
        r = orbittest::runCli({"predict", "--model", model, "--data", digits, "--n", "200", "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(Json::parse(r.out)["score"].get<double>() > 0.5);
    }
};

QTEST_MAIN(TestCliPredict)
#include "test_cli_predict.moc"

// `orbitlab-cli train --save-model` and `predict` in-process (docs/cli.md, "Saved models"): a
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

/// The molecules of an .extxyz file alternately into two files (even ones first): G2's two largest
/// molecules (14 atoms) are neighbours, so both files have the same Coulomb matrix size.
void splitMolecules(const std::string& from, const std::string& even, const std::string& odd)
{
    std::ifstream in(from);
    std::ofstream out[2] = {std::ofstream(even), std::ofstream(odd)};
    int k = 0;
    for (std::string line; std::getline(in, line);) {
        const int atoms = std::stoi(line);
        std::ostream& o = out[k++ % 2];
        o << line << "\n";
        for (int i = 0; i <= atoms && std::getline(in, line); ++i) o << line << "\n";
    }
}

/// predict --out's CSV: the second column of every row.
std::vector<std::string> predictedColumn(const std::string& path)
{
    std::vector<std::string> out;
    const auto all = lines(path);
    for (std::size_t i = 1; i < all.size(); ++i) {
        const auto a = all[i].find(','), b = all[i].find(',', a + 1);
        out.push_back(all[i].substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1));
    }
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

    // krr saves its support rows and dual weights: predicting the test file gives the run's own test
    // predictions, to the bit: the confusion matrix of the classes and the RMSE and MAE of G2's
    // energies (sorted Coulomb matrices, the QM7 recipe) are the run's.
    void krrPredictsTheRunsOwnTestPredictions()
    {
        const std::string model = path("k.npz");
        auto r = orbittest::runCli({"train", "--data", path("train.csv"), "--test-data", path("test.csv"), "--features", "raw",
                                    "--learner", "krr", "--seed", "2", "--save-model", model, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        Json run = Json::parse(r.out);
        QCOMPARE(run["saved_model"]["learner"].get<std::string>(), std::string("krr"));
        QCOMPARE(run["saved_model"]["support_rows"].get<int>(), 240);
        QVERIFY(run["saved_model"]["bytes"].get<long long>() > 240 * 4 * 4);
        const std::string size = run["saved_model"]["size"].get<std::string>();
        QVERIFY2(size.find("krr keeps the features of its 240 training rows (240 x 4 float32)") != std::string::npos, size.c_str());
        r = orbittest::runCli({"predict", "--model", model, "--data", path("test.csv"), "--out", path("k.csv"), "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(Json::parse(r.out)["score"].get<double>() == run["mean"].get<double>());
        std::vector<std::vector<int>> confusion(3, std::vector<int>(3, 0));
        const auto predicted = predictedColumn(path("k.csv"));
        const auto truth = lines(path("test.csv"));
        for (std::size_t i = 0; i < predicted.size(); ++i)
            ++confusion[std::size_t(truth[i].back() - '0')][std::size_t(std::stoi(predicted[i]))];
        QCOMPARE(run["confusion"].get<std::vector<std::vector<int>>>(), confusion);

        splitMolecules(orbittest::bundledFile("g2.extxyz"), path("g2-train.extxyz"), path("g2-test.extxyz"));
        r = orbittest::runCli({"train", "--data", path("g2-train.extxyz"), "--test-data", path("g2-test.extxyz"), "--features",
                               "sorted", "--learner", "krr", "--grid", "lambda=1e-6,1e-3", "--save-model", model, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        run = Json::parse(r.out);
        r = orbittest::runCli({"predict", "--model", model, "--data", path("g2-test.extxyz"), "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json p = Json::parse(r.out);
        QCOMPARE(p["rows"].get<int>(), run["n_test"].get<int>());
        QVERIFY2(p["score"].get<double>() == run["mean"].get<double>() && p["mae"].get<double>() == run["mae"].get<double>(),
                 (p.dump() + " against " + run.dump()).c_str());
        // The text output states the file's size.
        r = orbittest::runCli({"train", "--data", path("g2-train.extxyz"), "--features", "sorted", "--learner", "krr", "--grid",
                               "lambda=1e-3", "--save-model", model});
        QVERIFY2(r.status == 0 && r.out.find("saved to " + model + ", ") != std::string::npos &&
                     r.out.find("krr keeps the features of its") != std::string::npos,
                 r.out.c_str());
    }

    // Exact kernel machines (exact:r=R, krr and gp) save the training rows, the dual weights, the
    // fitted kernel and the group samples' seed and sub-streams: predicting G2's test file gives the
    // run's RMSE and MAE to the bit. A model of the m-centre solver is refused in one line.
    void exactModelsPredictTheRunsOwnTestPredictions()
    {
        splitMolecules(orbittest::bundledFile("g2.extxyz"), path("g2-train.extxyz"), path("g2-test.extxyz"));
        const std::string model = path("x.npz");
        for (const std::string learner : {"krr", "gp"}) {
            auto r = orbittest::runCli({"train", "--data", path("g2-train.extxyz"), "--test-data", path("g2-test.extxyz"),
                                        "--features", "exact:r=2", "--group", "permutation", "--dist", "noisysort:sigma=1",
                                        "--kernel", "laplacian:median=1", "--learner", learner, "--grid",
                                        learner == "krr" ? "lambda=1e-4,1e-2" : "", "--seed", "4", "--save-model", model,
                                        "--json"});
            QVERIFY2(r.status == 0, r.err.c_str());
            const Json run = Json::parse(r.out);
            QCOMPARE(run["saved_model"]["learner"].get<std::string>(), learner);
            QVERIFY(run["saved_model"]["size"].get<std::string>().find("exact " + learner + " keeps its") != std::string::npos);
            r = orbittest::runCli({"predict", "--model", model, "--data", path("g2-test.extxyz"), "--json"});
            QVERIFY2(r.status == 0, r.err.c_str());
            const Json p = Json::parse(r.out);
            QCOMPARE(p["model"]["features"].get<std::string>(), std::string("exact:r=2"));
            QVERIFY2(p["score"].get<double>() == run["mean"].get<double>() && p["mae"].get<double>() == run["mae"].get<double>(),
                     (learner + ": " + p.dump() + " against " + run.dump()).c_str());
        }
        const auto r = orbittest::runCli({"train", "--data", path("g2-train.extxyz"), "--features", "exact:r=2,centres=10",
                                          "--learner", "krr", "--save-model", model});
        QVERIFY2(oneLine(r) && r.err.find("centres") != std::string::npos, r.err.c_str());
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
            {{"train", "--data", path("train.csv"), "--features", "rf:s=20", "--learner", "krr", "--save-model", model},
             "--kernel: krr puts its Gaussian on the output of the feature map: give it the kernel's inputs as features"},
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

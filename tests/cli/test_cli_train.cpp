// `orbitlab-cli train` and `experiment` in-process (../shared/CLI.md): the JSON fields of a run on a
// small CSV dataset (classes and targets), one stderr line naming the option for bad input (exit 2),
// and an experiment config that writes results.json and results.md.
#include "CliRunner.hpp"
#include "orbit/cli/Json.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>

namespace {

using orbit::cli::Json;

/// Two classes: label 1 iff x0 + x1 > 0 (a linear rule), four features, deterministic values.
void writeClasses(const std::string& path, int n)
{
    std::ofstream f(path);
    for (int i = 0; i < n; ++i) {
        const double a = std::sin(1.3 * i), b = std::cos(0.7 * i + 1), c = std::sin(0.3 * i), d = std::cos(2.1 * i);
        f << a << "," << b << "," << c << "," << d << "," << (a + b > 0 ? 1 : 0) << "\n";
    }
}

/// Targets t = 3 x0 - 2 x1 + 0.5 (non-integer).
void writeTargets(const std::string& path, int n)
{
    std::ofstream f(path);
    for (int i = 0; i < n; ++i) {
        const double a = std::sin(1.3 * i), b = std::cos(0.7 * i + 1);
        f << a << "," << b << "," << 3 * a - 2 * b + 0.5 + 0.01 * std::sin(17.0 * i) << "\n";
    }
}

std::string readAll(const std::string& path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

} // namespace

class TestCliTrain : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void classificationJson()
    {
        const std::string csv = path("classes.csv");
        writeClasses(csv, 90);
        const auto r = orbittest::runCli({"train", "--data", csv, "--features", "raw", "--learner", "ridge", "--eval",
                                          "kfold:3", "--grid", "lambda=1e-3,1", "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QCOMPARE(j["metric"].get<std::string>(), std::string("accuracy"));
        QCOMPARE(j["folds"].size(), std::size_t(3));
        QVERIFY(j["mean"].get<double>() > 0.8);  // a linear rule
        QVERIFY(j.contains("chosen") && j.contains("seconds") && !j.contains("mae"));
        QVERIFY(j["folds"][0]["chosen"].contains("lambda"));
        QCOMPARE(j["grid"].size(), std::size_t(2));
        QCOMPARE(j["n"].get<int>(), 90);
    }

    void regressionJsonHasMaeAndEvidence()
    {
        const std::string csv = path("targets.csv");
        writeTargets(csv, 120);
        // Random Fourier features (the model has no intercept beyond the target mean, so raw
        // uncentred inputs would leave a constant offset).
        const auto r = orbittest::runCli({"train", "--data", csv, "--features", "rf:s=200", "--learner", "blr", "--eval",
                                          "holdout:0.25", "--n", "100", "--seed", "3", "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QCOMPARE(j["metric"].get<std::string>(), std::string("rmse"));
        QVERIFY2(j["mean"].get<double>() < 0.25, r.out.c_str());  // targets spread ~ 2.5, noise 0.01
        QVERIFY(j.contains("mae") && j.contains("log_evidence"));
        QVERIFY(std::isfinite(j["log_evidence"].get<double>()));
        QCOMPARE(j["n"].get<int>(), 100);
        const auto text = orbittest::runCli({"train", "--data", csv, "--features", "raw", "--learner", "ridge"});
        QCOMPARE(text.status, 0);
        QVERIFY(text.out.find("rmse:") != std::string::npos);
    }

    void badInputExitsTwoNamingTheOption_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expect");
        QTest::newRow("grid number") << "--grid" << "lambda=1e-3,abc" << "abc";
        QTest::newRow("grid syntax") << "--grid" << "lambda" << "lambda";
        QTest::newRow("grid axis") << "--grid" << "C=1" << "C";
        QTest::newRow("learner") << "--learner" << "forest" << "forest";
        QTest::newRow("eval") << "--eval" << "kfold:x" << "kfold:x";
        QTest::newRow("n") << "--n" << "100000" << "100000";
    }
    void badInputExitsTwoNamingTheOption()
    {
        QFETCH(QString, option);
        QFETCH(QString, value);
        QFETCH(QString, expect);
        const std::string csv = path("classes.csv");
        writeClasses(csv, 40);
        const auto r = orbittest::runCli({"train", "--data", csv, "--features", "raw", option.toStdString(), value.toStdString()});
        QCOMPARE(r.status, 2);
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1L);
        QVERIFY2(r.err.find(option.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY2(r.err.find(expect.toStdString()) != std::string::npos, r.err.c_str());
    }

    void experimentWritesJsonAndMarkdown()
    {
        writeClasses(path("classes.csv"), 60);
        {
            std::ofstream f(path("tiny.json"));
            f << R"({"title": "tiny", "data": {"file": "classes.csv", "eval": "kfold:3", "seed": 1},
                   "defaults": {"learner": "ridge", "grid": {"lambda": [0.01, 1]}},
                   "settings": [{"name": "raw ridge", "features": "raw", "paper": 90.0},
                                {"name": "rf ridge", "features": "rf:s=16", "grid": "median=1;lambda=0.1"}]})";
        }
        const std::string out = path("out");
        const auto r = orbittest::runCli({"experiment", path("tiny.json"), "--out", out, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QCOMPARE(j["settings"].size(), std::size_t(2));
        QCOMPARE(j["settings"][1]["result"]["grid"].size(), std::size_t(1));
        const Json file = Json::parse(readAll(out + "/results.json"));
        QCOMPARE(file["settings"][0]["name"].get<std::string>(), std::string("raw ridge"));
        const std::string md = readAll(out + "/results.md");
        QVERIFY(md.find("| raw ridge |") != std::string::npos);
        QVERIFY(md.find("| rf ridge |") != std::string::npos);
        QVERIFY(md.find("90.00") != std::string::npos);
        QVERIFY2(md.find("lambda=0.1, median=1 (x3)") != std::string::npos, md.c_str());  // one point, all 3 folds

        std::ofstream(path("broken.json")) << R"({"data": {"file": "classes.csv"}, "settings": [{"name": "x", "learner": "tree"}]})";
        const auto bad = orbittest::runCli({"experiment", path("broken.json")});
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.find("settings[0]") != std::string::npos, bad.err.c_str());
    }

private:
    std::string path(const std::string& name) const { return dir_.filePath(QString::fromStdString(name)).toStdString(); }
    QTemporaryDir dir_;
};

QTEST_APPLESS_MAIN(TestCliTrain)
#include "test_cli_train.moc"

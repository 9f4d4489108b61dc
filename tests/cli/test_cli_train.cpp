// `orbitlab-cli train` and `experiment` in-process (docs/cli.md): the JSON fields of a run on a
// small CSV dataset (classes and targets), one stderr line naming the option for bad input (exit 2),
// and an experiment config that writes results.json and results.md; every shipped config parses.
#include "CliRunner.hpp"
#include "orbit/cli/ExperimentConfig.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/util/Error.hpp"

#include "TestPaths.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QDir>
#include <QFile>
#include <QIODevice>
#include <QObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

using orbit::cli::Json;

/// Two classes: label 1 iff x0 + x1 > 0 (a linear rule; the opposite one when `flipped`), four
/// features, deterministic values (rows from `first` on).
void writeClasses(const std::string& path, int n, bool flipped = false, int first = 0)
{
    std::ofstream f(path);
    for (int i = first; i < first + n; ++i) {
        const double a = std::sin(1.3 * i), b = std::cos(0.7 * i + 1), c = std::sin(0.3 * i), d = std::cos(2.1 * i);
        f << a << "," << b << "," << c << "," << d << "," << ((a + b > 0) != flipped ? 1 : 0) << "\n";
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

    /// --test-data: one fit on all of --data, scored on the other file. A test file with the
    /// opposite rule scores near 0, the same rule near 1; --eval with it is refused.
    void aSeparateTestFileIsTheTestSet()
    {
        const std::string train = path("train.csv"), same = path("same.csv"), opposite = path("opposite.csv");
        writeClasses(train, 90);
        writeClasses(same, 30, false, 500);
        writeClasses(opposite, 30, true, 500);
        double scores[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            const auto r = orbittest::runCli({"train", "--data", train, "--test-data", k == 0 ? same : opposite, "--features",
                                              "raw", "--learner", "ridge", "--grid", "lambda=1e-3", "--json"});
            QVERIFY2(r.status == 0, r.err.c_str());
            const Json j = Json::parse(r.out);
            QCOMPARE(j["n"].get<int>(), 120);
            QCOMPARE(j["n_test"].get<int>(), 30);
            QCOMPARE(j["folds"].size(), std::size_t(1));
            QCOMPARE(j["product_rows"].get<int>(), 90);  // every training row, once, and no test row
            scores[k] = j["mean"].get<double>();
        }
        QVERIFY2(scores[0] > 0.8 && scores[1] < 0.2, qPrintable(QString("%1, %2").arg(scores[0]).arg(scores[1])));
        const auto both = orbittest::runCli({"train", "--data", train, "--test-data", same, "--eval", "kfold:3", "--features", "raw"});
        QCOMPARE(both.status, 2);
        QVERIFY2(both.err.find("--eval") != std::string::npos, both.err.c_str());
        writeTargets(path("targets.csv"), 30);
        const auto mixed = orbittest::runCli({"train", "--data", train, "--test-data", path("targets.csv"), "--features", "raw"});
        QCOMPARE(mixed.status, 2);
        QVERIFY2(mixed.err.find("--test-data") != std::string::npos && mixed.err.find("differ") != std::string::npos,
                 mixed.err.c_str());
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

    // krr on the exact kernel with m centres (FALKON): the JSON states the centres and the CG
    // iterations of every fold; more centres than training rows exit 2 with one line naming
    // --features and centres.
    void falkonCentresAndIterationsInTheJson()
    {
        const std::string csv = path("classes.csv");
        writeClasses(csv, 90);
        const auto r = orbittest::runCli({"train", "--data", csv, "--features", "exact:r=1,centres=30", "--learner", "krr",
                                          "--eval", "holdout:0.3", "--grid", "lambda=1e-3,1e-1", "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QVERIFY2(j["mean"].get<double>() > 0.8, r.out.c_str());
        QCOMPARE(j["folds"][0]["chosen"]["centres"].get<double>(), 30.0);
        QVERIFY(j["folds"][0]["chosen"]["cg_iterations"].get<double>() >= 1);
        QVERIFY(j["features"].get<std::string>().find("centres=30") != std::string::npos);
        const auto bad = orbittest::runCli({"train", "--data", csv, "--features", "exact:r=1,centres=500", "--learner", "krr",
                                            "--eval", "holdout:0.3"});
        QCOMPARE(bad.status, 2);
        QCOMPARE(std::count(bad.err.begin(), bad.err.end(), '\n'), 1L);
        QVERIFY2(bad.err.find("--features") != std::string::npos && bad.err.find("centres") != std::string::npos,
                 bad.err.c_str());
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

    // A run stopped half-way keeps its finished rows, and --resume continues from them: the rows
    // are kept as each finishes (here the second row fails, as a crash would stop the run), a
    // resumed row is reused as saved, and a row whose settings changed runs again.
    void experimentResumesFinishedRows()
    {
        writeClasses(path("resume.csv"), 60);
        const auto writeConfig = [&](const std::vector<double>& firstGrid, const std::string& secondFeatures) {
            Json config;
            config["title"] = "resume";
            config["data"] = {{"file", "resume.csv"}, {"eval", "kfold:3"}, {"seed", 1}};
            config["defaults"] = {{"learner", "ridge"}};
            config["settings"] = Json::array();
            config["settings"].push_back({{"name", "raw ridge"}, {"features", "raw"}, {"grid", {{"lambda", firstGrid}}}});
            config["settings"].push_back(
                {{"name", "nystrom ridge"}, {"features", secondFeatures}, {"grid", "median=1;lambda=0.1"}});
            std::ofstream(path("resume.json")) << config.dump();
        };
        const std::string out = path("resume-out");
        namespace fs = std::filesystem;
        const auto rowFiles = [&] {
            std::vector<fs::path> files;
            for (const auto& e : fs::directory_iterator(out + "/rows")) files.push_back(e.path());
            std::sort(files.begin(), files.end());
            return files;
        };

        // Nystrom with more landmarks than a training fold has rows: the second row fails.
        writeConfig({0.01, 1}, "nystrom:s=500");
        const auto crashed = orbittest::runCli({"experiment", path("resume.json"), "--out", out});
        QCOMPARE(crashed.status, 2);
        QVERIFY2(crashed.out.find("raw ridge: accuracy") != std::string::npos, crashed.out.c_str());
        QVERIFY(!fs::exists(out + "/results.json"));
        auto files = rowFiles();
        QCOMPARE(files.size(), std::size_t(1));  // the finished row, nothing half-written
        const std::string firstRow = readAll(files[0].string());
        const auto firstTime = fs::last_write_time(files[0]);

        // Fixed and resumed: the first row is reused as it was saved, the second one runs.
        writeConfig({0.01, 1}, "nystrom:s=8");
        const auto resumed = orbittest::runCli({"experiment", path("resume.json"), "--out", out, "--resume"});
        QVERIFY2(resumed.status == 0, resumed.err.c_str());
        QVERIFY2(resumed.out.find("raw ridge: accuracy") != std::string::npos &&
                     resumed.out.find("(resumed)") != std::string::npos,
                 resumed.out.c_str());
        QCOMPARE(std::count(resumed.out.begin(), resumed.out.end(), '\n'), 2L);
        QVERIFY2(resumed.out.find("nystrom ridge: accuracy") != std::string::npos &&
                     resumed.out.rfind("(resumed)") < resumed.out.find("nystrom ridge"),
                 resumed.out.c_str());
        files = rowFiles();
        QCOMPARE(files.size(), std::size_t(2));
        QCOMPARE(readAll(files[0].string() == firstRow ? files[0].string() : files[1].string()), firstRow);
        QVERIFY(fs::last_write_time(files[0]) == firstTime || fs::last_write_time(files[1]) == firstTime);
        const Json all = Json::parse(readAll(out + "/results.json"));
        QCOMPARE(all["settings"].size(), std::size_t(2));
        const Json savedFirst = Json::parse(firstRow)["row"];
        QCOMPARE(all["settings"][0].dump(), savedFirst.dump());  // the resumed row, as computed before
        QVERIFY(readAll(out + "/results.md").find("| nystrom ridge |") != std::string::npos);

        // The same result as an uninterrupted run.
        const auto fresh = orbittest::runCli({"experiment", path("resume.json"), "--json"});
        QVERIFY2(fresh.status == 0, fresh.err.c_str());
        const Json freshAll = Json::parse(fresh.out);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(freshAll["settings"][i]["result"]["mean"].get<double>(), all["settings"][i]["result"]["mean"].get<double>());

        // The first row's grid changed: it runs again (and says why); the second is resumed.
        writeConfig({0.1, 10}, "nystrom:s=8");
        const auto changed = orbittest::runCli({"experiment", path("resume.json"), "--out", out, "--resume"});
        QVERIFY2(changed.status == 0, changed.err.c_str());
        QVERIFY2(changed.err.find("raw ridge: its settings changed") != std::string::npos, changed.err.c_str());
        const std::string firstLine = changed.out.substr(0, changed.out.find('\n'));
        QVERIFY2(firstLine.find("(resumed)") == std::string::npos, changed.out.c_str());
        QVERIFY2(changed.out.find("nystrom ridge") != std::string::npos &&
                     changed.out.find("(resumed)", changed.out.find("nystrom ridge")) != std::string::npos,
                 changed.out.c_str());
        const Json rerun = Json::parse(readAll(out + "/results.json"));
        QCOMPARE(rerun["settings"][0]["result"]["grid"].size(), std::size_t(2));
        QCOMPARE(rerun["settings"][0]["result"]["grid"][0]["params"]["lambda"].get<double>(), 0.1);

        // --resume needs the folder of the run it continues.
        const auto noOut = orbittest::runCli({"experiment", path("resume.json"), "--resume"});
        QCOMPARE(noOut.status, 2);
        QVERIFY2(noOut.err.find("--resume") != std::string::npos, noOut.err.c_str());
    }

    // Every shipped experiment config parses and each of its settings passes TrainConfig::validate
    // (loadExperimentConfig validates them), so a typo in a table fails here, not after hours of runs.
    void shippedConfigsAreValid()
    {
        const QDir dir(QString::fromStdString(orbittest::source("resources/experiments")));
        const QStringList files = dir.entryList({"*.json"}, QDir::Files);
        QVERIFY(files.size() >= 5);
        for (const QString& file : files) {
            try {
                const orbit::cli::ExperimentConfig c = orbit::cli::loadExperimentConfig(dir.filePath(file).toStdString());
                QVERIFY2(!c.settings.empty(), qPrintable(file));
            } catch (const std::exception& e) {
                QFAIL(qPrintable(file + ": " + e.what()));
            }
        }
    }

    // A setting name with a comma could never be selected by --only NAME,NAME: the config says so.
    void rejectsSettingNamesWithCommas()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("commas.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"title": "t", "data": {"file": "x.extxyz", "eval": "kfold:2"},
                    "settings": [{"name": "GICDF, measured", "features": "raw", "learner": "ridge"}]})");
        f.close();
        try {
            orbit::cli::loadExperimentConfig(path.toStdString());
            QFAIL("a name with a comma was accepted");
        } catch (const orbit::LoadError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("settings[0].name") != std::string::npos && what.find("GICDF, measured") != std::string::npos,
                     what.c_str());
        }
    }

private:
    std::string path(const std::string& name) const { return dir_.filePath(QString::fromStdString(name)).toStdString(); }
    QTemporaryDir dir_;
};

QTEST_APPLESS_MAIN(TestCliTrain)
#include "test_cli_train.moc"

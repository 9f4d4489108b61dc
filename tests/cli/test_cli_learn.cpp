// `orbitlab-cli learn` and `evidence` in-process (docs/cli.md): the JSON fields, the same seed
// giving the learned point on the evidence curve, and one stderr line naming the option and value
// for every bad request (exit 2).
#include "CliRunner.hpp"
#include "TestPaths.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/util/Spec.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cmath>
#include <fstream>

namespace {

using orbit::cli::Json;

std::vector<std::string> digitsArgs(std::vector<std::string> more)
{
    std::vector<std::string> a = {"--data", orbittest::source("resources/data/digits.png"), "--n", "300", "--rotate",
                                  "--features", "irf:s=150,r=6", "--group", "rotation", "--seed", "2"};
    a.insert(a.end(), more.begin(), more.end());
    return a;
}

std::vector<std::string> with(const std::string& command, const std::vector<std::string>& args)
{
    std::vector<std::string> a = {command};
    a.insert(a.end(), args.begin(), args.end());
    return a;
}

} // namespace

class TestCliLearn : public QObject {
    Q_OBJECT
private slots:
    void learnReportsTheContractFields()
    {
        const auto r = orbittest::runCli(with("learn", digitsArgs({"--dist", "uniform:a=0.5", "--learn", "a", "--max-evals",
                                                                   "10", "--eval", "holdout:0.3", "--json"})));
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        for (const char* key : {"params", "dist", "log_evidence", "evaluations", "trajectory", "seconds", "metric", "test"})
            QVERIFY2(j.contains(key), key);
        const double a = j["params"]["a"];
        QVERIFY(a >= 0.01 && a <= 3.14159266);
        QCOMPARE(j["dist"].get<std::string>().rfind("uniform:a=", 0), std::size_t(0));
        QVERIFY(j["evaluations"].get<int>() <= 10);
        QCOMPARE(j["trajectory"].size(), j["evaluations"].get<std::size_t>());
        QCOMPARE(j["metric"].get<std::string>(), std::string("accuracy"));
        QVERIFY(j["test"].get<double>() > 0.2);  // ten classes: far above chance
        // Every step names its parameters and evidence; the reported optimum is the best of them.
        double best = -1e300;
        for (const Json& p : j["trajectory"]) {
            QVERIFY(p["params"].contains("a") && p.contains("log_evidence"));
            best = std::max(best, p["log_evidence"].get<double>());
        }
        QCOMPARE(j["log_evidence"].get<double>(), best);
    }
    // learn --eval kfold:K learns inside each training fold and scores its test fold: K folds, each
    // with its params and test score, their mean; on G2 (regression) rmse and mae too, and the
    // learner gp gives the same fields.
    void learnKFoldLearnsPerFold()
    {
        const auto r = orbittest::runCli(with("learn", digitsArgs({"--dist", "uniform:a=0.5", "--learn", "a", "--max-evals",
                                                                   "6", "--eval", "kfold:3", "--json"})));
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QCOMPARE(j["folds"].size(), std::size_t(3));
        double sum = 0;
        for (const Json& f : j["folds"]) {
            QVERIFY(f["params"].contains("a") && f.contains("log_evidence") && f.contains("test"));
            sum += f["test"].get<double>();
        }
        QVERIFY(std::fabs(j["mean"].get<double>() - sum / 3) < 1e-12);
        QVERIFY(j["params"] == j["folds"][0]["params"]);  // the top-level fields are the first fold's
        for (const std::string learner : {"blr", "gp"}) {
            std::vector<std::string> a = {"learn", "--data", orbittest::source("resources/data/g2.extxyz"), "--group",
                                          "permutation", "--dist", "noisysort:sigma=1", "--learn", "sigma", "--eval", "kfold:3",
                                          "--learner", learner, "--max-evals", "4", "--json"};
            if (learner == "gp") {
                for (const char* more : {"--features", "exact:r=2", "--kernel", "laplacian:median=1", "--scan", "3", "--inner-evals", "4"})
                    a.push_back(more);
            } else {
                for (const char* more : {"--features", "irf:s=100,r=4"}) a.push_back(more);
            }
            const auto g = orbittest::runCli(a);
            QVERIFY2(g.status == 0, g.err.c_str());
            const Json k = Json::parse(g.out);
            QCOMPARE(k["folds"].size(), std::size_t(3));
            QVERIFY2(k.contains("rmse") && k.contains("mae"), learner.c_str());
            QVERIFY(k["mae"].get<double>() > 0 && k["mae"].get<double>() < k["rmse"].get<double>());
        }
    }

    // learn --learner gp with the affine group's rotation and scale learns both jointly (L-BFGS on
    // the analytic slopes): every fold point carries both values and both slopes; evidence --learner
    // gp over two parameters is refused in one line.
    void learnGpJointAffine()
    {
        const std::vector<std::string> data = {"--data", orbittest::source("resources/data/digits.png"), "--n", "60", "--rotate",
                                               "--pad", "20", "--group", "affine", "--seed", "2", "--learner", "gp",
                                               "--features", "exact:r=3", "--kernel", "gaussian:median=1"};
        std::vector<std::string> a = {"learn"};
        a.insert(a.end(), data.begin(), data.end());
        for (const char* more : {"--dist", "rotation=vonmises:kappa=2,scale=lognormal:sigma=0.2", "--learn",
                                 "rotation.kappa,scale.sigma", "--eval", "holdout:0.5", "--max-evals", "6", "--inner-evals", "4",
                                 "--json"})
            a.push_back(more);
        const auto r = orbittest::runCli(a);
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QCOMPARE(j["method"].get<std::string>(), std::string("lbfgs"));
        QCOMPARE(j["learn"].size(), std::size_t(2));
        QVERIFY(j["params"].contains("rotation.kappa") && j["params"].contains("scale.sigma"));
        QVERIFY(j.contains("test") && j.contains("log_evidence"));
        const Json& f = j["folds"][0];
        QVERIFY(f["outer_evaluations"].get<int>() >= 1 && f["outer_evaluations"].get<int>() <= 6);
        QCOMPARE(f["curve"].size(), std::size_t(f["outer_evaluations"].get<int>()));
        QCOMPARE(f["slopes"].size(), f["curve"].size());
        for (const Json& s : f["slopes"])
            QVERIFY(s["d_log_evidence"].contains("rotation.kappa") && s["d_log_evidence"].contains("scale.sigma"));
        double best = -1e300;
        for (const Json& p : f["curve"]) best = std::max(best, p["log_evidence"].get<double>());
        QCOMPARE(f["log_evidence"].get<double>(), best);
        QVERIFY(j["dist"].get<std::string>().find("lognormal") != std::string::npos);

        std::vector<std::string> e = {"evidence"};
        e.insert(e.end(), data.begin(), data.end());
        for (const char* more : {"--dist", "rotation=vonmises:kappa=2,scale=lognormal:sigma=0.2", "--param",
                                 "rotation.kappa,scale.sigma", "--values", "1,2;0.1,0.2"})
            e.push_back(more);
        const auto refused = orbittest::runCli(e);
        QCOMPARE(refused.status, 2);
        QVERIFY2(QString::fromStdString(refused.err).count('\n') == 1 && refused.err.find("one parameter") != std::string::npos,
                 refused.err.c_str());
    }

    void learnedPointLiesOnTheEvidenceCurve()
    {
        // With the same --seed, `evidence` at the learned value gives the learned log evidence.
        const auto l = orbittest::runCli(with("learn", digitsArgs({"--dist", "vonmises:kappa=1", "--learn", "kappa",
                                                                   "--max-evals", "6", "--json"})));
        QVERIFY2(l.status == 0, l.err.c_str());
        const Json j = Json::parse(l.out);
        const double kappa = j["params"]["kappa"];
        QTemporaryDir dir;
        const std::string csv = dir.filePath("curve.csv").toStdString();
        const auto e = orbittest::runCli(with("evidence", digitsArgs({"--dist", "vonmises:kappa=1", "--param", "kappa",
                                                                      "--values", orbit::formatNumber(kappa) + ",0.5",
                                                                      "--csv", csv, "--json"})));
        QVERIFY2(e.status == 0, e.err.c_str());
        const Json c = Json::parse(e.out);
        QCOMPARE(c["param"].get<std::string>(), std::string("kappa"));
        QCOMPARE(c["values"].size(), std::size_t(2));
        QCOMPARE(c["log_evidence"][0].get<double>(), j["log_evidence"].get<double>());
        std::ifstream f(csv);
        std::string header;
        std::getline(f, header);
        QCOMPARE(header, std::string("value,log_evidence"));
    }
    void evidenceRangeSyntax()
    {
        const auto e = orbittest::runCli(with("evidence", digitsArgs({"--dist", "vonmises:kappa=1", "--param", "kappa",
                                                                      "--values", "0.1:10:3:log", "--json"})));
        QVERIFY2(e.status == 0, e.err.c_str());
        const Json c = Json::parse(e.out);
        QCOMPARE(c["values"].size(), std::size_t(3));
        QVERIFY(std::abs(c["values"][1].get<double>() - 1.0) < 1e-12);
    }
    void badRequestsGetOneLine_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::newRow("unknown parameter") << "learn" << QStringList{"--dist", "vonmises:kappa=1", "--learn", "kapa"} << "--dist" << "kapa";
        QTest::newRow("haar has nothing to learn") << "learn" << QStringList{"--dist", "haar", "--learn", "kappa"} << "--dist" << "kappa";
        QTest::newRow("delta has nothing to learn") << "learn" << QStringList{"--dist", "delta", "--learn", "kappa"} << "--dist" << "kappa";
        QTest::newRow("bounds exclude the start") << "learn" << QStringList{"--dist", "vonmises:kappa=5", "--learn", "kappa", "--bounds", "kappa=0.1:2"} << "--bounds" << "0.1:2";
        QTest::newRow("bounds outside the valid range") << "learn" << QStringList{"--dist", "uniform:a=1", "--learn", "a", "--bounds", "a=0.1:5"} << "--bounds" << "5";
        QTest::newRow("bounds syntax") << "learn" << QStringList{"--dist", "uniform:a=1", "--learn", "a", "--bounds", "a=0.1"} << "--bounds" << "a=0.1";
        QTest::newRow("bounds of another parameter") << "learn" << QStringList{"--dist", "uniform:a=1", "--learn", "a", "--bounds", "kappa=1:2"} << "--bounds" << "kappa";
        QTest::newRow("no evaluations") << "learn" << QStringList{"--dist", "uniform:a=1", "--learn", "a", "--max-evals", "0"} << "--max-evals" << "0";
        QTest::newRow("evidence values") << "evidence" << QStringList{"--dist", "uniform:a=1", "--param", "a", "--values", "1:2"} << "--values" << "1:2";
        QTest::newRow("evidence value outside range") << "evidence" << QStringList{"--dist", "uniform:a=1", "--param", "a", "--values", "0.5,7"} << "--dist" << "7";
        QTest::newRow("evidence unknown parameter") << "evidence" << QStringList{"--dist", "uniform:a=1", "--param", "sigma", "--values", "1"} << "--dist" << "sigma";
        QTest::newRow("precision word") << "learn" << QStringList{"--dist", "uniform:a=1", "--learn", "a", "--precision", "half"} << "--precision" << "half";
    }
    void badRequestsGetOneLine()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, args);
        QFETCH(QString, option);
        QFETCH(QString, value);
        std::vector<std::string> more;
        for (const QString& a : args) more.push_back(a.toStdString());
        const auto r = orbittest::runCli(with(command.toStdString(), digitsArgs(more)));
        QCOMPARE(r.status, 2);
        QVERIFY2(r.out.empty(), r.out.c_str());
        const QString err = QString::fromStdString(r.err);
        QVERIFY2(err.count('\n') == 1 && err.contains(option) && err.contains(value), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCliLearn)
#include "test_cli_learn.moc"

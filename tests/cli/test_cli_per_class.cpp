// Per-class locality on the command line (issue 31): `learn --per-class` reports every class with
// its held-out recall and both models' test accuracy; `train --dist-per-class` fits the model the
// learn printed and gets the same held-out decisions; `features --dist-per-class` writes one block
// per distinct distribution; every bad request gets one stderr line naming the option and value.
#include "CliRunner.hpp"
#include "TestPaths.hpp"
#include "orbit/cli/Json.hpp"

#include <QFile>
#include <QFloat16> // QCOMPARE on a JSON value tries every overload, qfloat16 among them
#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>
#include <QStringList>

namespace {

using orbit::cli::Json;

std::vector<std::string> digits(const std::string& command, std::vector<std::string> more)
{
    std::vector<std::string> a = {command, "--data", orbittest::source("resources/data/digits.png"), "--n", "300", "--rotate",
                                  "--features", "irf:s=120,r=6", "--group", "rotation", "--seed", "3"};
    a.insert(a.end(), more.begin(), more.end());
    return a;
}

} // namespace

class TestCliPerClass : public QObject {
    Q_OBJECT
private slots:
    void learnedPerClassModelIsWhatTrainFits()
    {
        const auto l = orbittest::runCli(digits("learn", {"--dist", "uniform:a=0.5", "--learn", "a", "--max-evals", "5",
                                                          "--eval", "holdout:0.3", "--per-class", "--json"}));
        QVERIFY2(l.status == 0, l.err.c_str());
        const Json j = Json::parse(l.out);
        QCOMPARE(j["per_class"].size(), std::size_t(10));
        std::size_t rows = 0;
        for (const Json& c : j["per_class"]) {
            QVERIFY(c.contains("test") && c["test"].get<double>() >= 0.0 && c["test"].get<double>() <= 1.0);
            rows += c["test_rows"].get<std::size_t>();
        }
        QCOMPARE(rows, j["test_rows"].get<std::size_t>());
        QVERIFY(j["global"].contains("test") && j.contains("test"));
        QVERIFY(j["test"].get<double>() > 0.3);  // ten classes: far above chance
        // The printed line fits the same model: the same split, templates, precisions and argmax.
        const std::string line = j["dist_per_class"];
        QCOMPARE(std::count(line.begin(), line.end(), ';'), 9L);
        const auto t = orbittest::runCli(digits("train", {"--dist", "uniform:a=0.5", "--dist-per-class", line, "--eval",
                                                          "holdout:0.3", "--json"}));
        QVERIFY2(t.status == 0, t.err.c_str());
        const Json r = Json::parse(t.out);
        QCOMPARE(r["metric"].get<std::string>(), std::string("accuracy"));
        QCOMPARE(r["mean"].get<double>(), j["test"].get<double>());
        QCOMPARE(r["per_class"].size(), std::size_t(10));
        for (std::size_t c = 0; c < 10; ++c) {
            QCOMPARE(r["per_class"][c]["dist"], j["per_class"][c]["dist"]);
            QCOMPARE(r["per_class"][c]["test"].get<double>(), j["per_class"][c]["test"].get<double>());
        }
        QCOMPARE(r["dist_per_class"].get<std::string>(), line);
    }
    void perClassDistributionsChangeOnlyTheirClasses()
    {
        // Two classes with a wide window, the rest upright: their scores change, so the model does.
        const auto one = orbittest::runCli(digits("train", {"--dist", "uniform:a=0.1", "--learner", "blr", "--eval", "holdout:0.3",
                                                            "--kernel", "gaussian:median=1", "--json"}));
        const auto same = orbittest::runCli(digits("train", {"--dist", "uniform:a=0.1", "--dist-per-class", "", "--eval", "holdout:0.3", "--json"}));
        const auto two = orbittest::runCli(digits("train", {"--dist", "uniform:a=0.1", "--dist-per-class",
                                                            "6=uniform:a=3;9=uniform:a=3", "--eval", "holdout:0.3", "--json"}));
        QVERIFY2(one.status == 0 && same.status == 0 && two.status == 0, (one.err + same.err + two.err).c_str());
        const Json a = Json::parse(one.out), b = Json::parse(same.out), c = Json::parse(two.out);
        // Nothing named: every class at --dist, its own precisions; the model is blr's up to the
        // precisions being shared or not, so the accuracies are close but need not be equal.
        QVERIFY(std::abs(a["mean"].get<double>() - b["mean"].get<double>()) < 0.1);
        QCOMPARE(c["per_class"][6]["dist"].get<std::string>(), std::string("uniform:a=3"));
        QCOMPARE(c["per_class"][5]["dist"].get<std::string>(), std::string("uniform:a=0.1"));
        QVERIFY(c["log_evidence"].get<double>() != b["log_evidence"].get<double>());
    }
    void ridgeAndSvmPerClassChooseTheirGrid_data()
    {
        QTest::addColumn<QString>("learner");
        QTest::addColumn<QString>("grid");
        QTest::newRow("ridge") << "ridge" << "lambda=1e-3,1e-1;median=0.5,1";
        QTest::newRow("svm") << "svm" << "C=0.1,1;median=1";
    }
    void ridgeAndSvmPerClassChooseTheirGrid()
    {
        // One-vs-rest per class: the grid searched and chosen as without --dist-per-class, the
        // per-class recall as for blr; every class named at --dist (spelled otherwise) is the plain run.
        QFETCH(QString, learner);
        QFETCH(QString, grid);
        const std::vector<std::string> common = {"--dist", "uniform:a=0.1", "--learner", learner.toStdString(), "--grid",
                                                 grid.toStdString(), "--eval", "holdout:0.3", "--json"};
        auto with = [&](std::vector<std::string> more) {
            more.insert(more.begin(), common.begin(), common.end());
            return orbittest::runCli(digits("train", more));
        };
        const auto plain = with({}), same = with({"--dist-per-class", "6=uniform:a=0.10;9=uniform:a=0.100"}),
                   wide = with({"--dist-per-class", "6=uniform:a=3;9=uniform:a=3"});
        QVERIFY2(plain.status == 0 && same.status == 0 && wide.status == 0, (plain.err + same.err + wide.err).c_str());
        const Json a = Json::parse(plain.out), b = Json::parse(same.out), c = Json::parse(wide.out);
        QCOMPARE(b["grid"], a["grid"]);
        QCOMPARE(b["chosen"], a["chosen"]);
        QCOMPARE(b["mean"].get<double>(), a["mean"].get<double>());
        QCOMPARE(c["grid"].size(), a["grid"].size());
        QCOMPARE(c["per_class"].size(), std::size_t(10));
        QCOMPARE(c["per_class"][6]["dist"].get<std::string>(), std::string("uniform:a=3"));
        QCOMPARE(c["dist_per_class"].get<std::string>(), std::string("6=uniform:a=3;9=uniform:a=3"));
        std::size_t rows = 0, tested = 0;
        for (const Json& k : c["per_class"]) rows += k["test_rows"].get<std::size_t>();
        for (const Json& row : c["confusion"])
            for (const Json& n : row) tested += n.get<std::size_t>();
        QCOMPARE(rows, tested);
        QVERIFY(rows >= 80 && rows <= 100);  // the stratified 30% of 300
    }
    void featuresWriteOneBlockPerDistinctDistribution()
    {
        QTemporaryDir dir;
        const std::string out = dir.filePath("f.npy").toStdString();
        const auto f = orbittest::runCli({"features", "--data", orbittest::source("resources/data/digits.png"), "--features",
                                          "irf:s=20,r=2", "--group", "rotation", "--dist", "uniform:a=0.1", "--dist-per-class",
                                          "6=uniform:a=3;9=uniform:a=3;1=vonmises:kappa=2", "--out", out, "--json"});
        QVERIFY2(f.status == 0, f.err.c_str());
        const Json j = Json::parse(f.out);
        QCOMPARE(j["blocks"].size(), std::size_t(3));
        QCOMPARE(j["blocks"][0]["dist"].get<std::string>(), std::string("uniform:a=0.1"));
        QCOMPARE(j["blocks"][0]["classes"], Json({0, 2, 3, 4, 5, 7, 8}));
        QCOMPARE(j["blocks"][1]["dist"].get<std::string>(), std::string("vonmises:kappa=2"));
        QCOMPARE(j["blocks"][2]["classes"], Json({6, 9}));
        QCOMPARE(j["blocks"][2]["first_column"].get<long long>(), 2 * j["blocks"][0]["columns"].get<long long>());
        QCOMPARE(j["dims"].get<long long>(), 3 * j["blocks"][0]["columns"].get<long long>());
    }
    void evidencePerClassGivesEveryClassCurve()
    {
        // evidence --per-class: every class's curve from one feature computation per value; their
        // sum at a value is the evidence of the per-class model with every class there, as train
        // --dist-per-class fits it (the same rows, templates and kernel).
        QTemporaryDir dir;
        const std::string csv = dir.filePath("curves.csv").toStdString();
        const auto e = orbittest::runCli(digits("evidence", {"--dist", "uniform:a=0.5", "--param", "a", "--values", "0.3,1.2",
                                                             "--eval", "holdout:0.3", "--per-class", "--csv", csv, "--json"}));
        QVERIFY2(e.status == 0, e.err.c_str());
        const Json j = Json::parse(e.out);
        QCOMPARE(j["per_class"].size(), std::size_t(10));
        for (std::size_t i = 0; i < 2; ++i) {
            double sum = 0.0;
            for (const Json& c : j["per_class"]) sum += c["log_evidence"][i].get<double>();
            const double total = j["log_evidence"][i].get<double>();
            QVERIFY(std::abs(sum - total) <= 1e-9 * std::abs(total));
        }
        const auto t = orbittest::runCli(digits("train", {"--dist", "uniform:a=1.2", "--dist-per-class", "", "--eval", "holdout:0.3", "--json"}));
        QVERIFY2(t.status == 0, t.err.c_str());
        const double fitted = Json::parse(t.out)["log_evidence"].get<double>(), curve = j["log_evidence"][1].get<double>();
        QVERIFY2(std::abs(fitted - curve) <= 1e-9 * std::abs(curve), qPrintable(QString("%1 vs %2").arg(fitted, 0, 'g', 15).arg(curve, 0, 'g', 15)));
        QFile f(QString::fromStdString(csv));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString(f.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith("value,log_evidence,class_0,") && lines[0].endsWith(",class_9"));
    }
    void badRequestsGetOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        const QString digitsFile = QString::fromStdString(orbittest::source("resources/data/digits.png"));
        const QString g2 = QString::fromStdString(orbittest::bundledFile("g2.extxyz"));
        const QStringList train{"train", "--data", digitsFile, "--n", "100", "--features", "irf:s=20,r=2", "--group", "rotation",
                                "--dist", "uniform:a=1"};
        QTest::newRow("unknown class") << (train + QStringList{"--dist-per-class", "12=uniform:a=3"}) << "--dist-per-class" << "12=uniform:a=3";
        QTest::newRow("class given twice") << (train + QStringList{"--dist-per-class", "6=uniform:a=3;6=uniform:a=2"})
                                           << "--dist-per-class" << "6=uniform:a=2";
        QTest::newRow("bad spec") << (train + QStringList{"--dist-per-class", "6=vonmises:kapa=8"}) << "--dist-per-class" << "kapa";
        QTest::newRow("no equals sign") << (train + QStringList{"--dist-per-class", "6vonmises"}) << "--dist-per-class" << "6vonmises";
        QTest::newRow("not a label") << (train + QStringList{"--dist-per-class", "six=uniform:a=3"}) << "--dist-per-class" << "six=uniform:a=3";
        QTest::newRow("empty spec") << (train + QStringList{"--dist-per-class", "6="}) << "--dist-per-class" << "6=";
        QTest::newRow("another learner") << (train + QStringList{"--dist-per-class", "6=uniform:a=3", "--learner", "krr"})
                                         << "--learner" << "krr";
        QTest::newRow("ridge with a distribution axis")
            << (train + QStringList{"--dist-per-class", "6=uniform:a=3", "--learner", "ridge", "--grid", "lambda=0.1;a=1,2"})
            << "--grid" << "a";
        QTest::newRow("svm with a learning curve")
            << (train + QStringList{"--dist-per-class", "6=uniform:a=3", "--learner", "svm", "--learning-curve", "0.5"})
            << "--learning-curve" << "0.5";
        QTest::newRow("ridge, unknown class") << (train + QStringList{"--dist-per-class", "10=uniform:a=3", "--learner", "ridge"})
                                              << "--dist-per-class" << "10=uniform:a=3";
        QTest::newRow("svm, a class with no distribution")
            << (train + QStringList{"--dist-per-class", "6=;9=uniform:a=3", "--learner", "svm"}) << "--dist-per-class" << "6=";
        QTest::newRow("a grid") << (train + QStringList{"--dist-per-class", "6=uniform:a=3", "--grid", "a=1,2"}) << "--grid" << "a";
        const QStringList features{"features", "--data", digitsFile, "--features", "irf:s=20,r=2", "--group", "rotation",
                                   "--dist", "uniform:a=1"};
        QTest::newRow("features unknown class") << (features + QStringList{"--dist-per-class", "10=uniform:a=3", "--out", "/tmp/x.npy"})
                                                << "--dist-per-class" << "10=uniform:a=3";
        QTest::newRow("rotate a class the data lack") << (train + QStringList{"--rotate", "--rotate-classes", "6,12"}) << "--rotate-classes" << "12";
        QTest::newRow("rotate classes without rotate") << (train + QStringList{"--rotate-classes", "6"}) << "--rotate-classes" << "6";
        QTest::newRow("learn per class on regression")
            << QStringList{"learn", "--data", g2, "--features", "irf:s=20,r=2", "--group", "permutation", "--dist", "noisysort:sigma=1",
                           "--learn", "sigma", "--per-class"}
            << "--per-class" << "regression";
        QTest::newRow("evidence per class on regression")
            << QStringList{"evidence", "--data", g2, "--features", "irf:s=20,r=2", "--group", "permutation", "--dist",
                           "noisysort:sigma=1", "--param", "sigma", "--values", "1,2", "--per-class"}
            << "--per-class" << "regression";
        QTest::newRow("evidence per class over two parameters")
            << QStringList{"evidence", "--data", digitsFile, "--n", "100", "--features", "irf:s=20,r=2", "--group", "affine",
                           "--dist", "rotation=uniform:a=0.5,translation=gaussian:sigma=1", "--param", "rotation.a,translation.sigma",
                           "--values", "0.3,0.6;1,2", "--per-class"}
            << "--per-class" << "rotation.a,translation.sigma";
        QTest::newRow("train per class on regression")
            << QStringList{"train", "--data", g2, "--features", "sorted", "--group", "permutation", "--dist", "noisysort:sigma=1",
                           "--dist-per-class", "0=noisysort:sigma=2"}
            << "--dist-per-class" << "regression";
        QTest::newRow("ridge per class on regression")
            << QStringList{"train", "--data", g2, "--features", "sorted", "--group", "permutation", "--dist", "noisysort:sigma=1",
                           "--dist-per-class", "0=noisysort:sigma=2", "--learner", "ridge"}
            << "--dist-per-class" << "regression";
    }
    void badRequestsGetOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, option);
        QFETCH(QString, value);
        std::vector<std::string> a;
        for (const QString& s : args) a.push_back(s.toStdString());
        const auto r = orbittest::runCli(a);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.out.empty(), r.out.c_str());
        const QString err = QString::fromStdString(r.err);
        QVERIFY2(err.count('\n') == 1 && err.contains(option) && err.contains(value), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCliPerClass)
#include "test_cli_per_class.moc"

// `orbitlab-cli sample` and `orbitlab-cli orbit` run in-process (docs/cli.md): output format and
// count, determinism per seed, exit 2 with exactly one stderr line on bad input, a readable PNG.
#include "TestPaths.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"

#include <opencv2/imgcodecs.hpp>

#include <QTemporaryDir>
#include "CliRunner.hpp"

#include <QTest>
#include <QByteArray>
#include <QFile>
#include <QIODevice>
#include <QObject>
#include <QString>
#include <QStringList>
#include <cmath>
#include <numbers>
#include <sstream>

namespace {

using Result = orbittest::CliResult;

Result cli(const std::vector<std::string>& args) { return orbittest::runCli(args); }

QStringList lines(const std::string& text)
{
    return QString::fromStdString(text).split('\n', Qt::SkipEmptyParts);
}

const std::string kDigits = orbittest::bundledFile("digits.png");
const std::string kG2 = orbittest::bundledFile("g2.extxyz");

} // namespace

class TestCliSampleOrbit : public QObject {
    Q_OBJECT
private slots:
    void samplePrintsOneElementPerLine_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<int>("fields");
        QTest::newRow("rotation") << "rotation" << "vonmises:kappa=2" << 1;
        QTest::newRow("translation") << "translation" << "gaussian:sigma=1" << 2;
        QTest::newRow("scale") << "scale" << "lognormal:mu=0,sigma=0.3" << 1;
        QTest::newRow("affine") << "affine" << "rotation=vonmises:kappa=9,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.3" << 4;
        QTest::newRow("cyclic") << "cyclic:n=4" << "haar" << 1;
        QTest::newRow("permutation") << "permutation:n=5" << "haar" << 5;
    }
    void samplePrintsOneElementPerLine()
    {
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(int, fields);
        const Result r = cli({"sample", "--group", group.toStdString(), "--dist", dist.toStdString(), "-n", "25", "--seed", "3"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.err.empty());
        const QStringList ls = lines(r.out);
        QCOMPARE(ls.size(), 25);
        for (const QString& l : ls) {
            const QStringList f = l.split(' ');
            QCOMPARE(f.size(), fields);
            for (const QString& v : f) {
                bool ok = false;
                const double x = v.toDouble(&ok);
                QVERIFY2(ok && std::isfinite(x), qPrintable(l));
            }
            if (group == "rotation") QVERIFY(f[0].toDouble() > -std::numbers::pi && f[0].toDouble() <= std::numbers::pi);
            if (group == "cyclic:n=4") QVERIFY(f[0].toInt() >= 0 && f[0].toInt() < 4);
            if (group.startsWith("permutation")) {
                QStringList sorted = f;
                std::sort(sorted.begin(), sorted.end());
                QCOMPARE(sorted, QStringList({"0", "1", "2", "3", "4"}));
            }
        }
        // Same seed, same lines; another seed, other lines.
        QCOMPARE(cli({"sample", "--group", group.toStdString(), "--dist", dist.toStdString(), "-n", "25", "--seed", "3"}).out, r.out);
        QVERIFY(cli({"sample", "--group", group.toStdString(), "--dist", dist.toStdString(), "-n", "25", "--seed", "4"}).out != r.out);
    }
    void sampleJson()
    {
        const Result r = cli({"sample", "--group", "translation", "--dist", "uniform:a=2", "-n", "7", "--json", "--seed", "11"});
        QCOMPARE(r.status, 0);
        const auto j = orbit::cli::Json::parse(r.out);
        QCOMPARE(j["group"].get<std::string>(), std::string("translation"));
        QCOMPARE(j["dist"].get<std::string>(), std::string("uniform:a=2"));
        QCOMPARE(j["seed"].get<int>(), 11);
        QCOMPARE(j["samples"].size(), std::size_t(7));
        for (const auto& s : j["samples"]) {
            QCOMPARE(s.size(), std::size_t(2));
            QVERIFY(std::abs(s[0].get<double>()) <= 2 && std::abs(s[1].get<double>()) <= 2);
        }
    }
    void noisySortNeedsTheMolecule()
    {
        // LiH (index 0 of G2): 2 atoms, zero-padded to the largest molecule; padding rows stay last.
        const Result r = cli({"sample", "--group", "permutation", "--dist", "noisysort:sigma=1", "-n", "5", "--data", kG2, "--index", "0"});
        QVERIFY2(r.status == 0, r.err.c_str());
        for (const QString& l : lines(r.out)) {
            const QStringList f = l.split(' ');
            QVERIFY(f.size() >= 3);
            QVERIFY((f[0] == "0" && f[1] == "1") || (f[0] == "1" && f[1] == "0"));
            for (int i = 2; i < f.size(); ++i) QCOMPARE(f[i].toInt(), i);
        }
        QCOMPARE(cli({"sample", "--group", "permutation", "--dist", "noisysort:sigma=1", "-n", "5"}).status, 2);
        QCOMPARE(cli({"sample", "--group", "permutation", "--dist", "noisysort:sigma=1", "-n", "5", "--data", kG2, "--index", "144"}).status, 2);
    }
    void badInputExitsTwoWithOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("negative kappa") << QStringList{"sample", "--group", "rotation", "--dist", "vonmises:kappa=-1", "-n", "3"} << "kappa";
        QTest::newRow("nan kappa") << QStringList{"sample", "--group", "rotation", "--dist", "vonmises:kappa=nan", "-n", "3"} << "nan";
        QTest::newRow("unknown group") << QStringList{"sample", "--group", "spiral", "--dist", "haar", "-n", "3"} << "spiral";
        QTest::newRow("mismatch") << QStringList{"sample", "--group", "rotation", "--dist", "noisysort:sigma=1", "-n", "3"} << "noisysort";
        QTest::newRow("n = 0") << QStringList{"sample", "--group", "rotation", "--dist", "haar", "-n", "0"} << "-n";
        QTest::newRow("n huge") << QStringList{"sample", "--group", "rotation", "--dist", "haar", "-n", "99999999999"} << "-n";
        QTest::newRow("no -n") << QStringList{"sample", "--group", "rotation", "--dist", "haar"} << "-n";
        QTest::newRow("r = 0") << QStringList{"orbit", "--data", QString::fromStdString(kDigits), "--group", "rotation", "--dist", "haar", "-r", "0", "--out", "x.png"} << "-r";
        QTest::newRow("r huge") << QStringList{"orbit", "--data", QString::fromStdString(kDigits), "--group", "rotation", "--dist", "haar", "-r", "1000000", "--out", "x.png"} << "-r";
        QTest::newRow("index") << QStringList{"orbit", "--data", QString::fromStdString(kDigits), "--index", "5000", "--group", "rotation", "--dist", "haar", "-r", "4", "--out", "x.png"} << "--index";
        QTest::newRow("rotation on molecules") << QStringList{"orbit", "--data", QString::fromStdString(kG2), "--group", "rotation", "--dist", "haar", "-r", "4", "--out", "x.png"} << "rotation";
        QTest::newRow("not png") << QStringList{"orbit", "--data", QString::fromStdString(kDigits), "--group", "rotation", "--dist", "haar", "-r", "4", "--out", "x.jpg"} << "--out";
        QTest::newRow("missing file") << QStringList{"orbit", "--data", "/nonexistent/d.png", "--group", "rotation", "--dist", "haar", "-r", "4", "--out", "x.png"} << "nonexistent";
        QTest::newRow("no folder") << QStringList{"orbit", "--data", QString::fromStdString(kDigits), "--group", "rotation", "--dist", "haar", "-r", "4", "--out", "/nonexistent/dir/x.png"} << "--out";
    }
    void badInputExitsTwoWithOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        std::vector<std::string> a;
        for (const auto& s : args) a.push_back(s.toStdString());
        const Result r = cli(a);
        QCOMPARE(r.status, 2);
        QVERIFY(r.out.empty());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), std::ptrdiff_t(1));
        QVERIFY2(QString::fromStdString(r.err).contains(mentions), r.err.c_str());
    }
    void orbitWritesAReadablePng()
    {
        QTemporaryDir dir;
        const std::string png = dir.filePath("orbit.png").toStdString();
        const Result r = cli({"orbit", "--data", kDigits, "--index", "2500", "--group", "rotation", "--dist", "vonmises:kappa=2",
                              "-r", "16", "--out", png, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const auto j = orbit::cli::Json::parse(r.out);
        QCOMPARE(j["r"].get<int>(), 16);
        QCOMPARE(j["rows"].get<int>(), 4);
        QCOMPARE(j["cols"].get<int>(), 4);
        const cv::Mat img = cv::imread(png, cv::IMREAD_UNCHANGED);
        QVERIFY(!img.empty());
        // 20 x 20 digits drawn 4x (80 px cells) with 2 px separators: 4 * 80 + 5 * 2 = 330.
        QCOMPARE(img.cols, 330);
        QCOMPARE(img.rows, 330);
        // --cell 40 gives 2x cells: 4 * 40 + 10 = 170.
        QCOMPARE(cli({"orbit", "--data", kDigits, "--group", "cyclic:n=4", "--dist", "haar", "-r", "16", "--out", png, "--cell", "40"}).status, 0);
        QCOMPARE(cv::imread(png).cols, 170);
    }
    void orbitIsTheSameAtAnyThreadCount()
    {
        QTemporaryDir dir;
        std::vector<QByteArray> bytes;
        for (const char* threads : {"1", "2"}) {
            const std::string png = dir.filePath(QString("t%1.png").arg(threads)).toStdString();
            QCOMPARE(cli({"orbit", "--data", kDigits, "--index", "7", "--group", "affine", "--dist",
                          "rotation=vonmises:kappa=1;translation=gaussian:sigma=1;scale=lognormal:sigma=0.2", "-r", "9",
                          "--out", png, "--seed", "5", "--threads", threads}).status, 0);
            QFile f(QString::fromStdString(png));
            QVERIFY(f.open(QIODevice::ReadOnly));
            bytes.push_back(f.readAll());
        }
        QVERIFY(!bytes[0].isEmpty());
        QCOMPARE(bytes[0], bytes[1]);
    }
    void orbitKeepsColours()
    {
        // A red square on blue (written BGR by OpenCV, loaded as RGB) comes back red on blue under the identity.
        QTemporaryDir dir;
        const std::string in = dir.filePath("rgb.png").toStdString(), out = dir.filePath("out.png").toStdString();
        cv::Mat img(10, 10, CV_8UC3, cv::Scalar(255, 0, 0));
        img(cv::Rect(3, 3, 4, 4)).setTo(cv::Scalar(0, 0, 255));
        QVERIFY(cv::imwrite(in, img));
        QCOMPARE(cli({"orbit", "--data", in, "--group", "rotation", "--dist", "delta", "-r", "1", "--out", out, "--cell", "10"}).status, 0);
        const cv::Mat back = cv::imread(out, cv::IMREAD_COLOR);
        QCOMPARE(back.cols, 14);  // 10 px cell + 2 x 2 px frame
        QCOMPARE(back.at<cv::Vec3b>(2 + 5, 2 + 5), cv::Vec3b(0, 0, 255));
        QCOMPARE(back.at<cv::Vec3b>(2 + 0, 2 + 0), cv::Vec3b(255, 0, 0));
    }
    void orbitDrawsCoulombHeatmaps()
    {
        QTemporaryDir dir;
        const std::string png = dir.filePath("coulomb.png").toStdString();
        const Result r = cli({"orbit", "--data", kG2, "--index", "40", "--group", "permutation", "--dist", "noisysort:sigma=2",
                              "-r", "6", "--out", png, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const auto j = orbit::cli::Json::parse(r.out);
        QCOMPARE(j["rows"].get<int>() * j["cols"].get<int>() >= 6, true);
        const cv::Mat img = cv::imread(png, cv::IMREAD_COLOR);
        QVERIFY(!img.empty());
        QCOMPARE(img.channels(), 3);
    }
};

QTEST_APPLESS_MAIN(TestCliSampleOrbit)
#include "test_cli_sample_orbit.moc"

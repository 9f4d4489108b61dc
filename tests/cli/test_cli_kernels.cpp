// `orbitlab-cli kernel`, `features`, `approx-error` and `bench` run in-process (docs/cli.md), as a
// user would, on small real data: the kernel CSV is an N x N symmetric matrix with k(x, x) <= 1 for the
// Gaussian base kernel (and = 1 up to the orbit average's spread); .npy / .csv features have the
// dataset's rows and the map's dims; same seed gives the same bytes at any --threads; the LGIKA
// approximation error shrinks as s grows; bad input exits 2 with one stderr line naming the option.
#include "TestPaths.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/util/Simd.hpp"

#include <QTemporaryDir>
#include "CliRunner.hpp"

#include <QTest>
#include <QObject>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

namespace {

using Result = orbittest::CliResult;

Result cli(const std::vector<std::string>& args) { return orbittest::runCli(args); }

std::string readAll(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// A CSV of numbers, row by row; fails the parse (empty result) on any non-number.
std::vector<std::vector<double>> readCsv(const std::string& path, bool header = false)
{
    std::vector<std::vector<double>> rows;
    std::istringstream in(readAll(path));
    std::string line;
    if (header) std::getline(in, line);
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::vector<double> row;
        const QStringList cells = QString::fromStdString(line).split(',');
        for (const QString& c : cells) {
            bool ok = false;
            const double v = c.toDouble(&ok);
            if (!ok) return {};
            row.push_back(v);
        }
        rows.push_back(row);
    }
    return rows;
}

const std::string kDigits = orbittest::bundledFile("digits.png");
const std::string kG2 = orbittest::bundledFile("g2.extxyz");
const std::string kQm7 = orbittest::qm7Location().path;

} // namespace

class TestCliKernels : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const std::string& name) const { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    void kernelIsSymmetricWithUnitishDiagonal_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<int>("n");
        QTest::newRow("digits rotation mc") << QString::fromStdString(kDigits) << "rotation" << "vonmises:kappa=4" << 12;
        QTest::newRow("g2 noisysort mc") << QString::fromStdString(kG2) << "permutation" << "noisysort:sigma=1" << 15;
        QTest::newRow("qm7 noisysort mc") << QString::fromStdString(kQm7) << "permutation" << "noisysort:sigma=1" << 10;
    }
    void kernelIsSymmetricWithUnitishDiagonal()
    {
        QFETCH(QString, data);
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(int, n);
        if (data.toStdString() == kQm7) {
            ORBIT_REQUIRE_QM7(qm7);
        }
        const std::string out = path("k.csv");
        const Result r = cli({"kernel", "--data", data.toStdString(), "--n", std::to_string(n), "--group",
                              group.toStdString(), "--dist", dist.toStdString(), "-r", "6", "--out", out, "--seed", "2"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const auto K = readCsv(out);
        QCOMPARE(int(K.size()), n);
        for (int i = 0; i < n; ++i) {
            QCOMPARE(int(K[i].size()), n);
            // Gaussian base kernel: 0 < k <= 1; the diagonal is an orbit average of k(g x, h x), near 1
            // for concentrated q, and K_ii >= K_ij is not required but |K_ij| <= sqrt(K_ii K_jj) is (PSD).
            QVERIFY(K[i][i] > 0.3 && K[i][i] <= 1.0 + 1e-12);
            for (int j = 0; j < n; ++j) {
                QCOMPARE(K[i][j], K[j][i]);
                QVERIFY(std::isfinite(K[i][j]) && K[i][j] >= 0 && K[i][j] <= 1.0 + 1e-12);
                QVERIFY(K[i][j] <= std::sqrt(K[i][i] * K[j][j]) + 1e-9);
            }
        }
    }
    void haarKernelOfCyclicGroupIsExact()
    {
        // k_G(x, y) = (1/|G|^2) sum_{g,h in C4} k(g x, h y): no sampling, so the seed does not matter,
        // only through the subset, which --seed draws; the same seed gives the same bytes.
        const std::string a = path("ha.csv"), b = path("hb.csv");
        const std::vector<std::string> base{"kernel", "--data", kDigits, "--n", "8", "--group", "cyclic:n=4", "--dist", "haar",
                                            "--kernel", "gaussian:sigma=8"};
        auto args = base;
        args.insert(args.end(), {"--out", a, "--seed", "1", "--json"});
        const Result r = cli(args);
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(orbit::cli::Json::parse(r.out)["method"].get<std::string>(), std::string("haar"));
        args = base;
        args.insert(args.end(), {"--out", b, "--seed", "1", "--method", "haar", "--threads", "1"});
        QCOMPARE(cli(args).status, 0);
        QCOMPARE(readAll(a), readAll(b));
        const auto K = readCsv(a);
        QCOMPARE(int(K.size()), 8);
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j) QCOMPARE(K[i][j], K[j][i]);
    }
    void featuresNpyAndCsv()
    {
        const std::string npy = path("f.npy"), csv = path("f.csv");
        const std::vector<std::string> base{"features", "--data", kG2, "--features", "irf:s=40,r=3", "--group", "permutation",
                                            "--dist", "noisysort:sigma=1", "--seed", "5"};
        auto args = base;
        args.insert(args.end(), {"--out", npy, "--json"});
        const Result r = cli(args);
        QVERIFY2(r.status == 0, r.err.c_str());
        const auto j = orbit::cli::Json::parse(r.out);
        QCOMPARE(j["rows"].get<int>(), 144);
        QCOMPARE(j["dims"].get<int>(), 40);
        QVERIFY(j["seconds"].get<double>() >= 0);

        // .npy v1: magic, version, little-endian header length, a dict with '<f4', C order, (rows, dims).
        const std::string bytes = readAll(npy);
        QVERIFY(bytes.size() > 10);
        QCOMPARE(bytes.substr(0, 6), std::string("\x93NUMPY", 6));
        const std::size_t headerLen = std::size_t(std::uint8_t(bytes[8])) | std::size_t(std::uint8_t(bytes[9])) << 8;
        const std::string header = bytes.substr(10, headerLen);
        QVERIFY2(header.find("'descr': '<f4'") != std::string::npos, header.c_str());
        QVERIFY2(header.find("'fortran_order': False") != std::string::npos, header.c_str());
        QVERIFY2(header.find("'shape': (144, 40)") != std::string::npos, header.c_str());
        QCOMPARE(bytes.size(), 10 + headerLen + std::size_t(144 * 40 * 4));

        args = base;
        args.insert(args.end(), {"--out", csv});
        QCOMPARE(cli(args).status, 0);
        const auto F = readCsv(csv);
        QCOMPARE(int(F.size()), 144);
        // The same features in both files (CSV printed from the same float32 values).
        std::vector<float> values(144 * 40);
        std::memcpy(values.data(), bytes.data() + 10 + headerLen, values.size() * 4);
        for (int i = 0; i < 144; ++i) {
            QCOMPARE(int(F[i].size()), 40);
            for (int t = 0; t < 40; ++t) {
                QVERIFY(std::isfinite(F[i][t]));
                QVERIFY(std::abs(F[i][t] - double(values[std::size_t(i) * 40 + t])) <= 1e-6 * (1 + std::abs(F[i][t])));
            }
        }
    }
    void featuresDeterministicAcrossThreads_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QString>("features");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::newRow("digits irf templates") << QString::fromStdString(kDigits) << "irf:s=32,r=4" << "rotation" << "vonmises:kappa=1";
        QTest::newRow("g2 irf noisysort") << QString::fromStdString(kG2) << "irf:s=64,r=5" << "permutation" << "noisysort:sigma=1";
        QTest::newRow("g2 inystrom") << QString::fromStdString(kG2) << "inystrom:s=20,r=3" << "permutation" << "noisysort:sigma=1";
    }
    void featuresDeterministicAcrossThreads()
    {
        QFETCH(QString, data);
        QFETCH(QString, features);
        QFETCH(QString, group);
        QFETCH(QString, dist);
        auto run = [&](const std::string& seed, const std::string& threads, const std::string& name) {
            const std::string out = path(name);
            const Result r = cli({"features", "--data", data.toStdString(), "--features", features.toStdString(), "--group",
                                  group.toStdString(), "--dist", dist.toStdString(), "--seed", seed, "--threads", threads,
                                  "--out", out});
            if (r.status != 0) qWarning("%s", r.err.c_str());
            return readAll(out);
        };
        const std::string one = run("7", "1", "t1.npy");
        QVERIFY(one.size() > 128);
        QCOMPARE(run("7", "2", "t2.npy"), one);
        QCOMPARE(run("7", "2", "t3.npy"), one);
        QVERIFY(run("8", "2", "t4.npy") != one);
    }
    void approxErrorShrinksWithS()
    {
        const std::string out = path("a.csv");
        const Result r = cli({"approx-error", "--data", kDigits, "--n", "60", "--group", "rotation", "--dist", "vonmises:kappa=1",
                              "--features", "rf", "--s-list", "10,50,400", "--r-list", "2,8", "--ref-r", "20", "--csv", out,
                              "--seed", "4"});
        QVERIFY2(r.status == 0, r.err.c_str());
        std::istringstream in(readAll(out));
        std::string header;
        std::getline(in, header);
        QCOMPARE(header, std::string("method,r,s,spectral,frobenius"));
        std::vector<QStringList> rows;
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) rows.push_back(QString::fromStdString(line).split(','));
        QCOMPARE(int(rows.size()), 6);  // one per (r, s)
        std::map<std::pair<int, int>, double> spectral;
        for (const QStringList& row : rows) {
            QCOMPARE(row.size(), 5);
            QCOMPARE(row[0], QString("rf"));
            const double sp = row[3].toDouble(), fr = row[4].toDouble();
            QVERIFY(std::isfinite(sp) && sp >= 0 && std::isfinite(fr) && fr >= 0);
            // ||A||_2 <= ||A||_F, both normalised by the same ||K||: ratios are not ordered, but are finite.
            spectral[{row[1].toInt(), row[2].toInt()}] = sp;
        }
        QCOMPARE(int(spectral.size()), 6);
        // O(1/sqrt(s)) Monte Carlo error of the templates: s = 400 beats s = 10 by far.
        for (int rr : {2, 8}) QVERIFY(spectral.at({rr, 400}) < 0.5 * spectral.at({rr, 10}));
    }
    void benchQuickJson()
    {
        const Result r = cli({"bench", "--quick", "--cases", "irf-templates-digits", "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const auto j = orbit::cli::Json::parse(r.out);
        QCOMPARE(j["cases"].size(), std::size_t(1));
        const auto& c = j["cases"][0];
        for (const char* f : {"name", "shape", "seconds", "gflops", "gemm_gflops", "ratio"}) QVERIFY2(c.contains(f), f);
        QCOMPARE(c["name"].get<std::string>(), std::string("irf-templates-digits"));
        QCOMPARE(c["shape"].size(), std::size_t(4));
        QVERIFY(c["seconds"].get<double>() > 0 && c["gflops"].get<double>() > 0 && c["gemm_gflops"].get<double>() > 0);
        QVERIFY(std::abs(c["ratio"].get<double>() - c["gflops"].get<double>() / c["gemm_gflops"].get<double>()) < 1e-9);
        // Which build and which kernels were timed, so ratios of two builds can be told apart.
        QCOMPARE(j["build"].get<std::string>(), orbit::buildArch());
        QCOMPARE(j["simd"].get<std::string>(), orbit::simdName(orbit::simdLevel()));
    }
    void badInputExitsTwoWithOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        const QString digits = QString::fromStdString(kDigits), g2 = QString::fromStdString(kG2);
        const QString out = dir_.filePath("bad.npy");
        const QStringList rot{"--group", "rotation", "--dist", "vonmises:kappa=1"};
        QTest::newRow("unknown feature map") << (QStringList{"features", "--data", g2, "--features", "wavelets:s=3", "--out", out}) << "wavelets";
        QTest::newRow("irf s=0") << (QStringList{"features", "--data", digits, "--features", "irf:s=0,r=2", "--out", out} + rot) << "irf.s";
        QTest::newRow("irf s=1e9") << (QStringList{"features", "--data", digits, "--features", "irf:s=1e9,r=10", "--out", out} + rot) << "GiB";
        QTest::newRow("rf s=1e6 output") << (QStringList{"features", "--data", digits, "--features", "rf:s=1000000", "--out", out}) << "GiB";
        QTest::newRow("unknown extension") << (QStringList{"features", "--data", g2, "--features", "raw", "--out", dir_.filePath("f.txt")}) << "f.txt";
        QTest::newRow("kernel n > count") << (QStringList{"kernel", "--data", g2, "--n", "500", "--group", "permutation", "--dist", "noisysort:sigma=1", "--out", dir_.filePath("k.csv")}) << "--n";
        QTest::newRow("approx-error n > count") << (QStringList{"approx-error", "--data", g2, "--n", "145", "--group", "permutation", "--dist", "noisysort:sigma=1", "--s-list", "5", "--r-list", "2"}) << "145";
        QTest::newRow("kappa=nan") << (QStringList{"kernel", "--data", digits, "--n", "4", "--group", "rotation", "--dist", "vonmises:kappa=nan", "--out", dir_.filePath("k.csv")}) << "kappa";
        QTest::newRow("missing data file") << (QStringList{"features", "--data", dir_.filePath("none.extxyz"), "--features", "raw", "--out", out}) << "none.extxyz";
    }
    void badInputExitsTwoWithOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        std::vector<std::string> a;
        for (const QString& s : args) a.push_back(s.toStdString());
        const Result r = cli(a);
        QCOMPARE(r.status, 2);
        QVERIFY(r.out.empty());
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), std::ptrdiff_t(1));
        QVERIFY2(QString::fromStdString(r.err).contains(mentions), r.err.c_str());
    }
    void hugeSizeMessageNamesTheOptionAndGiB()
    {
        const Result r = cli({"features", "--data", kDigits, "--features", "irf:s=1e9,r=10", "--group", "rotation", "--dist",
                              "vonmises:kappa=1", "--out", path("huge.npy")});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.find("irf.s") != std::string::npos && r.err.find("1e9") != std::string::npos &&
                     r.err.find("memory") != std::string::npos,
                 r.err.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCliKernels)
#include "test_cli_kernels.moc"

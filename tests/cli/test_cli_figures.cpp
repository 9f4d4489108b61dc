// The GUI's figures at the command line (docs/cli.md): `density`, `embed`, `probe` and the
// rows `kernel --json` lists, run in-process as a user would on the bundled data. Each output has
// the contract's columns and fields and the mathematics of its figure (a histogram that integrates
// to 1 beside the closed-form density, explained fractions in order, a probe equal to 1 for exact
// group averaging); the same seed gives the same bytes at any --threads; bad input exits 2 with one
// stderr line naming the option and the value.
#include "CliRunner.hpp"
#include "TestPaths.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/data/Loaders.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QDir>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

namespace {

using orbittest::CliResult;
using orbittest::runCli;
using Json = orbit::cli::Json;

const std::string kDigits = orbittest::bundledFile("digits.png");
const std::string kG2 = orbittest::bundledFile("g2.extxyz");

std::string readAll(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// A CSV with a header: the header's names and the rows as text cells.
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    int column(const std::string& name) const
    {
        const auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : int(it - header.begin());
    }
    double number(std::size_t row, const std::string& name) const { return std::stod(rows[row][std::size_t(column(name))]); }
};

Table readTable(const std::string& path)
{
    Table t;
    std::istringstream in(readAll(path));
    std::string line;
    auto cells = [](const std::string& l) {
        std::vector<std::string> out;
        std::string cell;
        std::istringstream s(l);
        while (std::getline(s, cell, ',')) out.push_back(cell);
        if (!l.empty() && l.back() == ',') out.push_back("");
        return out;
    };
    if (std::getline(in, line)) t.header = cells(line);
    while (std::getline(in, line))
        if (!line.empty()) t.rows.push_back(cells(line));
    return t;
}

} // namespace

class TestCliFigures : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string path(const std::string& name) const { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    // A von Mises density on the contract's columns: q(t) = exp(kappa cos t) / (2 pi I0(kappa)) on a
    // grid over [-pi, pi], and the histogram column (the height of the bin holding t) integrates to 1.
    void densityOfVonMises()
    {
        const std::string out = path("d.csv");
        const CliResult r = runCli({"density", "--group", "rotation", "--dist", "vonmises:kappa=2", "-n", "30000", "--out",
                                    out, "--seed", "4", "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QCOMPARE(j["samples"].get<int>(), 30000);
        const Json& f = j["factors"][0];
        QVERIFY(f["has_density"].get<bool>());
        QCOMPARE(f["parameter"].get<std::string>(), std::string("theta (rad)"));
        const Table t = readTable(out);
        QCOMPARE(t.header, (std::vector<std::string>{"t", "density", "histogram"}));
        QCOMPARE(int(t.rows.size()), f["rows"].get<int>());
        QCOMPARE(int(t.rows.size()), 2001);
        const double norm = 2 * std::numbers::pi * std::cyl_bessel_i(0.0, 2.0);
        double mass = 0;
        for (std::size_t i = 0; i < t.rows.size(); ++i) {
            const double x = t.number(i, "t");
            QVERIFY(x >= -std::numbers::pi - 1e-12 && x <= std::numbers::pi + 1e-12);
            QVERIFY(std::abs(t.number(i, "density") - std::exp(2 * std::cos(x)) / norm) < 1e-9);
            if (i > 0) mass += t.number(i - 1, "histogram") * (x - t.number(i - 1, "t"));
        }
        // The step function sampled on the grid: 1 up to the grid's resolution at the bin edges.
        QVERIFY2(std::abs(mass - 1.0) < 0.01, qPrintable(QString::number(mass)));
    }

    // Without a density (Haar on C_4): one row per value at the bin centre, the density cell empty,
    // the bars' mass 1 (width 1 each), about 1/4 each.
    void densityOfADiscreteGroup()
    {
        const std::string out = path("c.csv");
        const CliResult r = runCli({"density", "--group", "cyclic:n=4", "--dist", "haar", "-n", "8000", "--out", out});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Table t = readTable(out);
        QCOMPARE(int(t.rows.size()), 4);
        double mass = 0;
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(t.number(i, "t"), double(i));
            QCOMPARE(t.rows[i][1], std::string());
            mass += t.number(i, "histogram");
            QVERIFY(std::abs(t.number(i, "histogram") - 0.25) < 0.03);
        }
        QVERIFY(std::abs(mass - 1.0) < 1e-12);
    }

    void densityOfAffineHasOneBlockPerFactor()
    {
        const std::string out = path("a.csv");
        const CliResult r = runCli({"density", "--group", "affine", "--dist",
                                    "rotation=vonmises:kappa=9,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.3",
                                    "-n", "2000", "--out", out, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Table t = readTable(out);
        QCOMPARE(t.header, (std::vector<std::string>{"factor", "t", "density", "histogram"}));
        std::set<std::string> factors;
        for (const auto& row : t.rows) factors.insert(row[0]);
        QCOMPARE(factors, (std::set<std::string>{"rotation", "translation", "scale"}));
        QCOMPARE(int(Json::parse(r.out)["factors"].size()), 3);
    }

    // The embedding: m (r + 1) rows, the input first in its block (copy -1), explained fractions
    // sorted with a sum at most 1; the copies are those `orbit` draws, so a delta puts them on the input.
    void embedContract()
    {
        const std::string out = path("e.csv");
        const CliResult r = runCli({"embed", "--data", kDigits, "--indices", "3000,4500,12", "--group", "rotation", "--dist",
                                    "vonmises:kappa=1", "-r", "10", "--out", out, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        const auto explained = j["explained"].get<std::vector<double>>();
        QCOMPARE(int(explained.size()), 2);
        QVERIFY(explained[0] >= explained[1] && explained[1] > 0 && explained[0] + explained[1] <= 1.0);
        QCOMPARE(j["inputs"].get<std::vector<int>>(), (std::vector<int>{3000, 4500, 12}));
        const Table t = readTable(out);
        QCOMPARE(t.header, (std::vector<std::string>{"input", "copy", "pc1", "pc2"}));
        QCOMPARE(int(t.rows.size()), 3 * 11);
        QCOMPARE(t.rows[0][0], std::string("3000"));
        QCOMPARE(t.rows[0][1], std::string("-1"));
        QCOMPARE(t.rows[11][0], std::string("4500"));
        QCOMPARE(t.rows[12][1], std::string("0"));

        const std::string still = path("e0.csv");
        QCOMPARE(runCli({"embed", "--data", kDigits, "--indices", "1,2", "--group", "rotation", "--dist", "delta", "-r", "3",
                         "--out", still}).status, 0);
        const Table s = readTable(still);
        for (std::size_t k = 1; k < 4; ++k)
            QVERIFY(std::abs(s.number(k, "pc1") - s.number(0, "pc1")) < 1e-4);
    }

    // The probe: 73 angles with the identity in the middle (both maps similarity 1 there); exact
    // averaging over C_4 (Haar, inystrom) keeps the invariant column at 1.
    void probeContract()
    {
        const std::string out = path("p.csv");
        const CliResult r = runCli({"probe", "--data", kDigits, "--index", "3000", "--group", "rotation", "--dist",
                                    "vonmises:kappa=1", "-r", "8", "--features", "irf:s=100", "--fit", "80", "--out", out,
                                    "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QCOMPARE(j["features"].get<std::string>(), std::string("irf:s=100,r=8"));
        QCOMPARE(j["plain_features"].get<std::string>(), std::string("rf:s=100"));
        const Table t = readTable(out);
        QCOMPARE(t.header, (std::vector<std::string>{"t", "invariant", "plain"}));
        QCOMPARE(int(t.rows.size()), 73);
        QCOMPARE(t.number(36, "t"), 0.0);
        QVERIFY(std::abs(t.number(36, "invariant") - 1) < 1e-6 && std::abs(t.number(36, "plain") - 1) < 1e-6);

        const std::string exact = path("p4.csv");
        QCOMPARE(runCli({"probe", "--data", kDigits, "--index", "3000", "--group", "cyclic:n=4", "--dist", "haar",
                         "--features", "inystrom:s=60,r=4", "--fit", "80", "--out", exact}).status, 0);
        const Table e = readTable(exact);
        QCOMPARE(int(e.rows.size()), 4);
        double plainMin = 1;
        for (std::size_t k = 0; k < 4; ++k) {
            QVERIFY(std::abs(e.number(k, "invariant") - 1) < 1e-5);
            plainMin = std::min(plainMin, e.number(k, "plain"));
        }
        QVERIFY(plainMin < 0.95);
    }

    // `kernel --json` lists the dataset rows of the matrix: N distinct rows, ordered by label (digits)
    // or by target (G2 energies); with --features it adds the approximation's errors and matrices.
    void kernelListsItsRows()
    {
        const std::string out = path("k.csv"), approx = path("ka.csv");
        CliResult r = runCli({"kernel", "--data", kDigits, "--n", "12", "--group", "rotation", "--dist", "vonmises:kappa=1",
                              "-r", "4", "--out", out, "--seed", "3", "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        auto indices = Json::parse(r.out)["indices"].get<std::vector<std::size_t>>();
        QCOMPARE(int(indices.size()), 12);
        QCOMPARE(int(std::set<std::size_t>(indices.begin(), indices.end()).size()), 12);
        // digits.png holds 500 of each class in order: the label of row i is i / 500.
        for (std::size_t i = 1; i < indices.size(); ++i) QVERIFY(indices[i - 1] / 500 <= indices[i] / 500);
        const std::string plain = readAll(out);

        r = runCli({"kernel", "--data", kDigits, "--n", "12", "--group", "rotation", "--dist", "vonmises:kappa=1", "-r", "4",
                    "--out", out, "--seed", "3", "--features", "irf:s=50,r=4", "--approx-out", approx, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const Json j = Json::parse(r.out);
        QCOMPARE(j["indices"].get<std::vector<std::size_t>>(), indices);  // the same points
        QVERIFY(j["frobenius"].get<double>() > 0 && j["spectral"].get<double>() > 0);
        QCOMPARE(readAll(out), plain);  // the mc kernel is the same matrix with or without --features
        QCOMPARE(int(readTable(approx).rows.size()), 11);  // 12 lines: readTable takes the first as header

        r = runCli({"kernel", "--data", kG2, "--n", "15", "--group", "permutation", "--dist", "noisysort:sigma=1", "-r", "2",
                    "--out", out, "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        indices = Json::parse(r.out)["indices"].get<std::vector<std::size_t>>();
        const orbit::Dataset g2 = orbit::loadDataset(kG2, {});
        QCOMPARE(int(indices.size()), 15);
        for (std::size_t i = 1; i < indices.size(); ++i) QVERIFY(g2.targets[indices[i - 1]] <= g2.targets[indices[i]]);
    }

    // The same seed gives the same bytes whatever --threads.
    void sameSeedSameBytesAtAnyThreads_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("density") << QStringList{"density", "--group", "rotation", "--dist", "vonmises:kappa=3", "-n", "5000"};
        QTest::newRow("embed") << QStringList{"embed", "--data", QString::fromStdString(kDigits), "--indices", "5,900",
                                              "--group", "rotation", "--dist", "vonmises:kappa=1", "-r", "12"};
        QTest::newRow("probe") << QStringList{"probe", "--data", QString::fromStdString(kDigits), "--index", "7", "--group",
                                              "rotation", "--dist", "vonmises:kappa=1", "-r", "4", "--features", "irf:s=64",
                                              "--fit", "50", "--points", "13"};
    }
    void sameSeedSameBytesAtAnyThreads()
    {
        QFETCH(QStringList, args);
        std::vector<std::string> base;
        for (const QString& a : args) base.push_back(a.toStdString());
        std::string first;
        for (const char* threads : {"1", "2"}) {
            auto argv = base;
            const std::string out = path(std::string("t") + threads + ".csv");
            argv.insert(argv.end(), {"--seed", "6", "--threads", threads, "--out", out});
            const CliResult r = runCli(argv);
            QVERIFY2(r.status == 0, r.err.c_str());
            if (first.empty())
                first = readAll(out);
            else
                QCOMPARE(readAll(out), first);
        }
        auto argv = base;
        const std::string other = path("other.csv");
        argv.insert(argv.end(), {"--seed", "7", "--out", other});
        QCOMPARE(runCli(argv).status, 0);
        QVERIFY(readAll(other) != first);
    }

    // Bad input: status 2, one stderr line naming the option and quoting the value, nothing written.
    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        const QString digits = QString::fromStdString(kDigits), g2 = QString::fromStdString(kG2);
        auto row = [](const char* name, QStringList args, const char* option, const char* value) {
            QTest::newRow(name) << args << QString(option) << QString(value);
        };
        row("density n = 0", {"density", "--group", "rotation", "--dist", "haar", "-n", "0", "--out", "@/x.csv"}, "-n", "0");
        row("density bins = -3", {"density", "--group", "rotation", "--dist", "haar", "--bins", "-3", "--out", "@/x.csv"},
            "--bins", "-3");
        row("density no parameter", {"density", "--group", "orthogonal:k=3", "--dist", "haar", "--out", "@/x.csv"}, "--group",
            "orthogonal:k=3");
        row("density needs data", {"density", "--group", "permutation", "--dist", "noisysort:sigma=1", "--out", "@/x.csv"},
            "--data", "noisysort");
        row("density bad factor", {"density", "--group", "affine", "--dist", "delta", "--factor", "shear", "--out", "@/x.csv"},
            "--factor", "shear");
        row("density index", {"density", "--group", "permutation", "--dist", "haar", "--data", g2, "--index", "999", "--out",
                              "@/x.csv"}, "--index", "999");
        row("density bad kappa", {"density", "--group", "rotation", "--dist", "vonmises:kappa=-2", "--out", "@/x.csv"}, "kappa",
            "-2");
        row("density out folder", {"density", "--group", "rotation", "--dist", "haar", "--out", "@/no/such/x.csv"}, "--out",
            "x.csv");
        row("embed bad index", {"embed", "--data", digits, "--indices", "3,x", "--group", "rotation", "--dist", "haar", "-r",
                                "4", "--out", "@/x.csv"}, "--indices", "x");
        row("embed index too large", {"embed", "--data", digits, "--indices", "5000", "--group", "rotation", "--dist", "haar",
                                      "-r", "4", "--out", "@/x.csv"}, "--indices", "5000");
        row("embed one sample", {"embed", "--data", digits, "--indices", "3", "--group", "rotation", "--dist", "haar", "-r",
                                 "1", "--out", "@/x.csv"}, "-r", "1");
        row("embed r = 0", {"embed", "--data", digits, "--indices", "3", "--group", "rotation", "--dist", "haar", "-r", "0",
                            "--out", "@/x.csv"}, "-r", "0");
        row("embed group on molecules", {"embed", "--data", g2, "--indices", "3", "--group", "rotation", "--dist", "haar",
                                         "-r", "4", "--out", "@/x.csv"}, "--group", "rotation");
        row("probe gicdf", {"probe", "--data", digits, "--group", "rotation", "--dist", "haar", "--features",
                            "gicdf:m=4,bins=3,r=2", "--out", "@/x.csv"}, "--features", "gicdf");
        row("probe r disagrees", {"probe", "--data", digits, "--group", "rotation", "--dist", "haar", "--features",
                                  "irf:s=10,r=4", "-r", "5", "--out", "@/x.csv"}, "-r", "5");
        row("probe points = 1", {"probe", "--data", digits, "--group", "rotation", "--dist", "haar", "--points", "1", "--out",
                                 "@/x.csv"}, "--points", "1");
        row("probe index", {"probe", "--data", digits, "--index", "-4", "--group", "rotation", "--dist", "haar", "--out",
                            "@/x.csv"}, "--index", "-4");
        row("kernel approx-out without features", {"kernel", "--data", digits, "--n", "4", "--group", "rotation", "--dist",
                                                   "haar", "--out", "@/k.csv", "--approx-out", "@/a.csv"},
            "--approx-out", "a.csv");
        row("kernel features with haar", {"kernel", "--data", digits, "--n", "4", "--group", "cyclic:n=4", "--dist", "haar",
                                          "--method", "haar", "--features", "irf:s=4,r=2", "--out", "@/k.csv"},
            "--method", "haar");
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, option);
        QFETCH(QString, value);
        QTemporaryDir dir;
        std::vector<std::string> argv;
        for (QString a : args) argv.push_back(a.replace("@", dir.path()).toStdString());
        const CliResult r = runCli(argv);
        const QString err = QString::fromStdString(r.err);
        QVERIFY2(r.status == 2, qPrintable(QString("exit %1: %2").arg(r.status).arg(err)));
        QVERIFY2(err.count('\n') == 1 && err.endsWith('\n'), qPrintable("expected one line: " + err));
        QVERIFY2(err.contains(option), qPrintable("does not name " + option + ": " + err));
        QVERIFY2(err.contains(value), qPrintable("does not quote " + value + ": " + err));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0);
    }

    void helpTextsExist()
    {
        for (const char* command : {"density", "embed", "probe"}) {
            const CliResult r = runCli({command, "--help"});
            QCOMPARE(r.status, 0);
            QVERIFY(r.out.find(std::string("usage: orbitlab-cli ") + command) != std::string::npos);
        }
        const std::string overview = runCli({"--help"}).out;
        for (const char* command : {"density", "embed", "probe"}) QVERIFY(overview.find(command) != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCliFigures)
#include "test_cli_figures.moc"

// `orbitlab-cli predict --index / --input / --sweep` (issue 44, docs/cli.md "Sweeping one input"):
// at the identity a sweep gives predict --index's bits, a C4-Haar model gives the same scores at the
// four quarter turns (up to the rounding of its float features) where a plain one does not, a
// permutation of a G2 molecule's atoms leaves an invariant model's energy within its Monte Carlo
// error and the CLI says so (and says a plain model's is not), an image file of a row predicts as
// that row, and every bad input is one line (exit 2).
#include "CliRunner.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/data/Loaders.hpp"

#include "TestPaths.hpp"

#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <fstream>
#include <sstream>

namespace {

using orbit::cli::Json;

std::vector<std::string> csvLines(const std::string& path)
{
    std::ifstream f(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(f, line);) out.push_back(line);
    return out;
}

/// The fields of a CSV line after the first `skip` ones, as written (17 digits).
std::vector<std::string> fieldsAfter(const std::string& line, std::size_t skip)
{
    std::vector<std::string> out;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) out.push_back(f);
    out.erase(out.begin(), out.begin() + std::ptrdiff_t(skip));
    return out;
}

std::vector<double> numbers(const std::vector<std::string>& fields)
{
    std::vector<double> out;
    for (const auto& f : fields) out.push_back(std::stod(f));
    return out;
}

bool oneLine(const orbittest::CliResult& r) { return r.status == 2 && r.err.find('\n') == r.err.size() - 1; }

const std::string kDigits = orbittest::bundledFile("digits.png");
const std::string kG2 = orbittest::bundledFile("g2.extxyz");
constexpr int kSix = 3000;  // the first 6 of the sheet (5 rows of 100 per class)

} // namespace

class TestCliSweep : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string path(const std::string& name) const { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

    void train(const std::vector<std::string>& args, const std::string& model)
    {
        std::vector<std::string> all = {"train", "--eval", "holdout:0.2", "--seed", "1", "--save-model", path(model)};
        all.insert(all.end(), args.begin(), args.end());
        const auto r = orbittest::runCli(all);
        QVERIFY2(r.status == 0, r.err.c_str());
    }

    Json sweep(const std::string& model, const std::vector<std::string>& args, const std::string& out)
    {
        std::vector<std::string> all = {"predict", "--model", path(model), "--out", path(out), "--json"};
        all.insert(all.end(), args.begin(), args.end());
        const auto r = orbittest::runCli(all);
        if (r.status != 0) qWarning("%s", r.err.c_str());
        return r.status == 0 ? Json::parse(r.out) : Json();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        const std::vector<std::string> digits = {"--data", kDigits, "--n", "600"};
        auto with = [&](std::vector<std::string> more) {
            more.insert(more.begin(), digits.begin(), digits.end());
            return more;
        };
        train(with({"--features", "raw", "--learner", "ridge"}), "raw.npz");
        train(with({"--features", "irf:s=200,r=8", "--group", "rotation", "--dist", "vonmises:kappa=2", "--learner", "ridge"}),
              "local.npz");
        // kif sums over the whole of C4 with Haar: exactly invariant up to the order of its sums.
        train(with({"--features", "kif:k=60,eta=mean", "--group", "cyclic:n=4", "--dist", "haar", "--learner", "ridge"}), "c4.npz");
        train({"--data", kG2, "--features", "irf:s=200,r=8", "--group", "permutation", "--dist", "noisysort:sigma=1",
               "--learner", "blr"},
              "g2-invariant.npz");
        train({"--data", kG2, "--features", "rf:s=200", "--learner", "blr"}, "g2-plain.npz");
    }

    // At the identity the sweep is predict --index I's single-row call: the same 17 digits, for a
    // plain model, a rotation-invariant one and a G2 model whose group samples follow the row. A
    // whole-file predict agrees within float rounding.
    void identityGivesPredictIndexBits()
    {
        struct Case {
            std::string model, data, sweep;
            int index;
        };
        for (const Case& c : {Case{"raw.npz", kDigits, "rotation:0:360:5", kSix}, Case{"local.npz", kDigits, "rotation:0:360:5", kSix},
                              Case{"local.npz", kDigits, "translation-x:0:3:4", kSix}, Case{"local.npz", kDigits, "scale:1:1.5:3", kSix},
                              Case{"g2-invariant.npz", kG2, "permutation:0:4:5", 100}}) {
            const std::string index = std::to_string(c.index);
            const Json one = sweep(c.model, {"--data", c.data, "--index", index}, "one.csv");
            QVERIFY(!one.is_null());
            const Json s = sweep(c.model, {"--data", c.data, "--index", index, "--sweep", c.sweep}, "s.csv");
            QVERIFY(!s.is_null());
            const auto oneCsv = csvLines(path("one.csv")), sweepCsv = csvLines(path("s.csv"));
            QCOMPARE(oneCsv.size(), std::size_t(2));
            QVERIFY2(sweepCsv.size() >= 3, c.sweep.c_str());
            QVERIFY2(fieldsAfter(oneCsv[1], 2) == fieldsAfter(sweepCsv[1], 1) || c.model.rfind("g2", 0) == 0,
                     (c.model + " " + c.sweep + ": " + oneCsv[1] + " vs " + sweepCsv[1]).c_str());
            if (c.model.rfind("g2", 0) == 0) {  // regression: row,prediction against t,value
                QCOMPARE(fieldsAfter(oneCsv[1], 1), fieldsAfter(sweepCsv[1], 1));
                // blr keeps its posterior: the prediction -/+ 2 sd, in both files and the JSON.
                QVERIFY2(oneCsv[0] == "row,prediction,lower,upper" && sweepCsv[0] == "t,value,lower,upper", oneCsv[0].c_str());
                const double v = one["prediction"].get<double>(), sd = one["sd"].get<double>();
                QVERIFY(sd > 0 && one["interval"][0].get<double>() == v - 2 * sd && one["interval"][1].get<double>() == v + 2 * sd);
            }
            // The sweep moves the input: some other value gives other scores.
            QVERIFY2(fieldsAfter(sweepCsv[1], 1) != fieldsAfter(sweepCsv.back(), 1) || c.sweep.rfind("rotation", 0) == 0,
                     c.sweep.c_str());
        }
        // The whole file: the same row within rounding (some BLAS kernels round a row by its place).
        const Json all = sweep("local.npz", {"--data", kDigits}, "all.csv");
        QVERIFY(!all.is_null());
        const auto whole = numbers(fieldsAfter(csvLines(path("all.csv"))[std::size_t(kSix) + 1], 2));
        sweep("local.npz", {"--data", kDigits, "--index", std::to_string(kSix)}, "one.csv");
        const auto one = numbers(fieldsAfter(csvLines(path("one.csv"))[1], 2));
        for (std::size_t c = 0; c < one.size(); ++c) QVERIFY(std::abs(one[c] - whole[c]) <= 1e-5 * (1 + std::abs(whole[c])));
        // Noisy sort draws each molecule's samples from its row's stream: --index 100 is row 100 of
        // the whole file (within rounding), not some other row's draw.
        QVERIFY(!sweep("g2-invariant.npz", {"--data", kG2}, "all.csv").is_null());
        const double wholeEnergy = std::stod(fieldsAfter(csvLines(path("all.csv"))[101], 1).front());
        QVERIFY(!sweep("g2-invariant.npz", {"--data", kG2, "--index", "100"}, "one.csv").is_null());
        const double oneEnergy = std::stod(fieldsAfter(csvLines(path("one.csv"))[1], 1).front());
        QVERIFY2(std::abs(oneEnergy - wholeEnergy) <= 1e-6 * std::abs(wholeEnergy),
                 qPrintable(QString::number(oneEnergy, 'g', 17) + " vs " + QString::number(wholeEnergy, 'g', 17)));
    }

    // C4 with Haar: the four quarter turns of a 6 give the same scores up to the rounding of the
    // float32 features (the orbit's sum runs in another order); a plain model's move by far more.
    void quarterTurnsOfAnExactlyInvariantModel()
    {
        for (const std::string model : {"c4.npz", "raw.npz"}) {
            const Json s = sweep(model, {"--data", kDigits, "--index", std::to_string(kSix), "--sweep", "rotation:0:270:4"}, "q.csv");
            QVERIFY(!s.is_null());
            const auto csv = csvLines(path("q.csv"));
            QCOMPARE(csv.size(), std::size_t(5));
            const auto first = numbers(fieldsAfter(csv[1], 1));
            double scale = 0, most = 0;
            for (double v : first) scale = std::max(scale, std::abs(v));
            for (std::size_t k = 2; k < csv.size(); ++k) {
                const auto turned = numbers(fieldsAfter(csv[k], 1));
                for (std::size_t c = 0; c < first.size(); ++c) most = std::max(most, std::abs(turned[c] - first[c]));
            }
            if (model == "c4.npz") {
                QVERIFY2(most <= 64 * FLT_EPSILON * scale, qPrintable(QString::number(most)));
                QVERIFY(s["flips"].empty());
            } else {
                QVERIFY2(most > 0.05 * scale, qPrintable(QString::number(most)));
            }
        }
    }

    // Permuting the atoms of a G2 molecule (acetamide, 9 atoms): the noisy-sort model's energy
    // moves within its Monte Carlo error, and the CLI says so; the plain model's moves far more
    // than its error (none) and the CLI says that too.
    void permutationStaysWithinTheMonteCarloError()
    {
        const Json inv = sweep("g2-invariant.npz", {"--data", kG2, "--index", "100", "--sweep", "permutation:0:20:21"}, "p.csv");
        QVERIFY(!inv.is_null());
        QVERIFY(inv["mc_error"].get<double>() > 0);
        QVERIFY2(inv["within_mc_error"].get<bool>(), inv.dump().c_str());
        QVERIFY(inv["spread_sd"].get<double>() > 0);  // the shuffles did move the atoms
        const Json plain = sweep("g2-plain.npz", {"--data", kG2, "--index", "100", "--sweep", "permutation:0:20:21"}, "p.csv");
        QVERIFY(!plain.is_null());
        QCOMPARE(plain["mc_error"].get<double>(), 0.0);
        QVERIFY(!plain["within_mc_error"].get<bool>());
        QVERIFY(plain["spread_sd"].get<double>() > 10 * inv["spread_sd"].get<double>());
        const auto r = orbittest::runCli(
            {"predict", "--model", path("g2-invariant.npz"), "--data", kG2, "--index", "100", "--sweep", "permutation:0:20:21"});
        QVERIFY2(r.out.find("Monte Carlo error") != std::string::npos && r.out.find("within it") != std::string::npos, r.out.c_str());
    }

    // Swapping two chosen atoms of acetamide (--swap 0,5: the O and an H): the noisy-sort model's
    // energy changes within its Monte Carlo error and the CLI says so; the plain model's changes
    // (it has no Monte Carlo error) and the CLI says it is not invariant. --jitter 0 recomputes the
    // row's Coulomb matrix from its positions: the row's own bits; a jitter moves both models.
    void swapStaysWithinTheMonteCarloError()
    {
        const std::vector<std::string> row = {"--data", kG2, "--index", "100"};
        auto with = [&row](std::vector<std::string> more) {
            more.insert(more.begin(), row.begin(), row.end());
            return more;
        };
        const Json inv = sweep("g2-invariant.npz", with({"--swap", "0,5"}), "one.csv");
        QVERIFY(!inv.is_null());
        QVERIFY(inv["mc_error"].get<double>() > 0);
        QVERIFY2(inv["within_mc_error"].get<bool>(), inv.dump().c_str());
        QCOMPARE(inv["change"].get<double>(), inv["prediction"].get<double>() - inv["row_prediction"].get<double>());
        const Json asIs = sweep("g2-invariant.npz", row, "one.csv");
        QCOMPARE(inv["row_prediction"].get<double>(), asIs["prediction"].get<double>());
        const Json plain = sweep("g2-plain.npz", with({"--swap", "0,5"}), "one.csv");
        QVERIFY(!plain.is_null());
        QCOMPARE(plain["mc_error"].get<double>(), 0.0);
        QVERIFY2(!plain["within_mc_error"].get<bool>(), plain.dump().c_str());
        QVERIFY2(std::abs(plain["change"].get<double>()) > 2 * inv["mc_error"].get<double>(), plain.dump().c_str());
        const auto r = orbittest::runCli({"predict", "--model", path("g2-invariant.npz"), "--data", kG2, "--index", "100", "--swap", "0,5"});
        QVERIFY2(r.status == 0 && r.out.find("atoms 0 and 5 swapped") != std::string::npos &&
                     r.out.find("Monte Carlo error") != std::string::npos && r.out.find("within it") != std::string::npos,
                 r.out.c_str());
        const auto p = orbittest::runCli({"predict", "--model", path("g2-plain.npz"), "--data", kG2, "--index", "100", "--swap", "0,5"});
        QVERIFY2(p.status == 0 && p.out.find("larger than it (not invariant)") != std::string::npos, p.out.c_str());

        // Jitter 0: the same bits as the row, so the same 17 digits; 0.05 Angstrom moves the plain model.
        for (const char* model : {"g2-invariant.npz", "g2-plain.npz"}) {
            QVERIFY(!sweep(model, row, "one.csv").is_null());
            const auto asFile = csvLines(path("one.csv"));
            QVERIFY(!sweep(model, with({"--jitter", "0"}), "jit.csv").is_null());
            QCOMPARE(csvLines(path("jit.csv")), asFile);
        }
        const Json moved = sweep("g2-plain.npz", with({"--jitter", "0.05"}), "jit.csv");
        QVERIFY(!moved.is_null() && moved["change"].get<double>() != 0.0);
        // Swap then sweep: the sweep moves the swapped molecule.
        QVERIFY(!sweep("g2-invariant.npz", with({"--swap", "0,5", "--sweep", "permutation:0:3:4"}), "s.csv").is_null());
    }

    // An image file of a row predicts as the row (the loader's scaling and orientation); a larger
    // one is scaled with a note on stderr.
    void anImageFilePredictsAsItsRow()
    {
        const orbit::Dataset d = orbit::loadDataset(kDigits);
        const float* x = d.sample(kSix);
        auto writePgm = [&](const std::string& file, int factor) {
            std::ofstream f(path(file), std::ios::binary);
            const int side = 20 * factor;
            f << "P5\n" << side << " " << side << "\n255\n";
            for (int r = 0; r < side; ++r)
                for (int c = 0; c < side; ++c) f.put(char(std::lround(x[(r / factor) * 20 + c / factor] * 255.0f)));
        };
        writePgm("six.pgm", 1);
        writePgm("six-big.pgm", 3);
        for (const std::string model : {"local.npz", "raw.npz"}) {
            QVERIFY(!sweep(model, {"--data", kDigits, "--index", std::to_string(kSix)}, "row.csv").is_null());
            QVERIFY(!sweep(model, {"--input", path("six.pgm"), "--index", std::to_string(kSix)}, "img.csv").is_null());
            QCOMPARE(fieldsAfter(csvLines(path("img.csv"))[1], 1), fieldsAfter(csvLines(path("row.csv"))[1], 1));
        }
        const auto r = orbittest::runCli({"predict", "--model", path("raw.npz"), "--input", path("six-big.pgm"), "--sweep",
                                          "rotation:0:90:2", "--out", path("big.csv")});
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY2(r.err.find("note:") == 0 && r.err.find("scaled to 20x20") != std::string::npos, r.err.c_str());
        QCOMPARE(csvLines(path("big.csv")).size(), std::size_t(3));
    }

    void badInputIsOneLine()
    {
        {
            std::ofstream notImage(path("not-an-image.png"));
            notImage << "hello\n";
        }
        std::ifstream in(path("raw.npz"), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(path("cut.npz"), std::ios::binary) << bytes.substr(0, bytes.size() / 2);
        const std::string six = std::to_string(kSix);
        struct Case {
            std::vector<std::string> args;
            std::string says;
        };
        const std::vector<Case> cases = {
            {{"--model", path("raw.npz"), "--input", path("not-an-image.png"), "--sweep", "rotation:0:360:73"}, "not-an-image.png"},
            {{"--model", path("g2-plain.npz"), "--data", kDigits, "--index", six, "--sweep", "permutation:0:3:4"}, "the model takes coulomb"},
            {{"--model", path("g2-plain.npz"), "--data", kG2, "--index", "100", "--swap", "0,9"}, "9 atoms"},
            {{"--model", path("g2-plain.npz"), "--data", kG2, "--index", "100", "--swap", "0"}, "--swap"},
            {{"--model", path("g2-plain.npz"), "--data", kG2, "--index", "100", "--jitter", "-1"}, "jitter"},
            {{"--model", path("raw.npz"), "--data", kDigits, "--index", six, "--swap", "0,1"}, "--swap"},
            {{"--model", path("cut.npz"), "--data", kDigits, "--index", six, "--sweep", "rotation:0:360:73"}, "cut.npz"},
            {{"--model", path("raw.npz"), "--data", kDigits, "--index", six, "--sweep", "twist:0:360:73"}, "--sweep: unknown parameter"},
            {{"--model", path("raw.npz"), "--data", kDigits, "--index", six, "--sweep", "rotation:0:360:1"}, "at least 2 points"},
            {{"--model", path("raw.npz"), "--data", kDigits, "--index", six, "--sweep", "permutation:0:3:4"}, "--sweep"},
            {{"--model", path("g2-plain.npz"), "--input", path("not-an-image.png"), "--sweep", "permutation:0:3:4"}, "--input"},
            {{"--model", path("raw.npz"), "--data", kDigits, "--sweep", "rotation:0:360:73"}, "--index I or --input IMAGE"},
        };
        for (const Case& c : cases) {
            std::vector<std::string> args = {"predict"};
            args.insert(args.end(), c.args.begin(), c.args.end());
            const auto r = orbittest::runCli(args);
            QVERIFY2(oneLine(r), (c.says + ": " + r.err).c_str());
            QVERIFY2(r.err.find(c.says) != std::string::npos, (c.says + ": " + r.err).c_str());
        }
    }
};

QTEST_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"

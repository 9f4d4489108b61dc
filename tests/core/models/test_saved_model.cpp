// Saved models (orbit/models): the .npz reader and writer against NumPy's own files, every way a file
// can be damaged, the model's arrays, and the model a train() run saves.
#include "orbit/data/Loaders.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/TrainedModel.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/models/Npz.hpp"
#include "orbit/models/SavedModel.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"

#include "TestPaths.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>

#include <fstream>

#include <zlib.h>

using namespace orbit;

namespace {

const NpyArray& member(const NpzArchive& a, const std::string& name)
{
    for (const auto& [n, array] : a)
        if (n == name) return array;
    throw std::runtime_error("no member " + name);
}

/// The LoadError decodeNpz / fromArchive throws for `bytes`, or an empty message.
QString refusal(const std::function<void()>& read, LoadErrorKind* kind = nullptr)
{
    try {
        read();
    } catch (const LoadError& e) {
        if (kind) *kind = e.kind();
        return QString::fromUtf8(e.what());
    }
    return {};
}

/// A zip of one stored member, with the right CRC-32 (what a deliberate edit of a file produces).
std::string zipOf(const std::string& name, const std::string& data)
{
    auto le = [](std::string& out, std::uint32_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
    };
    const auto crc = std::uint32_t(crc32(0L, reinterpret_cast<const Bytef*>(data.data()), uInt(data.size())));
    auto common = [&](std::string& s) {
        le(s, 20, 2), le(s, 0, 2), le(s, 0, 2), le(s, 0, 2), le(s, 0x21, 2), le(s, crc, 4);
        le(s, std::uint32_t(data.size()), 4), le(s, std::uint32_t(data.size()), 4), le(s, std::uint32_t(name.size()), 2), le(s, 0, 2);
    };
    std::string out, dir;
    le(out, 0x04034b50, 4), common(out), out += name, out += data;
    le(dir, 0x02014b50, 4), le(dir, 20, 2), common(dir), le(dir, 0, 2), le(dir, 0, 2), le(dir, 0, 2), le(dir, 0, 4), le(dir, 0, 4);
    dir += name;
    const auto at = std::uint32_t(out.size());
    out += dir;
    le(out, 0x06054b50, 4), le(out, 0, 2), le(out, 0, 2), le(out, 1, 2), le(out, 1, 2), le(out, std::uint32_t(dir.size()), 4);
    le(out, at, 4), le(out, 0, 2);
    return out;
}

/// A small trained model: irf (or raw) features of 300 digits, on a hold-out split.
struct Trained {
    Dataset data;
    TrainConfig config;
    TrainResult result;
};

Trained trainDigits(const std::string& learner, const std::string& features = "irf:s=120,r=4")
{
    Trained t;
    t.data = prepareDataset(loadDataset(orbittest::bundledFile("digits.png")), 300, false, 28, 4);
    t.config.features = features;
    t.config.group = "rotation";
    t.config.dist = "vonmises:kappa=1";
    t.config.learner = learner;
    t.config.eval = "holdout:0.4";
    t.config.seed = 4;
    if (features == "raw") t.config.group = t.config.dist = "";  // krr's Gaussian on the pixels
    if (learner == "ridge" || learner == "krr") t.config.grid = {{"lambda", {1e-3, 1e-1}}, {"median", {0.5, 1.0}}};
    if (learner == "svm") t.config.grid = {{"C", {0.1, 1.0}}};
    t.result = train(t.data, t.config);
    return t;
}

} // namespace

class TestSavedModel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void npzRoundTripsEveryType()
    {
        NpzArchive a;
        MatrixXfR m(2, 3);
        m << 1, 2, 3, 4, 5, -6.5f;
        Eigen::MatrixXd w(3, 2);
        w << 0.1, -0.2, 0.3, 1e300, -1e-300, 0;
        a.emplace_back("m", NpyArray::matrix(m));
        a.emplace_back("w", NpyArray::matrix(w));
        a.emplace_back("i", NpyArray::integer(-42));
        a.emplace_back("u", NpyArray::unsignedInteger(18446744073709551615ULL));
        a.emplace_back("s", NpyArray::string("κ = 2 — ∞"));
        a.emplace_back("t", NpyArray::strings({"", "one", "sixty-six"}));
        a.emplace_back("empty", NpyArray::matrix(MatrixXfR(0, 5)));
        const std::string bytes = encodeNpz(a);
        QCOMPARE(encodeNpz(a), bytes);  // no dates or other state: the same arrays, the same bytes
        const NpzArchive b = decodeNpz(bytes, "x.npz");
        QCOMPARE(b.size(), a.size());
        QCOMPARE(member(b, "m").f32, member(a, "m").f32);
        QCOMPARE(member(b, "m").shape, (std::vector<long long>{2, 3}));
        QCOMPARE(member(b, "w").f64, member(a, "w").f64);
        QCOMPARE(member(b, "w").f64[1], -0.2);  // C order: row 0 is (0.1, -0.2)
        QCOMPARE(member(b, "i").i64.front(), std::int64_t(-42));
        QVERIFY(member(b, "i").shape.empty());
        QCOMPARE(member(b, "u").u64.front(), std::uint64_t(18446744073709551615ULL));
        QCOMPARE(member(b, "s").text.front(), std::string("κ = 2 — ∞"));
        QCOMPARE(member(b, "t").text, (std::vector<std::string>{"", "one", "sixty-six"}));
        QCOMPARE(member(b, "empty").shape, (std::vector<long long>{0, 5}));
    }

    // What NumPy writes: zip64 local headers (numpy.savez), deflate (savez_compressed), Fortran
    // order, int32 / bool / uint8, unicode text.
    void readsNumpysOwnFiles()
    {
        const NpzArchive s = readNpz(orbittest::fixture("models/numpy-savez.npz"));
        QCOMPARE(member(s, "a").f32.size(), std::size_t(12));
        QCOMPARE(member(s, "a").f32[7], 7.0f);
        QCOMPARE(member(s, "d").f64.front(), 2.5);
        QCOMPARE(member(s, "i").i64.front(), std::int64_t(-7));
        QCOMPARE(member(s, "u").u64.front(), (std::uint64_t(1) << 63) + 5);
        QCOMPARE(member(s, "s").text.front(), std::string("κ = 2"));
        QCOMPARE(member(s, "names").text, (std::vector<std::string>{"zero", "one", "sixty-six"}));
        const NpzArchive c = readNpz(orbittest::fixture("models/numpy-compressed.npz"));
        QCOMPARE(member(c, "a").f32[11], 11.0f);
        QCOMPARE(member(c, "w").f64[5], 1.0);
        const NpzArchive f = readNpz(orbittest::fixture("models/numpy-fortran-and-narrow.npz"));
        QCOMPARE(member(f, "f").f64, (std::vector<double>{0, 1, 2, 3, 4, 5}));  // back in C order
        QCOMPARE(member(f, "i4").i64, (std::vector<std::int64_t>{1, -2, 3}));
        QCOMPARE(member(f, "b1").i64, (std::vector<std::int64_t>{1, 0}));
        QCOMPARE(member(f, "u1").i64, (std::vector<std::int64_t>{200}));
    }

    // One way of damage per case: each a LoadError of one line naming the file (and the member).
    void damagedArchivesAreRefused()
    {
        NpzArchive a;
        a.emplace_back("weights", NpyArray::matrix(Eigen::MatrixXd(Eigen::MatrixXd::Constant(4, 4, 0.5))));
        a.emplace_back("name", NpyArray::string("model"));
        const std::string good = encodeNpz(a);
        struct Case {
            const char* what;
            std::string bytes;
            LoadErrorKind kind;
            const char* says;
        };
        std::string flipped = good;
        flipped[good.find("weights.npy") + 11 + 100] ^= 0x40;  // inside the weights' values
        std::string badNpy = good;
        badNpy[good.find("weights.npy") + 11 + 1] = 'X';  // the member's \x93NUMPY magic (its CRC follows the change)
        const std::vector<Case> cases = {
            {"cut in half", good.substr(0, good.size() / 2), LoadErrorKind::Truncated, "cut short"},
            {"cut to 10 bytes", good.substr(0, 10), LoadErrorKind::Truncated, "cut short"},
            {"a byte changed", flipped, LoadErrorKind::BadValue, "CRC-32"},
            {"not a zip", std::string("hello, world: this is plain text."), LoadErrorKind::BadMagic, "not a .npz"},
            {"empty", std::string(), LoadErrorKind::BadMagic, "not a .npz"},
        };
        for (const Case& c : cases) {
            LoadErrorKind kind{};
            const QString m = refusal([&] { decodeNpz(c.bytes, "m.npz"); }, &kind);
            QVERIFY2(m.startsWith("m.npz: ") && m.contains(c.says) && !m.contains('\n'), qPrintable(QString(c.what) + ": " + m));
            QCOMPARE(int(kind), int(c.kind));
            QVERIFY(isSafeText(m.toStdString()));
        }
        QVERIFY(refusal([&] { decodeNpz(flipped, "m.npz"); }).contains("member weights.npy"));
        // A member whose own bytes are not a .npy array (the zip is consistent: only its content is wrong).
        NpzArchive one;
        one.emplace_back("x", NpyArray::integer(1));
        std::string notNpy = encodeNpz(one);
        const auto at = notNpy.find("x.npy") + 5;
        notNpy[at + 1] = 'X';
        const QString m = refusal([&] { decodeNpz(notNpy, "m.npz"); });
        QVERIFY2(m.contains("CRC-32") || m.contains("magic"), qPrintable(m));
        QVERIFY(refusal([] { readNpz(orbittest::fixture("models/complex-dtype.npz")); }).contains("dtype saved models do not use"));
        QVERIFY(refusal([] { readNpz(orbittest::fixture("models/big-endian.npz")); }).contains("dtype saved models do not use"));
        QVERIFY(refusal([] { readNpz("/no/such/model.npz"); }).contains("/no/such/model.npz"));
    }

    // A consistent archive (right CRCs) whose .npy header is wrong: refused before anything is allocated.
    void aHeaderCannotClaimMoreThanTheDataHold()
    {
        struct Case {
            std::string header;
            const char* says;
        };
        const std::vector<Case> cases = {
            {"{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }", "cut short"},
            {"{'descr': '<f8', 'fortran_order': False, 'shape': (-3,), }", "negative dimension"},
            {"{'descr': '<f8', 'fortran_order': False, }", "no 'shape'"},
            {"{'descr': 42, 'fortran_order': False, 'shape': (2,), }", "descr is not a string"},
            {"{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", "dtype saved models do not use"},
        };
        for (const Case& c : cases) {
            std::string npy = std::string("\x93NUMPY\x01\x00", 8);
            npy.push_back(char(c.header.size() & 0xff));
            npy.push_back(char(c.header.size() >> 8));
            npy += c.header + std::string(16, '\0');
            const QString m = refusal([&] { decodeNpz(zipOf("x.npy", npy), "m.npz"); });
            QVERIFY2(m.startsWith("m.npz: member x.npy: ") && m.contains(c.says), qPrintable(m));
        }
    }

    void fitReadsRowsFollowsTheRegistry()
    {
        for (const char* s : {"raw", "sorted", "rf:s=10", "irf:s=10,r=2", "gicdf:m=2,bins=3,r=2", "rf:s=10+rf2:s=5,sigma=2"})
            QVERIFY2(!fitReadsRows(s), s);
        for (const char* s : {"nystrom:s=10", "inystrom:s=10,r=2", "kif:k=3", "gicdf:m=2,bins=3,r=2,span=auto",
                              "gicdf:m=2,bins=3,r=2,norm=max", "rf:s=10+rf2:s=5", "rf:s=10+rf2:s=5,median=2"})
            QVERIFY2(fitReadsRows(s), s);
        QVERIFY_THROWS_EXCEPTION(SpecError, fitReadsRows("nope:s=1"));
    }

    // The model of a run's first split: the chosen point, and the run's own test predictions.
    void trainedModelIsTheFirstSplitsModel()
    {
        for (const std::string learner : {"ridge", "blr", "svm"}) {
            const Trained t = trainDigits(learner);
            const SavedModel m = trainedModel(t.data, t.config, t.result);
            QCOMPARE(m.learner, learner);
            QCOMPARE(m.chosen, toString(t.result.folds.front().chosen));
            QCOMPARE(m.map.contextSeed, featureSeed(4));
            QVERIFY(m.map.kernel.rfind("gaussian:sigma=", 0) == 0);
            QCOMPARE(m.map.fitRows.rows(), Eigen::Index(0));  // irf: drawn from the seed again
            const Split split = outerSplits(t.data, t.config).front();
            QCOMPARE(m.trainRows, std::int64_t(split.train.size()));
            const ModelPredictor p(m, "m.npz");
            const std::vector<int> predicted = p.classes(p.scores(selectRows(t.data.X, split.test)));
            std::vector<int> run;
            for (const TestPrediction& tp : t.result.predictions) run.push_back(tp.predicted);
            // The trainer sums its normal equations in another order: the weights differ in their
            // last bits at most, and so the predictions agree on (nearly) every row.
            std::size_t same = 0;
            for (std::size_t i = 0; i < run.size(); ++i) same += run[i] == predicted[i];
            QVERIFY2(same + 1 >= run.size(), qPrintable(QString::fromStdString(learner) + ": " + QString::number(same) + " of " +
                                                       QString::number(run.size())));
            QVERIFY(std::abs(accuracy(predicted, select(t.data.labels, split.test)) - t.result.mean) <= 1.0 / double(run.size()));
        }
    }

    // krr: the support rows are the split's training rows (raw features: the pixels themselves), and
    // the model predicts every test row as the run did, to the bit: the same kernel values (each
    // entry computed alone, FeatureKernel.hpp), the same solve, each row's scores summed alone.
    void aKrrModelPredictsTheRunsOwnTestRows()
    {
        const Trained t = trainDigits("krr", "raw");
        const SavedModel m = trainedModel(t.data, t.config, t.result);
        const Split split = outerSplits(t.data, t.config).front();
        QCOMPARE(m.learner, std::string("krr"));
        QCOMPARE(m.support, selectRows(t.data.X, split.train));
        QCOMPARE(m.dual.rows(), Eigen::Index(split.train.size()));
        QCOMPARE(m.dual.cols(), Eigen::Index(10));
        QVERIFY(m.kernel.rfind("gaussian:sigma=", 0) == 0);
        QVERIFY(m.weights.size() == 0);
        const ModelPredictor p(m, "m.npz");
        const std::vector<int> predicted = p.classes(p.scores(selectRows(t.data.X, split.test)));
        QCOMPARE(t.result.predictions.size(), split.test.size());
        for (std::size_t i = 0; i < predicted.size(); ++i) QCOMPARE(predicted[i], t.result.predictions[i].predicted);
        QCOMPARE(accuracy(predicted, select(t.data.labels, split.test)), t.result.mean);
    }

    // Regression with krr on sorted Coulomb matrices of G2 (the QM7 recipe): the model's RMSE and
    // MAE on the test rows are the run's, to the bit, on a hold-out and on a given test set.
    void aKrrRegressionModelGivesTheRunsErrors()
    {
        Dataset g2 = loadDataset(orbittest::bundledFile("g2.extxyz"));
        TrainConfig c;
        c.features = "sorted";
        c.learner = "krr";
        c.eval = "holdout:0.3";
        c.grid = {{"lambda", {1e-6, 1e-3}}};
        c.seed = 5;
        for (int given = 0; given < 2; ++given) {
            if (given) c.testFrom = g2.count() - 40;  // the last 40 molecules, as --test-data gives them
            const TrainResult r = train(g2, c);
            const SavedModel m = trainedModel(g2, c, r);
            const Split split = outerSplits(g2, c).front();
            const ModelPredictor p(m, "g2.npz");
            const std::vector<double> predicted = p.targets(p.scores(selectRows(g2.X, split.test)));
            const std::vector<double> truth = select(g2.targets, split.test);
            const double error = rmse(predicted, truth);
            QVERIFY2(error == r.mean, qPrintable(QString("%1 against %2").arg(error, 0, 'g', 17).arg(r.mean, 0, 'g', 17)));
            QVERIFY(mae(predicted, truth) == r.mae);
            QCOMPARE(m.trainRows, std::int64_t(split.train.size()));
        }
    }

    // Saved and loaded, a model predicts the same bits; a data-fitted map keeps its rows; a krr
    // file is version 2 and keeps its support rows, dual weights and resolved kernel.
    void savedModelsPredictTheSameBits()
    {
        {
            const Trained t = trainDigits("krr", "raw");
            const SavedModel m = trainedModel(t.data, t.config, t.result);
            const std::string path = dir_.filePath("krr.npz").toStdString();
            saveModel(path, m);
            const NpzArchive arrays = readNpz(path);
            QCOMPARE(member(arrays, "format_version").i64.front(), std::int64_t(2));
            QCOMPARE(member(arrays, "support_rows").shape, (std::vector<long long>{m.support.rows(), 400}));
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, member(arrays, "weights"));
            const SavedModel back = loadModel(path);
            QCOMPARE(back.support, m.support);
            QCOMPARE(back.dual, m.dual);
            QCOMPARE(back.kernel, m.kernel);
            QVERIFY(ModelPredictor(m, path).scores(t.data.X) == ModelPredictor(back, path).scores(t.data.X));
        }
        for (const std::string features : {"irf:s=120,r=4", "inystrom:s=60,r=2"}) {
            const Trained t = trainDigits("blr", features);
            const SavedModel m = trainedModel(t.data, t.config, t.result);
            QCOMPARE(m.map.fitRows.rows() > 0, features.rfind("inystrom", 0) == 0);
            const std::string path = dir_.filePath("m.npz").toStdString();
            saveModel(path, m);
            const SavedModel back = loadModel(path);
            QCOMPARE(back.weights, m.weights);
            QCOMPARE(back.map.fitRows, m.map.fitRows);
            QCOMPARE(back.map.kernel, m.map.kernel);
            QCOMPARE(back.logEvidence, m.logEvidence);
            QCOMPARE(back.integerLabels, m.integerLabels);
            const Eigen::MatrixXd a = ModelPredictor(m, path).scores(t.data.X);
            const Eigen::MatrixXd b = ModelPredictor(back, path).scores(t.data.X);
            QVERIFY(a == b);
        }
    }

    void modelFieldsAreChecked()
    {
        const Trained t = trainDigits("ridge");
        const NpzArchive good = toArchive(trainedModel(t.data, t.config, t.result));
        auto without = [&](const std::string& name) {
            NpzArchive a;
            for (const auto& [n, array] : good)
                if (n != name) a.emplace_back(n, array);
            return a;
        };
        auto with = [&](const std::string& name, NpyArray value) {
            NpzArchive a = good;
            for (auto& [n, array] : a)
                if (n == name) array = std::move(value);
            return a;
        };
        struct Case {
            NpzArchive arrays;
            const char* member;
            const char* says;
        };
        const std::vector<Case> cases = {
            {with("format_version", NpyArray::integer(SavedModel::kFormatVersion + 1)), "format_version", "newer Orbit Lab"},
            {with("format", NpyArray::string("something-else")), "format", "not an Orbit Lab model"},
            {without("weights"), "weights", "missing"},
            {with("weights", NpyArray::matrix(Eigen::MatrixXd(Eigen::MatrixXd::Zero(3, 10)))), "weights", "expected 120 x 10"},
            {with("weights", NpyArray::string("x")), "weights", "expected a 2-d float64 array"},
            {with("bias", NpyArray::numbers({0.0})), "bias", "expected 10 entries"},
            {with("input_shape", NpyArray::integers({20, 20})), "input_shape", "3 values"},
            {with("input_kind", NpyArray::string("sounds")), "input_kind", "images, coulomb or vectors"},
            {with("learner", NpyArray::string("lasso")), "learner", "ridge, svm, krr or blr"},
            {with("learner", NpyArray::string("krr")), "format_version", "a krr model is version 2"},
            {with("coding", NpyArray::string("binary")), "coding", "plusminusone"},
            {with("map_features", NpyArray::string("warp:s=2")), "map_features", "unknown feature map"},
        };
        for (const Case& c : cases) {
            const QString m = refusal([&] { fromArchive(c.arrays, "m.npz"); });
            QVERIFY2(m.startsWith(QString("m.npz: member ") + c.member + ".npy: ") && m.contains(c.says) && !m.contains('\n'),
                     qPrintable(QString(c.member) + " -> " + m));
        }
        // krr's own arrays: dual weights of another N than the support rows, and so on.
        const Trained k = trainDigits("krr", "raw");
        const NpzArchive krr = toArchive(trainedModel(k.data, k.config, k.result));
        auto krrWith = [&](const std::string& name, NpyArray value) {
            NpzArchive a = krr;
            for (auto& [n, array] : a)
                if (n == name) array = std::move(value);
            return a;
        };
        const auto N = member(krr, "support_rows").shape[0];
        const std::vector<Case> krrCases = {
            {krrWith("dual_weights", NpyArray::matrix(Eigen::MatrixXd(Eigen::MatrixXd::Zero(N - 1, 10)))), "dual_weights",
             "a row per row of support_rows"},
            {krrWith("support_rows", NpyArray::matrix(MatrixXfR(MatrixXfR::Zero(N, 399)))), "support_rows", "(map_dim)"},
            {krrWith("support_rows", NpyArray::matrix(Eigen::MatrixXd(Eigen::MatrixXd::Zero(N, 400)))), "support_rows", "float32"},
            {krrWith("kernel", NpyArray::string("gaussian:median=1")), "kernel", "gaussian:sigma=S"},
            {krrWith("kernel", NpyArray::string("gaussian:sigma=-1")), "kernel", "sigma"},
            {krrWith("format_version", NpyArray::integer(1)), "format_version", "a krr model is version 2"},
        };
        for (const Case& c : krrCases) {
            const QString m = refusal([&] { fromArchive(c.arrays, "k.npz"); });
            QVERIFY2(m.startsWith(QString("k.npz: member ") + c.member + ".npy: ") && m.contains(c.says) && !m.contains('\n'),
                     qPrintable(QString(c.member) + " -> " + m));
        }

        // A kernel spec with spaces reads as its canonical form, so the model it gives is saved again
        // (fuzz_model: " gaussian: sigma=..." loaded, then failed checkConsistent when written).
        const std::string kernel = member(krr, "kernel").text[0];  // gaussian:sigma=S
        const SavedModel respaced = fromArchive(krrWith("kernel", NpyArray::string(" gaussian: " + kernel.substr(9))), "k.npz");
        QCOMPARE(respaced.kernel, kernel);
        QVERIFY(!encodeModel(respaced).empty());

        // A consistent but altered map: the rebuilt dimension is not the stored one.
        SavedModel altered = fromArchive(with("map_features", NpyArray::string("irf:s=60,r=4")), "m.npz");
        altered.dim = 120;
        const QString m = refusal([&] { ModelPredictor(altered, "m.npz"); });
        QVERIFY2(m.contains("member map_dim.npy") && m.contains("60 features"), qPrintable(m));
    }

    void dataOfAnotherShapeAreRefused()
    {
        SavedModel m;
        m.map.kind = DataKind::Images;
        m.map.shape = {28, 28, 1};
        checkModelInput(m, DataKind::Images, {28, 28, 1}, "x");
        checkModelInput(m, DataKind::Vectors, {1, 784, 1}, "x.csv");  // flattened rows fit
        try {
            checkModelInput(m, DataKind::Images, {20, 20, 1}, "digits.png");
            QFAIL("accepted 20 x 20 images for a 28 x 28 model");
        } catch (const SpecError& e) {
            QCOMPARE(QString::fromUtf8(e.what()),
                     QString("data: the model takes images of 28 x 28 x 1 (input_shape), the data are images of 20 x 20 x 1 "
                             "(value 'digits.png')"));
        }
    }

    // linearScores goes block by block, so a caller streaming whole blocks gets the bits of the whole.
    void linearScoresAreTheSameInBlocks()
    {
        MatrixXfR F = MatrixXfR::Random(1300, 37);
        const Eigen::MatrixXd W = Eigen::MatrixXd::Random(37, 3);
        const Eigen::VectorXd b = Eigen::VectorXd::Random(3);
        const Eigen::MatrixXd whole = linearScores(F, W, b);
        for (Eigen::Index at = 0; at < F.rows(); at += kTransformBlockRows) {
            const Eigen::Index n = std::min(kTransformBlockRows, F.rows() - at);
            QVERIFY(linearScores(MatrixXfR(F.middleRows(at, n)), W, b) == whole.middleRows(at, n));
        }
    }
};

QTEST_MAIN(TestSavedModel)
#include "test_saved_model.moc"

// Saved exact kernel machines (orbit/models/ExactModel.hpp): a train() run with exact:r=R and krr
// or gp saves a model whose predictions are the run's own test predictions to the bit (a separate
// test set and a hold-out split), survive the file, do not depend on the other rows of a call, and a
// damaged or older file is refused in one line naming the file and the member.
#include "orbit/data/Loaders.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/TrainedModel.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/models/ExactModel.hpp"
#include "orbit/models/Npz.hpp"
#include "orbit/models/SavedModel.hpp"
#include "orbit/util/Error.hpp"

#include "ExactConfigs.hpp"
#include "TestPaths.hpp"

#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace orbit;

namespace {

using orbittest::g2;

TrainConfig exactConfig(const std::string& learner)
{
    TrainConfig c;
    c.features = "exact:r=3";
    c.group = "permutation";
    c.dist = "noisysort:sigma=1";
    c.kernel = learner == "gp" ? "laplacian:median=1" : "";
    c.learner = learner;
    if (learner == "krr") c.grid = {{"lambda", {1e-4, 1e-2}}, {"median", {0.5, 1.0}}};
    c.seed = 5;
    return c;
}

std::string refusal(const std::function<void()>& f)
{
    try {
        f();
    } catch (const LoadError& e) {
        return e.what();
    }
    return {};
}

NpyArray& member(NpzArchive& a, const std::string& name)
{
    for (auto& [n, array] : a)
        if (n == name) return array;
    throw std::runtime_error("no member " + name);
}

} // namespace

class TestExactModel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    // With a separate test set (rows [testFrom, N) of the run's data: a test file after the training
    // file), the model predicts the test rows with the run's RMSE and MAE, to the bit, for krr and gp;
    // and the file gives the same bits again.
    void predictsTheRunsTestRowsToTheBit()
    {
        const Dataset data = g2();
        for (const std::string learner : {"krr", "gp"}) {
            TrainConfig c = exactConfig(learner);
            c.testFrom = data.count() * 2 / 3;
            const TrainResult r = train(data, c);
            const SavedModel m = trainedModel(data, c, r);
            QVERIFY(m.isExact());
            QCOMPARE(m.firstStream, std::int64_t(c.testFrom));
            QCOMPARE(m.support.rows(), Eigen::Index(c.testFrom));
            const MatrixXfR test = data.X.bottomRows(Eigen::Index(data.count() - c.testFrom));
            const std::vector<double> truth(data.targets.begin() + std::ptrdiff_t(c.testFrom), data.targets.end());
            const ModelPredictor p(m, "g2.npz");
            const Eigen::MatrixXd scores = p.scores(test);
            const std::vector<double> predicted = p.targets(scores);
            QVERIFY2(rmse(predicted, truth) == r.mean && mae(predicted, truth) == r.mae,
                     (learner + ": " + std::to_string(rmse(predicted, truth)) + " vs the run's " + std::to_string(r.mean)).c_str());
            // Through the file: the same fields, the same bits.
            const std::string path = dir_.filePath(QString::fromStdString(learner + ".npz")).toStdString();
            saveModel(path, m);
            const SavedModel back = loadModel(path);
            // A regression gp keeps its posterior (version 4); krr has none.
            QCOMPARE(back.formatVersion(), learner == "gp" ? SavedModel::kPosteriorVersion : SavedModel::kExactVersion);
            QVERIFY(back.posteriorFactor == m.posteriorFactor);
            QCOMPARE(back.kernel, m.kernel);
            QVERIFY(back.supportStreams == m.supportStreams && back.orbitSeed == m.orbitSeed);
            QVERIFY(back.dual == m.dual && back.support == m.support);
            QVERIFY(ModelPredictor(back, path).scores(test) == scores);
            // A row's bits do not depend on the other rows of the call (the first 7 rows alone).
            QVERIFY(p.scores(test.topRows(7)) == scores.topRows(7));
            if (learner == "gp") {
                QVERIFY(back.gpSignal == m.gpSignal && back.gpNoise == m.gpNoise && back.logEvidence == m.logEvidence);
            }
        }
    }

    // A hold-out split of the digits under rotations (gp: one-hot classes): predicting the run's own
    // data gives its test rows the run's classes.
    void predictsTheHoldOutRowsOfItsOwnData()
    {
        const Dataset data = prepareDataset(loadDataset(orbittest::bundledFile("digits.png")), 120, false, 28, 4);
        TrainConfig c;
        c.features = "exact:r=2";
        c.group = "rotation";
        c.dist = "vonmises:kappa=2";
        c.kernel = "gaussian:median=1";
        c.learner = "gp";
        c.eval = "holdout:0.5";
        c.seed = 3;
        const TrainResult r = train(data, c);
        const SavedModel m = trainedModel(data, c, r);
        QCOMPARE(m.firstStream, std::int64_t(0));
        const ModelPredictor p(m, "digits.npz");
        const std::vector<int> predicted = p.classes(p.scores(data.X));
        QVERIFY(!r.predictions.empty());
        for (const auto& t : r.predictions) QCOMPARE(predicted[t.row], t.predicted);
        const std::string size = modelFileSize(m, 1000);
        const std::string n = std::to_string(m.trainRows);
        QVERIFY2(size.find("exact gp keeps its " + n + " training rows (" + n + " x 400 float32)") != std::string::npos && m.trainRows < 120,
                 size.c_str());
    }

    // The cyclic group with Haar weights is summed exactly: the model keeps no samples count but
    // the group's, and predicts the run's RMSE.
    void exactHaarSum()
    {
        Dataset data = g2();
        TrainConfig c = exactConfig("krr");
        c.group = "cyclic:n=4";
        c.dist = "haar";
        c.testFrom = data.count() / 2;
        data.kind = DataKind::Vectors;  // cyclic shifts of the flattened matrices: any vector
        data.shape = {1, int(data.X.cols()), 1};
        const TrainResult r = train(data, c);
        const SavedModel m = trainedModel(data, c, r);
        const ModelPredictor p(m, "h.npz");
        const std::vector<double> truth(data.targets.begin() + std::ptrdiff_t(c.testFrom), data.targets.end());
        QVERIFY(rmse(p.targets(p.scores(data.X.bottomRows(Eigen::Index(data.count() - c.testFrom)))), truth) == r.mean);
    }

    // Damaged and older files: one line naming the file and the member.
    void refusesDamagedFiles()
    {
        const Dataset data = g2();
        TrainConfig c = exactConfig("gp");
        c.eval = "holdout:0.5";
        const SavedModel m = trainedModel(data, c, train(data, c));
        const NpzArchive good = toArchive(m);
        struct Case {
            std::function<void(NpzArchive&)> damage;
            const char* says;
        };
        const std::vector<Case> cases = {
            {[](NpzArchive& a) { member(a, "format_version") = NpyArray::integer(2); }, "member format_version.npy"},
            {[](NpzArchive& a) { a.erase(a.begin() + 3); }, ".npy"},
            {[](NpzArchive& a) { member(a, "support_streams") = NpyArray::integers({1, 2}); }, "member support_streams.npy"},
            {[](NpzArchive& a) { member(a, "support_streams").i64[0] = -4; }, "member support_streams.npy"},
            {[](NpzArchive& a) { member(a, "gp_noise") = NpyArray::number(-1.0); }, "member gp_noise.npy"},
            {[](NpzArchive& a) { member(a, "kernel") = NpyArray::string("laplacian:median=1"); }, "member kernel.npy"},
            {[](NpzArchive& a) { member(a, "kernel") = NpyArray::string("polynomial:degree=2"); }, "member kernel.npy"},
            {[](NpzArchive& a) { member(a, "map_features") = NpyArray::string("exact:r=3,centres=40"); }, "member map_features.npy"},
            {[](NpzArchive& a) { member(a, "learner") = NpyArray::string("ridge"); }, "member learner.npy"},
            {[](NpzArchive& a) { member(a, "map_dim") = NpyArray::integer(7); }, "member map_dim.npy"},
            {[](NpzArchive& a) { member(a, "first_stream") = NpyArray::integer(-1); }, "member first_stream.npy"},
        };
        for (const Case& k : cases) {
            NpzArchive a = good;
            k.damage(a);
            const std::string e = refusal([&] { fromArchive(a, "m.npz"); });
            QVERIFY2(e.find("m.npz") != std::string::npos && e.find(k.says) != std::string::npos && e.find('\n') == std::string::npos,
                     (std::string(k.says) + " -> " + e).c_str());
        }
        // The version-2 refusal says why.
        NpzArchive old = good;
        member(old, "format_version") = NpyArray::integer(2);
        QVERIFY(refusal([&] { fromArchive(old, "m.npz"); }).find("version 3 or later") != std::string::npos);
        // centres: refused before any fitting, naming the field.
        try {
            (void)exactSamplesOf("exact:r=3,centres=40");
            QFAIL("centres accepted");
        } catch (const SpecError& e) {
            QVERIFY(std::string(e.what()).find("centres") != std::string::npos);
        }
    }
};

QTEST_MAIN(TestExactModel)
#include "test_exact_model.moc"

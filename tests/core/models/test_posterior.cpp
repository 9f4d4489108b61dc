// Saved regression models with a posterior (format version 4, SavedModel::posteriorFactor): blr's
// posterior precision and the exact gp's C, as Cholesky factors, give each prediction its standard
// deviation. Checked against the textbook formulas computed here from the training rows in double;
// the intervals cover about 95 % of the held-out targets; sweeps carry them; classifiers and older
// files have none; a damaged factor is refused naming the member.
#include "orbit/data/Loaders.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/figures/PredictSweep.hpp"
#include "orbit/training/TrainedModel.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/models/ExactModel.hpp"
#include "orbit/models/Npz.hpp"
#include "orbit/models/SavedModel.hpp"
#include "orbit/util/Error.hpp"

#include "ExactConfigs.hpp"
#include "TestPaths.hpp"

#include <Eigen/Cholesky>

#include <QObject>
#include <QTest>

#include <cmath>
#include <numeric>

using namespace orbit;

namespace {

using orbittest::g2;

TrainConfig config(const std::string& learner)
{
    TrainConfig c;
    c.group = "permutation";
    c.dist = "noisysort:sigma=1";
    c.learner = learner;
    c.seed = 7;
    if (learner == "gp") {
        c.features = "exact:r=3";
        c.kernel = "laplacian:median=1";
    } else {
        c.features = "irf:s=120,r=6";
        c.kernel = "gaussian:median=1";
    }
    return c;
}

NpyArray& member(NpzArchive& a, const std::string& name)
{
    for (auto& [n, array] : a)
        if (n == name) return array;
    throw std::runtime_error("no member " + name);
}

std::string refusal(const NpzArchive& a)
{
    try {
        fromArchive(a, "m.npz");
    } catch (const LoadError& e) {
        return e.what();
    }
    return {};
}

/// The share of held-out targets within value -/+ 2 sd.
double coverage(const ModelPredictor& p, const Dataset& data, std::size_t from, const Eigen::VectorXd& sd)
{
    const std::vector<double> value = p.targets(p.scores(data.X.bottomRows(Eigen::Index(data.count() - from))));
    int inside = 0;
    for (std::size_t i = 0; i < value.size(); ++i)
        inside += std::abs(data.targets[from + i] - value[i]) <= 2 * sd(Eigen::Index(i));
    return double(inside) / double(value.size());
}

} // namespace

class TestPosterior : public QObject {
    Q_OBJECT

private slots:
    // blr: sd = scale sqrt(phi^T (alpha I + beta F^T F)^-1 phi + 1 / beta) from the training rows' features.
    void blrSdIsThePosteriorPredictive()
    {
        const Dataset data = g2();
        TrainConfig c = config("blr");
        c.testFrom = data.count() * 3 / 4;
        const SavedModel m = trainedModel(data, c, train(data, c));
        QVERIFY(m.hasPosterior());
        QCOMPARE(m.formatVersion(), SavedModel::kPosteriorVersion);
        const ModelPredictor p(m, "blr.npz");
        QVERIFY(p.hasInterval());
        const MatrixXfR all = transformAll(p.map(), data.X);
        const Eigen::MatrixXd F = all.topRows(Eigen::Index(c.testFrom)).cast<double>();
        Eigen::MatrixXd A = m.beta * F.transpose() * F;
        A.diagonal().array() += m.alpha;
        const MatrixXfR test = all.bottomRows(Eigen::Index(data.count() - c.testFrom));
        const Eigen::VectorXd sd = p.featureSd(test);
        const Eigen::MatrixXd Phi = test.cast<double>().transpose();
        const Eigen::MatrixXd AinvPhi = A.ldlt().solve(Phi);
        for (Eigen::Index i = 0; i < sd.size(); ++i) {
            const double expected = m.coding.scale * std::sqrt(Phi.col(i).dot(AinvPhi.col(i)) + 1.0 / m.beta);
            QVERIFY2(std::abs(sd(i) - expected) <= 1e-4 * expected, (std::to_string(sd(i)) + " vs " + std::to_string(expected)).c_str());
        }
        const double covered = coverage(p, data, c.testFrom, sd);
        qInfo("held-out targets within -/+ 2 sd: %.3f", covered);
        QVERIFY2(covered >= 0.7, std::to_string(covered).c_str());
    }

    // gp: sd = scale sqrt(s2f k(x,x) - s2f^2 k*^T C^-1 k* + s2n), with K and k* from the orbits here.
    void gpSdIsThePosteriorPredictive()
    {
        const Dataset data = g2();
        TrainConfig c = config("gp");
        c.testFrom = data.count() * 3 / 4;
        const SavedModel m = trainedModel(data, c, train(data, c));
        QVERIFY(m.hasPosterior());
        const ModelPredictor p(m, "gp.npz");
        const Eigen::Index n = Eigen::Index(c.testFrom), t = Eigen::Index(data.count()) - n;
        const MatrixXfR test = data.X.bottomRows(t);
        Eigen::VectorXd sd;
        const Eigen::MatrixXd S = p.exactScoresAt(test, 0, {}, &sd);
        QVERIFY(S == p.scores(test));  // the interval does not move the answer
        // Every row's orbit, support rows from their streams, test rows from firstStream + j.
        std::vector<std::int64_t> streams(std::size_t(data.count()));
        std::iota(streams.begin(), streams.end(), std::int64_t(0));
        int r = 0;
        const MatrixXfR orbits = exactOrbitRows(data.X, streams, data.kind, data.shape, m.map.group, m.map.dist, 3, m.orbitSeed, &r);
        const BaseKernel k = makeKernel(m.kernel, MatrixXfR());
        const OrbitDistances D(orbits, r, k.distance());
        Indices all(std::size_t(data.count()));
        std::iota(all.begin(), all.end(), std::size_t(0));
        Eigen::MatrixXd K;
        D.gram(k, all, all, K);
        Eigen::MatrixXd C = m.gpSignal * K.topLeftCorner(n, n);
        C.diagonal().array() += m.gpNoise;
        const Eigen::MatrixXd Ks = K.bottomLeftCorner(t, n);
        const Eigen::MatrixXd CinvKs = C.ldlt().solve(Ks.transpose());
        for (Eigen::Index j = 0; j < t; ++j) {
            const double var = m.gpSignal * K(n + j, n + j) - m.gpSignal * m.gpSignal * Ks.row(j).dot(CinvKs.col(j)) + m.gpNoise;
            const double expected = m.coding.scale * std::sqrt(var);
            QVERIFY2(std::abs(sd(j) - expected) <= 1e-3 * expected, (std::to_string(sd(j)) + " vs " + std::to_string(expected)).c_str());
        }
        const double covered = coverage(p, data, c.testFrom, sd);
        qInfo("held-out targets within -/+ 2 sd: %.3f", covered);
        QVERIFY2(covered >= 0.7, std::to_string(covered).c_str());
    }

    // A sweep carries value -/+ 2 sd at every value; at the identity the sd is the row's own.
    void sweepsCarryTheInterval()
    {
        const Dataset data = g2();
        for (const std::string learner : {"blr", "gp"}) {
            const TrainConfig c = config(learner);
            const ModelPredictor p(trainedModel(data, c, train(data, c)), learner + ".npz");
            const std::size_t row = 40;
            const SweepResult s = predictSweep(p, data.X.row(Eigen::Index(row)).data(), row, parseSweep("permutation:0:3:4"), 1);
            QVERIFY(s.hasInterval());
            QCOMPARE(s.lower.size(), s.value.size());
            double sd = 0;
            scoresOfRow(p, data.X.row(Eigen::Index(row)).data(), row, &sd);
            QVERIFY(sd > 0);
            QCOMPARE(s.upper[0] - s.value[0], 2 * sd);
            for (std::size_t i = 0; i < s.value.size(); ++i) QVERIFY(s.lower[i] < s.value[i] && s.value[i] < s.upper[i]);
        }
    }

    // Classifiers keep no posterior (their bars have no interval); an older file has none either.
    void classifiersAndOlderFilesHaveNone()
    {
        const Dataset digits = prepareDataset(loadDataset(orbittest::bundledFile("digits.png")), 100, false, 28, 2);
        TrainConfig c;
        c.features = "rf:s=50";
        c.learner = "blr";
        c.kernel = "gaussian:median=1";
        c.seed = 2;
        const SavedModel m = trainedModel(digits, c, train(digits, c));
        QVERIFY(!m.hasPosterior());
        QCOMPARE(m.formatVersion(), std::int64_t(1));
        QVERIFY(!ModelPredictor(m, "d.npz").hasInterval());

        const Dataset data = g2();
        const TrainConfig b = config("blr");
        NpzArchive a = toArchive(trainedModel(data, b, train(data, b)));
        NpzArchive older;
        for (const auto& [name, array] : a)
            if (name != "posterior_factor") older.emplace_back(name, name == "format_version" ? NpyArray::integer(1) : array);
        const SavedModel back = fromArchive(older, "old.npz");
        QVERIFY(!back.hasPosterior() && !ModelPredictor(back, "old.npz").hasInterval());
    }

    void aDamagedFactorIsRefused()
    {
        const Dataset data = g2();
        const TrainConfig b = config("blr");
        const NpzArchive good = toArchive(trainedModel(data, b, train(data, b)));
        NpzArchive wrongShape = good;
        member(wrongShape, "posterior_factor") = NpyArray::matrix(MatrixXfR(MatrixXfR::Identity(3, 3)));
        QVERIFY2(refusal(wrongShape).find("posterior_factor") != std::string::npos &&
                     refusal(wrongShape).find("expected 120 x 120") != std::string::npos,
                 refusal(wrongShape).c_str());
        NpzArchive notCholesky = good;
        MatrixXfR L = MatrixXfR::Identity(120, 120);
        L(5, 5) = -1;
        member(notCholesky, "posterior_factor") = NpyArray::matrix(L);
        QVERIFY2(refusal(notCholesky).find("positive diagonal") != std::string::npos, refusal(notCholesky).c_str());
        NpzArchive nan = good;
        L(5, 5) = std::numeric_limits<float>::quiet_NaN();
        member(nan, "posterior_factor") = NpyArray::matrix(L);
        QVERIFY2(refusal(nan).find("NaN") != std::string::npos, refusal(nan).c_str());
    }
};

QTEST_GUILESS_MAIN(TestPosterior)
#include "test_posterior.moc"

// train with `exact:r=R,centres=M` and krr (ExactKernelMachines.hpp, FALKON in orbit/learn/Falkon.hpp):
// exact krr's result when every training row is a centre, good accuracy with a few centres, the
// centres and CG iterations in each fold's chosen point, the same bits at any thread count, and
// one-line refusals naming the field.
#include "orbit/data/Loaders.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"

#include "TestPaths.hpp"

#include <cmath>

#include <QObject>
#include <QTest>

using namespace orbit;

namespace {

Dataset g2Molecules() { return loadDataset(orbittest::bundledFile("g2.extxyz")); }

/// 300 bundled digits, upright, padded to 28 x 28.
const Dataset& digits()
{
    static const Dataset d = prepareDataset(loadDataset(orbittest::source("resources/data/digits.png")), 300, false, 28, 0);
    return d;
}

TrainConfig krrConfig(const std::string& features)
{
    TrainConfig c;
    c.features = features;
    c.group = "permutation";
    c.dist = "noisysort:sigma=1";
    c.kernel = "laplacian:median=1";
    c.learner = "krr";
    c.eval = "holdout:0.3";
    c.grid = {{"lambda", {1e-3, 1e-1}}};
    c.seed = 5;
    return c;
}

/// The SpecError's field when `f` throws one (empty otherwise), and whether its text is one line.
template <class F>
std::string refusedField(F&& f, bool* oneLine = nullptr)
{
    try {
        f();
    } catch (const SpecError& e) {
        if (oneLine) *oneLine = std::string(e.what()).find('\n') == std::string::npos;
        return e.field();
    }
    return {};
}

} // namespace

class TestExactFalkon : public QObject {
    Q_OBJECT

private slots:
    // With every training row a centre the Nystrom system is exact krr's (the lambda of the spec
    // is krr's): the same lambda chosen and the same RMSE and MAE to 1e-6, on G2's energies.
    void everyRowACentreIsExactKrr()
    {
        const Dataset data = g2Molecules();
        TrainConfig c = krrConfig("exact:r=3");
        const TrainResult exact = train(data, c);
        const std::size_t n = outerSplits(data, c).front().train.size();
        c.features = "exact:r=3,centres=" + std::to_string(n);
        const TrainResult falkon = train(data, c);
        QCOMPARE(falkon.folds.front().chosen.at("lambda"), exact.folds.front().chosen.at("lambda"));
        QCOMPARE(falkon.folds.front().chosen.at("centres"), double(n));
        QVERIFY(falkon.folds.front().chosen.at("cg_iterations") >= 1);
        QVERIFY2(std::abs(falkon.mean - exact.mean) < 1e-6 * exact.mean,
                 (std::to_string(falkon.mean) + " vs " + std::to_string(exact.mean)).c_str());
        QVERIFY(std::abs(falkon.mae - exact.mae) < 1e-6 * exact.mae);
        QVERIFY(falkon.featureSpec.find("centres=" + std::to_string(n)) != std::string::npos);
    }

    // A few centres on digits classify well above chance, the centres and CG iterations are
    // reported per fold, and one thread and two give the same bits.
    void fewCentresClassifyWithTheSameBitsAtAnyThreadCount()
    {
        TrainConfig c;
        c.features = "exact:r=2,centres=60,iterations=30";
        c.group = "rotation";
        c.dist = "vonmises:kappa=20";
        c.learner = "krr";
        c.eval = "holdout:0.3";
        c.grid = {{"lambda", {1e-4, 1e-2}}, {"median", {1.0}}};
        c.seed = 2;
        setComputeBudget(1);
        const TrainResult one = train(digits(), c);
        setComputeBudget(2);
        const TrainResult two = train(digits(), c);
        setComputeBudget(0);
        QCOMPARE(one.metric, std::string("accuracy"));
        QVERIFY2(one.mean > 0.6, std::to_string(one.mean).c_str());
        QCOMPARE(one.mean, two.mean);
        QCOMPARE(one.folds.front().chosen, two.folds.front().chosen);
        QCOMPARE(one.folds.front().chosen.at("centres"), 60.0);
        const double iterations = one.folds.front().chosen.at("cg_iterations");
        QVERIFY(iterations >= 1 && iterations <= 30);
        QVERIFY(one.folds.front().chosen.at("cg_residual") >= 0);
        QVERIFY(one.predictions == two.predictions);
    }

    // gp refuses centres, in train and in learn (its marginal likelihood needs the exact solve);
    // more centres than a fold's training rows, negative centres and a zero CG cap are refused:
    // one line each, naming the field.
    void badSpecsAreRefusedNamingTheField()
    {
        const Dataset data = g2Molecules();
        bool oneLine = false;
        TrainConfig c = krrConfig("exact:r=2,centres=20");
        c.learner = "gp";
        c.grid.clear();  // gp has no lambda axis
        QCOMPARE(refusedField([&] { train(data, c); }, &oneLine), std::string("learner"));
        QVERIFY(oneLine);
        LocalityConfig learn;  // learn --learner gp too
        learn.features = "exact:r=2,centres=20";
        learn.group = "permutation";
        learn.dist = "noisysort:sigma=1";
        learn.learn = {"sigma"};
        QCOMPARE(refusedField([&] { learnExactGp(data, learn); }, &oneLine), std::string("learner"));
        QVERIFY(oneLine);
        c.learner = "krr";
        c.features = "exact:r=2,centres=1000";
        QCOMPARE(refusedField([&] { train(data, c); }, &oneLine), std::string("features exact.centres"));
        QVERIFY(oneLine);
        c.features = "exact:r=2,centres=-1";
        const std::string negative = refusedField([&] { train(data, c); }, &oneLine);
        QVERIFY2(negative.find("centres") != std::string::npos, negative.c_str());
        QVERIFY(oneLine);
        c.features = "exact:r=2,centres=20,iterations=0";
        const std::string cap = refusedField([&] { train(data, c); }, &oneLine);
        QVERIFY2(cap.find("iterations") != std::string::npos, cap.c_str());
    }
};

QTEST_APPLESS_MAIN(TestExactFalkon)
#include "test_exact_falkon.moc"

// Exact invariant kernel machines (orbit/experiments/ExactKernelMachines.hpp) on the bundled G2
// molecules: train with exact:r=R and krr / gp, learn --learner gp fold by fold without reading a
// test row, and the same bits at any thread count.
#include "orbit/data/Loaders.hpp"
#include "orbit/experiments/ExactKernelMachines.hpp"
#include "orbit/experiments/Training.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"

#include "TestPaths.hpp"

#include <cmath>

#include <QObject>
#include <QTest>

using namespace orbit;

namespace {

Dataset g2() { return loadDataset(orbittest::bundledFile("g2.extxyz")); }

LocalityConfig learnConfig()
{
    LocalityConfig c;
    c.features = "exact:r=3";
    c.group = "permutation";
    c.dist = "noisysort:sigma=1";
    c.kernel = "laplacian:median=1";
    c.learn = {"sigma"};
    c.eval = "kfold:3";
    c.maxEvaluations = 5;
    c.seed = 3;
    return c;
}

} // namespace

class TestExactKernelMachines : public QObject {
    Q_OBJECT

private slots:
    // krr and gp on the exact invariant kernel predict G2's atomisation energies far better than
    // their mean (the targets' sd is about 170 kcal/mol), with an RMSE and MAE per fold.
    void trainPredictsBetterThanTheMean()
    {
        const Dataset data = g2();
        double sd = 0, m = 0;
        for (double t : data.targets) m += t / double(data.count());
        for (double t : data.targets) sd += (t - m) * (t - m) / double(data.count());
        sd = std::sqrt(sd);
        for (const std::string learner : {"krr", "gp"}) {
            TrainConfig c;
            c.features = "exact:r=3";
            c.group = "permutation";
            c.dist = "noisysort:sigma=1";
            c.kernel = learner == "gp" ? "laplacian:median=1" : "";
            c.learner = learner;
            c.eval = "kfold:3";
            const TrainResult r = train(data, c);
            QCOMPARE(r.metric, std::string("rmse"));
            QCOMPARE(int(r.folds.size()), 3);
            QVERIFY2(r.mean < 0.5 * sd, (learner + ": " + std::to_string(r.mean) + " vs sd " + std::to_string(sd)).c_str());
            QVERIFY(r.mae > 0 && r.mae < r.mean);
            if (learner == "gp") {
                QVERIFY(r.logEvidence.has_value());
                QVERIFY(r.folds.front().chosen.count("bandwidth") && r.folds.front().chosen.count("noise"));
            } else {
                QVERIFY(r.folds.front().chosen.count("lambda"));
            }
        }
    }

    // gp needs the exact kernel (and refuses centres), and exact:r=R needs a kernel learner: one
    // clear line each.
    void refusalsNameTheField()
    {
        const Dataset data = g2();
        TrainConfig c;
        c.features = "rf:s=50";
        c.kernel = "gaussian:median=1";
        c.learner = "gp";
        c.eval = "holdout:0.3";
        bool refused = false;
        try {
            train(data, c);
        } catch (const SpecError& e) {
            refused = std::string(e.what()).find("exact:r=R") != std::string::npos;
        }
        QVERIFY(refused);
        c.features = "exact:r=2";
        c.learner = "ridge";
        refused = false;
        try {
            train(data, c);
        } catch (const SpecError& e) {
            refused = std::string(e.what()).find("krr and gp") != std::string::npos;
        }
        QVERIFY(refused);
        c.learner = "gp";  // its marginal likelihood needs the exact solve: no centres
        c.features = "exact:r=2,centres=50";
        refused = false;
        try {
            train(data, c);
        } catch (const SpecError& e) {
            refused = std::string(e.what()).find("centres") != std::string::npos;
        }
        QVERIFY(refused);
    }

    // learn --eval kfold:K learns inside each training fold: shuffling the test targets and
    // perturbing the test inputs of fold 1 leaves fold 1's learned parameter and hyperparameters
    // the same bits (its median rule, distances, scan and search read its training rows only).
    void learningNeverReadsATestRow()
    {
        const Dataset data = g2();
        const LocalityConfig c = learnConfig();
        const ExactLearnResult a = learnExactGp(data, c, 6, 3);
        QCOMPARE(int(a.folds.size()), 3);
        TrainConfig tc;
        tc.eval = c.eval;
        tc.seed = c.seed;
        const std::vector<Split> folds = outerSplits(data, tc);
        Dataset changed = data;
        const Indices& test = folds.front().test;
        for (std::size_t k = 0; k < test.size(); ++k) {
            changed.targets[test[k]] = data.targets[test[(k + 1) % test.size()]] + 100.0;
            for (Eigen::Index t = 0; t < changed.X.cols(); ++t) changed.X(Eigen::Index(test[k]), t) *= 1.5f;
        }
        const ExactLearnResult b = learnExactGp(changed, c, 6, 3);
        QCOMPARE(a.folds.front().params, b.folds.front().params);
        QCOMPARE(a.folds.front().hyper.sigma, b.folds.front().hyper.sigma);
        QCOMPARE(a.folds.front().hyper.noise, b.folds.front().hyper.noise);
        QCOMPARE(a.folds.front().logEvidence, b.folds.front().logEvidence);
        QVERIFY(a.folds.front().test != b.folds.front().test);  // the test part itself did change
        QVERIFY(a.mean && a.mae && *a.mae < *a.mean);
        QVERIFY(a.evaluations > 0 && a.secondsPerEvaluation > 0);
        for (const ExactLearnFold& f : a.folds) QVERIFY(f.outerEvaluations >= 3 && f.outerEvaluations <= 5);
    }

    // The same config gives the same bits with one thread and with two.
    void sameBitsAtAnyThreadCount()
    {
        const Dataset data = g2();
        LocalityConfig c = learnConfig();
        c.eval = "holdout:0.3";
        c.maxEvaluations = 3;
        setComputeBudget(1);
        const ExactLearnResult one = learnExactGp(data, c, 5, 3);
        setComputeBudget(2);
        const ExactLearnResult two = learnExactGp(data, c, 5, 3);
        QCOMPARE(one.folds.front().logEvidence, two.folds.front().logEvidence);
        QCOMPARE(*one.mean, *two.mean);
    }
};

QTEST_APPLESS_MAIN(TestExactKernelMachines)
#include "test_exact_kernel_machines.moc"

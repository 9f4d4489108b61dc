// Exact invariant kernel machines (orbit/training/ExactKernelMachines.hpp) on the bundled G2
// molecules: train with exact:r=R and krr / gp, learn --learner gp fold by fold without reading a
// test row, and the same bits at any thread count.
#include "orbit/data/Loaders.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/GaussianProcess.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/util/Spec.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"

#include "ExactConfigs.hpp"
#include "TestPaths.hpp"

#include <cmath>
#include <limits>

#include <QObject>
#include <QTest>

using namespace orbit;

namespace {

using orbittest::g2;

LocalityConfig learnConfig() { return orbittest::g2SigmaLearning(3); }

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

    // krr with a kernel of the median rule, median=F, and no grid over it: the bandwidth is F times
    // the fold's median distance (not 1 times: the spec's own multiple is the one multiple).
    void krrKeepsTheKernelsOwnMedianMultiple()
    {
        const Dataset data = g2();
        TrainConfig c;
        c.features = "exact:r=2";
        c.group = "permutation";
        c.dist = "noisysort:sigma=1";
        c.learner = "krr";
        c.eval = "kfold:3";
        c.kernel = "laplacian:median=2.5";
        const TrainResult two = train(data, c);
        c.kernel = "laplacian:median=1";
        const TrainResult one = train(data, c);
        for (std::size_t f = 0; f < two.folds.size(); ++f) {
            QCOMPARE(two.folds[f].chosen.at("median"), 2.5);
            QCOMPARE(one.folds[f].chosen.at("median"), 1.0);
            QVERIFY(std::abs(two.folds[f].chosen.at("bandwidth") / one.folds[f].chosen.at("bandwidth") - 2.5) < 1e-12);
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
            refused = std::string(e.what()).find("krr or gp") != std::string::npos;
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

    // The log marginal likelihood's derivative in von Mises' kappa from the orbits' tangents
    // (OrbitDistances::setTangents, gramWithTangent) for the Gaussian and the Matern kernel:
    //  - gramWithTangent's K is gram()'s, and its dK/dkappa is the chain rule summed pair by pair in
    //    double, (1/R^2) sum k'(|u - v|^2) 2 (u - v).(u' - v'), from the same orbit rows and tangents;
    //  - the GP's slope from it agrees with central differences of the log likelihood (in double, at
    //    fixed bandwidth, signal and noise, common random numbers: the same base draws at kappa +- h).
    //    h is small: the bilinear warp's kinks bend differences over wider steps.
    void slopeInASmoothParameterMatchesFiniteDifferences()
    {
        const Dataset data = prepareDataset(loadDataset(orbittest::source("resources/data/digits.png")), 30, true, 28, 0);
        const auto n = Eigen::Index(data.count());
        const int R = 4;
        const Eigen::MatrixXd Y = TargetCoding::classes(data.numClasses, TargetCoding::Kind::OneHot).encode(data.labels);
        Indices all(std::size_t(n), 0);
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
        const double median = medianPairwiseDistance(data.X);
        const std::uint64_t seed = 11;
        for (const BaseKernel& kernel : {BaseKernel::gaussian(median), BaseKernel::matern(1.5, median)}) {
            const bool gaussian = kernel.kind() == BaseKernel::Kind::Gaussian;
            const double g = 1.0 / (2.0 * median * median), c = std::sqrt(3.0) / median;
            // k and dk / d|u - v|^2 of the squared distance, in double.
            auto k = [&](double d2) { return gaussian ? std::exp(-g * d2) : (1.0 + c * std::sqrt(d2)) * std::exp(-c * std::sqrt(d2)); };
            auto dk = [&](double d2) { return gaussian ? -g * std::exp(-g * d2) : -0.5 * c * c * std::exp(-c * std::sqrt(d2)); };
            auto bruteForce = [&](double kappa, Eigen::MatrixXd* dK) {
                const std::string dist = "vonmises:kappa=" + formatNumber(kappa);
                const Eigen::MatrixXd O = exactOrbits(data, "rotation", dist, R, seed).orbits.cast<double>();
                const Eigen::MatrixXd T =
                    dK ? Eigen::MatrixXd(exactOrbitTangents(data, "rotation", dist, R, seed, "kappa").cast<double>()) : Eigen::MatrixXd();
                Eigen::MatrixXd K(n, n);
                if (dK) dK->resize(n, n);
                for (Eigen::Index a = 0; a < n; ++a)
                    for (Eigen::Index b = 0; b < n; ++b) {
                        double s = 0.0, ds = 0.0;
                        for (int i = 0; i < R; ++i)
                            for (int j = 0; j < R; ++j) {
                                const Eigen::VectorXd u = O.row(a * R + i), v = O.row(b * R + j);
                                s += k((u - v).squaredNorm());
                                if (dK) ds += dk((u - v).squaredNorm()) * 2.0 * (u - v).dot(T.row(a * R + i) - T.row(b * R + j));
                            }
                        K(a, b) = s / double(R * R);
                        if (dK) (*dK)(a, b) = ds / double(R * R);
                    }
                return K;
            };
            for (double kappa : {0.5, 2.0}) {
                const std::string dist = "vonmises:kappa=" + formatNumber(kappa);
                const ExactOrbits o = exactOrbits(data, "rotation", dist, R, seed);
                OrbitDistances D(o.orbits, o.r, kernel.distance());
                D.setTangents(o.orbits, exactOrbitTangents(data, "rotation", dist, R, seed, "kappa"));
                Eigen::MatrixXd K, dK, plain, dKbrute;
                D.gramWithTangent(kernel, all, all, K, dK);
                D.gram(kernel, all, all, plain);
                QVERIFY(plain == K);
                bruteForce(kappa, &dKbrute);
                QVERIFY2((dK - dKbrute).cwiseAbs().maxCoeff() <= 1e-5 * dKbrute.cwiseAbs().maxCoeff(),
                         qPrintable(QString("%1: dK/dkappa off by %2 of %3").arg(QString::fromStdString(kernel.spec()))
                                        .arg((dK - dKbrute).cwiseAbs().maxCoeff()).arg(dKbrute.cwiseAbs().maxCoeff())));
                const double slope = gpLogLikelihood(K, &dK, Y, 1.0, 0.05, true, "test").dLogSigma;
                const double h = 2e-5 * kappa;
                const double fd = (gpLogLikelihood(bruteForce(kappa + h, nullptr), nullptr, Y, 1.0, 0.05, false, "test").logLikelihood -
                                   gpLogLikelihood(bruteForce(kappa - h, nullptr), nullptr, Y, 1.0, 0.05, false, "test").logLikelihood) /
                                  (2.0 * h);
                QVERIFY2(std::abs(slope - fd) <= 0.01 * std::abs(fd) + 1e-3,
                         qPrintable(QString("%1 at kappa %2: analytic %3, central difference %4")
                                        .arg(QString::fromStdString(kernel.spec()))
                                        .arg(kappa)
                                        .arg(slope)
                                        .arg(fd)));
            }
        }
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

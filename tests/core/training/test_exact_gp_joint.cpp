// learnExactGp with several distribution parameters (orbit/training/ExactKernelMachines.hpp): the
// joint gradient of the GP's log marginal likelihood in the affine factors (rotation.kappa,
// scale.sigma) against central differences, the learned factors moving the way a synthetic set says,
// and the k-fold learn reading no test row.
#include "orbit/data/Loaders.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/GaussianProcess.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "TestPaths.hpp"

#include <cmath>
#include <numbers>
#include <random>

#include <QObject>
#include <QTest>

using namespace orbit;

namespace {

std::string affineDist(double kappa, double sigma)
{
    return "rotation=vonmises:kappa=" + formatNumber(kappa) + ",scale=lognormal:sigma=" + formatNumber(sigma);
}

/// Two classes of 16 x 16 images: a bar of two blobs from near the centre outwards, at a uniformly
/// random angle; class 1's bar is 1.6 times class 0's. The label does not depend on the angle
/// (rotation invariance helps) but does on the size (scale invariance hurts).
Dataset barsOfTwoSizes(int perClass, std::uint64_t seed)
{
    const int side = 16;
    Dataset d;
    d.kind = DataKind::Images;
    d.shape = Shape{side, side, 1};
    d.numClasses = 2;
    d.X.resize(2 * perClass, side * side);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> angle(0.0, 2.0 * std::numbers::pi);
    std::normal_distribution<double> noise(0.0, 0.02);
    for (int i = 0; i < 2 * perClass; ++i) {
        const int label = i % 2;
        const double s = label == 0 ? 1.0 : 1.6, phi = angle(rng), c = 0.5 * (side - 1);
        for (int y = 0; y < side; ++y)
            for (int x = 0; x < side; ++x) {
                double v = 0.0;
                for (double r : {1.5, 4.0}) {
                    const double px = c + s * r * std::cos(phi), py = c + s * r * std::sin(phi);
                    v += std::exp(-((x - px) * (x - px) + (y - py) * (y - py)) / (2.0 * 1.1 * 1.1));
                }
                d.X(i, y * side + x) = float(std::clamp(v + noise(rng), 0.0, 1.0));
            }
        d.labels.push_back(label);
    }
    return d;
}

LocalityConfig jointConfig()
{
    LocalityConfig c;
    c.features = "exact:r=4";
    c.group = "affine";
    c.dist = affineDist(3.0, 0.3);
    c.kernel = "gaussian:median=1";
    c.learn = {"rotation.kappa", "scale.sigma"};
    c.bounds = {{"rotation.kappa", {0.01, 100.0}}, {"scale.sigma", {0.01, 2.0}}};
    c.maxEvaluations = 10;
    c.seed = 5;
    return c;
}

} // namespace

class TestExactGpJoint : public QObject {
    Q_OBJECT

private slots:
    // The derivatives in two affine factors at once (one sampling pass of tangents, one product per
    // parameter, one factorisation for both slopes):
    //  - each dK/dtheta_k of gramWithTangents is, to the bit, what setTangents of that parameter alone
    //    and gramWithTangent give, and each slope is gpLogLikelihood's with that dK;
    //  - both slopes agree with central differences of the log likelihood in double (fixed bandwidth,
    //    signal and noise; common random numbers: the same base draws at theta +- h).
    void jointSlopesMatchFiniteDifferences()
    {
        const Dataset data = prepareDataset(loadDataset(orbittest::source("resources/data/digits.png")), 24, true, 28, 0);
        const auto n = Eigen::Index(data.count());
        const int R = 3;
        const std::uint64_t seed = 11;
        const Eigen::MatrixXd Y = TargetCoding::classes(data.numClasses, TargetCoding::Kind::OneHot).encode(data.labels);
        Indices all(static_cast<std::size_t>(n), 0);
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
        const double median = medianPairwiseDistance(data.X);
        const BaseKernel kernel = BaseKernel::gaussian(median);
        const double g = 1.0 / (2.0 * median * median);
        const std::vector<std::string> names = {"rotation.kappa", "scale.sigma"};
        const double kappa = 1.5, sigma = 0.2;
        // The exact kernel in double from the orbit rows at (kappa, sigma).
        auto bruteForce = [&](double k, double s) {
            const Eigen::MatrixXd O = exactOrbits(data, "affine", affineDist(k, s), R, seed).orbits.cast<double>();
            Eigen::MatrixXd K(n, n);
            for (Eigen::Index a = 0; a < n; ++a)
                for (Eigen::Index b = 0; b < n; ++b) {
                    double sum = 0.0;
                    for (int i = 0; i < R; ++i)
                        for (int j = 0; j < R; ++j) sum += std::exp(-g * (O.row(a * R + i) - O.row(b * R + j)).squaredNorm());
                    K(a, b) = sum / double(R * R);
                }
            return K;
        };
        const std::string dist = affineDist(kappa, sigma);
        const ExactOrbits o = exactOrbits(data, "affine", dist, R, seed);
        const std::vector<MatrixXfR> T = exactOrbitTangents(data, "affine", dist, R, seed, names);
        QCOMPARE(int(T.size()), 2);
        OrbitDistances D(o.orbits, o.r, kernel.distance());
        D.setTangents(o.orbits, T);
        QCOMPARE(int(D.tangentCount()), 2);
        Eigen::MatrixXd K;
        std::vector<Eigen::MatrixXd> dK;
        D.gramWithTangents(kernel, all, all, K, dK);
        std::vector<double> slopes;
        const GpLikelihood at = gpLogLikelihoodSlopes(K, dK, Y, 1.0, 0.05, slopes, "test");
        QCOMPARE(int(slopes.size()), 2);
        for (std::size_t k = 0; k < names.size(); ++k) {
            OrbitDistances alone(o.orbits, o.r, kernel.distance());
            alone.setTangents(o.orbits, exactOrbitTangents(data, "affine", dist, R, seed, names[k]));
            Eigen::MatrixXd K1, dK1;
            alone.gramWithTangent(kernel, all, all, K1, dK1);
            QVERIFY(K1 == K);
            QVERIFY2(dK1 == dK[k], names[k].c_str());
            const GpLikelihood one = gpLogLikelihood(K, &dK[k], Y, 1.0, 0.05, true, "test");
            QCOMPARE(one.dLogSigma, slopes[k]);
            QCOMPARE(one.logLikelihood, at.logLikelihood);
            QVERIFY(slopes[k] != 0.0);
            const double theta = k == 0 ? kappa : sigma, h = 2e-5 * theta;
            auto logLik = [&](double t) {
                const Eigen::MatrixXd Kt = k == 0 ? bruteForce(t, sigma) : bruteForce(kappa, t);
                return gpLogLikelihood(Kt, nullptr, Y, 1.0, 0.05, false, "test").logLikelihood;
            };
            const double fd = (logLik(theta + h) - logLik(theta - h)) / (2.0 * h);
            QVERIFY2(std::abs(slopes[k] - fd) <= 0.01 * std::abs(fd) + 1e-3,
                     qPrintable(QString("%1: analytic %2, central difference %3")
                                    .arg(QString::fromStdString(names[k]))
                                    .arg(slopes[k])
                                    .arg(fd)));
        }
    }

    // Bars whose class is their size, at random angles: the joint learn (L-BFGS on the slopes) widens
    // the rotations (kappa falls from 3) and tightens the scales (sigma falls from 0.3), and the log
    // marginal likelihood at the learned point beats the start's (the first point evaluated).
    void learnedFactorsMoveTheWayTheDataSay()
    {
        const Dataset data = barsOfTwoSizes(30, 1);
        const ExactLearnResult r = learnExactGp(data, jointConfig(), 6, 5);
        QCOMPARE(r.method, std::string("lbfgs"));
        QCOMPARE(int(r.folds.size()), 1);
        const ExactLearnFold& f = r.folds.front();
        QVERIFY(f.curve.empty() && f.slopes.empty());
        QVERIFY(f.outerEvaluations >= 2 && f.outerEvaluations <= 10);
        QCOMPARE(int(f.points.size()), f.outerEvaluations);
        const ExactLearnPoint& start = f.points.front();
        QVERIFY(std::abs(start.params.at("rotation.kappa") - 3.0) < 1e-9);
        QVERIFY(std::abs(start.params.at("scale.sigma") - 0.3) < 1e-12);
        QVERIFY2(start.slopes.at("rotation.kappa") < 0 && start.slopes.at("scale.sigma") < 0,
                 qPrintable(QString("slopes at the start %1, %2")
                                .arg(start.slopes.at("rotation.kappa"))
                                .arg(start.slopes.at("scale.sigma"))));
        QVERIFY2(f.params.at("rotation.kappa") < 3.0 && f.params.at("scale.sigma") < 0.3,
                 qPrintable(QString("learned kappa %1, sigma %2").arg(f.params.at("rotation.kappa")).arg(f.params.at("scale.sigma"))));
        QVERIFY(f.logEvidence > start.logEvidence);
        QVERIFY(f.dist.find("vonmises") != std::string::npos && f.dist.find("lognormal") != std::string::npos);
        // Without an analytic slope (the Laplacian's L1 distance) BOBYQA climbs the same way.
        LocalityConfig c = jointConfig();
        c.kernel = "laplacian:median=1";
        c.maxEvaluations = 8;
        const ExactLearnResult b = learnExactGp(data, c, 6, 5);
        QCOMPARE(b.method, std::string("bobyqa"));
        const ExactLearnFold& fb = b.folds.front();
        QVERIFY(fb.points.front().slopes.empty());
        QVERIFY(fb.logEvidence > fb.points.front().logEvidence);
        QVERIFY(fb.outerEvaluations <= 8);
    }

    // learn --eval kfold:K with two parameters learns inside each training fold: shuffling the test
    // targets and perturbing the test inputs of fold 1 leaves fold 1's learned factors and
    // hyperparameters the same bits.
    void jointLearningNeverReadsATestRow()
    {
        const Dataset data = barsOfTwoSizes(15, 2);
        LocalityConfig c = jointConfig();
        c.eval = "kfold:3";
        c.maxEvaluations = 6;
        const ExactLearnResult a = learnExactGp(data, c, 4, 5);
        QCOMPARE(int(a.folds.size()), 3);
        TrainConfig tc;
        tc.eval = c.eval;
        tc.seed = c.seed;
        const Indices test = outerSplits(data, tc).front().test;
        Dataset changed = data;
        for (std::size_t k = 0; k < test.size(); ++k) {
            changed.labels[test[k]] = 1 - data.labels[test[k]];
            for (Eigen::Index t = 0; t < changed.X.cols(); ++t) changed.X(Eigen::Index(test[k]), t) *= 0.5f;
        }
        const ExactLearnResult b = learnExactGp(changed, c, 4, 5);
        QCOMPARE(a.folds.front().params, b.folds.front().params);
        QCOMPARE(a.folds.front().hyper.sigma, b.folds.front().hyper.sigma);
        QCOMPARE(a.folds.front().hyper.noise, b.folds.front().hyper.noise);
        QCOMPARE(a.folds.front().logEvidence, b.folds.front().logEvidence);
        QVERIFY(a.folds.front().test != b.folds.front().test);  // the test part itself did change
        QVERIFY(a.mean.has_value());
    }

    // One line naming the field: a parameter the distribution lacks, and a curve over two.
    void refusalsNameTheField()
    {
        const Dataset data = barsOfTwoSizes(5, 3);
        LocalityConfig c = jointConfig();
        c.learn = {"rotation.kappa", "scale.nothing"};
        std::string field;
        try {
            learnExactGp(data, c, 2, 2);
        } catch (const SpecError& e) {
            field = e.field();
        }
        QCOMPARE(field, std::string("learn"));
        c = jointConfig();
        const std::vector<double> values = {1.0, 2.0};
        field.clear();
        try {
            learnExactGp(data, c, 2, 2, {}, &values);
        } catch (const SpecError& e) {
            field = e.field();
        }
        QCOMPARE(field, std::string("learn"));
    }
};

QTEST_APPLESS_MAIN(TestExactGpJoint)
#include "test_exact_gp_joint.moc"

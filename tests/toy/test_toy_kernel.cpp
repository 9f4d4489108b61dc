// A base kernel the core does not know, "toysquare" (tests/toy/ToyKernel.hpp), registered by its
// library alone: k(x, y) = exp(-||x - y||^2 / sigma^2) is the Gaussian at sigma / sqrt(2), so every
// path a kernel takes is checked against the built-in one: the CLI's help, kernel matrices and the
// median rule, random Fourier features, and the exact GP with its slopes in the bandwidth and in a
// distribution's parameter (issue 45 item 3).
#include "CliRunner.hpp"
#include "ExactConfigs.hpp"
#include "TestPaths.hpp"
#include "ToyKernel.hpp"

#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/util/Random.hpp"

#include <QObject>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace orbit;

namespace {

MatrixXfR randomRows(Eigen::Index n, Eigen::Index d, std::uint64_t seed)
{
    Rng rng = makeRng(seed, 1);
    MatrixXfR X(n, d);
    for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = static_cast<float>(standardNormal(rng));
    return X;
}

double relative(double a, double b) { return std::fabs(a - b) / std::max(1e-300, std::fabs(b)); }

} // namespace

class ToyKernelTest : public QObject {
    Q_OBJECT
private slots:
    void theHelpListsIt()
    {
        QVERIFY(findKernel("toysquare"));
        const orbittest::CliResult r = orbittest::runCli({"features", "--help"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.find("toysquare") != std::string::npos, r.out.c_str());
        QVERIFY(r.out.find("A test-only kernel") != std::string::npos);
        const orbittest::CliResult bad = orbittest::runCli(
            {"train", "--data", orbittest::bundledFile("g2.extxyz"), "--features", "rf:s=8", "--kernel", "toysquare:sigma=-1"});
        QVERIFY(bad.status != 0);
        QVERIFY2(bad.err.find("toysquare") != std::string::npos, bad.err.c_str());
    }

    // Its matrix is the Gaussian's at sigma / sqrt(2), its spec reads back, and the median rule
    // measures the Euclidean distance, as the Gaussian's does.
    void itIsTheGaussianAtAnotherBandwidth()
    {
        const MatrixXfR A = randomRows(20, 7, 1), B = randomRows(13, 7, 2);
        const BaseKernel toy = makeKernel("toysquare:sigma=2", A);
        QCOMPARE(toy.kind(), BaseKernel::Kind::Profile);
        QCOMPARE(toy.spec(), std::string("toysquare:sigma=2"));
        QCOMPARE(makeKernel(toy.spec(), A).sigma(), 2.0);
        QVERIFY(toy.fromProducts() && toy.stationary());
        const MatrixXfR K = toy.matrix(A, B), G = BaseKernel::gaussian(std::sqrt(2.0)).matrix(A, B);
        QVERIFY2((K - G).cwiseAbs().maxCoeff() < 1e-5f, std::to_string((K - G).cwiseAbs().maxCoeff()).c_str());
        QVERIFY(std::fabs(toy(A.row(0).data(), B.row(0).data(), 7) - double(G(0, 0))) < 1e-6);
        QVERIFY(toy.withSigma(3.0).spec() == "toysquare:sigma=3");
        const BaseKernel byMedian = makeKernel("toysquare:median=1.5", A, 4);
        QVERIFY(relative(byMedian.sigma(), makeKernel("gaussian:median=1.5", A, 4).sigma()) < 1e-12);
    }

    // Random Fourier features drawn from its spectral density approximate it as the Gaussian's
    // approximate the Gaussian: the same frequencies up to rounding.
    void itsRandomFeaturesFollowItsSpectralDensity()
    {
        const BaseKernel toy = BaseKernel::profiled(std::make_shared<orbittest::ToySquare>(), 2.0);
        const BaseKernel gauss = BaseKernel::gaussian(std::sqrt(2.0));
        Rng a = makeRng(9, 3), b = makeRng(9, 3);
        std::vector<float> wa(50), wb(50);
        for (int k = 0; k < 20; ++k) {
            toy.drawFrequency(a, wa.data(), 50);
            gauss.drawFrequency(b, wb.data(), 50);
            for (int t = 0; t < 50; ++t) QVERIFY(std::fabs(wa[t] - wb[t]) <= 1e-6f * (1.0f + std::fabs(wb[t])));
        }
        const auto features = [](const char* kernel) {
            const orbittest::CliResult r = orbittest::runCli({"train", "--data", orbittest::bundledFile("g2.extxyz"), "--features",
                                                              "rf:s=300", "--kernel", kernel, "--learner", "ridge", "--eval",
                                                              "kfold:3", "--seed", "2", "--json"});
            if (r.status != 0) qWarning("%s", r.err.c_str());
            return nlohmann::json::parse(r.out)["mean"].get<double>();
        };
        const double toyRmse = features("toysquare:median=1.4142135623730951"), gaussRmse = features("gaussian:median=1");
        QVERIFY2(relative(toyRmse, gaussRmse) < 1e-3, (std::to_string(toyRmse) + " " + std::to_string(gaussRmse)).c_str());
    }

    // The exact invariant GP learns the noisy sort's sigma on G2 with it, its slopes from the
    // profile's: the same path as the Gaussian at the matching bandwidth.
    void theExactGpLearnsWithIt()
    {
        const Dataset data = orbittest::g2();
        LocalityConfig toy = orbittest::g2SigmaLearning(2);
        toy.kernel = "toysquare:median=1.4142135623730951";
        LocalityConfig gauss = toy;
        gauss.kernel = "gaussian:median=1";
        const ExactLearnResult a = learnExactGp(data, toy, 4, 2), b = learnExactGp(data, gauss, 4, 2);
        QCOMPARE(a.folds.size(), b.folds.size());
        QVERIFY(a.mean && b.mean);
        QVERIFY2(relative(*a.mean, *b.mean) < 0.02, (std::to_string(*a.mean) + " " + std::to_string(*b.mean)).c_str());
        for (std::size_t f = 0; f < a.folds.size(); ++f)
            QVERIFY2(relative(a.folds[f].params.at("sigma"), b.folds[f].params.at("sigma")) < 0.05,
                     (std::to_string(a.folds[f].params.at("sigma")) + " " + std::to_string(b.folds[f].params.at("sigma"))).c_str());
    }
};

QTEST_GUILESS_MAIN(ToyKernelTest)
#include "test_toy_kernel.moc"

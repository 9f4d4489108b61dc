// Gaussian-process regression on a precomputed kernel (orbit/learn/GaussianProcess.hpp): the log
// marginal likelihood against its closed form, its gradient against finite differences, the fit,
// the predictive variance, and the one-line failure of a Gram that no jitter repairs.
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/GaussianProcess.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "RandomMatrices.hpp"

#include <Eigen/Cholesky>

#include <cmath>
#include <numbers>
#include <numeric>

#include <QObject>
#include <QTest>

using namespace orbit;

namespace {

struct Problem {
    MatrixXfR X;
    Eigen::MatrixXd Y;
    std::unique_ptr<OrbitDistances> D;
    Indices all;
    BaseKernel kernel = BaseKernel::gaussian(1.0);
    GramFamily gram() const
    {
        return [this](double sigma, Eigen::MatrixXd& K, Eigen::MatrixXd* dK) { D->gram(kernel.withSigma(sigma), all, all, K, dK); };
    }
};

/// n points in 3-D, y = sin(x0) + x1 x2 / 2 + noise, standardised; the kernel family `spec`.
Problem problem(int n, const std::string& spec, std::uint64_t seed)
{
    Problem p;
    p.X = orbittest::randomMatrix(n, 3, seed);
    p.Y.resize(n, 2);
    Rng rng = makeRng(seed, 5);
    for (int i = 0; i < n; ++i) {
        p.Y(i, 0) = std::sin(p.X(i, 0)) + 0.5 * p.X(i, 1) * p.X(i, 2) + 0.1 * standardNormal(rng);
        p.Y(i, 1) = std::cos(p.X(i, 1)) + 0.1 * standardNormal(rng);
    }
    p.Y.rowwise() -= p.Y.colwise().mean();
    p.kernel = makeKernel(spec, p.X);
    p.D = std::make_unique<OrbitDistances>(p.X, 1, p.kernel.distance());
    p.all.resize(std::size_t(n));
    std::iota(p.all.begin(), p.all.end(), 0);
    return p;
}

} // namespace

class TestGaussianProcess : public QObject {
    Q_OBJECT

private slots:
    // log p(Y) = sum_c -1/2 y_c^T C^-1 y_c - m/2 log|C| - n m/2 log 2 pi, C = s2f K + s2n I.
    void likelihoodMatchesItsClosedForm()
    {
        const Problem p = problem(40, "gaussian:sigma=1.3", 1);
        Eigen::MatrixXd K;
        p.gram()(1.3, K, nullptr);
        const double s2f = 1.7, s2n = 0.05;
        const Eigen::MatrixXd C = s2f * K + s2n * Eigen::MatrixXd::Identity(40, 40);
        const Eigen::LLT<Eigen::MatrixXd> llt(C);
        const Eigen::MatrixXd a = llt.solve(p.Y);
        const double expect = -0.5 * (p.Y.array() * a.array()).sum() -
                              2.0 * Eigen::MatrixXd(llt.matrixL()).diagonal().array().log().sum() -
                              0.5 * 40 * 2 * std::log(2 * std::numbers::pi);
        const GpLikelihood l = gpLogLikelihood(K, nullptr, p.Y, s2f, s2n, false, "test");
        QVERIFY(std::abs(l.logLikelihood - expect) < 1e-9 * std::abs(expect));
        QCOMPARE(l.jitter, 0.0);
    }

    // The analytic gradient in (log sigma, log s2f, log s2n) against central differences of the
    // likelihood, for each family (the bandwidth through dK / d log sigma of the orbit distances).
    void gradientMatchesFiniteDifferences()
    {
        for (const std::string spec : {"gaussian:sigma=1.1", "laplacian:sigma=2.5", "matern:nu=1.5,sigma=1.2"}) {
            const Problem p = problem(50, spec, 2);
            const double sigma = p.kernel.sigma(), s2f = 0.8, s2n = 0.03;
            auto at = [&](double ls, double lf, double ln) {
                Eigen::MatrixXd K;
                p.gram()(std::exp(ls), K, nullptr);
                return gpLogLikelihood(K, nullptr, p.Y, std::exp(lf), std::exp(ln), false, spec).logLikelihood;
            };
            Eigen::MatrixXd K, dK;
            p.gram()(sigma, K, &dK);
            const GpLikelihood g = gpLogLikelihood(K, &dK, p.Y, s2f, s2n, true, spec);
            const double h = 1e-4, ls = std::log(sigma), lf = std::log(s2f), ln = std::log(s2n);
            const double fdSigma = (at(ls + h, lf, ln) - at(ls - h, lf, ln)) / (2 * h);
            const double fdSignal = (at(ls, lf + h, ln) - at(ls, lf - h, ln)) / (2 * h);
            const double fdNoise = (at(ls, lf, ln + h) - at(ls, lf, ln - h)) / (2 * h);
            // dK comes from float kernel values: a few 1e-4 of the derivative's scale.
            QVERIFY2(std::abs(g.dLogSigma - fdSigma) < 2e-3 * (1 + std::abs(fdSigma)),
                     (spec + " sigma " + std::to_string(g.dLogSigma) + " vs " + std::to_string(fdSigma)).c_str());
            QVERIFY2(std::abs(g.dLogSignal - fdSignal) < 1e-4 * (1 + std::abs(fdSignal)),
                     (spec + " signal " + std::to_string(g.dLogSignal) + " vs " + std::to_string(fdSignal)).c_str());
            QVERIFY2(std::abs(g.dLogNoise - fdNoise) < 1e-4 * (1 + std::abs(fdNoise)),
                     (spec + " noise " + std::to_string(g.dLogNoise) + " vs " + std::to_string(fdNoise)).c_str());
        }
    }

    // L-BFGS climbs: the fitted likelihood beats the start, lies within the bounds, and the fit
    // predicts held-out points better than their mean.
    void fitClimbsAndPredicts()
    {
        const Problem p = problem(120, "gaussian:sigma=3", 3);
        GpBounds bounds;
        bounds.sigmaLo = 0.05;
        bounds.sigmaHi = 50;
        const GpHyper start{3.0, 1.0, 0.5};
        Eigen::MatrixXd K0;
        p.gram()(3.0, K0, nullptr);
        const double l0 = gpLogLikelihood(K0, nullptr, p.Y, 1.0, 0.5, false, "t").logLikelihood;
        const GpFit fit = fitGaussianProcess(p.gram(), p.Y, start, bounds, 60, "test");
        QVERIFY(fit.logLikelihood > l0 + 1.0);
        QVERIFY(fit.hyper.sigma >= 0.05 && fit.hyper.sigma <= 50);
        QVERIFY(fit.evaluations >= 2 && fit.evaluations <= 60);
        // Train on the first 100, predict the last 20.
        Indices tr(100), te(20);
        std::iota(tr.begin(), tr.end(), 0);
        std::iota(te.begin(), te.end(), 100);
        const BaseKernel k = p.kernel.withSigma(fit.hyper.sigma);
        Eigen::MatrixXd Ktr, Ks, mean;
        p.D->gram(k, tr, tr, Ktr);
        p.D->gram(k, te, tr, Ks);
        const GpFactor f = factoriseGp(Ktr, p.Y.topRows(100), fit.hyper.signal, fit.hyper.noise, "test");
        Eigen::VectorXd var;
        predictGp(f, fit.hyper, Ks, p.D->diagonal(k, te), mean, &var);
        const double err = (mean - p.Y.bottomRows(20)).squaredNorm(), base = p.Y.bottomRows(20).squaredNorm();
        QVERIFY2(err < 0.5 * base, (std::to_string(err) + " vs " + std::to_string(base)).c_str());
        QVERIFY((var.array() >= 0).all() && (var.array() <= fit.hyper.signal + 1e-9).all());
        // At a training point with little noise the variance is small.
        Eigen::MatrixXd Kself, m2;
        Eigen::VectorXd v2;
        p.D->gram(k, {0}, tr, Kself);
        predictGp(f, fit.hyper, Kself, p.D->diagonal(k, {0}), m2, &v2);
        QVERIFY(v2[0] < var.maxCoeff());
    }

    // A Gram that no jitter makes positive definite fails with one line naming the kernel and its
    // bandwidth (what the caller passes), not a crash.
    void failedCholeskyNamesTheKernel()
    {
        const Eigen::MatrixXd K = -Eigen::MatrixXd::Identity(6, 6);
        const Eigen::MatrixXd Y = Eigen::MatrixXd::Ones(6, 1);
        bool thrown = false;
        try {
            factoriseGp(K, Y, 1.0, 1e-6, "laplacian:sigma=2.5 on exact:r=3");
        } catch (const SpecError& e) {
            const std::string m = e.what();
            thrown = m.find("not positive definite even with jitter") != std::string::npos &&
                     m.find("laplacian:sigma=2.5") != std::string::npos && m.find('\n') == std::string::npos;
        }
        QVERIFY(thrown);
    }
};

QTEST_APPLESS_MAIN(TestGaussianProcess)
#include "test_gaussian_process.moc"

// The Kernels panel's four matrices in core: the Monte Carlo kernel is the one `kernel --method mc`
// writes, the approximation is Psi Psi^T, the difference and the relative norms are those of
// ApproxError, and the points are ordered by label or, for regression targets, by target.
#include "orbit/data/Loaders.hpp"
#include "orbit/figures/KernelComparison.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/kernels/MatrixNorms.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"

#include "BundledDigits.hpp"
#include "TestPaths.hpp"

#include <Eigen/Eigenvalues>
#include <QTest>
#include <QObject>
#include <QString>

#include <set>

using namespace orbit;

namespace {

/// 40 plot points (seed 2) among the first 800 digits.
const Dataset& digits() { return orbittest::kernelPlotDigits<800, 40, 2>(); }

KernelComparison compare(const std::string& dist, const std::string& features, int r = 8, std::uint64_t seed = 1)
{
    const FeatureContext c = makeFeatureContext(digits(), "rotation", dist, "gaussian:median=1", seed);
    KernelComparisonConfig config;
    config.r = r;
    config.features = features;
    config.seed = seed;
    return compareKernels(digits().X, c, config);
}

} // namespace

class TestKernelComparison : public QObject {
    Q_OBJECT
private slots:
    void matricesAreWhatTheyClaim()
    {
        const KernelComparison k = compare("vonmises:kappa=1", "irf:s=300,r=8");
        const Eigen::Index n = digits().X.rows();
        for (const Eigen::MatrixXd* M : {&k.base, &k.invariant, &k.approx, &k.difference}) {
            QCOMPARE(M->rows(), n);
            QCOMPARE(M->cols(), n);
            // Symmetric up to float32 rounding of the products.
            QVERIFY2(((*M) - M->transpose()).cwiseAbs().maxCoeff() < 1e-6,
                     qPrintable(QString::number(((*M) - M->transpose()).cwiseAbs().maxCoeff())));
        }
        // k_qG by the V-statistic is PSD; base kernel entries are Gaussian: in (0, 1], 1 on the diagonal.
        QVERIFY(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(k.invariant).eigenvalues().minCoeff() > -1e-8);
        QVERIFY((k.base.diagonal().array() - 1.0).abs().maxCoeff() < 1e-6);
        QVERIFY(k.base.minCoeff() > 0.0);
        // The approximation is the Gram matrix of the features, the difference approx - invariant.
        const Eigen::MatrixXd F = k.features.cast<double>();
        QVERIFY((k.approx - F * F.transpose()).cwiseAbs().maxCoeff() < 1e-9);
        QCOMPARE(k.difference, Eigen::MatrixXd(k.approx - k.invariant));
        QCOMPARE(k.error.frobenius, k.difference.norm() / k.invariant.norm());
        QVERIFY(std::abs(k.error.spectral - spectralNorm(k.difference) / spectralNorm(k.invariant)) < 1e-12);
        QCOMPARE(k.featureSpec, std::string("irf:s=300,r=8"));
        QVERIFY(k.kernelSpec.rfind("gaussian:sigma=", 0) == 0);
    }

    // The invariant matrix is exactly the CLI's `kernel --method mc` computation for the same seed.
    void invariantIsTheMonteCarloKernel()
    {
        const KernelComparison k = compare("vonmises:kappa=0.5", "irf:s=50,r=4", 6, 9);
        const FeatureContext c = makeFeatureContext(digits(), "rotation", "vonmises:kappa=0.5", "gaussian:median=1", 9);
        const OrbitSampler sampler(c.group, c.dist, c.shape, 6, 9);
        QCOMPARE(k.invariant, invariantKernelMatrix(digits().X, sampler, *c.kernel));
    }

    // More templates approximate k_qG better (O(1/sqrt s) Monte Carlo error), in both norms.
    void errorFallsWithS()
    {
        const KernelComparison few = compare("vonmises:kappa=1", "irf:s=20,r=8");
        const KernelComparison many = compare("vonmises:kappa=1", "irf:s=2000,r=8");
        QVERIFY2(many.error.frobenius < 0.6 * few.error.frobenius,
                 qPrintable(QString("%1 vs %2").arg(many.error.frobenius).arg(few.error.frobenius)));
        QVERIFY(many.error.spectral < few.error.spectral);
    }

    // q = delta: every g is the identity, so k_qG is the base kernel.
    void deltaGivesTheBaseKernel()
    {
        const KernelComparison k = compare("delta", "irf:s=10,r=2");
        QVERIFY((k.invariant - k.base).cwiseAbs().maxCoeff() < 1e-5);
    }

    void relativeErrorOfTheReferenceItselfIsOne()
    {
        const Eigen::MatrixXd K = compare("vonmises:kappa=1", "irf:s=10,r=2").invariant;
        const RelativeError e = relativeError(K, ReferenceNorms(K));
        QVERIFY(std::abs(e.spectral - 1.0) < 1e-12 && std::abs(e.frobenius - 1.0) < 1e-12);
        QVERIFY_THROWS_EXCEPTION(SpecError, ReferenceNorms(Eigen::MatrixXd::Zero(3, 3)));
    }

    // Kernel plots: classes in blocks; regression targets ascending (similar energies together);
    // the same seeded subset of rows either way.
    void plotPointsAreOrderedByLabelOrTarget()
    {
        const Dataset& all = orbittest::firstDigits<800>();
        const auto byLabel = kernelPlotIndices(all, 50, 4);
        for (std::size_t i = 1; i < byLabel.size(); ++i) QVERIFY(all.labels[byLabel[i - 1]] <= all.labels[byLabel[i]]);
        const Dataset g2 = loadDataset(orbittest::bundledFile("g2.extxyz"), {});
        const auto byTarget = kernelPlotIndices(g2, 30, 4);
        QCOMPARE(int(byTarget.size()), 30);
        for (std::size_t i = 1; i < byTarget.size(); ++i)
            QVERIFY(g2.targets[byTarget[i - 1]] <= g2.targets[byTarget[i]]);
        QCOMPARE(int(std::set<std::size_t>(byTarget.begin(), byTarget.end()).size()), 30);
        const auto whole = kernelPlotIndices(g2, g2.count(), 4);
        QCOMPARE(whole.size(), g2.count());
    }

    void theDifferenceOfTwoMatricesIsMeasuredAgainstTheFirst()
    {
        Eigen::MatrixXd a(2, 2), b(2, 2);
        a << 3, 0, 0, 4;  // ||A||_F = 5
        b << 3, 1, 0, 4;
        const MatrixDifference d = differenceOf(a, b);
        QCOMPARE(d.difference, (b - a).eval());
        QCOMPARE(d.relativeFrobenius, 0.2);
        QCOMPARE(differenceOf(Eigen::MatrixXd::Zero(2, 2), b).relativeFrobenius, 0.0);  // A zero: no relative size
        QCOMPARE(differenceOf(a, a).relativeFrobenius, 0.0);
        QVERIFY_THROWS_EXCEPTION(ContractError, differenceOf(a, Eigen::MatrixXd::Zero(3, 2)));
    }

    void refusesWhatItCannotCompare()
    {
        const FeatureContext c = makeFeatureContext(digits(), "", "", "gaussian:median=1", 0);
        QVERIFY_THROWS_EXCEPTION(SpecError, compareKernels(digits().X, c, {}));
        const FeatureContext g = makeFeatureContext(digits(), "rotation", "haar", "gaussian:median=1", 0);
        KernelComparisonConfig config;
        config.r = 0;
        QVERIFY_THROWS_EXCEPTION(SpecError, compareKernels(digits().X, g, config));
    }
};

QTEST_APPLESS_MAIN(TestKernelComparison)
#include "test_kernel_comparison.moc"

// The field's base kernels (Laplacian, Matérn), their random features and median rules, the L1
// distance kernel at every instruction-set level, and the exact invariant kernel of the kernel
// machines (OrbitDistances). The mathematics each test checks is stated in its comment.
#include "orbit/features/FeatureMap.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/RandomSubset.hpp"
#include "orbit/util/Simd.hpp"

#include "RandomMatrices.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <QObject>
#include <QTest>

using namespace orbit;

namespace {

using orbittest::randomMatrix;

double l1(const MatrixXfR& X, Eigen::Index i, const MatrixXfR& Y, Eigen::Index j)
{
    double s = 0;
    for (Eigen::Index t = 0; t < X.cols(); ++t) s += std::abs(double(X(i, t)) - double(Y(j, t)));
    return s;
}

double l2(const MatrixXfR& X, Eigen::Index i, const MatrixXfR& Y, Eigen::Index j)
{
    return std::sqrt((X.row(i).cast<double>() - Y.row(j).cast<double>()).squaredNorm());
}

/// The relative Frobenius error of the random-feature Gram of `kernel` (s features) against its
/// exact matrix on X.
double rfError(const BaseKernel& kernel, const MatrixXfR& X, int s, std::uint64_t seed)
{
    FeatureContext c;
    c.kind = DataKind::Vectors;
    c.shape = {int(X.cols()), 1, 1};
    c.kernel = kernel;
    auto map = makeFeatureMap("rf:s=" + std::to_string(s), c);
    map->fit(X, seed);
    MatrixXfR F;
    map->transform(X, 0, std::size_t(X.rows()), F);
    const Eigen::MatrixXd approx = (F * F.transpose()).cast<double>();
    const Eigen::MatrixXd exact = kernel.matrix(X, X).cast<double>();
    return (approx - exact).norm() / exact.norm();
}

void verifyPsd(const Eigen::MatrixXd& K, const char* what)
{
    QVERIFY2((K - K.transpose()).cwiseAbs().maxCoeff() <= 1e-12, what);
    const Eigen::VectorXd l = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues();
    QVERIFY2(l.minCoeff() > -1e-6 * l.maxCoeff(), what);
}

} // namespace

class TestFieldKernels : public QObject {
    Q_OBJECT

private slots:
    // exp(-||x - y||_1 / sigma), and Matérn in scikit-learn's convention: r = sqrt(2 nu) d / sigma,
    // nu = 1/2: exp(-r) (the Euclidean Laplacian), 3/2: (1 + r) e^-r, 5/2: (1 + r + r^2/3) e^-r.
    void closedFormsAndSpecs()
    {
        const MatrixXfR X = randomMatrix(2, 7, 1);
        const BaseKernel lap = makeKernel("laplacian:sigma=2.5", X);
        QCOMPARE(lap.kind(), BaseKernel::Kind::Laplacian);
        QVERIFY(std::abs(lap(X.row(0).data(), X.row(1).data(), 7) - std::exp(-l1(X, 0, X, 1) / 2.5)) < 1e-12);
        for (double nu : {0.5, 1.5, 2.5}) {
            const BaseKernel m = makeKernel("matern:nu=" + formatNumber(nu) + ",sigma=1.7", X);
            const double d = l2(X, 0, X, 1), r = std::sqrt(2 * nu) * d / 1.7;
            const double expect = nu == 0.5 ? std::exp(-r) : nu == 1.5 ? (1 + r) * std::exp(-r) : (1 + r + r * r / 3) * std::exp(-r);
            QVERIFY(std::abs(m(X.row(0).data(), X.row(1).data(), 7) - expect) < 1e-12);
            QCOMPARE(makeKernel(m.spec(), X).spec(), m.spec());
        }
        QCOMPARE(makeKernel("matern:sigma=1", X).nu(), 1.5);  // scikit-learn's default
        bool refused = false;
        try {
            makeKernel("matern:nu=1,sigma=1", X);
        } catch (const SpecError& e) {
            refused = std::string(e.what()).find("nu") != std::string::npos;
        }
        QVERIFY(refused);
        QVERIFY(findKernel("laplacian") && findKernel("matern"));
    }

    // Both kernels are positive definite: their Gram matrices on random data have no negative
    // eigenvalue (beyond rounding), and matrix() agrees with the pointwise kernel.
    void gramMatricesArePositiveDefinite()
    {
        const MatrixXfR X = randomMatrix(60, 12, 2);
        for (const std::string spec : {"laplacian:sigma=4", "matern:nu=0.5,sigma=2", "matern:nu=1.5,sigma=2", "matern:nu=2.5,sigma=2"}) {
            const BaseKernel k = makeKernel(spec, X);
            const Eigen::MatrixXd K = k.matrix(X, X).cast<double>();
            Eigen::MatrixXd S = 0.5 * (K + K.transpose());
            verifyPsd(S, spec.c_str());
            for (Eigen::Index i = 0; i < 5; ++i)
                for (Eigen::Index j = 0; j < 5; ++j)
                    QVERIFY2(std::abs(K(i, j) - k(X.row(i).data(), X.row(j).data(), 12)) < 2e-5, spec.c_str());
        }
    }

    // Random Fourier features with Cauchy frequencies (Laplacian) and multivariate-t frequencies
    // (Matérn) approximate the kernel: the error falls as s grows, roughly as 1/sqrt(s).
    void randomFeaturesApproximateTheKernel()
    {
        const MatrixXfR X = randomMatrix(80, 6, 3, 0.5);
        for (const std::string spec : {"laplacian:sigma=3", "matern:nu=1.5,sigma=1.5", "matern:nu=0.5,sigma=1.5"}) {
            const BaseKernel k = makeKernel(spec, X);
            const double small = rfError(k, X, 200, 4), large = rfError(k, X, 12800, 4);
            QVERIFY2(large < 0.5 * small, (spec + ": " + std::to_string(small) + " -> " + std::to_string(large)).c_str());
            QVERIFY2(large < 0.05, (spec + ": " + std::to_string(large)).c_str());
        }
    }

    // The median rule reads the same rows, in the same seeded subset, as the Gaussian's; the
    // Laplacian's takes their L1 distances, Matérn's their Euclidean ones.
    void medianRuleUsesTheGaussiansRows()
    {
        const MatrixXfR X = randomMatrix(1300, 5, 5);
        const std::vector<std::size_t> rows = medianSampleRows(1300, 1000, 9);
        std::vector<double> d1, d2;
        for (std::size_t a = 0; a < rows.size(); ++a)
            for (std::size_t b = a + 1; b < rows.size(); ++b) {
                d1.push_back(l1(X, Eigen::Index(rows[a]), X, Eigen::Index(rows[b])));
                d2.push_back(l2(X, Eigen::Index(rows[a]), X, Eigen::Index(rows[b])));
            }
        auto median = [](std::vector<double> v) {
            std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
            return v[v.size() / 2];
        };
        QVERIFY(std::abs(makeKernel("laplacian:median=1", X, 9).sigma() - median(d1)) < 1e-4 * median(d1));
        QVERIFY(std::abs(makeKernel("matern:median=2", X, 9).sigma() - 2 * median(d2)) < 1e-4 * median(d2));
        QCOMPARE(makeKernel("matern:median=1", X, 9).sigma(), makeKernel("gaussian:median=1", X, 9).sigma());
    }

    // The L1 distance kernel gives the same bits at every instruction-set level (each entry is the
    // same ordered sum), for sizes around its 4 x 32 tile, and matches a double-precision sum.
    void l1KernelHasTheSameBitsAtEveryLevel()
    {
        const SimdLevel best = simdSupported();
        for (const auto& [na, nb, d] : std::vector<std::tuple<int, int, int>>{{1, 1, 1}, {5, 33, 17}, {4, 32, 529}, {9, 65, 3}}) {
            const MatrixXfR A = randomMatrix(na, d, 11), B = randomMatrix(nb, d, 12);
            setSimdLevel(SimdLevel::Baseline);
            const MatrixXfR base = l1Distances(A, B);
            setSimdLevel(best);
            const MatrixXfR wide = l1Distances(A, B);
            QVERIFY(base == wide);
            for (Eigen::Index i = 0; i < na; ++i)
                for (Eigen::Index j = 0; j < nb; ++j) QVERIFY(std::abs(base(i, j) - l1(A, i, B, j)) <= 1e-5 * (1 + l1(A, i, B, j)));
        }
    }

    // The exact invariant kernel from orbit distances equals the Monte Carlo mean-embedding kernel
    // of the same orbits (the Kernels panel's) for every family, is symmetric and PSD (the
    // V-statistic), and its bandwidth derivative matches a finite difference.
    void orbitDistancesGiveTheInvariantKernel()
    {
        const int R = 3;
        const MatrixXfR O = randomMatrix(20 * R, 9, 21);
        Indices all(20);
        std::iota(all.begin(), all.end(), 0);
        for (const std::string spec : {"gaussian:sigma=3", "laplacian:sigma=6", "matern:nu=2.5,sigma=3"}) {
            const BaseKernel k = makeKernel(spec, O);
            const OrbitDistances D(O, R, k.distance());
            Eigen::MatrixXd K, dK;
            D.gram(k, all, all, K, &dK);
            const Eigen::MatrixXd reference = meanEmbeddingKernel(O, R, k);
            QVERIFY2((K - reference).cwiseAbs().maxCoeff() < 2e-5, spec.c_str());
            verifyPsd(0.5 * (K + K.transpose()), spec.c_str());
            const double h = 1e-3;
            Eigen::MatrixXd up, down;
            D.gram(k.withSigma(k.sigma() * std::exp(h)), all, all, up);
            D.gram(k.withSigma(k.sigma() * std::exp(-h)), all, all, down);
            QVERIFY2(((up - down) / (2 * h) - dK).cwiseAbs().maxCoeff() < 1e-3, spec.c_str());
        }
    }

    // For C4 acting on 6 x 6 images with Haar weights, the exact sum over the group is exactly
    // invariant: k_G(g x, y) = k_G(x, y) for every quarter turn g (to float rounding of the sums,
    // which run in another order).
    void cyclicHaarSumIsInvariant()
    {
        const Shape shape{6, 6, 1};
        const auto c4 = makeGroup("cyclic:n=4", shape);
        const auto elements = c4->elements(shape);
        QCOMPARE(int(elements.size()), 4);
        const MatrixXfR X = randomMatrix(5, 36, 31);
        auto orbitsOf = [&](const MatrixXfR& Y) {
            MatrixXfR O(Y.rows() * 4, 36);
            for (Eigen::Index i = 0; i < Y.rows(); ++i)
                for (int g = 0; g < 4; ++g) c4->apply(elements[std::size_t(g)], Y.data() + i * 36, O.data() + (i * 4 + g) * 36, shape);
            return O;
        };
        MatrixXfR turned = X;
        for (Eigen::Index i = 0; i < X.rows(); ++i) c4->apply(elements[1], X.data() + i * 36, turned.data() + i * 36, shape);
        MatrixXfR both(10, 36);
        both << X, turned;
        const MatrixXfR O = orbitsOf(both);
        Indices first = {0, 1, 2, 3, 4}, second = {5, 6, 7, 8, 9};
        for (const std::string spec : {"gaussian:sigma=5", "laplacian:sigma=20"}) {
            const BaseKernel k = makeKernel(spec, X);
            const OrbitDistances D(O, 4, k.distance());
            Eigen::MatrixXd a, b;
            D.gram(k, first, first, a);
            D.gram(k, second, first, b);
            QVERIFY2((a - b).cwiseAbs().maxCoeff() <= 1e-6, spec.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestFieldKernels)
#include "test_field_kernels.moc"

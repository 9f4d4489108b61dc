// Base kernels, the invariant kernel matrices (Monte Carlo k_qG, exact Haar sums, Pal & Savvides)
// and the spectral norm. The mathematics each test checks is stated in its comment.
#include "orbit/data/Loaders.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/kernels/FastExp.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/kernels/MatrixNorms.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "TestPaths.hpp"

#include <Eigen/Eigenvalues>
#include "RandomMatrices.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include <QTest>
#include <QObject>
#include <QString>

using namespace orbit;

namespace {

using orbittest::randomMatrix;

using orbittest::symmetricMatrices;

void verifySymmetricPsd(const Eigen::MatrixXd& K)
{
    QCOMPARE((K - K.transpose()).cwiseAbs().maxCoeff(), 0.0);  // exactly symmetric
    const Eigen::VectorXd l = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues();
    QVERIFY2(l.minCoeff() >= -1e-6 * l.maxCoeff(),
             qPrintable(QString("min eigenvalue %1, max %2").arg(l.minCoeff()).arg(l.maxCoeff())));
}

} // namespace

class TestKernels : public QObject {
    Q_OBJECT
private slots:
    // k(x, y) = exp(-||x-y||^2 / (2 sigma^2)) and (<x,y> + c)^D: the batched float32 matrix equals
    // the formula evaluated in double.
    void baseKernelMatrixMatchesFormula()
    {
        const MatrixXfR A = randomMatrix(7, 13, 1), B = randomMatrix(5, 13, 2);
        for (const BaseKernel& k : {BaseKernel::gaussian(3.0), BaseKernel::polynomial(3, 0.5)}) {
            const MatrixXfR K = k.matrix(A, B);
            for (int i = 0; i < 7; ++i)
                for (int j = 0; j < 5; ++j) {
                    const double ref = k(A.data() + i * 13, B.data() + j * 13, 13);
                    QVERIFY2(std::abs(K(i, j) - ref) <= 1e-4 * std::max(1.0, std::abs(ref)), qPrintable(QString::number(ref)));
                }
        }
    }

    // fastExp (the Gaussian kernel values): relative error < 1e-7 against exp in double on [-86, 0]
    // (every 61st float), exactly 1 at 0, 0 below -86 and never a denormal.
    void fastExpIsAccurate()
    {
        double worst = 0.0;
        long checked = 0;
        for (float x = 0.0f; x >= -86.0f; x = std::nextafter(x, -100.0f)) {
            if (++checked % 61 != 0) continue;
            const double want = std::exp(double(x));
            worst = std::max(worst, std::abs(double(fastExp(x)) - want) / want);
        }
        QVERIFY2(worst < 1e-7, qPrintable(QString::number(worst)));
        QCOMPARE(fastExp(0.0f), 1.0f);
        QCOMPARE(fastExp(-86.5f), 0.0f);
        QCOMPARE(fastExp(-1e30f), 0.0f);
        QVERIFY(std::fpclassify(fastExp(-85.99f)) == FP_NORMAL);
    }

    // Points 0, 1, 2, 3 on a line: pairwise distances {1,1,1,2,2,3}, median (upper) 2; the median rule
    // gives sigma = F * 2; bad specs are SpecErrors naming --kernel.
    void medianHeuristic()
    {
        MatrixXfR X(4, 2);
        X << 0, 0, 1, 0, 2, 0, 3, 0;
        QCOMPARE(medianPairwiseDistance(X), 2.0);
        QCOMPARE(makeKernel("gaussian:median=0.5", X).sigma(), 1.0);
        QCOMPARE(makeKernel("gaussian:sigma=4", X).sigma(), 4.0);
        QCOMPARE(makeKernel("polynomial:degree=3,c=2", X).degree(), 3);
        QVERIFY_THROWS_EXCEPTION(SpecError, makeKernel("gaussian", X));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeKernel("gaussian:sigma=-1", X));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeKernel("gaussian:sigma=1,median=1", X));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeKernel("laplace:sigma=1", X));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeKernel("gaussian:median=1", MatrixXfR::Zero(3, 2)));
    }

    // The Monte Carlo k_qG (V-statistic) is the Gram matrix of the empirical mean embeddings:
    // symmetric and PSD by construction; each entry equals the double sum computed directly.
    void monteCarloKernelIsSymmetricPsd()
    {
        const Shape shape{8, 8, 1};
        const MatrixXfR X = randomMatrix(30, 64, 3).cwiseAbs();
        auto group = makeGroup("rotation", shape);
        auto dist = makeDistribution("vonmises:kappa=1", *group);
        const OrbitSampler sampler(group, dist, shape, 6, 42);
        const BaseKernel k = BaseKernel::gaussian(4.0);
        const Eigen::MatrixXd K = invariantKernelMatrix(X, sampler, k);
        verifySymmetricPsd(K);
        // entry (2, 5) by the definition (1/r^2) sum_ab k(g_a x_2, h_b x_5)
        MatrixXfR O2, O5;
        sampler.orbit(X.data() + 2 * 64, sampler.elementsFor(2, X.data() + 2 * 64), O2);
        sampler.orbit(X.data() + 5 * 64, sampler.elementsFor(5, X.data() + 5 * 64), O5);
        double sum = 0;
        for (int a = 0; a < 6; ++a)
            for (int b = 0; b < 6; ++b) sum += k(O2.data() + a * 64, O5.data() + b * 64, 64);
        QVERIFY(std::abs(K(2, 5) - sum / 36) < 1e-5);
    }

    // U-statistic: off the diagonal identical to V; on the diagonal it drops the a = b terms
    // (k(gx, gx) = 1 for the Gaussian), so U_ii = (r V_ii - 1) / (r - 1).
    void uStatisticDiagonal()
    {
        const Shape shape{6, 6, 1};
        const MatrixXfR X = randomMatrix(10, 36, 4).cwiseAbs();
        auto group = makeGroup("rotation", shape);
        auto dist = makeDistribution("haar", *group);
        const OrbitSampler sampler(group, dist, shape, 5, 7);
        const BaseKernel k = BaseKernel::gaussian(2.0);
        const Eigen::MatrixXd V = invariantKernelMatrix(X, sampler, k, Estimator::V);
        const Eigen::MatrixXd U = invariantKernelMatrix(X, sampler, k, Estimator::U);
        for (int i = 0; i < 10; ++i) {
            QVERIFY(std::abs(U(i, i) - (5 * V(i, i) - 1) / 4) < 1e-5);
            for (int j = 0; j < 10; ++j)
                if (i != j) QCOMPARE(U(i, j), V(i, j));
        }
    }

    // The pairs' progress: it rises to 1 without changing a bit of K; a cancel mid-way throws
    // Cancelled and stops the blocks not yet started (640 points, r = 4: 10 block rows of 64 points,
    // each at least 1 % of the pairs, so each is reported once).
    void monteCarloKernelReportsPairsAndStopsOnACancel()
    {
        const int n = 640, r = 4;
        const MatrixXfR O = randomMatrix(n * r, 16, 9);
        const BaseKernel k = BaseKernel::gaussian(3.0);
        std::vector<double> fractions;
        const Progress record = [&](double f, const std::string& what) {
            fractions.push_back(f);
            if (what != "pairs of points") throw std::logic_error("unexpected step " + what);
            return false;
        };
        const Eigen::MatrixXd K = meanEmbeddingKernel(O, r, k, Estimator::V, record);
        QCOMPARE(K, meanEmbeddingKernel(O, r, k));
        QCOMPARE(int(fractions.size()), 10);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);

        std::atomic<int> calls{0};
        const Progress cancelAtOnce = [&](double, const std::string&) { return ++calls >= 1; };
        QVERIFY_THROWS_EXCEPTION(Cancelled, meanEmbeddingKernel(O, r, k, Estimator::V, cancelAtOnce));
        // The first report cancels; at most the blocks already running report once more each.
        QVERIFY2(calls <= 1 + orbit::teamSize(), qPrintable(QString("%1 reports after a cancel").arg(int(calls))));

        // invariantKernelMatrix asks once after sampling the orbits: a cancel there skips the pairs.
        const Shape shape{4, 4, 1};
        auto group = makeGroup("rotation", shape);
        const OrbitSampler sampler(group, makeDistribution("haar", *group), shape, 3, 1);
        int asked = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, invariantKernelMatrix(randomMatrix(50, 16, 2), sampler, k, Estimator::V,
                                                                  [&](double, const std::string&) { return ++asked > 0; }));
        QCOMPARE(asked, 1);
    }

    // Haar integration over C_4 (exact 90-degree rotations of a square image): k_G(gx, y) = k_G(x, y).
    // A real digit and its rotated copy give the same row of the kernel matrix to 1e-4.
    void haarC4KernelIsExactlyInvariant()
    {
        LoadOptions o;
        o.limit = 600;
        const Dataset d = loadDataset(orbittest::bundledFile("digits.png"), o);
        auto c4 = makeGroup("cyclic:n=4", d.shape);
        MatrixXfR X(6, d.shape.dim());
        for (int i = 0; i < 5; ++i) X.row(i) = d.X.row(i * 101);
        GroupElement g;
        g.k = 1;
        c4->apply(g, d.sample(0), X.data() + 5 * X.cols(), d.shape);  // x_5 = g x_0
        const BaseKernel k = BaseKernel::gaussian(8.0);
        const Eigen::MatrixXd K = haarKernelMatrix(X, *c4, d.shape, k);
        verifySymmetricPsd(K);
        for (int j = 0; j < 6; ++j) QVERIFY2(std::abs(K(0, j) - K(5, j)) < 1e-4, qPrintable(QString::number(j)));
        // the plain kernel is not invariant: the check above can fail
        const MatrixXfR plain = k.matrix(X, X);
        QVERIFY(std::abs(plain(0, 1) - plain(5, 1)) > 1e-3 || std::abs(plain(0, 2) - plain(5, 2)) > 1e-3);
    }

    // Exact Haar sum over S_4 acting on 4 x 4 symmetric matrices by C -> P C P^T: invariant to any
    // simultaneous row/column permutation, symmetric and PSD.
    void haarPermutationKernelIsInvariant()
    {
        const Shape shape{4, 4, 1};
        auto s4 = makeGroup("permutation", shape);
        MatrixXfR X = symmetricMatrices(5, 4, 5);
        GroupElement g = s4->identity(shape);
        g.perm = {2, 0, 3, 1};
        MatrixXfR Y = X;
        s4->apply(g, X.data(), Y.data(), shape);  // Y_0 = P X_0 P^T
        MatrixXfR Z(6, 16);
        Z.topRows(5) = X;
        Z.row(5) = Y.row(0);
        const Eigen::MatrixXd K = haarKernelMatrix(Z, *s4, shape, BaseKernel::gaussian(3.0));
        verifySymmetricPsd(K);
        for (int j = 0; j < 6; ++j) QVERIFY(std::abs(K(0, j) - K(5, j)) < 1e-5);
    }

    // Pal & Savvides Theorem 3.1: with templates closed under C_4 (T = C_4 t), phi(g t) lies in span phi(T),
    // so k_Psi(g t_a, t_b) = k_Psi(t_a, t_b); K is symmetric and PSD.
    void palSavvidesKernelIsInvariantOnItsTemplates()
    {
        const Shape shape{6, 6, 1};
        auto c4 = makeGroup("cyclic:n=4", shape);
        const auto G = c4->elements(shape);
        const MatrixXfR base = randomMatrix(3, 36, 6).cwiseAbs();
        MatrixXfR T(12, 36);
        for (int a = 0; a < 3; ++a)
            for (int k = 0; k < 4; ++k) c4->apply(G[k], base.data() + a * 36, T.data() + (a * 4 + k) * 36, shape);
        const BaseKernel kern = BaseKernel::gaussian(3.0);
        const Eigen::MatrixXd K = palSavvidesKernelMatrix(T, T, *c4, G, shape, kern);
        verifySymmetricPsd(K);
        for (int a = 0; a < 3; ++a)
            for (int k = 1; k < 4; ++k)
                for (int j = 0; j < 12; ++j) QVERIFY(std::abs(K(a * 4, j) - K(a * 4 + k, j)) < 1e-5);
        // a non-trivial kernel: different orbits are told apart
        QVERIFY(std::abs(K(0, 0) - K(0, 4)) > 1e-3);
    }

    // ||A||_2 = max |lambda|: Spectra's Lanczos agrees with the dense eigensolver, also when the
    // dominant eigenvalue is negative (the difference K - K_hat is indefinite).
    void spectralNormMatchesDense()
    {
        const MatrixXfR R = randomMatrix(60, 60, 8);
        Eigen::MatrixXd A = R.cast<double>();
        A = (A + A.transpose()).eval();
        A.diagonal().array() -= 40.0;
        const double dense = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A).eigenvalues().cwiseAbs().maxCoeff();
        QVERIFY(std::abs(spectralNorm(A) - dense) < 1e-8 * dense);
    }
};

QTEST_APPLESS_MAIN(TestKernels)
#include "test_kernels.moc"

// FALKON (orbit/learn/Falkon.hpp): the m-centre Nystrom system solved by preconditioned conjugate
// gradients, against a direct solve of the same system, against exact kernel ridge regression at
// m = n, several right-hand sides at once, and the same bits with K_nm kept or recomputed.
#include "LearnTestData.hpp"
#include "orbit/learn/Falkon.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"

#include <Eigen/Dense>
#include <QObject>
#include <QString>
#include <QTest>

#include <cmath>
#include <numeric>

using namespace orbit;
using namespace orbittest;

namespace {

/// The Gaussian kernel exp(-|a - b|^2 / (2 sigma^2)) of the rows of A against those of B, rounded
/// to float as the library's kernels give it.
Eigen::MatrixXf gaussianKernelF(const MatrixXfR& A, const MatrixXfR& B, double sigma)
{
    Eigen::MatrixXf K(A.rows(), B.rows());
    for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < B.rows(); ++j)
            K(i, j) = float(std::exp(-(A.row(i) - B.row(j)).cast<double>().squaredNorm() / (2.0 * sigma * sigma)));
    return K;
}

/// K_nm's rows from a full matrix, as a KernelRows callback.
KernelRows rowsOf(const Eigen::MatrixXf& K)
{
    return [&K](Eigen::Index b, Eigen::Index e, Eigen::MatrixXf& block) { block = K.middleRows(b, e - b); };
}

MatrixXfR centresOf(const MatrixXfR& X, Eigen::Index m)
{
    // Every third row: a spread of the rows, not a prefix.
    MatrixXfR C(m, X.cols());
    for (Eigen::Index j = 0; j < m; ++j) C.row(j) = X.row((3 * j) % X.rows());
    return C;
}

double falkonError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return (a - b).norm() / b.norm(); }

} // namespace

class TestFalkon : public QObject {
    Q_OBJECT

private slots:
    // FALKON's alpha is the solution of (K_nm^T K_nm + lambda n (K_mm + eps I)) alpha = K_nm^T Y,
    // solved directly in double: the same to 1e-8 at a tight CG tolerance, for three right-hand
    // sides at once and a block size that does not divide n.
    void matchesADirectSolveOfTheSameSystem()
    {
        const MatrixXfR X = gaussianMatrix(300, 3, 11);
        const MatrixXfR C = centresOf(X, 40);
        // A bandwidth at which K_mm is well conditioned: the direct solve of the normal equations
        // (whose condition is K_mm's squared) is itself accurate to 1e-8.
        const Eigen::MatrixXf Knm = gaussianKernelF(X, C, 0.6);
        const Eigen::MatrixXd Kmm = gaussianKernelF(C, C, 0.6).cast<double>();
        const Eigen::MatrixXd Y = gaussianMatrix(300, 3, 12).cast<double>();
        FalkonOptions o;
        o.tolerance = 1e-13;
        o.maxIterations = 500;
        o.blockRows = 64;
        const FalkonSolver solver(Kmm, 300, rowsOf(Knm), o);
        QVERIFY(solver.cached());
        const double lambda = 1e-3;
        const FalkonFit fit = solver.solve(Y, lambda);
        QVERIFY(fit.converged);
        QVERIFY(fit.iterations > 1 && fit.iterations < 500);
        const Eigen::MatrixXd K = Knm.cast<double>();
        Eigen::MatrixXd H = K.transpose() * K + lambda * 300.0 * Kmm;
        H.diagonal().array() += lambda * 300.0 * solver.jitter();
        const Eigen::MatrixXd direct = H.ldlt().solve(K.transpose() * Y);
        const double err = falkonError(fit.alpha, direct);
        QVERIFY2(err < 1e-8, qPrintable(QString("relative error %1, %2 iterations").arg(err).arg(fit.iterations)));
        // The predictions k(x, C) alpha on new rows agree as well.
        const MatrixXfR Xs = gaussianMatrix(50, 3, 13);
        const Eigen::MatrixXf Ks = gaussianKernelF(Xs, C, 0.6);
        const Eigen::MatrixXd F = falkonPredict(50, rowsOf(Ks), fit.alpha, 16);
        QVERIFY(falkonError(F, Ks.cast<double>() * direct) < 1e-8);
    }

    // At m = n (every row a centre, in another order) the Nystrom system is exact kernel ridge
    // regression: lambda n = krr's lambda gives krr's predictions, to 1e-6 of their size. (At a
    // bandwidth where K is well conditioned: where K's eigenvalues fall to the jitter eps that the
    // float kernel values need, FALKON's (K^2 + lambda (K + eps I)) differs from K (K + lambda I) by
    // about eps / lambda.)
    void equalsExactKernelRidgeAtMEqualsN()
    {
        const int n = 80;
        const MatrixXfR X = gaussianMatrix(n, 2, 21);
        MatrixXfR C(n, 2);
        for (int j = 0; j < n; ++j) C.row(j) = X.row((7 * j) % n);  // 7 and 80 coprime: a permutation
        const Eigen::MatrixXf Knm = gaussianKernelF(X, C, 0.4);
        const Eigen::MatrixXd Kmm = gaussianKernelF(C, C, 0.4).cast<double>();
        Eigen::MatrixXd Y(n, 2);
        for (int i = 0; i < n; ++i) {
            Y(i, 0) = std::sin(2.0 * X(i, 0)) + 0.1 * X(i, 1);
            Y(i, 1) = X(i, 0) * X(i, 1) > 0 ? 1.0 : -1.0;
        }
        const double lambdaKrr = 0.05;
        FalkonOptions o;
        o.tolerance = 1e-12;
        o.maxIterations = 1000;
        const FalkonSolver solver(Kmm, n, rowsOf(Knm), o);
        const FalkonFit fit = solver.solve(Y, lambdaKrr / n);
        QVERIFY(fit.converged);
        // Exact krr on the same (float) kernel of the rows.
        const Eigen::MatrixXd K = gaussianKernelF(X, X, 0.4).cast<double>();
        const Eigen::MatrixXd a = (K + lambdaKrr * Eigen::MatrixXd::Identity(n, n)).llt().solve(Y);
        const MatrixXfR Xs = gaussianMatrix(40, 2, 22);
        const Eigen::MatrixXd krr = gaussianKernelF(Xs, X, 0.4).cast<double>() * a;
        const Eigen::MatrixXd falkon = falkonPredict(40, rowsOf(gaussianKernelF(Xs, C, 0.4)), fit.alpha);
        const double err = falkonError(falkon, krr);
        QVERIFY2(err < 1e-6, qPrintable(QString("relative error %1, jitter %2, %3 iterations")
                                            .arg(err)
                                            .arg(solver.jitter())
                                            .arg(fit.iterations)));
        // And on the training rows themselves.
        QVERIFY(falkonError(Knm.cast<double>() * fit.alpha, K * a) < 1e-6);
    }

    // Several right-hand sides at once give each column's own solution (each column has its own
    // step sizes and stops on its own), and a zero column stays zero.
    void multipleRightHandSidesAreSolvedColumnByColumn()
    {
        const MatrixXfR X = gaussianMatrix(200, 4, 31);
        const MatrixXfR C = centresOf(X, 30);
        const Eigen::MatrixXf Knm = gaussianKernelF(X, C, 2.0);
        const Eigen::MatrixXd Kmm = gaussianKernelF(C, C, 2.0).cast<double>();
        Eigen::MatrixXd Y = gaussianMatrix(200, 4, 32).cast<double>();
        Y.col(2).setZero();
        FalkonOptions o;
        o.tolerance = 1e-12;
        o.maxIterations = 400;
        const FalkonSolver solver(Kmm, 200, rowsOf(Knm), o);
        const FalkonFit all = solver.solve(Y, 1e-2);
        QCOMPARE(all.alpha.cols(), Eigen::Index(4));
        QVERIFY(all.alpha.col(2).isZero(0.0));
        for (Eigen::Index j : {0, 1, 3}) {
            const FalkonFit one = solver.solve(Y.col(j), 1e-2);
            QVERIFY(one.iterations <= all.iterations);
            QVERIFY2(falkonError(all.alpha.col(j), one.alpha) < 1e-9, qPrintable(QString("column %1").arg(j)));
        }
    }

    // K_nm kept in memory or recomputed block by block in every iteration: the same bits, and the
    // same bits with one thread and with two.
    void keptOrRecomputedKernelGivesTheSameBits()
    {
        const MatrixXfR X = gaussianMatrix(500, 3, 41);
        const MatrixXfR C = centresOf(X, 50);
        const Eigen::MatrixXf Knm = gaussianKernelF(X, C, 1.2);
        const Eigen::MatrixXd Kmm = gaussianKernelF(C, C, 1.2).cast<double>();
        const Eigen::MatrixXd Y = gaussianMatrix(500, 2, 42).cast<double>();
        FalkonOptions o;
        o.blockRows = 37;
        o.maxIterations = 30;
        int calls = 0;
        const KernelRows counted = [&](Eigen::Index b, Eigen::Index e, Eigen::MatrixXf& block) {
            ++calls;
            block = Knm.middleRows(b, e - b);
        };
        const FalkonSolver kept(Kmm, 500, counted, o);
        const int fill = calls;
        QCOMPARE(fill, (500 + 36) / 37);
        const FalkonFit a = kept.solve(Y, 1e-4);
        QCOMPARE(calls, fill);  // solving reads the kept blocks only
        o.cacheBytes = 0;
        const FalkonSolver recomputed(Kmm, 500, counted, o);
        QVERIFY(!recomputed.cached());
        calls = 0;
        const FalkonFit b = recomputed.solve(Y, 1e-4);
        QCOMPARE(calls, (b.iterations + 1) * fill);  // the right-hand side, then one pass per iteration
        QCOMPARE(a.iterations, b.iterations);
        QVERIFY(a.alpha == b.alpha);
        o.cacheBytes = 1e12;
        setComputeBudget(1);
        const FalkonFit one = FalkonSolver(Kmm, 500, rowsOf(Knm), o).solve(Y, 1e-4);
        setComputeBudget(2);
        const FalkonFit two = FalkonSolver(Kmm, 500, rowsOf(Knm), o).solve(Y, 1e-4);
        setComputeBudget(0);
        QVERIFY(one.alpha == a.alpha);
        QVERIFY(two.alpha == a.alpha);
    }

    // A non-positive lambda and a badly shaped Y are refused in one line naming them.
    void badArgumentsAreRefused()
    {
        const MatrixXfR X = gaussianMatrix(20, 2, 51);
        const MatrixXfR C = centresOf(X, 5);
        const Eigen::MatrixXf Knm = gaussianKernelF(X, C, 1.0);
        const FalkonSolver solver(gaussianKernelF(C, C, 1.0).cast<double>(), 20, rowsOf(Knm));
        bool refused = false;
        try {
            solver.solve(Eigen::MatrixXd::Ones(20, 1), 0.0);
        } catch (const SpecError& e) {
            refused = e.field() == "lambda" && std::string(e.what()).find('\n') == std::string::npos;
        }
        QVERIFY(refused);
        QVERIFY_THROWS_EXCEPTION(ContractError, solver.solve(Eigen::MatrixXd::Ones(19, 1), 1e-3));
    }
};

QTEST_APPLESS_MAIN(TestFalkon)
#include "test_falkon.moc"

// The multi-core fast paths of the learners: the tile-parallel Cholesky factorisation
// (ParallelCholesky.hpp), the tiled triangular inverse of the Nystrom whitening
// (TriangularInverse.hpp) and the mixed-precision Gram matrix (Gram.hpp).
#include "orbit/linalg/Gram.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/linalg/TriangularInverse.hpp"
#include "orbit/util/Error.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <string>
#include <vector>
#include <QTest>
#include <QObject>
#include <QString>
#include <omp.h>

using namespace orbit;

class TestParallelCholesky : public QObject {
    Q_OBJECT
private slots:
    // L L^T = A to rounding, for sizes that do and do not fill the 256-wide panels.
    void factorReproducesMatrix_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("small") << 7;
        QTest::newRow("one panel") << 256;
        QTest::newRow("ragged") << 601;
    }
    void factorReproducesMatrix()
    {
        QFETCH(int, n);
        const Eigen::MatrixXd B = Eigen::MatrixXd::Random(n, n + 3);
        const Eigen::MatrixXd A = B * B.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
        Eigen::MatrixXd L = A;
        QVERIFY(choleskyInPlace(L));
        const Eigen::MatrixXd Lo = L.triangularView<Eigen::Lower>();
        QVERIFY((Lo * Lo.transpose() - A).norm() < 1e-10 * A.norm());
        const Eigen::MatrixXd rhs = Eigen::MatrixXd::Random(n, 3);
        const Eigen::MatrixXd x = choleskySolve(L, rhs);
        QVERIFY((A * x - rhs).norm() < 1e-8 * rhs.norm() * (1 + x.norm()));
        const auto many = solveShiftedMany(A, rhs, {0.5, 2.0});
        QVERIFY(((A + 2.0 * Eigen::MatrixXd::Identity(n, n)) * many[1] - rhs).norm() < 1e-9 * rhs.norm() * n);
    }
    // Bits do not depend on the thread count.
    // C^-1 C = I for a well-conditioned Cholesky factor, across the 64-column tiles, and the same
    // bits at one and two threads.
    void triangularInverseInverts_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("one tile") << 5;
        QTest::newRow("ragged tiles") << 150;
    }
    void triangularInverseInverts()
    {
        QFETCH(int, n);
        const Eigen::MatrixXd B = Eigen::MatrixXd::Random(n, n + 3);
        Eigen::MatrixXd C = B * B.transpose() + double(n) * Eigen::MatrixXd::Identity(n, n);
        QVERIFY(choleskyInPlace(C));
        const Eigen::MatrixXd Lo = C.triangularView<Eigen::Lower>();
        omp_set_num_threads(1);
        const MatrixXfR one = inverseLower(C);
        omp_set_num_threads(2);
        const MatrixXfR two = inverseLower(C);
        QCOMPARE(one.rows(), n);
        QVERIFY(one == two);
        const Eigen::MatrixXd product = one.cast<double>() * Lo;
        QVERIFY2((product - Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff() < 1e-4,
                 qPrintable(QString::number((product - Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff())));
        QVERIFY(one.isLowerTriangular());
    }

    void threadCountIndependent()
    {
        const Eigen::MatrixXd B = Eigen::MatrixXd::Random(700, 720);
        const Eigen::MatrixXd A = B * B.transpose();
        Eigen::MatrixXd L1 = A, L2 = A;
        omp_set_num_threads(1);
        QVERIFY(choleskyInPlace(L1));
        omp_set_num_threads(2);
        QVERIFY(choleskyInPlace(L2));
        QVERIFY(L1.triangularView<Eigen::Lower>().toDenseMatrix() == L2.triangularView<Eigen::Lower>().toDenseMatrix());
    }
    // The mixed-precision Gram X X^T agrees with the double one to float rounding, is symmetric, and
    // its bits do not depend on the thread count.
    void mixedGramMatchesDouble()
    {
        const orbit::MatrixXfR X = orbit::MatrixXfR::Random(300, 700);
        const Eigen::MatrixXd K = gramOfRows(X);
        omp_set_num_threads(1);
        const Eigen::MatrixXd M1 = gramOfRowsMixed(X, 256);
        omp_set_num_threads(2);
        const Eigen::MatrixXd M2 = gramOfRowsMixed(X, 256);
        QVERIFY(M1 == M2);
        QVERIFY(M1 == M1.transpose());
        QVERIFY((M1 - K).cwiseAbs().maxCoeff() < 1e-5 * K.cwiseAbs().maxCoeff());
    }
    // The polling variants (how a training run is cancelled inside a long product or factorisation):
    // polling changes no bit, the progress is reported between panels / tile groups / chunks with
    // a fraction that only grows, and a cancel (a true answer, or an orbit::Cancelled thrown by the
    // callback) leaves the parallel region and reaches the caller as Cancelled.
    void pollingChangesNoBitAndCanStop()
    {
        const Eigen::MatrixXd B = Eigen::MatrixXd::Random(700, 720);
        const Eigen::MatrixXd A = B * B.transpose();
        Eigen::MatrixXd plain = A, polled = A;
        int panels = 0;
        std::vector<double> fractions;
        QVERIFY(choleskyInPlace(plain));
        QVERIFY(choleskyInPlace(polled, [&](double f, const std::string&) {
            panels += f == 0.0 || f == 256.0 / 700 || f == 512.0 / 700;  // the starts of the panels
            fractions.push_back(f);
            return false;
        }));
        QCOMPARE(panels, 3);  // 700 = 256 + 256 + 188
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()) && fractions.back() < 1.0);
        QVERIFY(plain.triangularView<Eigen::Lower>().toDenseMatrix() == polled.triangularView<Eigen::Lower>().toDenseMatrix());
        Eigen::MatrixXd stopped = A;
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, choleskyInPlace(stopped, [&](double, const std::string&) {
                                     return ++calls == 2;
                                 }));
        QCOMPARE(calls, 2);  // no panel after the cancel

        const orbit::MatrixXfR X = orbit::MatrixXfR::Random(1100, 2100);
        int tiles = 0;
        QVERIFY(gramOfRowsMixed(X, 2048, [&](double, const std::string&) { return ++tiles < 0; }) == gramOfRowsMixed(X, 2048));
        QVERIFY(tiles >= 2);
        int chunks = 0;
        QVERIFY(gramOfRows(X, [&](double, const std::string&) { return ++chunks < 0; }) == gramOfRows(X));
        QCOMPARE(chunks, 5);  // 2100 columns in 512-column chunks
        const MatrixXfR left = X.leftCols(300);
        QVERIFY(gramOfColumns(left, [&](double, const std::string&) { return ++chunks < 0; }) == gramOfColumns(left));
        QCOMPARE(chunks, 5 + 3);  // 1100 rows in 512-row chunks
        QVERIFY_THROWS_EXCEPTION(Cancelled, gramOfRowsMixed(X, 2048, [](double, const std::string&) -> bool { throw Cancelled(); }));
    }
    // An indefinite matrix is reported, not factorised.
    void rejectsIndefinite()
    {
        Eigen::MatrixXd A = Eigen::MatrixXd::Identity(300, 300);
        A(290, 290) = -1;
        QVERIFY(!choleskyInPlace(A));
    }
};

QTEST_APPLESS_MAIN(TestParallelCholesky)
#include "test_parallel_cholesky.moc"

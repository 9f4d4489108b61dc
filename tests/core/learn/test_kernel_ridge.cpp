// Kernel ridge / GP regression on a precomputed kernel:
//   alpha = (K + lambda I)^{-1} y,  log p(y) = log N(y; 0, K + lambda I).
#include "LearnTestData.hpp"
#include "orbit/learn/KernelRidgeRegression.hpp"
#include "orbit/util/Error.hpp"

#include <Eigen/Dense>
#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <numbers>

using namespace orbit;
using namespace orbittest;

namespace {

/// Gaussian kernel exp(-|a - b|^2 / 2) between the rows of A and B.
Eigen::MatrixXd gaussianKernel(const MatrixXfR& A, const MatrixXfR& B)
{
    Eigen::MatrixXd K(A.rows(), B.rows());
    for (int i = 0; i < A.rows(); ++i)
        for (int j = 0; j < B.rows(); ++j)
            K(i, j) = std::exp(-0.5 * (A.row(i) - B.row(j)).cast<double>().squaredNorm());
    return K;
}

/// log N(y; 0, S) with the full determinant and the explicit inverse (brute force).
double logGaussian(const Eigen::VectorXd& y, const Eigen::MatrixXd& S)
{
    const double n = static_cast<double>(y.size());
    return -0.5 * y.dot(S.inverse() * y) - 0.5 * std::log(S.determinant()) - 0.5 * n * std::log(2.0 * std::numbers::pi);
}

} // namespace

class TestKernelRidge : public QObject {
    Q_OBJECT
private slots:
    void logMarginalLikelihoodMatchesBruteForce()
    {
        const MatrixXfR X = gaussianMatrix(7, 2, 51);
        const Eigen::MatrixXd K = gaussianKernel(X, X);
        const std::vector<double> t = {3.0, -1.0, 0.5, 2.0, 2.5, -0.5, 1.0};
        const double lambda = 0.2;
        KernelRidgeRegression krr(lambda);
        krr.fit(K, t);
        QCOMPARE(krr.jitter(), 0.0);
        // Standardised targets y = (t - mean) / std.
        Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(t.data(), 7);
        const double mu = y.mean(), sd = std::sqrt((y.array() - mu).square().mean());
        y = (y.array() - mu) / sd;
        const Eigen::MatrixXd S = K + lambda * Eigen::MatrixXd::Identity(7, 7);
        const double brute = logGaussian(y, S);
        QVERIFY2(std::abs(krr.logMarginalLikelihood() - brute) < 1e-10 * std::abs(brute),
                 qPrintable(QString("%1 vs %2").arg(krr.logMarginalLikelihood()).arg(brute)));
        // Posterior mean at new points: mu + sd k*^T (K + lambda I)^{-1} y.
        const MatrixXfR Xs = gaussianMatrix(3, 2, 52);
        const Eigen::MatrixXd Ks = gaussianKernel(Xs, X);
        const Eigen::VectorXd expected = (mu + sd * (Ks * S.inverse() * y).array()).matrix();
        const std::vector<double> pred = krr.predictTargets(Ks);
        for (int i = 0; i < 3; ++i)
            QVERIFY(std::abs(pred[i] - expected(i)) < 1e-10);
    }

    void classesSumTheColumnLikelihoods()
    {
        const Blobs b = gaussianBlobs(5, 3, 3, 3.0, 0.5, 53);
        const Eigen::MatrixXd K = gaussianKernel(b.X, b.X);
        KernelRidgeRegression krr(0.1);
        krr.fit(K, b.labels, 3);
        const Eigen::MatrixXd S = K + 0.1 * Eigen::MatrixXd::Identity(15, 15);
        double brute = 0.0;
        for (int c = 0; c < 3; ++c) {
            Eigen::VectorXd y(15);
            for (int i = 0; i < 15; ++i)
                y(i) = b.labels[i] == c ? 1.0 : -1.0;
            brute += logGaussian(y, S);
        }
        QVERIFY(std::abs(krr.logMarginalLikelihood() - brute) < 1e-9 * std::abs(brute));
        const Blobs test = gaussianBlobs(10, 3, 3, 3.0, 0.5, 54);
        int hits = 0;
        const std::vector<int> pred = krr.predictClasses(gaussianKernel(test.X, b.X));
        for (int i = 0; i < 30; ++i)
            hits += pred[i] == test.labels[i];
        QVERIFY(hits >= 27);
    }

    void jitterRescuesAnIndefiniteKernel()
    {
        // K = v v^T - 1e-6 I has a negative eigenvalue; with lambda = 1e-9 Cholesky fails, jitter helps.
        Eigen::VectorXd v(4);
        v << 1, 2, 3, 4;
        const Eigen::MatrixXd K = v * v.transpose() - 1e-6 * Eigen::MatrixXd::Identity(4, 4);
        KernelRidgeRegression krr(1e-9);
        krr.fit(K, std::vector<double>{1, 2, 3, 4});
        QVERIFY(krr.jitter() > 0.0);
        QVERIFY(std::isfinite(krr.logMarginalLikelihood()));
    }

    void rejectsBadKernels()
    {
        KernelRidgeRegression krr(0.1);
        Eigen::MatrixXd K = Eigen::MatrixXd::Identity(3, 3);
        K(0, 1) = 0.5;  // not symmetric
        QVERIFY_THROWS_EXCEPTION(SpecError, krr.fit(K, std::vector<double>{1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(ContractError, krr.fit(Eigen::MatrixXd::Identity(3, 3), std::vector<double>{1, 2}));
        QVERIFY_THROWS_EXCEPTION(ContractError, krr.fit(Eigen::MatrixXd::Identity(3, 2), std::vector<double>{1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(SpecError, KernelRidgeRegression(-1.0));
        QVERIFY_THROWS_EXCEPTION(ContractError, krr.predictTargets(Eigen::MatrixXd::Identity(3, 3)));
    }
};

QTEST_APPLESS_MAIN(TestKernelRidge)
#include "test_kernel_ridge.moc"

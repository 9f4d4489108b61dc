// PCA: scores(i, j) = <x_i - mean, v_j> with v_j the eigenvectors of the sample covariance,
// variance(j) its eigenvalues. Checked against an SVD of the centred data, on both routes
// (Gram matrix when n <= d, covariance when n > d).
#include "orbit/analysis/Pca.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "RandomMatrices.hpp"

#include <Eigen/SVD>
#include <QTest>
#include <QObject>
#include <QString>

using namespace orbit;

namespace {

/// Gaussian rows with a wide first column (sd 4) and a second column centred on 5.
MatrixXfR randomData(int n, int d, std::uint64_t seed)
{
    return orbittest::sampledMatrix(n, d, seed, [](Rng& rng, Eigen::Index j) {
        return standardNormal(rng) * (1.0 + 3.0 * (j == 0)) + (j == 1 ? 5.0 : 0.0);
    });
}

} // namespace

class TestPca : public QObject {
    Q_OBJECT
private slots:
    void matchesTheSvdOfTheCentredData_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("d");
        QTest::newRow("gram route n<=d") << 12 << 40;
        QTest::newRow("covariance route n>d") << 200 << 6;
    }
    void matchesTheSvdOfTheCentredData()
    {
        QFETCH(int, n);
        QFETCH(int, d);
        const MatrixXfR X = randomData(n, d, 7);
        const PcaResult p = principalComponents(X, 3);
        const Eigen::MatrixXd C = X.cast<double>().rowwise() - X.cast<double>().colwise().mean();
        Eigen::JacobiSVD<Eigen::MatrixXd> svd(C, Eigen::ComputeThinV);
        for (int j = 0; j < 3; ++j) {
            const double lambda = svd.singularValues()(j) * svd.singularValues()(j) / (n - 1);
            QVERIFY(std::abs(p.variance(j) - lambda) <= 1e-6 * lambda);
            // Same axis up to sign.
            const double cosine = std::abs(p.axes.row(j).cast<double>().dot(svd.matrixV().col(j)));
            QVERIFY2(cosine > 1.0 - 1e-4, qPrintable(QString::number(cosine)));
            // The variance of the scores is the eigenvalue.
            const Eigen::VectorXd s = p.scores.col(j).cast<double>();
            QVERIFY(std::abs(s.mean()) < 1e-3 * std::sqrt(lambda));
            QVERIFY(std::abs((s.array() - s.mean()).square().sum() / (n - 1) - lambda) <= 1e-4 * lambda);
        }
        // Orthonormal axes, descending variances, fractions that add up to at most 1.
        const Eigen::MatrixXd A = p.axes.cast<double>();
        QVERIFY((A * A.transpose() - Eigen::MatrixXd::Identity(3, 3)).cwiseAbs().maxCoeff() < 1e-4);
        QVERIFY(p.variance(0) >= p.variance(1) && p.variance(1) >= p.variance(2));
        QVERIFY(p.explained(0) + p.explained(1) + p.explained(2) <= 1.0 + 1e-9);
        QVERIFY(std::abs(p.totalVariance - C.squaredNorm() / (n - 1)) < 1e-6 * p.totalVariance);
    }
    void pointsOnALineHaveOneComponent()
    {
        MatrixXfR X(5, 3);
        for (int i = 0; i < 5; ++i)
            X.row(i) << 1.0f + i, 2.0f * i, -1.0f * i;
        const PcaResult p = principalComponents(X, 2);
        QVERIFY(std::abs(p.explained(0) - 1.0) < 1e-9);
        QCOMPARE(p.variance(1), 0.0);
        QVERIFY(p.scores.col(1).cwiseAbs().maxCoeff() < 1e-5f);
        QVERIFY(p.axes.row(1).isZero());
    }
    void signsAreFixedSoTheSameDataGiveTheSamePicture()
    {
        const MatrixXfR X = randomData(30, 10, 3);
        const PcaResult a = principalComponents(X, 2);
        const MatrixXfR negated = -X;  // the same cloud reflected: axes flip, signs are re-fixed
        const PcaResult b = principalComponents(negated, 2);
        for (int j = 0; j < 2; ++j) {
            Eigen::Index arg;
            a.axes.row(j).cwiseAbs().maxCoeff(&arg);
            QVERIFY(a.axes(j, arg) > 0.0f);
            QVERIFY(b.axes.row(j).isApprox(a.axes.row(j), 1e-4f));
        }
    }
    void rejectsTooFewSamplesAndNonFiniteValues()
    {
        QVERIFY_THROWS_EXCEPTION(SpecError, principalComponents(MatrixXfR::Zero(1, 4), 2));
        MatrixXfR X = MatrixXfR::Ones(3, 2);
        X(1, 1) = std::numeric_limits<float>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(SpecError, principalComponents(X, 2));
        QVERIFY_THROWS_EXCEPTION(SpecError, principalComponents(MatrixXfR::Ones(3, 2), 0));
    }
};

QTEST_APPLESS_MAIN(TestPca)
#include "test_pca.moc"

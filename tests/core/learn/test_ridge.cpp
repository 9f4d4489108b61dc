// Ridge regression: W = (X^T X + lambda I)^{-1} X^T Y = X^T (X X^T + lambda I)^{-1} Y.
#include "LearnTestData.hpp"
#include "orbit/linalg/Gram.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <omp.h>

#include <cmath>

using namespace orbit;
using namespace orbittest;

class TestRidge : public QObject {
    Q_OBJECT
private slots:
    void closedFormTwoByTwo()
    {
        // X is 4 x 2, y standardised by hand, then (X^T X + lambda I) w = X^T y solved with the
        // explicit 2 x 2 inverse [[d, -b], [-c, a]] / (ad - bc).
        MatrixXfR X(4, 2);
        X << 1, 0, 0, 1, 1, 1, 2, -1;
        const std::vector<double> t = {1.0, 2.0, 4.0, 1.0};
        const double lambda = 0.5;
        const double mu = 2.0;
        const double sd = std::sqrt(((1 - mu) * (1 - mu) + 0 + 4 + 1) / 4.0);  // population std
        double y[4];
        for (int i = 0; i < 4; ++i)
            y[i] = (t[i] - mu) / sd;
        double a = lambda, b = 0, d = lambda, r0 = 0, r1 = 0;  // G = [[a, b], [b, d]]
        for (int i = 0; i < 4; ++i) {
            a += X(i, 0) * X(i, 0);
            b += X(i, 0) * X(i, 1);
            d += X(i, 1) * X(i, 1);
            r0 += X(i, 0) * y[i];
            r1 += X(i, 1) * y[i];
        }
        const double det = a * d - b * b;
        const double w0 = (d * r0 - b * r1) / det, w1 = (-b * r0 + a * r1) / det;

        for (RidgeForm form : {RidgeForm::Primal, RidgeForm::Dual}) {
            RidgeRegression ridge(lambda, form);
            ridge.fit(X, t);
            QCOMPARE(ridge.usedDual(), form == RidgeForm::Dual);
            QVERIFY(std::abs(ridge.weights()(0, 0) - w0) < 1e-12);
            QVERIFY(std::abs(ridge.weights()(1, 0) - w1) < 1e-12);
            const std::vector<double> pred = ridge.predictTargets(X);
            for (int i = 0; i < 4; ++i)
                QVERIFY(std::abs(pred[i] - (mu + sd * (X(i, 0) * w0 + X(i, 1) * w1))) < 1e-12);
        }
    }

    void primalEqualsDual_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("d");
        QTest::newRow("tall N>D") << 40 << 9;
        QTest::newRow("wide N<D") << 9 << 40;
    }
    void primalEqualsDual()
    {
        // X^T (X X^T + lambda I)^{-1} = (X^T X + lambda I)^{-1} X^T (push-through identity).
        QFETCH(int, n);
        QFETCH(int, d);
        const MatrixXfR X = gaussianMatrix(n, d, 11);
        const MatrixXfR noise = gaussianMatrix(n, 1, 12);
        std::vector<double> t;
        std::vector<int> labels;
        for (int i = 0; i < n; ++i) {
            t.push_back(3.0 * X(i, 0) - X(i, 1) + 0.1 * noise(i, 0));
            labels.push_back(i % 3);
        }
        for (double lambda : {1e-3, 0.3, 10.0}) {
            RidgeRegression p(lambda, RidgeForm::Primal), q(lambda, RidgeForm::Dual);
            p.fit(X, t);
            q.fit(X, t);
            QVERIFY2(relativeError(p.weights(), q.weights()) < 1e-8, qPrintable(QString::number(lambda)));
            p.fit(X, labels, 3);
            q.fit(X, labels, 3);
            QCOMPARE(p.weights().cols(), Eigen::Index(3));
            QVERIFY(relativeError(p.weights(), q.weights()) < 1e-8);
        }
    }

    void pathEqualsIndividualFits()
    {
        // One tridiagonalisation, then every lambda: must equal a fresh Cholesky fit per lambda.
        const std::vector<double> lambdas = {1e-4, 1e-2, 1.0, 30.0, 1e3};
        for (auto [n, d] : {std::pair{50, 12}, std::pair{12, 50}}) {
            const MatrixXfR X = gaussianMatrix(n, d, 21);
            std::vector<int> labels;
            std::vector<double> t;
            for (int i = 0; i < n; ++i) {
                labels.push_back((i * 7) % 4);
                t.push_back(X(i, 2) * X(i, 3) + X(i, 0));
            }
            const RidgePath classPath(X, labels, 4), targetPath(X, t);
            QCOMPARE(classPath.usesDual(), d > n);
            const std::vector<Eigen::MatrixXd> batch = classPath.weights(lambdas);
            QCOMPARE(batch.size(), lambdas.size());
            for (std::size_t k = 0; k < lambdas.size(); ++k) {
                const double lambda = lambdas[k];
                RidgeRegression single(lambda);
                single.fit(X, labels, 4);
                QVERIFY2(relativeError(classPath.weights(lambda), single.weights()) < 1e-8,
                         qPrintable(QString("lambda %1").arg(lambda)));
                QVERIFY(relativeError(batch[k], single.weights()) < 1e-8);
                single.fit(X, t);
                const RidgeRegression fromPath = targetPath.model(lambda);
                QVERIFY(relativeError(fromPath.weights(), single.weights()) < 1e-8);
                const std::vector<double> a = fromPath.predictTargets(X), b = single.predictTargets(X);
                for (int i = 0; i < n; ++i)
                    QVERIFY(std::abs(a[i] - b[i]) < 1e-7 * (1.0 + std::abs(b[i])));
            }
        }
    }

    void gramMatchesDoubleProduct()
    {
        // X^T X and X X^T accumulated in double from float rows (several 512-row / 256-tile blocks).
        const MatrixXfR X = gaussianMatrix(600, 300, 5);
        const Eigen::MatrixXd Xd = X.cast<double>();
        QVERIFY(relativeError(gramOfColumns(X), Xd.transpose() * Xd) < 1e-12);
        QVERIFY(relativeError(gramOfRows(X), Xd * Xd.transpose()) < 1e-12);
        QVERIFY(relativeError(transposeTimes(X, Xd.leftCols(3)), Xd.transpose() * Xd.leftCols(3)) < 1e-12);
    }

    void oneVsAllSeparatesBlobs()
    {
        const Blobs train = gaussianBlobs(40, 4, 6, 4.0, 0.5, 31);
        const Blobs test = gaussianBlobs(40, 4, 6, 4.0, 0.5, 32);
        RidgeRegression ridge(0.1);
        ridge.fit(train.X, train.labels, 4);
        int hits = 0;
        const std::vector<int> pred = ridge.predictClasses(test.X);
        for (std::size_t i = 0; i < pred.size(); ++i)
            hits += pred[i] == test.labels[i];
        QVERIFY2(hits >= 150, qPrintable(QString::number(hits)));
    }

    void threadCountDoesNotChangeTheBits()
    {
        // Same data, 1 thread versus 2: every product is tiled with a fixed summation order.
        const MatrixXfR X = gaussianMatrix(300, 420, 7);
        std::vector<double> t;
        for (int i = 0; i < 300; ++i)
            t.push_back(X(i, 0) - 2.0 * X(i, 5));
        auto fitAll = [&](int threads) {
            omp_set_num_threads(threads);
            RidgeRegression single(0.1);
            single.fit(X, t);
            const RidgePath path(X, t, RidgeForm::Primal);
            std::vector<Eigen::MatrixXd> out = {single.weights(), path.weights(0.1), single.decisionValues(X)};
            omp_set_num_threads(2);
            return out;
        };
        const std::vector<Eigen::MatrixXd> one = fitAll(1), two = fitAll(2);
        for (std::size_t k = 0; k < one.size(); ++k)
            QVERIFY2(one[k] == two[k], qPrintable(QString("result %1 differs").arg(k)));
    }

    void rejectsBadInput()
    {
        QVERIFY_THROWS_EXCEPTION(SpecError, RidgeRegression(0.0));
        QVERIFY_THROWS_EXCEPTION(SpecError, RidgeRegression(std::nan("")));
        const MatrixXfR X = gaussianMatrix(5, 3, 1);
        RidgeRegression r(1.0);
        QVERIFY_THROWS_EXCEPTION(ContractError, r.predictClasses(X));
        QVERIFY_THROWS_EXCEPTION(ContractError, r.fit(X, std::vector<double>{1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(SpecError, r.fit(X, std::vector<int>{0, 1, 2, 0, 5}, 3));
        r.fit(X, std::vector<double>{1, 2, 3, 4, 5});
        QVERIFY_THROWS_EXCEPTION(ContractError, r.predictTargets(gaussianMatrix(2, 4, 1)));
        QVERIFY_THROWS_EXCEPTION(ContractError, r.predictClasses(X));
        const RidgePath path(X, std::vector<double>{1, 2, 3, 4, 5});
        QVERIFY_THROWS_EXCEPTION(SpecError, path.weights(-1.0));
    }
};

QTEST_APPLESS_MAIN(TestRidge)
#include "test_ridge.moc"

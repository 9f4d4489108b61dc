// Metrics on hand-computed examples.
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>

#include <cmath>

using namespace orbit;

class TestMetrics : public QObject {
    Q_OBJECT
private slots:
    void accuracyAndConfusion()
    {
        const std::vector<int> truth = {0, 0, 1, 1, 2, 2, 2, 1};
        const std::vector<int> pred = {0, 1, 1, 1, 2, 0, 2, 2};
        QCOMPARE(accuracy(pred, truth), 5.0 / 8.0);
        const Eigen::MatrixXi C = confusionMatrix(pred, truth, 3);
        Eigen::MatrixXi expected(3, 3);
        expected << 1, 1, 0,   // truth 0: one right, one called 1
            0, 2, 1,           // truth 1: two right, one called 2
            1, 0, 2;           // truth 2: one called 0, two right
        QVERIFY(C == expected);
        QCOMPARE(C.sum(), 8);
        QCOMPARE(C.trace(), 5);
    }

    void regressionErrors()
    {
        const std::vector<double> truth = {1.0, 2.0, 3.0, 4.0};
        const std::vector<double> pred = {1.5, 2.0, 1.0, 5.0};  // errors 0.5, 0, -2, 1
        QCOMPARE(mae(pred, truth), (0.5 + 0.0 + 2.0 + 1.0) / 4.0);
        QCOMPARE(rmse(pred, truth), std::sqrt((0.25 + 0.0 + 4.0 + 1.0) / 4.0));
        QCOMPARE(mean({1.0, 2.0, 6.0}), 3.0);
        QCOMPARE(standardDeviation({1.0, 3.0}), 1.0);
    }

    void rejectsMismatchedInput()
    {
        QVERIFY_THROWS_EXCEPTION(ContractError, accuracy({1, 2}, {1}));
        QVERIFY_THROWS_EXCEPTION(ContractError, accuracy({}, {}));
        QVERIFY_THROWS_EXCEPTION(ContractError, rmse({1.0}, {1.0, 2.0}));
        QVERIFY_THROWS_EXCEPTION(ContractError, confusionMatrix({0, 3}, {0, 1}, 3));
        QVERIFY_THROWS_EXCEPTION(ContractError, mean({}));
    }
};

QTEST_APPLESS_MAIN(TestMetrics)
#include "test_metrics.moc"

// Linear SVM through liblinear: on linearly separable data the L2-loss SVM with a large C attains
// zero training error (hard-margin limit); one-vs-rest handles several classes.
#include "LearnTestData.hpp"
#include "orbit/learn/LinearSvm.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>

using namespace orbit;
using namespace orbittest;

namespace {

int hits(const std::vector<int>& a, const std::vector<int>& b)
{
    int h = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        h += a[i] == b[i];
    return h;
}

} // namespace

class TestLinearSvm : public QObject {
    Q_OBJECT
private slots:
    void separableBinaryIsFitExactly()
    {
        // Class 0 has x_0 <= -1, class 1 has x_0 >= +1; other coordinates are noise.
        MatrixXfR X = gaussianMatrix(60, 3, 41);
        std::vector<int> y;
        for (int i = 0; i < 60; ++i) {
            const int c = i % 2;
            X(i, 0) = (c == 0 ? -1.0f : 1.0f) * (1.0f + std::abs(X(i, 0)));
            y.push_back(c);
        }
        LinearSvm svm(100.0, 1e-4);
        svm.fit(X, y, 2);
        QCOMPARE(hits(svm.predictClasses(X), y), 60);
        // The decision values for the two classes are opposite, and the separating weight is on x_0.
        const Eigen::MatrixXd F = svm.decisionValues(X);
        QVERIFY((F.col(0) + F.col(1)).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY(svm.weights()(0, 1) > 0.0);
        QVERIFY(std::abs(svm.weights()(0, 1)) > std::abs(svm.weights()(1, 1)));
    }

    void multiClassOneVsRest()
    {
        const Blobs train = gaussianBlobs(30, 4, 5, 6.0, 0.5, 42);
        LinearSvm svm(10.0, 1e-3);
        svm.fit(train.X, train.labels, 4);
        QCOMPARE(hits(svm.predictClasses(train.X), train.labels), 120);
        const Blobs test = gaussianBlobs(30, 4, 5, 6.0, 0.5, 43);
        QVERIFY(hits(svm.predictClasses(test.X), test.labels) >= 116);
        QCOMPARE(svm.weights().cols(), Eigen::Index(4));
    }

    void sameSeedSameModel()
    {
        const Blobs b = gaussianBlobs(25, 3, 4, 1.5, 1.0, 44);  // overlapping: the solver path matters
        LinearSvm s1(1.0, 0.1, 7), s2(1.0, 0.1, 7);
        s1.fit(b.X, b.labels, 3);
        s2.fit(b.X, b.labels, 3);
        QVERIFY(s1.weights() == s2.weights());
        QVERIFY(s1.bias() == s2.bias());
    }

    void absentClassIsNeverPredicted()
    {
        const Blobs b = gaussianBlobs(20, 3, 4, 5.0, 0.5, 45);
        LinearSvm svm(1.0);
        svm.fit(b.X, b.labels, 5);  // classes 3 and 4 have no training samples
        for (int p : svm.predictClasses(gaussianMatrix(50, 4, 46)))
            QVERIFY(p >= 0 && p < 3);
        std::vector<int> one(10, 2);
        svm.fit(b.X.topRows(10), one, 3);
        for (int p : svm.predictClasses(b.X))
            QCOMPARE(p, 2);
    }

    void rejectsBadInput()
    {
        QVERIFY_THROWS_EXCEPTION(SpecError, LinearSvm(0.0));
        QVERIFY_THROWS_EXCEPTION(SpecError, LinearSvm(1.0, -1.0));
        LinearSvm svm(1.0);
        const MatrixXfR X = gaussianMatrix(4, 2, 1);
        QVERIFY_THROWS_EXCEPTION(ContractError, svm.fit(X, std::vector<int>{0, 1, 2, 3}, 3));
        QVERIFY_THROWS_EXCEPTION(ContractError, svm.fit(X, std::vector<int>{0, 1}, 2));
        QVERIFY_THROWS_EXCEPTION(ContractError, svm.predictClasses(X));
    }
};

QTEST_APPLESS_MAIN(TestLinearSvm)
#include "test_linear_svm.moc"

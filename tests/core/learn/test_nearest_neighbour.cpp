// 1-NN: the prediction is the label of argmin_i ||x - x_i||^2 (lowest index on ties).
#include "LearnTestData.hpp"
#include "orbit/learn/NearestNeighbour.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>

using namespace orbit;
using namespace orbittest;

class TestNearestNeighbour : public QObject {
    Q_OBJECT
private slots:
    void handExample()
    {
        MatrixXfR X(3, 2);
        X << 0, 0, 1, 0, 0, 1;
        NearestNeighbour nn;
        nn.fit(X, std::vector<int>{7, 8, 9});
        MatrixXfR Q(5, 2);
        Q << 0.9f, 0.2f,   // -> (1, 0)
            -1, -1,        // -> (0, 0)
            0.1f, 2,       // -> (0, 1)
            1, 1,          // distance 1 to rows 1 and 2, 2 to row 0 -> the lower index 1
            0.5f, 0.5f;    // distance 0.5 to all three rows -> row 0
        QCOMPARE(nn.predictClasses(Q), (std::vector<int>{8, 7, 9, 8, 7}));
        nn.fit(X, std::vector<double>{0.5, 1.5, 2.5});
        QCOMPARE(nn.predictTargets(Q), (std::vector<double>{1.5, 0.5, 2.5, 1.5, 0.5}));
    }

    void matchesBruteForceOnRandomData()
    {
        const MatrixXfR X = gaussianMatrix(300, 8, 61), Q = gaussianMatrix(400, 8, 62);
        std::vector<int> labels(300);
        for (int i = 0; i < 300; ++i)
            labels[i] = i;
        NearestNeighbour nn;
        nn.fit(X, labels);
        const std::vector<std::size_t> got = nn.nearest(Q);
        int agree = 0;
        for (int q = 0; q < 400; ++q) {
            int best = 0;
            for (int i = 1; i < 300; ++i)
                if ((Q.row(q) - X.row(i)).cast<double>().squaredNorm() < (Q.row(q) - X.row(best)).cast<double>().squaredNorm())
                    best = i;
            agree += got[q] == static_cast<std::size_t>(best);
        }
        QCOMPARE(agree, 400);  // no near-ties at this size: float32 distances suffice
    }

    void rejectsBadInput()
    {
        NearestNeighbour nn;
        QVERIFY_THROWS_EXCEPTION(ContractError, nn.nearest(gaussianMatrix(2, 2, 1)));
        QVERIFY_THROWS_EXCEPTION(ContractError, nn.fit(gaussianMatrix(3, 2, 1), std::vector<int>{1, 2}));
        nn.fit(gaussianMatrix(3, 2, 1), std::vector<int>{1, 2, 3});
        QVERIFY_THROWS_EXCEPTION(ContractError, nn.nearest(gaussianMatrix(2, 3, 1)));
        QVERIFY_THROWS_EXCEPTION(ContractError, nn.predictTargets(gaussianMatrix(2, 2, 1)));
    }
};

QTEST_APPLESS_MAIN(TestNearestNeighbour)
#include "test_nearest_neighbour.moc"

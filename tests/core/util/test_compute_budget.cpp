// One compute budget for the process (orbit/util/ComputeBudget.hpp): the threads of each parallel
// region are the budget divided among the computations running, and results do not depend on it.
#include "orbit/features/FeatureMap.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include <QTest>
#include <QObject>

#include <omp.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

using namespace orbit;

namespace {

/// The team a region started on this thread gets.
int teamOfNextRegion()
{
    int team = 0;
#pragma omp parallel num_threads(orbit::teamSize())
    {
#pragma omp single
        team = omp_get_num_threads();
    }
    return team;
}

} // namespace

class TestComputeBudget : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        omp_set_num_threads(8);  // this thread's own cap above every budget below
        setComputeBudget(4);
    }
    void cleanup()
    {
        setComputeBudget(0);
        omp_set_num_threads(2);
    }

    void budgetIsSplitAmongRunningComputations()
    {
        QCOMPARE(activeComputations(), 0);
        QCOMPARE(teamSize(), 4);
        QCOMPARE(teamOfNextRegion(), 4);
        {
            const ComputeShare one;
            QCOMPARE(teamSize(), 4);
            const ComputeShare two;
            QCOMPARE(activeComputations(), 2);
            QCOMPARE(teamSize(), 2);
            QCOMPARE(teamOfNextRegion(), 2);
            const ComputeShare three, four, five;
            QCOMPARE(teamSize(), 1);  // never below one thread
            QCOMPARE(teamOfNextRegion(), 1);
        }
        QCOMPARE(activeComputations(), 0);
        QCOMPARE(teamSize(), 4);  // the threads come back when the others end
    }

    void threadSettingStillCaps()
    {
        // A thread limited to one thread (the determinism tests' omp_set_num_threads(1)) stays at one.
        omp_set_num_threads(1);
        QCOMPARE(teamSize(), 1);
        QCOMPARE(teamOfNextRegion(), 1);
    }

    void defaultBudgetIsRestored()
    {
        setComputeBudget(0);
        QVERIFY(computeBudget() >= 1);
        setComputeBudget(3);
        QCOMPARE(computeBudget(), 3);
    }

    void twoThreadsComputingAtOnceEachGetHalf()
    {
        std::atomic<int> arrived{0};
        std::vector<int> teams(2, 0);
        auto body = [&](int k) {
            omp_set_num_threads(8);
            const ComputeShare share;
            ++arrived;
            while (arrived.load() < 2) std::this_thread::yield();
            teams[std::size_t(k)] = teamOfNextRegion();
            ++arrived;
            while (arrived.load() < 4) std::this_thread::yield();  // both measured with both shares alive
        };
        std::thread a(body, 0), b(body, 1);
        a.join();
        b.join();
        QCOMPARE(teams[0], 2);
        QCOMPARE(teams[1], 2);
    }

    void featuresDoNotDependOnTheShare()
    {
        // The same IRF features alone (a team of 4) and as one of four computations (a team of 1).
        Dataset data;
        data.kind = DataKind::Images;
        data.shape = Shape{12, 12, 1};
        data.X = MatrixXfR::Random(96, 144);
        const FeatureContext ctx = makeFeatureContext(data, "rotation", "vonmises:kappa=1", "gaussian:sigma=4", 7);
        auto features = [&] {
            auto map = makeFeatureMap("irf:s=64,r=8", ctx);
            map->fit(data.X, 3);
            return map->transform(data.X);
        };
        const MatrixXfR alone = features();
        MatrixXfR shared;
        {
            const ComputeShare a, b, c, d;
            QCOMPARE(teamSize(), 1);
            shared = features();
        }
        QVERIFY(alone.size() > 0);
        QCOMPARE(std::memcmp(alone.data(), shared.data(), sizeof(float) * std::size_t(alone.size())), 0);
    }

    void learnersDoNotDependOnTheShare()
    {
        // A team of one thread while the thread may use more is not an active OpenMP region: Eigen
        // must still run single-threaded inside it (Gram tiles, the parallel Cholesky), or its own
        // team would change the summation order.
        const MatrixXfR X = MatrixXfR::Random(300, 420);
        std::vector<double> t;
        for (int i = 0; i < 300; ++i) t.push_back(X(i, 0) - 2.0 * X(i, 5));
        auto fit = [&] {
            RidgeRegression ridge(0.1, RidgeForm::Dual);
            ridge.fit(X, t);
            return ridge.weights();
        };
        const Eigen::MatrixXd alone = fit();
        Eigen::MatrixXd shared;
        {
            const ComputeShare a, b, c, d;
            shared = fit();
        }
        QVERIFY(alone == shared);
    }
};

QTEST_GUILESS_MAIN(TestComputeBudget)
#include "test_compute_budget.moc"

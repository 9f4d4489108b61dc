// The computation's MatrixPool (orbit/linalg/MatrixPool.hpp): a matrix given back is taken again,
// of its size or shrunk from a slightly larger one, without fresh pages; outside a scope nothing is
// kept. Pages are counted with getrusage's minor faults: a fresh 64 MB matrix written through takes
// about 16 000 of them (4 KB pages), a reused one none.
#include "orbit/linalg/MatrixPool.hpp"

#include <QtTest>

#include <sys/resource.h>

using namespace orbit;

namespace {

long minorFaults()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

/// The minor faults of writing every entry of m.
long faultsWriting(Eigen::MatrixXd& m)
{
    const long before = minorFaults();
    m.setConstant(1.0);
    return minorFaults() - before;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// ASan's allocator copies on realloc and quarantines what is freed; TSan's writes shadow pages too.
constexpr bool kCountablePages = false;
#else
constexpr bool kCountablePages = true;
#endif

#define REQUIRE_COUNTABLE_PAGES()                                                                                  \
    if (!kCountablePages) QSKIP("under a sanitizer the allocator's pages are not the program's to count")

constexpr Eigen::Index kD = 2896;  // 2896 x 2896 doubles: 64 MB, far above glibc's mapping threshold
constexpr long kFreshPages = 8L * kD * kD / 4096;

} // namespace

class TestMatrixPool : public QObject {
    Q_OBJECT

private slots:
    void freshMatrixPaysItsPages()
    {
        REQUIRE_COUNTABLE_PAGES();
        const MatrixPool::Scope scope;
        Eigen::MatrixXd m = MatrixPool::take(kD, kD);
        const long faults = faultsWriting(m);
        QVERIFY2(faults > kFreshPages / 2, qPrintable(QString("%1 faults for a fresh matrix of %2 pages").arg(faults).arg(kFreshPages)));
    }

    void matrixOfTheSameSizeIsTakenAgain()
    {
        REQUIRE_COUNTABLE_PAGES();
        const MatrixPool::Scope scope;
        Eigen::MatrixXd m = MatrixPool::take(kD, kD);
        faultsWriting(m);
        const double* where = m.data();
        MatrixPool::give(std::move(m));
        Eigen::MatrixXd again = MatrixPool::take(kD, kD);
        QCOMPARE(again.data(), where);
        QVERIFY(faultsWriting(again) < kFreshPages / 100);
    }

    // A D x D matrix from a kept D x (D + 2) one (a cell's G after a sum with its targets' columns):
    // the same pages, shrunk in place, with its own size.
    void slightlyLargerMatrixIsShrunkInPlace()
    {
        REQUIRE_COUNTABLE_PAGES();
        const MatrixPool::Scope scope;
        Eigen::MatrixXd m = MatrixPool::take(kD, kD + 2);
        faultsWriting(m);
        MatrixPool::give(std::move(m));
        const long before = minorFaults();  // the take's own faults count too (a copy would take fresh pages)
        Eigen::MatrixXd g = MatrixPool::take(kD, kD);
        QCOMPARE(g.rows(), kD);
        QCOMPARE(g.cols(), kD);
        g.setConstant(1.0);
        const long faults = minorFaults() - before;
        QVERIFY2(faults < kFreshPages / 100, qPrintable(QString("%1 faults for a shrunk matrix").arg(faults)));
        // Nothing is left in the pool: the next one of that size is fresh.
        Eigen::MatrixXd next = MatrixPool::take(kD, kD + 2);
        QVERIFY(faultsWriting(next) > kFreshPages / 2);
    }

    // Much larger ones are not cut down (the pool keeps them for a take of their size), nor smaller
    // ones grown.
    void otherSizesAreLeftKept()
    {
        const MatrixPool::Scope scope;
        Eigen::MatrixXd big = MatrixPool::take(kD, 2 * kD);
        Eigen::MatrixXd small = MatrixPool::take(kD, kD / 2);
        const double* bigWhere = big.data();
        MatrixPool::give(std::move(big));
        MatrixPool::give(std::move(small));
        Eigen::MatrixXd m = MatrixPool::take(kD, kD);
        QVERIFY(m.data() != bigWhere);
        QCOMPARE(MatrixPool::take(kD, 2 * kD).data(), bigWhere);
    }

    void withoutScopeNothingIsKept()
    {
        REQUIRE_COUNTABLE_PAGES();
        Eigen::MatrixXd m = MatrixPool::take(kD, kD);
        faultsWriting(m);
        MatrixPool::give(std::move(m));
        QCOMPARE(m.size(), Eigen::Index(0));
        Eigen::MatrixXd again = MatrixPool::take(kD, kD);
        QVERIFY(faultsWriting(again) > kFreshPages / 2);
    }

    void pagedInMatrixTakesItsFaultsBeforeItIsWritten()
    {
        REQUIRE_COUNTABLE_PAGES();
        const MatrixPool::Scope scope;
        const long before = minorFaults();
        Eigen::MatrixXd m = MatrixPool::takePagedIn(kD, kD);
        QVERIFY(minorFaults() - before > kFreshPages / 2);
        QVERIFY(faultsWriting(m) < kFreshPages / 100);
    }
};

QTEST_APPLESS_MAIN(TestMatrixPool)
#include "test_matrix_pool.moc"

// Splits: k-fold test sets partition the samples; hold-out keeps class proportions; seeds decide
// everything.
#include "orbit/evaluation/Splits.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>

#include <algorithm>
#include <set>

using namespace orbit;

namespace {

bool disjointAndComplete(const Split& s, std::size_t n)
{
    std::vector<int> seen(n, 0);
    for (std::size_t i : s.train)
        ++seen.at(i);
    for (std::size_t i : s.test)
        ++seen.at(i);
    return std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; });
}

} // namespace

class TestSplits : public QObject {
    Q_OBJECT
private slots:
    void kFoldPartitions()
    {
        const std::size_t n = 103;
        const std::vector<Split> folds = kFold(n, 5, 9);
        QCOMPARE(folds.size(), std::size_t(5));
        std::vector<int> tested(n, 0);
        for (const Split& s : folds) {
            QVERIFY(disjointAndComplete(s, n));            // train = complement of test
            QVERIFY(s.test.size() == 20 || s.test.size() == 21);  // sizes differ by at most one
            QVERIFY(std::is_sorted(s.test.begin(), s.test.end()));
            for (std::size_t i : s.test)
                ++tested[i];
        }
        QVERIFY(std::all_of(tested.begin(), tested.end(), [](int c) { return c == 1; }));  // tests partition 0..n-1
    }

    void seedsDecideTheFolds()
    {
        const std::vector<Split> a = kFold(50, 4, 1), b = kFold(50, 4, 1), c = kFold(50, 4, 2);
        QCOMPARE(a[0].test, b[0].test);
        QVERIFY(a[0].test != c[0].test);
        QCOMPARE(holdOut(80, 0.25, 3).test, holdOut(80, 0.25, 3).test);
        QVERIFY(holdOut(80, 0.25, 3).test != holdOut(80, 0.25, 4).test);
        const Indices p = seededPermutation(10, 5);
        QCOMPARE(std::set<std::size_t>(p.begin(), p.end()).size(), std::size_t(10));
    }

    void predefinedFoldsAreUsed()
    {
        Dataset ds;
        ds.X = MatrixXfR::Zero(6, 1);
        ds.targets = {1, 2, 3, 4, 5, 6};
        ds.folds = {2, 0, 2, 1, 0, 1};
        const std::vector<Split> splits = kFoldFor(ds, 0, 0);
        QCOMPARE(splits.size(), std::size_t(3));
        QCOMPARE(splits[0].test, (Indices{1, 4}));
        QCOMPARE(splits[1].test, (Indices{3, 5}));
        QCOMPARE(splits[2].test, (Indices{0, 2}));
        QCOMPARE(splits[2].train, (Indices{1, 3, 4, 5}));
        QCOMPARE(kFoldFor(ds, 3, 0).size(), std::size_t(3));
        QVERIFY_THROWS_EXCEPTION(SpecError, kFoldFor(ds, 5, 0));
        ds.folds.clear();
        QCOMPARE(kFoldFor(ds, 2, 0).size(), std::size_t(2));
    }

    void stratifiedHoldOutKeepsProportions()
    {
        std::vector<int> labels;
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 50 - 15 * c; ++k)  // classes of 50, 35, 20
                labels.push_back(c);
        std::rotate(labels.begin(), labels.begin() + 17, labels.end());
        const Split s = stratifiedHoldOut(labels, 0.2, 11);
        QVERIFY(disjointAndComplete(s, labels.size()));
        int perClass[3] = {0, 0, 0};
        for (std::size_t i : s.test)
            ++perClass[labels[i]];
        QCOMPARE(perClass[0], 10);  // round(0.2 * 50)
        QCOMPARE(perClass[1], 7);   // round(0.2 * 35)
        QCOMPARE(perClass[2], 4);   // round(0.2 * 20)
    }

    void innerValidationStaysInsideTraining()
    {
        const std::vector<int> labels = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
        const Split outer = kFold(12, 3, 4)[1];
        const Split inner = innerValidation(outer.train, 0.25, 5, labels);
        std::set<std::size_t> train(outer.train.begin(), outer.train.end());
        QCOMPARE(inner.train.size() + inner.test.size(), outer.train.size());
        for (std::size_t i : inner.train)
            QVERIFY(train.count(i));
        for (std::size_t i : inner.test)
            QVERIFY(train.count(i));
    }

    void selectsRows()
    {
        MatrixXfR X(3, 2);
        X << 1, 2, 3, 4, 5, 6;
        const MatrixXfR S = selectRows(X, {2, 0});
        QCOMPARE(S(0, 1), 6.0f);
        QCOMPARE(S(1, 0), 1.0f);
        QCOMPARE(select(std::vector<int>{7, 8, 9}, {1, 1}), (std::vector<int>{8, 8}));
        QVERIFY_THROWS_EXCEPTION(ContractError, selectRows(X, {3}));
    }

    void rejectsBadArguments()
    {
        QVERIFY_THROWS_EXCEPTION(SpecError, kFold(10, 1, 0));
        QVERIFY_THROWS_EXCEPTION(SpecError, kFold(3, 4, 0));
        QVERIFY_THROWS_EXCEPTION(SpecError, holdOut(10, 0.0, 0));
        QVERIFY_THROWS_EXCEPTION(SpecError, holdOut(10, 1.0, 0));
        QVERIFY_THROWS_EXCEPTION(SpecError, holdOut(3, 0.01, 0));  // empty test set
        QVERIFY_THROWS_EXCEPTION(SpecError, predefinedFolds({1, 1, 1}));
    }
};

QTEST_APPLESS_MAIN(TestSplits)
#include "test_splits.moc"

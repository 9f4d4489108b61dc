// Dataset invariants (X is N x shape.dim(), values finite, images in [0, 1], labels in
// [0, numClasses), labels xor targets), subset, and the format / kind names.
#include "orbit/data/Dataset.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace orbit;

namespace {
Dataset small()
{
    Dataset d;
    d.kind = DataKind::Images;
    d.shape = {2, 2, 1};
    d.X.resize(3, 4);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) d.X(i, j) = 0.1f * static_cast<float>(i + j);
    d.labels = {0, 2, 1};
    d.numClasses = 3;
    d.names = {"a", "b", "c"};
    return d;
}
} // namespace

class TestDataset : public QObject {
    Q_OBJECT
private slots:
    void validDatasetPasses() { small().checkInvariants(); }
    void invariantsCatchEachViolation_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("columns differ from shape") << 0;
        QTest::newRow("NaN value") << 1;
        QTest::newRow("image value above 1") << 2;
        QTest::newRow("label out of range") << 3;
        QTest::newRow("labels and targets") << 4;
        QTest::newRow("label count") << 5;
        QTest::newRow("unlabelled vectors") << 6;
        QTest::newRow("class names count") << 7;
        QTest::newRow("non-square Coulomb") << 8;
        QTest::newRow("infinite target") << 9;
    }
    void invariantsCatchEachViolation()
    {
        QFETCH(int, which);
        Dataset d = small();
        switch (which) {
        case 0: d.shape = {2, 3, 1}; break;
        case 1: d.X(1, 1) = std::numeric_limits<float>::quiet_NaN(); break;
        case 2: d.X(2, 3) = 1.5f; break;
        case 3: d.labels[1] = 3; break;
        case 4: d.targets = {1, 2, 3}; break;
        case 5: d.labels.pop_back(); break;
        case 6: d.kind = DataKind::Vectors, d.shape = {1, 4, 1}, d.labels.clear(); break;
        case 7: d.classNames = {"x"}; break;
        case 8: d.kind = DataKind::Coulomb, d.shape = {1, 4, 1}; break;
        case 9: d.labels.clear(), d.kind = DataKind::Vectors, d.shape = {1, 4, 1},
                d.targets = {1, std::numeric_limits<double>::infinity(), 0}; break;
        }
        QVERIFY_THROWS_EXCEPTION(std::logic_error, d.checkInvariants());
    }
    void subsetCarriesEverything()
    {
        Dataset d = small();
        d.folds = {0, 1, 2};
        const Dataset s = d.subset({2, 0, 2});
        QCOMPARE(s.count(), std::size_t(3));
        QCOMPARE(s.labels, (std::vector<int>{1, 0, 1}));
        QCOMPARE(s.names, (std::vector<std::string>{"c", "a", "c"}));
        QCOMPARE(s.folds, (std::vector<int>{2, 0, 2}));
        QCOMPARE(s.numClasses, 3);
        for (int j = 0; j < 4; ++j) {
            QCOMPARE(s.X(0, j), d.X(2, j));
            QCOMPARE(s.X(1, j), d.X(0, j));
        }
        QCOMPARE(s.sample(1)[3], d.sample(0)[3]);
        s.checkInvariants();
        QVERIFY(s.targets.empty() && s.charges.empty());
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, d.subset({0, 3}));
        QCOMPARE(d.subset({}).count(), std::size_t(0));
    }
    void names()
    {
        QCOMPARE(QString(toString(DataKind::Images)), QString("images"));
        QCOMPARE(QString(toString(DataKind::Coulomb)), QString("coulomb"));
        QCOMPARE(QString(toString(DataKind::Vectors)), QString("vectors"));
        const char* all[] = {"idx", "cifar", "amat", "image", "folder", "digits", "mat", "extxyz", "csv"};
        for (const char* n : all) QCOMPARE(QString(toString(parseFormat(n))), QString(n));
        QCOMPARE(parseFormat("IDX"), Format::Idx);
        try {
            parseFormat("hdf5");
            QFAIL("unknown format accepted");
        } catch (const SpecError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("format"));
            QCOMPARE(QString::fromStdString(e.value()), QString("hdf5"));
        }
    }
};

QTEST_APPLESS_MAIN(TestDataset)
#include "test_dataset.moc"

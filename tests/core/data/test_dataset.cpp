// Dataset invariants (X is N x shape.dim(), values finite, images in [0, 1], labels in
// [0, numClasses), labels xor targets), subset, and the format / kind names.
#include "orbit/data/Dataset.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/training/RotatedImages.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>
#include <QString>

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
    /// Rows not held read as zeros, whether they span whole pages (given back to the system) or
    /// share pages with held rows (zeroed by hand), and the held rows keep their values.
    void releasedRowsReadAsZeros()
    {
        const Eigen::Index n = 300, d = 1500;  // rows of 6000 bytes: runs cut pages anywhere
        MatrixXfR X = MatrixXfR::Constant(n, d, 0.5f);
        for (Eigen::Index i = 0; i < n; ++i) X(i, 0) = float(i);
        const MatrixXfR before = X;
        std::vector<char> held(std::size_t(n), 0);
        for (Eigen::Index i : {0, 1, 7, 8, 9, 150, 299}) held[std::size_t(i)] = 1;
        releaseRows(X, held);
        for (Eigen::Index i = 0; i < n; ++i) {
            if (held[std::size_t(i)])
                QVERIFY(X.row(i) == before.row(i));
            else
                QVERIFY2(X.row(i).isZero(0.0f), qPrintable(QString("row %1").arg(i)));
        }
        X.row(20).setConstant(2.0f);  // a released row can be written again
        QCOMPARE(X(20, d - 1), 2.0f);
        QVERIFY(X.row(21).isZero(0.0f));
        QVERIFY_THROWS_EXCEPTION(ContractError, releaseRows(X, std::vector<char>(3, 1)));
    }
    /// subset, followedBy and the image recipes carry which rows are held, and fill only those.
    void heldRowsFollowTheRecipes()
    {
        Dataset d = small();
        d.held = {1, 0, 1};
        releaseRows(d.X, d.held);
        d.checkInvariants();
        QCOMPARE(d.heldCount(), std::size_t(2));
        const Dataset s = d.subset({2, 1});
        QCOMPARE(s.held, (std::vector<char>{1, 0}));
        QVERIFY(s.X.row(0) == d.X.row(2) && s.X.row(1).isZero(0.0f));
        Dataset whole = small();
        const Dataset both = whole.followedBy(d);
        QCOMPARE(both.held, (std::vector<char>{1, 1, 1, 1, 0, 1}));
        QVERIFY(both.X.topRows(3) == whole.X && both.X.row(3) == d.X.row(0) && both.X.row(4).isZero(0.0f));
        both.checkInvariants();
        QVERIFY_THROWS_EXCEPTION(ContractError, both.requireHeld(2, 5, "test"));
        const Dataset rotated = rotatedImages(d, 4, 7, 0.0);
        const Dataset rotatedWhole = rotatedImages(small(), 4, 7, 0.0);
        QCOMPARE(rotated.held, d.held);
        QVERIFY(rotated.X.row(0) == rotatedWhole.X.row(0) && rotated.X.row(2) == rotatedWhole.X.row(2));
        QVERIFY(rotated.X.row(1).isZero(0.0f));
        const Dataset moved = transformedImages(d, 4, "translation", "gaussian:sigma=0.5", 3);
        const Dataset movedWhole = transformedImages(small(), 4, "translation", "gaussian:sigma=0.5", 3);
        QVERIFY(moved.X.row(2) == movedWhole.X.row(2) && moved.X.row(1).isZero(0.0f));
        // A held mask of the wrong size breaks the invariants.
        d.held = {1, 1};
        QVERIFY_THROWS_EXCEPTION(std::logic_error, d.checkInvariants());
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

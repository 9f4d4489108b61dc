// The feature maps' products skip the columns that are zero in every row of a block (features/
// Pooling.hpp, ColumnSupport and SupportProduct; a private engine header, read here directly):
// the runs of the support, and products equal to the dense ones up to float rounding.
#include "features/Pooling.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <algorithm>
#include <vector>

using namespace orbit;
using detail::ColumnSupport;
using detail::SupportProduct;

namespace {

/// rows x cols uniform in [-1, 1], with the listed columns zero in every row.
template <class Columns>
MatrixXfR withZeroColumns(Eigen::Index rows, Eigen::Index cols, const Columns& zero)
{
    MatrixXfR X = MatrixXfR::Random(rows, cols);
    for (Eigen::Index c : zero) X.col(c).setZero();
    return X;
}

/// The largest |A - B| against the largest |B|.
double relativeError(const MatrixXfR& A, const MatrixXfR& B)
{
    return double((A - B).cwiseAbs().maxCoeff()) / std::max(1e-30, double(B.cwiseAbs().maxCoeff()));
}

} // namespace

class TestSupportProduct : public QObject {
    Q_OBJECT
private slots:
    void supportIsTheRunsOfColumnsUsedByAnyRow()
    {
        MatrixXfR X = withZeroColumns(4, 10, std::vector<Eigen::Index>{0, 3, 4, 8, 9});
        X(2, 4) = 0.0f;   // already zero: stays out
        X(3, 3) = 0.5f;   // one row makes column 3 part of the support
        const ColumnSupport s(X);
        QCOMPARE(s.size(), Eigen::Index(6));  // 1 2 3 | 5 6 7
        QCOMPARE(s.depth(), Eigen::Index(8));
        QVERIFY(s.gathered());
        std::vector<float> row(10), out(6, -1.0f);
        for (int c = 0; c < 10; ++c) row[std::size_t(c)] = float(c);
        s.gather(row.data(), out.data());
        QCOMPARE(out, (std::vector<float>{1, 2, 3, 5, 6, 7}));
    }

    void aDenseBlockOrOneWithOnlyTrailingZerosIsNotGathered()
    {
        const ColumnSupport dense(MatrixXfR::Random(5, 12).eval());
        QCOMPARE(dense.size(), Eigen::Index(12));
        QCOMPARE(dense.depth(), Eigen::Index(12));
        QVERIFY(!dense.gathered());
        // Zero-padded Coulomb matrices in shell order: the zeros trail, the leading columns suffice.
        const ColumnSupport trailing(withZeroColumns(5, 12, std::vector<Eigen::Index>{9, 10, 11}));
        // One interior zero column of 12 is worth skipping, none of a dense block.
        const ColumnSupport one(withZeroColumns(5, 12, std::vector<Eigen::Index>{4}));
        QCOMPARE(one.size(), Eigen::Index(11));
        QVERIFY(one.gathered());
        QCOMPARE(trailing.depth(), Eigen::Index(9));
        QVERIFY(!trailing.gathered());
        const ColumnSupport none(MatrixXfR::Zero(3, 7).eval());
        QCOMPARE(none.size(), Eigen::Index(0));
        QCOMPARE(none.depth(), Eigen::Index(1));
        QVERIFY(!none.gathered());
    }

    // A 20 x 20 image block with an empty border two pixels wide: the gathered product equals the
    // dense one to float rounding, for every template row range, and both paths agree with Eigen's.
    void productsOnTheSupportEqualTheDenseProducts()
    {
        std::vector<Eigen::Index> border;
        for (Eigen::Index y = 0; y < 20; ++y)
            for (Eigen::Index x = 0; x < 20; ++x)
                if (std::min({x, y, 19 - x, 19 - y}) < 2) border.push_back(y * 20 + x);
        const MatrixXfR X = withZeroColumns(70, 400, border);
        const MatrixXfR B = MatrixXfR::Random(90, 400);
        const SupportProduct product(X);
        QVERIFY(product.support().gathered());
        QCOMPARE(product.support().size(), Eigen::Index(256));
        for (auto [row0, rows] : {std::pair<Eigen::Index, Eigen::Index>{0, 90}, {17, 40}, {89, 1}}) {
            MatrixXfR P(70, rows);
            product.multiply(B, row0, rows, P);
            const MatrixXfR dense = X * B.middleRows(row0, rows).transpose();
            QVERIFY2(relativeError(P, dense) < 1e-5, qPrintable(QString::number(relativeError(P, dense))));
        }
        // The same block with one dense row: not gathered, the same products to rounding.
        MatrixXfR Y = X;
        Y.row(5).setConstant(0.25f);
        const SupportProduct full(Y);
        QVERIFY(!full.support().gathered());
        MatrixXfR P(70, 90), Q(70, 90);
        full.multiply(B, 0, 90, P);
        const MatrixXfR dense = Y * B.transpose();
        QVERIFY(relativeError(P, dense) < 1e-5);
        product.multiply(B, 0, 90, Q);
        Q.row(5) = P.row(5);
        QVERIFY(relativeError(Q, P) < 1e-5);
    }
};

QTEST_APPLESS_MAIN(TestSupportProduct)
#include "test_support_product.moc"

// krr's kernel on features (orbit/learn/FeatureKernel.hpp): an inner product's bits depend only on
// its two rows, on both product paths, so a saved krr model computes the kernel values `train` did
// for the same rows wherever they lie; and the values are the inner products.
#include "orbit/learn/FeatureKernel.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"

#include "RandomMatrices.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace orbit;

namespace {

/// Rows of A at `rows`.
MatrixXfR pick(const MatrixXfR& A, const std::vector<Eigen::Index>& rows)
{
    MatrixXfR out(Eigen::Index(rows.size()), A.cols());
    for (std::size_t k = 0; k < rows.size(); ++k) out.row(Eigen::Index(k)) = A.row(rows[k]);
    return out;
}

/// Every k-th row from `first`, in reverse order when `reverse`.
std::vector<Eigen::Index> everyKth(Eigen::Index n, Eigen::Index first, Eigen::Index k, bool reverse)
{
    std::vector<Eigen::Index> rows;
    for (Eigen::Index i = first; i < n; i += k) rows.push_back(i);
    if (reverse) std::reverse(rows.begin(), rows.end());
    return rows;
}

std::vector<GemmPath> paths()
{
    std::vector<GemmPath> p{GemmPath::Eigen};
    if (blasAvailable()) p.push_back(GemmPath::Blas);
    return p;
}

} // namespace

class TestFeatureKernel : public QObject {
    Q_OBJECT
private slots:
    void cleanup()
    {
        setGemmPath(blasAvailable() ? GemmPath::Blas : GemmPath::Eigen);
        setComputeBudget(0);
    }

    // The N x N Gram of a run and the products of some of its rows against others, at other places
    // (odd counts, reversed, past tile edges), at 1 and 2 threads: the same bits, entry by entry.
    void anEntrysBitsDependOnlyOnItsRows()
    {
        for (const Eigen::Index dim : {Eigen::Index(37), Eigen::Index(400), Eigen::Index(1100)}) {
            const MatrixXfR F = orbittest::uniformMatrix(613, dim, 11);
            for (const GemmPath path : paths()) {
                setGemmPath(path);
                setComputeBudget(2);
                const Eigen::MatrixXd K = featureGram(F);
                const auto a = everyKth(F.rows(), 3, 7, true), b = everyKth(F.rows(), 0, 2, false);
                setComputeBudget(1);
                const Eigen::MatrixXd P = featureInnerProducts(pick(F, a), pick(F, b));
                const Eigen::VectorXd n2 = featureSquaredNorms(pick(F, a));
                const QString where = QString("D = %1 on the %2 path").arg(dim).arg(QString::fromStdString(gemmName(path)));
                for (std::size_t i = 0; i < a.size(); ++i) {
                    QVERIFY2(n2[Eigen::Index(i)] == K(a[i], a[i]), qPrintable(where + ": a squared norm"));
                    for (std::size_t j = 0; j < b.size(); ++j)
                        if (P(Eigen::Index(i), Eigen::Index(j)) != K(a[i], b[j]))
                            QFAIL(qPrintable(where + QString(": entry (%1, %2) differs").arg(a[i]).arg(b[j])));
                }
                QVERIFY(K == K.transpose());
            }
        }
    }

    void theyAreTheInnerProducts()
    {
        const MatrixXfR A = orbittest::uniformMatrix(300, 70, 3), B = orbittest::uniformMatrix(260, 70, 4);
        const Eigen::MatrixXd P = featureInnerProducts(A, B);
        const Eigen::MatrixXd exact = A.cast<double>() * B.cast<double>().transpose();
        QVERIFY((P - exact).cwiseAbs().maxCoeff() <= 1e-12 * exact.cwiseAbs().maxCoeff());
        const Eigen::MatrixXd K = gaussianGram(A, 2.5);
        const double d2 = (A.row(5).cast<double>() - A.row(9).cast<double>()).squaredNorm();
        QVERIFY(std::abs(K(5, 9) - std::exp(-d2 / (2 * 2.5 * 2.5))) <= 1e-12);
        QCOMPARE(K(7, 7), 1.0);
        QVERIFY_THROWS_EXCEPTION(SpecError, gaussianGram(A, 0.0));
        QVERIFY_THROWS_EXCEPTION(ContractError, featureInnerProducts(A, MatrixXfR(3, 4)));
    }

    // dualScores: each row summed alone, so rows picked from a larger matrix give the same bits.
    void dualScoresOfARowDoNotDependOnTheOthers()
    {
        const Eigen::MatrixXd K = orbittest::uniformMatrix(700, 90, 5).cast<double>();
        const Eigen::MatrixXd D = orbittest::uniformMatrix(90, 3, 6).cast<double>();
        const Eigen::MatrixXd S = dualScores(K, D);
        QVERIFY((S - K * D).cwiseAbs().maxCoeff() <= 1e-12);
        const Eigen::MatrixXd some = dualScores(K.middleRows(257, 3), D);
        QVERIFY(some == S.middleRows(257, 3));
    }
};

QTEST_MAIN(TestFeatureKernel)
#include "test_feature_kernel.moc"

// The maps without parameters: the sorted Coulomb matrix is permutation invariant, and it is noisy
// sort at sigma = 0 (one ordering rule, distributions/NoisySort.hpp: rowNormOrder).
#include "FeatureTestData.hpp"
#include "RandomMatrices.hpp"

#include "orbit/distributions/NoisySort.hpp"
#include "orbit/util/Random.hpp"

#include <QTest>
#include <QObject>

using namespace orbit;
using orbittest::context;
using orbittest::symmetricMatrices;

class TestSimpleMaps : public QObject {
    Q_OBJECT
private slots:
    // The sorted Coulomb matrix is invariant to simultaneous row/column permutations.
    void sortedCoulombIsPermutationInvariant()
    {
        const Shape shape{5, 5, 1};
        auto c = context(DataKind::Coulomb, shape, "permutation", "haar", 1.0);
        auto f = makeFeatureMap("sorted", c);
        const MatrixXfR X = symmetricMatrices(1, 5, 16);
        MatrixXfR Y(2, 25);
        Y.row(0) = X.row(0);
        GroupElement g = c.group->identity(shape);
        g.perm = {4, 2, 0, 1, 3};
        c.group->apply(g, X.data(), Y.data() + 25, shape);
        const MatrixXfR F = f->transform(Y);
        QCOMPARE((F.row(0) - F.row(1)).cwiseAbs().maxCoeff(), 0.0f);
    }

    // `sorted` applies the permutation noisy sort draws at sigma = 0: rows by decreasing norm, the
    // zero padding of a smaller molecule last in its order.
    void sortedIsNoisySortAtSigmaZero()
    {
        const int n = 6;
        MatrixXfR X = symmetricMatrices(3, n, 21);
        for (int i = 0; i < n; ++i) {  // molecule 1 has 4 atoms: rows and columns 4, 5 are zero
            X(1, 4 * n + i) = X(1, i * n + 4) = 0.0f;
            X(1, 5 * n + i) = X(1, i * n + 5) = 0.0f;
        }
        auto f = makeFeatureMap("sorted", context(DataKind::Coulomb, Shape{n, n, 1}, "", "", 1.0));
        const MatrixXfR F = f->transform(X);
        const NoisySort zero(0.0);
        Rng rng = makeRng(1, 0);
        for (Eigen::Index m = 0; m < X.rows(); ++m) {
            const std::vector<int> p = zero.sortPermutation(rng, X.row(m).data(), n);
            QCOMPARE(p, rowNormOrder(X.row(m).data(), n));
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) QCOMPARE(F(m, i * n + j), X(m, p[std::size_t(i)] * n + p[std::size_t(j)]));
        }
        const std::vector<int> padded = rowNormOrder(X.row(1).data(), n);
        QCOMPARE(padded[4], 4);
        QCOMPARE(padded[5], 5);
    }
};

QTEST_APPLESS_MAIN(TestSimpleMaps)
#include "test_simple_maps.moc"

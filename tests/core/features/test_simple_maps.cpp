// The maps without parameters: the sorted Coulomb matrix is permutation invariant.
#include "FeatureTestData.hpp"
#include "RandomMatrices.hpp"

#include <QtTest>

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
};

QTEST_APPLESS_MAIN(TestSimpleMaps)
#include "test_simple_maps.moc"

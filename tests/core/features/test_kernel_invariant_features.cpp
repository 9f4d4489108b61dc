// Kernel invariant features (Pal & Savvides, kif): invariant when G0 is the whole finite group.
#include "orbit/features/KernelInvariantFeatures.hpp"

#include "FeatureTestData.hpp"
#include "RandomMatrices.hpp"

#include <QTest>
#include <QObject>
#include <QString>

using namespace orbit;
using orbittest::context;
using orbittest::digits;
using orbittest::symmetricMatrices;

class TestKernelInvariantFeatures : public QObject {
    Q_OBJECT
private slots:
    // Pal & Savvides features: sum_{g in G0} eta(k(x, g t)) is invariant when G0 is the whole finite group
    // (C_4 on images, S_4 on 4 x 4 matrices), for mean, max and moment pooling.
    void kernelInvariantFeaturesAreInvariant_data()
    {
        QTest::addColumn<QString>("eta");
        QTest::newRow("mean") << "mean";
        QTest::newRow("max") << "max";
        QTest::newRow("moments:3") << "moments:3";
    }

    void kernelInvariantFeaturesAreInvariant()
    {
        QFETCH(QString, eta);
        {
            const Dataset& d = digits();
            auto c = context(DataKind::Images, d.shape, "cyclic:n=4", "haar", 8.0);
            auto f = makeFeatureMap("kif:k=10,eta=" + eta.toStdString(), c);
            f->fit(d.X.topRows(30), 4);
            QCOMPARE(dynamic_cast<KernelInvariantFeatures&>(*f).groupSize(), 4);
            MatrixXfR X(2, d.shape.dim());
            X.row(0) = d.X.row(40);
            GroupElement g;
            g.k = 1;
            c.group->apply(g, d.sample(40), X.data() + X.cols(), d.shape);
            const MatrixXfR F = f->transform(X);
            QVERIFY((F.row(0) - F.row(1)).cwiseAbs().maxCoeff() < 1e-5);
        }
        {
            const Shape shape{4, 4, 1};
            auto c = context(DataKind::Coulomb, shape, "permutation", "haar", 3.0);
            auto f = makeFeatureMap("kif:k=5,eta=" + eta.toStdString(), c);
            const MatrixXfR X = symmetricMatrices(8, 4, 15);
            f->fit(X, 4);
            QCOMPARE(dynamic_cast<KernelInvariantFeatures&>(*f).groupSize(), 24);
            MatrixXfR Y(2, 16);
            Y.row(0) = X.row(6);
            GroupElement g = c.group->identity(shape);
            g.perm = {3, 1, 0, 2};
            c.group->apply(g, X.data() + 6 * 16, Y.data() + 16, shape);
            const MatrixXfR F = f->transform(Y);
            QVERIFY((F.row(0) - F.row(1)).cwiseAbs().maxCoeff() < 1e-5);
        }
    }
};

QTEST_APPLESS_MAIN(TestKernelInvariantFeatures)
#include "test_kernel_invariant_features.moc"

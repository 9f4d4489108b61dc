// Kernel invariant features (Pal & Savvides, kif): invariant when G0 is the whole finite group,
// with the Laplacian kernel under permutations, refused with it under rotations.
#include "orbit/features/KernelInvariantFeatures.hpp"
#include "orbit/util/Error.hpp"

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

    // The Laplacian is a unitary kernel (k(gx, gy) = k(x, y), their Definition 2.2) for
    // permutations of coordinates: over S_4 its features are invariant and equal the definition
    // (1/|G|) sum_g exp(-||x - g t||_1 / sigma) computed directly. Under rotations (interpolated)
    // it is not, and kif refuses it in one line naming the kernel field.
    void laplacianKernelInvariantFeatures()
    {
        const Shape shape{4, 4, 1};
        FeatureContext c = context(DataKind::Coulomb, shape, "permutation", "haar", 1.0);
        c.kernel = BaseKernel::laplacian(4.0);
        auto f = makeFeatureMap("kif:k=6,eta=mean", c);
        const MatrixXfR X = symmetricMatrices(10, 4, 16);
        f->fit(X, 5);
        QCOMPARE(dynamic_cast<KernelInvariantFeatures&>(*f).groupSize(), 24);
        MatrixXfR Y(2, 16);
        Y.row(0) = X.row(7);
        GroupElement g = c.group->identity(shape);
        g.perm = {2, 0, 3, 1};
        c.group->apply(g, X.data() + 7 * 16, Y.data() + 16, shape);
        const MatrixXfR F = f->transform(Y);
        QVERIFY2((F.row(0) - F.row(1)).cwiseAbs().maxCoeff() < 1e-5, qPrintable(QString::number((F.row(0) - F.row(1)).cwiseAbs().maxCoeff())));
        // The definition, by brute force: some template t_k gives these values.
        const auto elements = c.group->elements(shape);
        std::vector<float> moved(16);
        int matched = 0;
        for (Eigen::Index t = 0; t < X.rows(); ++t) {
            double sum = 0;
            for (const GroupElement& h : elements) {
                c.group->apply(h, X.data() + t * 16, moved.data(), shape);
                sum += (*c.kernel)(Y.data(), moved.data(), 16);
            }
            sum /= double(elements.size());
            for (Eigen::Index j = 0; j < F.cols(); ++j) matched += std::abs(F(0, j) - sum) < 1e-5;
        }
        QCOMPARE(matched, 6);

        const Dataset& d = digits();
        FeatureContext rotation = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=1", 1.0);
        rotation.kernel = BaseKernel::laplacian(2000.0);
        try {
            makeFeatureMap("kif:k=5", rotation);
            QFAIL("kif of the laplacian kernel under rotations");
        } catch (const SpecError& e) {
            const std::string what = e.what();
            QCOMPARE(e.field(), std::string("kernel"));
            QVERIFY2(what.find('\n') == std::string::npos && what.find("permute coordinates") != std::string::npos, what.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestKernelInvariantFeatures)
#include "test_kernel_invariant_features.moc"

// Nyström maps (nystrom, inystrom): exact on the landmarks, the Cholesky and pseudo-inverse
// whitenings, orbit landmarks, a fit that cancels in each of its steps, and invariance under C_4.
#include "orbit/features/NystromMap.hpp"
#include "orbit/util/Error.hpp"

#include "FeatureTestData.hpp"
#include "RandomMatrices.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <algorithm>
#include <string>
#include <vector>

using namespace orbit;
using orbittest::context;
using orbittest::digits;
using orbittest::randomMatrix;
using orbittest::sameBits;

class TestNystrom : public QObject {
    Q_OBJECT
private slots:
    // Nystrom reproduces K on its landmarks: psi(z_i).psi(z_j) = (K K^+ K)_ij = K_ij.
    void nystromIsExactOnLandmarks()
    {
        const MatrixXfR X = randomMatrix(60, 8, 14);
        FeatureContext c = context(DataKind::Vectors, Shape{1, 8, 1}, "", "", 2.5);
        for (const char* spec : {"nystrom:s=20", "nystrom:s=20,landmarks=kmeans", "nystrom:s=20,tol=1e-6",
                                 "nystrom:s=20,jitter=1e-8"}) {
            auto f = makeFeatureMap(spec, c);
            f->fit(X, 3);
            const MatrixXfR& Z = dynamic_cast<NystromMap&>(*f).landmarks();
            const MatrixXfR F = f->transform(Z);
            const MatrixXfR err = F * F.transpose() - c.kernel->matrix(Z, Z);
            QVERIFY2(err.cwiseAbs().maxCoeff() < 1e-3, qPrintable(QString("%1: %2").arg(spec).arg(err.cwiseAbs().maxCoeff())));
        }
    }

    // Both whitenings give L^T L = K_ZZ^-1 when K_ZZ is well conditioned: the same kernel on new points.
    // Cholesky keeps all s directions; on a kernel whose spectrum falls fast (wide Gaussian on
    // digits) the pseudo-inverse at tol 1e-6 keeps far fewer, and the Cholesky kernel is closer
    // to the exact one away from the landmarks.
    void choleskyAndPseudoInverseWhitenings()
    {
        const MatrixXfR X = randomMatrix(80, 8, 15), Y = randomMatrix(30, 8, 16);
        const FeatureContext narrow = context(DataKind::Vectors, Shape{1, 8, 1}, "", "", 1.5);
        auto chol = makeFeatureMap("nystrom:s=25", narrow), eig = makeFeatureMap("nystrom:s=25,tol=1e-12", narrow);
        chol->fit(X, 4);
        eig->fit(X, 4);
        QCOMPARE(chol->dim(), Eigen::Index(25));
        QCOMPARE(eig->dim(), Eigen::Index(25));
        const MatrixXfR A = chol->transform(Y), B = eig->transform(Y);
        const MatrixXfR diff = A * A.transpose() - B * B.transpose();
        QVERIFY2(diff.cwiseAbs().maxCoeff() < 1e-4, qPrintable(QString::number(diff.cwiseAbs().maxCoeff())));
        QCOMPARE(chol->spec(), std::string("nystrom:s=25"));
        QCOMPARE(eig->spec(), std::string("nystrom:s=25,tol=1e-12"));

        const Dataset& d = digits();
        const FeatureContext wide = context(DataKind::Images, d.shape, "", "", 80.0);
        auto fullRank = makeFeatureMap("nystrom:s=200", wide), truncated = makeFeatureMap("nystrom:s=200,tol=1e-6", wide);
        fullRank->fit(d.X.topRows(400), 6);
        truncated->fit(d.X.topRows(400), 6);
        QCOMPARE(fullRank->dim(), Eigen::Index(200));
        QVERIFY2(truncated->dim() < 100, std::to_string(truncated->dim()).c_str());
        const MatrixXfR T = d.X.middleRows(400, 100), K = wide.kernel->matrix(T, T);
        const MatrixXfR F = fullRank->transform(T), P = truncated->transform(T);
        const double errChol = (F * F.transpose() - K).norm(), errEig = (P * P.transpose() - K).norm();
        QVERIFY2(errChol < errEig, qPrintable(QString("%1 vs %2").arg(errChol).arg(errEig)));
    }

    // landmarks=orbit: each landmark is a training row moved by one g ~ q. For noisy sort (the
    // default there) every landmark is a permutation P C P^T of some training row, so its multiset of
    // entries is that row's; s may exceed the rows, and the plain map refuses orbit landmarks.
    void orbitLandmarksArePermutedRows()
    {
        const MatrixXfR X = orbittest::symmetricMatrices(12, 5, 17);
        const FeatureContext c = context(DataKind::Coulomb, Shape{5, 5, 1}, "permutation", "noisysort:sigma=1", 2.0);
        auto f = makeFeatureMap("inystrom:s=30,r=4", c);
        QVERIFY2(f->spec().find("landmarks=orbit") != std::string::npos, f->spec().c_str());
        f->fit(X, 8);
        QCOMPARE(f->dim(), Eigen::Index(30));
        const MatrixXfR& Z = dynamic_cast<NystromMap&>(*f).landmarks();
        auto sortedRow = [](const float* p) {
            std::vector<float> v(p, p + 25);
            std::sort(v.begin(), v.end());
            return v;
        };
        int moved = 0;
        for (Eigen::Index i = 0; i < Z.rows(); ++i) {
            bool found = false;
            for (Eigen::Index t = 0; t < X.rows() && !found; ++t) {
                found = sortedRow(Z.data() + i * 25) == sortedRow(X.data() + t * 25);
                if (found && !std::equal(Z.data() + i * 25, Z.data() + (i + 1) * 25, X.data() + t * 25)) ++moved;
            }
            QVERIFY2(found, std::to_string(i).c_str());
        }
        QVERIFY2(moved > 15, std::to_string(moved).c_str());
        QVERIFY(f->transform(X).allFinite());
        // Random landmarks: at most the number of rows, with a message naming orbit.
        auto random = makeFeatureMap("inystrom:s=30,r=4,landmarks=random", c);
        try {
            random->fit(X, 8);
            QFAIL("30 random landmarks from 12 rows");
        } catch (const SpecError& e) {
            QVERIFY2(std::string(e.what()).find("landmarks=orbit") != std::string::npos, e.what());
        }
        const FeatureContext plain = context(DataKind::Coulomb, Shape{5, 5, 1}, "", "", 2.0);
        QVERIFY_THROWS_EXCEPTION(SpecError, makeFeatureMap("nystrom:s=5,landmarks=orbit", plain));
        // A symmetric q independent of x keeps random landmarks by default.
        const FeatureContext haar = context(DataKind::Coulomb, Shape{5, 5, 1}, "permutation", "haar", 2.0);
        QVERIFY(makeFeatureMap("inystrom:s=5,r=4", haar)->spec().find("landmarks") == std::string::npos);
    }

    // The landmark kernel, its Cholesky factor and the triangular inverse report progress and stop
    // at a cancel inside each of them; a fit after a cancel gives the same bits.
    void nystromFitCancelsInEveryStep_data()
    {
        QTest::addColumn<QString>("step");
        QTest::newRow("kernel") << "landmark kernel rows";
        QTest::newRow("cholesky") << "Cholesky factor";
        QTest::newRow("inverse") << "triangular inverse";
    }

    void nystromFitCancelsInEveryStep()
    {
        QFETCH(QString, step);
        const Dataset& d = digits();
        const FeatureContext c = context(DataKind::Images, d.shape, "", "", 8.0);
        auto map = makeFeatureMap("nystrom:s=600", c);
        int inStep = 0;
        map->fit(d.X, 5, [&](double, const std::string& what) {
            inStep += what.find(step.toStdString()) != std::string::npos;
            return false;
        });
        QVERIFY2(inStep >= 2, std::to_string(inStep).c_str());
        const MatrixXfR reference = map->transform(d.X.topRows(50));
        int after = 0;
        bool stopped = false;
        QVERIFY_THROWS_EXCEPTION(Cancelled, map->fit(d.X, 5, [&](double, const std::string& what) {
            after += stopped;
            stopped = stopped || what.find(step.toStdString()) != std::string::npos;
            return stopped;
        }));
        QCOMPARE(after, 0);
        map->fit(d.X, 5);
        QVERIFY(sameBits(map->transform(d.X.topRows(50)), reference));
    }

    // Invariant Nystrom over the whole C_4 (Haar): sum_{h in G} k(g x, h^-1 z) = sum_h k(x, (hg)^-1 z) runs
    // over the same landmark orbit, so psi(g x) = psi(x); the plain Nystrom map is not invariant.
    void invariantNystromIsInvariantUnderC4()
    {
        const Dataset& d = digits();
        auto c = context(DataKind::Images, d.shape, "cyclic:n=4", "haar", 8.0);
        auto inv = makeFeatureMap("inystrom:s=30,r=2", c);
        auto plain = makeFeatureMap("nystrom:s=30", c);
        inv->fit(d.X.topRows(60), 2);
        plain->fit(d.X.topRows(60), 2);
        MatrixXfR X(2, d.shape.dim());
        X.row(0) = d.X.row(100);
        GroupElement g;
        g.k = 1;
        c.group->apply(g, d.sample(100), X.data() + X.cols(), d.shape);
        const MatrixXfR F = inv->transform(X), P = plain->transform(X);
        QVERIFY(F.row(0).norm() > 0.1);
        QVERIFY2((F.row(0) - F.row(1)).cwiseAbs().maxCoeff() < 1e-4 * F.row(0).cwiseAbs().maxCoeff(),
                 qPrintable(QString::number((F.row(0) - F.row(1)).cwiseAbs().maxCoeff())));
        QVERIFY((P.row(0) - P.row(1)).norm() > 0.1 * P.row(0).norm());
    }
};

QTEST_APPLESS_MAIN(TestNystrom)
#include "test_nystrom.moc"

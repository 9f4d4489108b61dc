// Nyström maps (nystrom, inystrom): exact on the landmarks, the Cholesky and pseudo-inverse
// whitenings, orbit landmarks, a fit that cancels in each of its steps, invariance under C_4, and
// the Laplacian (L1) kernel: exact Gram at s = n, the template trick against the data path, the
// error against the exact invariant kernel, and the refusals.
#include "orbit/features/NystromMap.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/util/Error.hpp"

#include "FeatureTestData.hpp"
#include "RandomMatrices.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using namespace orbit;
using orbittest::context;
using orbittest::digits;
using orbittest::randomMatrix;
using orbittest::sameBits;

namespace {

/// The context of `group` / `dist` on `shape` with the Laplacian kernel of width sigma.
FeatureContext laplacianContext(DataKind kind, Shape shape, const std::string& group, const std::string& dist, double sigma)
{
    FeatureContext c = context(kind, shape, group, dist, 1.0);
    c.kernel = BaseKernel::laplacian(sigma);
    return c;
}

/// The SpecError `make` throws (field and one-line message), or an empty field when it throws none.
template <class F>
std::pair<std::string, std::string> refusal(F&& make)
{
    try {
        make();
    } catch (const SpecError& e) {
        return {e.field(), e.what()};
    }
    return {};
}

} // namespace

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

    // Nystrom of the Laplacian with every training row a landmark (s = n) reproduces the exact
    // Laplacian Gram there: Phi Phi^T = K (K + jitter I)^-1 K = K up to the jitter. Its landmark
    // kernel and the pooled values come from the same L1 distances (exp(-||x - z||_1 / sigma)).
    void laplacianNystromAtAllRowsIsTheExactGram()
    {
        const MatrixXfR X = randomMatrix(70, 9, 41);
        const FeatureContext c = laplacianContext(DataKind::Vectors, Shape{1, 9, 1}, "", "", 6.0);
        auto f = makeFeatureMap("nystrom:s=70", c);
        f->fit(X, 3);
        const MatrixXfR F = f->transform(X);
        const MatrixXfR K = c.kernel->matrix(X, X);
        const double err = (F * F.transpose() - K).cwiseAbs().maxCoeff();
        QVERIFY2(err < 1e-4, qPrintable(QString::number(err)));
        // And on new points: at s = n the Nystrom kernel is the exact one on the span of the rows only.
        auto few = makeFeatureMap("nystrom:s=10", c);
        few->fit(X, 3);
        const MatrixXfR G = few->transform(X);
        QVERIFY((G * G.transpose() - K).cwiseAbs().maxCoeff() > 10 * err);
    }

    // Permutations of Coulomb matrices keep L1 distances (||P x P^T - z||_1 = ||x - P^T z P||_1), so
    // the template trick is valid for the Laplacian. Over all of S_4 (Haar: the whole group, r = 24)
    // the moved-landmark features equal the data path's, psi(x) = (1/|G|) sum_g psi_plain(g x), where
    // psi_plain is the plain map on the same landmarks (the same K_ZZ and L). And with the delta
    // distribution the two paths of the map itself (mode=templates, mode=data) give the same numbers.
    void laplacianTemplateTrickEqualsTheDataPath()
    {
        const Shape shape{4, 4, 1};
        const MatrixXfR X = orbittest::symmetricMatrices(40, 4, 42);
        const FeatureContext haar = laplacianContext(DataKind::Coulomb, shape, "permutation", "haar", 5.0);
        QVERIFY(haar.group->permutesCoordinates(shape));
        auto inv = makeFeatureMap("inystrom:s=25,r=3", haar);
        inv->fit(X, 7);
        QVERIFY(!inv->usesRowIndex());  // the template trick
        QVERIFY2(inv->kernel().find("r=24 (template trick)") != std::string::npos, inv->kernel().c_str());
        auto plain = makeFeatureMap("nystrom:s=25", laplacianContext(DataKind::Coulomb, shape, "", "", 5.0));
        plain->fit(X, 7);
        QVERIFY(dynamic_cast<NystromMap&>(*plain).landmarks() == dynamic_cast<NystromMap&>(*inv).landmarks());
        const auto elements = haar.group->elements(shape);
        MatrixXfR mean = MatrixXfR::Zero(X.rows(), plain->dim()), moved(X.rows(), X.cols());
        for (const GroupElement& g : elements) {
            for (Eigen::Index i = 0; i < X.rows(); ++i) haar.group->apply(g, X.data() + i * 16, moved.data() + i * 16, shape);
            mean += plain->transform(moved);
        }
        mean /= float(elements.size());
        const MatrixXfR F = inv->transform(X);
        const double err = (F - mean).cwiseAbs().maxCoeff();
        QVERIFY2(err < 1e-4 * F.cwiseAbs().maxCoeff(), qPrintable(QString("%1 of %2").arg(err).arg(F.cwiseAbs().maxCoeff())));

        const FeatureContext delta = laplacianContext(DataKind::Coulomb, shape, "permutation", "delta", 5.0);
        auto templates = makeFeatureMap("inystrom:s=25,r=3,mode=templates", delta);
        auto data = makeFeatureMap("inystrom:s=25,r=3,mode=data", delta);
        templates->fit(X, 7);
        data->fit(X, 7);
        QVERIFY(!templates->usesRowIndex() && data->usesRowIndex());
        const MatrixXfR A = templates->transform(X), B = data->transform(X), P = plain->transform(X);
        QVERIFY2((A - B).cwiseAbs().maxCoeff() < 1e-5, qPrintable(QString::number((A - B).cwiseAbs().maxCoeff())));
        QVERIFY2((A - P).cwiseAbs().maxCoeff() < 1e-5, qPrintable(QString::number((A - P).cwiseAbs().maxCoeff())));
    }

    // inystrom of the Laplacian over all of S_5 approximates the exact Haar-integration kernel
    // k_G(x, y) = (1/|G|^2) sum_{g,h} exp(-||g x - h y||_1 / sigma): its relative error on the
    // training rows falls as the number of landmarks s grows.
    void laplacianInvariantNystromConvergesToTheHaarKernel()
    {
        const Shape shape{5, 5, 1};
        const MatrixXfR X = orbittest::symmetricMatrices(120, 5, 43);
        const FeatureContext c = laplacianContext(DataKind::Coulomb, shape, "permutation", "haar", 8.0);
        const Eigen::MatrixXd exact = haarKernelMatrix(X, *c.group, shape, *c.kernel);
        std::vector<double> errors;
        for (int s : {8, 30, 120}) {
            auto f = makeFeatureMap("inystrom:s=" + std::to_string(s) + ",r=1", c);
            f->fit(X, 9);
            const MatrixXfR F = f->transform(X);
            errors.push_back(((F * F.transpose()).cast<double>() - exact).norm() / exact.norm());
        }
        const QString text = QString("%1 -> %2 -> %3").arg(errors[0]).arg(errors[1]).arg(errors[2]);
        QVERIFY2(errors[1] < errors[0] && errors[2] < errors[1], qPrintable(text));
        QVERIFY2(errors[2] < 0.3 * errors[0], qPrintable(text));
    }

    // Rotations interpolate, so they do not keep L1 distances: with the Laplacian, mode=auto takes
    // the data path, and mode=templates is refused in one line naming features.mode and why. The
    // quarter turns of C_4 on square images are exact pixel permutations and keep the trick.
    void laplacianTemplateTrickNeedsPermutations()
    {
        const Dataset& d = digits();
        const MatrixXfR X = d.X.topRows(40);
        const FeatureContext rotation = laplacianContext(DataKind::Images, d.shape, "rotation", "vonmises:kappa=2", 2000.0);
        QVERIFY(!rotation.group->permutesCoordinates(d.shape));
        auto automatic = makeFeatureMap("inystrom:s=20,r=3", rotation);
        automatic->fit(X, 4);
        QVERIFY(automatic->usesRowIndex());
        QVERIFY(automatic->transform(X).allFinite());
        const auto [field, message] = refusal([&] {
            auto m = makeFeatureMap("inystrom:s=20,r=3,mode=templates", rotation);
            m->fit(X, 4);
        });
        QCOMPARE(field, std::string("features.mode"));
        QVERIFY2(message.find('\n') == std::string::npos && message.find("laplacian") != std::string::npos &&
                     message.find("permutes coordinates") != std::string::npos && message.find("--") == std::string::npos,
                 message.c_str());
        // The Gaussian keeps the trick under rotations.
        auto gaussian = makeFeatureMap("inystrom:s=20,r=3", context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=2", 8.0));
        gaussian->fit(X, 4);
        QVERIFY(!gaussian->usesRowIndex());

        const FeatureContext c4 = laplacianContext(DataKind::Images, d.shape, "cyclic:n=4", "haar", 2000.0);
        QVERIFY(c4.group->permutesCoordinates(d.shape));
        const auto elements = c4.group->elements(d.shape);
        std::vector<float> turned(std::size_t(d.shape.dim()));
        for (const GroupElement& g : elements) {
            c4.group->apply(g, X.data(), turned.data(), d.shape);
            std::vector<float> a(X.data(), X.data() + X.cols()), b = turned;
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            QVERIFY(a == b);  // the same values, moved
        }
        QVERIFY(!makeGroup("cyclic:n=8", d.shape)->permutesCoordinates(d.shape));
        auto quarter = makeFeatureMap("inystrom:s=20,r=1", c4);
        quarter->fit(X, 4);
        QVERIFY(!quarter->usesRowIndex());
    }

    // The second layer is a Gaussian hyperkernel on the first layer's features and takes no base
    // kernel of its own: with the Laplacian the first layer (here inystrom over permutations) runs
    // on L1 distances and the two layers fit and transform.
    void laplacianFirstLayerUnderTheSecondLayer()
    {
        const MatrixXfR X = orbittest::symmetricMatrices(30, 4, 44);
        const FeatureContext c = laplacianContext(DataKind::Coulomb, Shape{4, 4, 1}, "permutation", "noisysort:sigma=1", 5.0);
        auto f = makeFeatureMap("inystrom:s=20,r=3+rf2:s=64", c);
        f->fit(X, 6);
        QVERIFY2(f->kernel().find("laplacian") != std::string::npos, f->kernel().c_str());
        const MatrixXfR F = f->transform(X);
        QCOMPARE(F.cols(), Eigen::Index(64));
        QVERIFY(F.allFinite() && F.norm() > 0);
    }
};

QTEST_APPLESS_MAIN(TestNystrom)
#include "test_nystrom.moc"

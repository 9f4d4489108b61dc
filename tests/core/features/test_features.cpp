// Feature maps: each test states the identity or the rate it checks.
#include "orbit/data/Loaders.hpp"
#include "orbit/features/FastCos.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/GicdfMap.hpp"
#include "orbit/features/InvariantRandomFourier.hpp"
#include "orbit/features/KernelInvariantFeatures.hpp"
#include "orbit/features/NystromMap.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "TestPaths.hpp"

#include "RandomMatrices.hpp"

#include <QtTest>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

using namespace orbit;

namespace {

using orbittest::randomMatrix;

using orbittest::symmetricMatrices;

FeatureContext context(DataKind kind, Shape shape, const std::string& group, const std::string& dist, double sigma)
{
    FeatureContext c;
    c.kind = kind;
    c.shape = shape;
    if (!group.empty()) {
        c.group = makeGroup(group, shape);
        c.dist = makeDistribution(dist, *c.group);
    }
    c.kernel = BaseKernel::gaussian(sigma);
    c.symmetricInputs = kind == DataKind::Coulomb;
    return c;
}

const Dataset& digits()
{
    static const Dataset d = [] {
        LoadOptions o;
        o.limit = 600;
        return loadDataset(orbittest::bundledFile("digits.png"), o);
    }();
    return d;
}

/// psi(x) by its definition, transforming the data: sqrt(2/s)/r sum_k cos(<w_j, g_k x> + b_j).
Eigen::VectorXd naiveIrf(const InvariantRandomFourier& f, const std::vector<GroupElement>& g, const float* x,
                         const Shape& shape)
{
    const MatrixXfR& W = f.templates();
    Eigen::VectorXd psi = Eigen::VectorXd::Zero(W.rows());
    std::vector<float> gx(shape.dim());
    for (const auto& e : g) {
        f.orbitSampler()->group().apply(e, x, gx.data(), shape);
        const Eigen::Map<const Eigen::VectorXf> v(gx.data(), shape.dim());
        psi.array() += ((W.cast<double>() * v.cast<double>()).array() + f.phases().cast<double>().array()).cos();
    }
    return psi * std::sqrt(2.0 / W.rows()) / double(g.size());
}

double meanAbsOffDiagonalError(const MatrixXfR& F, const MatrixXfR& K)
{
    const Eigen::MatrixXd E = (F.cast<double>() * F.cast<double>().transpose() - K.cast<double>()).cwiseAbs();
    return (E.sum() - E.diagonal().sum()) / double(E.rows() * (E.rows() - 1));
}

/// The counts of a "…templates i/N" progress text (i, N), or (-1, -1) for another step.
std::pair<long long, long long> templateCount(const std::string& what)
{
    const auto at = what.find("templates ");
    if (at == std::string::npos) return {-1, -1};
    const auto slash = what.find('/', at);
    return {std::stoll(what.substr(at + 10, slash - at - 10)), std::stoll(what.substr(slash + 1))};
}

/// The specs whose fit moves r s templates by the group (rotation on digits), at sizes where the
/// move takes several chunks of kTemplateChunkValues = 2^21 values (5242 digits of 20 x 20).
const char* const kMovingSpecs[] = {"irf:s=2000,r=16", "inystrom:s=300,r=64", "kif:k=300,eta=max,r=64",
                                    "gicdf:m=500,bins=5,r=32"};

bool sameBits(const MatrixXfR& a, const MatrixXfR& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0;
}

} // namespace

class TestFeatures : public QObject {
    Q_OBJECT
private slots:
    // fastCos: range reduction + degree-14 polynomial, |fastCos(x) - cos(x)| <= 2e-6 for |x| <= 1000.
    void fastCosIsAccurate()
    {
        double worst = 0;
        for (int i = -2000000; i <= 2000000; ++i) {
            const float x = float(i) * 5e-4f;
            worst = std::max(worst, std::abs(double(fastCos(x)) - std::cos(double(x))));
            worst = std::max(worst, std::abs(double(fastSin(x)) - std::sin(double(x))));
        }
        QVERIFY2(worst < 2e-6, qPrintable(QString::number(worst)));
    }

    // Rahimi & Recht: <z(x), z(y)> is a mean of s i.i.d. bounded terms with expectation k(x, y), so the
    // mean absolute error falls like 1/sqrt(s): from s = 100 to s = 1600 it shrinks by about 4.
    void rfErrorFallsLikeInverseSqrtS()
    {
        const MatrixXfR X = randomMatrix(80, 10, 11);
        const BaseKernel k = makeKernel("gaussian:median=1", X);
        const MatrixXfR K = k.matrix(X, X);
        for (const char* form : {"cos", "complex"}) {
            double e100 = 0, e1600 = 0;
            for (int seed = 0; seed < 6; ++seed) {
                FeatureContext c = context(DataKind::Vectors, Shape{1, 10, 1}, "", "", k.sigma());
                auto f100 = makeFeatureMap(std::string("rf:s=100,form=") + form, c);
                auto f1600 = makeFeatureMap(std::string("rf:s=1600,form=") + form, c);
                f100->fit(X, seed);
                f1600->fit(X, seed + 100);
                e100 += meanAbsOffDiagonalError(f100->transform(X), K);
                e1600 += meanAbsOffDiagonalError(f1600->transform(X), K);
            }
            const double ratio = e100 / e1600;
            QVERIFY2(ratio > 3.0 && ratio < 5.3, qPrintable(QString("%1: ratio %2").arg(form).arg(ratio)));
        }
    }

    // Template trick <g^-1 w, x> = <w, g x>: exact for C_4 (90-degree rotations permute pixels) and for
    // permutations of Coulomb matrices (folded onto the upper triangle), within interpolation for rotation.
    void templateTrickEqualsTransformingTheData_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("C4") << "cyclic:n=4" << "haar" << 1e-5;
        QTest::newRow("permutation") << "permutation" << "haar" << 1e-5;
        QTest::newRow("rotation") << "rotation" << "vonmises:kappa=2" << 0.15;
    }
    void templateTrickEqualsTransformingTheData()
    {
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(double, tolerance);
        const bool perm = group == "permutation";
        const Shape shape = perm ? Shape{5, 5, 1} : digits().shape;
        const MatrixXfR X = perm ? symmetricMatrices(12, 5, 12) : MatrixXfR(digits().X.topRows(12));
        const double sigma = perm ? 3.0 : 8.0;
        auto c = context(perm ? DataKind::Coulomb : DataKind::Images, shape, group.toStdString(), dist.toStdString(), sigma);
        InvariantRandomFourier f(c, 300, 6, InvariantRandomFourier::Form::Cos, "templates");
        f.fit(X, 5);
        QVERIFY(f.usesTemplateTrick());
        const MatrixXfR F = f.transform(X);
        const auto g = f.orbitSampler()->sharedElements();
        double worst = 0, scale = 0;
        for (int i = 0; i < 12; ++i) {
            const Eigen::VectorXd ref = naiveIrf(f, g, X.data() + i * X.cols(), shape);
            worst = std::max(worst, (F.row(i).transpose().cast<double>() - ref).norm());
            scale = std::max(scale, ref.norm());
        }
        QVERIFY2(worst <= tolerance * scale, qPrintable(QString("%1 vs %2").arg(worst).arg(scale)));
    }

    // Data path (noisy sort depends on x): features equal the definition with g_{i,k} from
    // sampler.elementsFor(i, x_i), including the symmetric folding of Coulomb inputs.
    void dataPathMatchesDefinition()
    {
        const Shape shape{6, 6, 1};
        const MatrixXfR X = symmetricMatrices(9, 6, 13);
        auto c = context(DataKind::Coulomb, shape, "permutation", "noisysort:sigma=1", 4.0);
        InvariantRandomFourier f(c, 200, 5, InvariantRandomFourier::Form::Cos);
        f.fit(X, 9);
        QVERIFY(!f.usesTemplateTrick());
        const MatrixXfR F = f.transform(X);
        for (int i = 0; i < 9; ++i) {
            const auto g = f.orbitSampler()->elementsFor(i, X.data() + i * 36);
            const Eigen::VectorXd ref = naiveIrf(f, g, X.data() + i * 36, shape);
            QVERIFY((F.row(i).transpose().cast<double>() - ref).cwiseAbs().maxCoeff() < 1e-5);
        }
    }

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

    // A second layer's fit computes first-layer features only for the median rule's rows, with
    // reports between calls: a cancel there stops it, and a new fit gives the same bits. With
    // input-dependent samples (noisy sort) each row keeps its dataset index, so the bandwidth is the
    // median over the rows of the whole first-layer matrix.
    void secondLayerFitCancelsWhileComputingTheMedianRows_data()
    {
        QTest::addColumn<bool>("noisySort");
        QTest::newRow("template trick (digits)") << false;
        QTest::newRow("inputs transformed (noisy sort)") << true;
    }
    void secondLayerFitCancelsWhileComputingTheMedianRows()
    {
        QFETCH(bool, noisySort);
        const MatrixXfR C = orbittest::symmetricMatrices(1200, 6, 21);
        const MatrixXfR& X = noisySort ? C : digits().X;
        const FeatureContext c = noisySort
            ? context(DataKind::Coulomb, Shape{6, 6, 1}, "permutation", "noisysort:sigma=1", 3.0)
            : context(DataKind::Images, digits().shape, "rotation", "vonmises:kappa=1", 8.0);
        auto map = makeFeatureMap("irf:s=200,r=6+rf2:s=50", c);
        int medianReports = 0;
        map->fit(X, 3, [&](double, const std::string& what) {
            medianReports += what.find("median rule") != std::string::npos;
            return false;
        });
        QVERIFY2(medianReports >= 5, std::to_string(medianReports).c_str());
        const MatrixXfR reference = map->transform(X.topRows(40));
        int after = 0, seen = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, map->fit(X, 3, [&](double, const std::string& what) {
            after += seen >= 3;
            seen += what.find("median rule") != std::string::npos;
            return seen >= 3;
        }));
        QCOMPARE(after, 0);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, map->transform(X.topRows(2)));
        map->fit(X, 3);
        QVERIFY(sameBits(map->transform(X.topRows(40)), reference));
        if (noisySort) {
            auto first = makeFeatureMap("irf:s=200,r=6", c);
            first->fit(X, deriveSeed(3, 11));
            QVERIFY(first->usesRowIndex());
            const double median = medianPairwiseDistance(first->transform(X), 1000, deriveSeed(3, 12));
            const std::string expected = BaseKernel::gaussian(median).spec() + ")";
            QVERIFY2(map->kernel().find(expected) != std::string::npos, (map->kernel() + " / " + expected).c_str());
        }
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

    // GICDF with the whole finite group: {<g_i t, g x>} = {<g^-1 g_i t, x>} is the same multiset,
    // so the empirical CDFs (counts) are identical: Phi(g x) = Phi(x) exactly.
    void gicdfIsInvariantUnderC4()
    {
        const Dataset& d = digits();
        auto c = context(DataKind::Images, d.shape, "cyclic:n=4", "haar", 1.0);
        GicdfMap f(c, 50, 10, 4);
        f.fit(d.X.topRows(20), 1);
        MatrixXfR X(2, d.shape.dim());
        X.row(0) = d.X.row(7);
        GroupElement g;
        g.k = 3;
        c.group->apply(g, d.sample(7), X.data() + X.cols(), d.shape);
        const MatrixXfR F = f.transform(X);
        QCOMPARE(F.cols(), Eigen::Index(50 * 21));
        QVERIFY(F.row(0).cwiseAbs().maxCoeff() > 0);
        QCOMPARE((F.row(0) - F.row(1)).cwiseAbs().maxCoeff(), 0.0f);
        // a CDF is non-decreasing in the threshold and ends at its maximum value
        for (int k = 1; k < 21; ++k) QVERIFY(F(0, k) >= F(0, k - 1));
    }

    // norm=each (the paper's) sees only the direction of x: Phi(2x) = Phi(x). norm=max divides by the
    // largest training norm, so a scaled input (a larger molecule) gets other features.
    void gicdfNormKeepsSizeOnlyWithMax()
    {
        const MatrixXfR X = orbittest::symmetricMatrices(20, 5, 19);
        const FeatureContext c = context(DataKind::Coulomb, Shape{5, 5, 1}, "permutation", "haar", 1.0);
        MatrixXfR Y(2, 25);
        Y.row(0) = X.row(3) * 0.5f;
        Y.row(1) = X.row(3);
        auto each = makeFeatureMap("gicdf:m=40,bins=10,r=8", c), max = makeFeatureMap("gicdf:m=40,bins=10,r=8,norm=max", c);
        QCOMPARE(max->spec(), std::string("gicdf:m=40,bins=10,r=8,norm=max"));
        each->fit(X, 2);
        max->fit(X, 2);
        const MatrixXfR E = each->transform(Y), M = max->transform(Y);
        QVERIFY(sameBits(E.row(0), E.row(1)));
        QVERIFY2((M.row(0) - M.row(1)).norm() > 0.02 * M.row(1).norm(), qPrintable(QString::number((M.row(0) - M.row(1)).norm())));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeFeatureMap("gicdf:m=4,bins=2,r=2,norm=none", c));
    }

    // span=auto measures the threshold range: for unit inputs and t ~ N(0, I/d) a projection is about
    // N(0, 1/d), whose |.| has its 99th percentile at 2.576 / sqrt(d); the paper's range is 1 + eps.
    void gicdfMeasuresItsThresholdRange()
    {
        const MatrixXfR X = randomMatrix(400, 100, 23);
        const FeatureContext c = context(DataKind::Vectors, Shape{1, 100, 1}, "cyclic:n=4", "haar", 1.0);
        auto measured = makeFeatureMap("gicdf:m=60,bins=10,r=4,span=auto", c);
        auto paper = makeFeatureMap("gicdf:m=60,bins=10,r=4", c), fixed = makeFeatureMap("gicdf:m=60,bins=10,r=4,span=0.3", c);
        for (auto* f : {measured.get(), paper.get(), fixed.get()}) f->fit(X, 5);
        const double span = dynamic_cast<GicdfMap&>(*measured).span();
        QVERIFY2(std::abs(span - 0.2576) < 0.03, std::to_string(span).c_str());
        QCOMPARE(dynamic_cast<GicdfMap&>(*paper).span(), 1.1);
        QCOMPARE(dynamic_cast<GicdfMap&>(*fixed).span(), 0.3);
        QCOMPARE(measured->spec(), std::string("gicdf:m=60,bins=10,r=4,span=auto"));
        QVERIFY2(measured->kernel().find("s = 0.2") != std::string::npos, measured->kernel().c_str());
        // Finer thresholds spread the CDF: with the paper's range the r projections of a template
        // fall into the few bins next to 0, so few thresholds see a CDF strictly between 0 and 1.
        auto between = [&](const FeatureMap& f) {
            const MatrixXfR F = f.transform(X.topRows(20));
            const float top = F.maxCoeff();
            return ((F.array() > 0.0f) && (F.array() < top * (1 - 1e-6f))).count();
        };
        QVERIFY2(between(*measured) > 3 * between(*paper),
                 (std::to_string(between(*measured)) + " vs " + std::to_string(between(*paper))).c_str());
        for (const char* bad : {"gicdf:m=4,bins=2,r=2,span=0", "gicdf:m=4,bins=2,r=2,span=-1", "gicdf:m=4,bins=2,r=2,span=wide"})
            QVERIFY_THROWS_EXCEPTION(SpecError, makeFeatureMap(bad, c));
    }

    // The GICDF entries are the paper's counts: for C_4 enumerated exactly (r = 4),
    // Phi(x)_{j,k} = sqrt(s) / (sqrt(n m) r) #{g : <t_j, g x / ||x||> <= s k / n}, k = -n..n.
    // Computed here directly in double from the templates; entries at a threshold within float
    // rounding may differ by one count. The bin counts cover the three pooling paths: byte steps
    // (2n + 1 <= 64), float steps (<= 128) and the histogram.
    void gicdfCountsMatchTheDefinition_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("n=6") << 6;
        QTest::newRow("n=31") << 31;
        QTest::newRow("n=40") << 40;
        QTest::newRow("n=70") << 70;
    }
    void gicdfCountsMatchTheDefinition()
    {
        QFETCH(int, n);
        const Dataset& d = digits();
        auto c = context(DataKind::Images, d.shape, "cyclic:n=4", "haar", 1.0);
        const int m = 40, r = 4;
        const double s = 1.1;
        GicdfMap f(c, m, n, r);
        f.fit(d.X.topRows(20), 3);
        const MatrixXfR X = d.X.middleRows(30, 5);
        const MatrixXfR F = f.transform(X);
        const MatrixXfR& T = f.templates();
        QCOMPARE(T.rows(), Eigen::Index(m));
        const double scale = std::sqrt(s) / (std::sqrt(double(n) * m) * r);
        std::vector<float> gx(std::size_t(d.shape.dim()));
        int mismatches = 0, entries = 0;
        for (Eigen::Index x = 0; x < X.rows(); ++x) {
            Eigen::MatrixXd proj(m, r);  // <t_j, g_k x / ||x||>
            for (int k = 0; k < r; ++k) {
                GroupElement g;
                g.k = k;
                c.group->apply(g, X.row(x).data(), gx.data(), d.shape);
                const Eigen::VectorXd v = Eigen::Map<const Eigen::VectorXf>(gx.data(), d.shape.dim()).cast<double>();
                proj.col(k) = T.cast<double>() * (v / v.norm());
            }
            for (int j = 0; j < m; ++j)
                for (int k = -n; k <= n; ++k) {
                    const double tau = s * k / n;
                    const int count = int((proj.row(j).array() <= tau).count());
                    const double got = F(x, j * (2 * n + 1) + (k + n)) / scale;
                    QVERIFY2(std::abs(got - std::round(got)) < 1e-4, qPrintable(QString::number(got)));
                    mismatches += std::abs(int(std::lround(got)) - count) > 0;
                    QVERIFY(std::abs(int(std::lround(got)) - count) <= 1);
                    ++entries;
                }
        }
        QVERIFY2(mismatches <= entries / 1000, qPrintable(QString::number(mismatches)));
    }

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

    // Same seed, same bits at 1 and 2 threads (fixed block partition, single-threaded products per
    // block): both the template trick and the noisy-sort data path, and a second layer.
    void seedsReproduceAcrossThreads()
    {
        const Dataset& d = digits();
        auto ci = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0.5", 8.0);
        auto cc = context(DataKind::Coulomb, Shape{6, 6, 1}, "permutation", "noisysort:sigma=1", 4.0);
        const MatrixXfR C = symmetricMatrices(300, 6, 17);
        struct Case { std::string spec; FeatureContext* c; const MatrixXfR* X; };
        const MatrixXfR D = d.X.topRows(300);
        for (const Case& cs : {Case{"irf:s=700,r=3", &ci, &D}, Case{"irf:s=600,r=7", &cc, &C},
                               Case{"inystrom:s=50,r=3", &ci, &D}, Case{"gicdf:m=30,bins=5,r=5", &cc, &C},
                               Case{"irf:s=100,r=2+rf2:s=64", &cc, &C}}) {
            MatrixXfR F[2];
            for (int t = 0; t < 2; ++t) {
                omp_set_num_threads(t + 1);
                auto f = makeFeatureMap(cs.spec, *cs.c);
                f->fit(*cs.X, 123);
                F[t] = f->transform(*cs.X);
            }
            omp_set_num_threads(2);
            QCOMPARE(F[0].rows(), cs.X->rows());
            QVERIFY2(std::memcmp(F[0].data(), F[1].data(), sizeof(float) * F[0].size()) == 0, cs.spec.c_str());
        }
    }

    // The median rule (a product of the sampled rows) gives the same bandwidth at 1 and 2 threads.
    void medianBandwidthIsThreadIndependent()
    {
        double sigma[2];
        for (int t = 0; t < 2; ++t) {
            omp_set_num_threads(t + 1);
            Eigen::setNbThreads(t + 1);
            sigma[t] = makeKernel("gaussian:median=1", digits().X, 9).sigma();
        }
        omp_set_num_threads(2);
        QCOMPARE(sigma[0], sigma[1]);
    }

    // A fit that moves r s templates reports "templates i/N" at least every 2^21 moved values
    // (ceil(2^21 / d) templates: tens of milliseconds), fractions rising in [0, 1]; a true return
    // throws Cancelled at once (no report after it, the move unfinished); the cancelled map fitted
    // again gives the bits of a map that was never interrupted.
    void fitReportsAndCancelsWhileMovingTemplates_data()
    {
        QTest::addColumn<QString>("spec");
        for (const char* spec : kMovingSpecs) QTest::newRow(spec) << QString(spec);
    }
    void fitReportsAndCancelsWhileMovingTemplates()
    {
        QFETCH(QString, spec);
        const Dataset& d = digits();
        const auto c = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0", 8.0);
        const long long maxStep = ((1LL << 21) + d.shape.dim() - 1) / d.shape.dim();
        auto map = makeFeatureMap(spec.toStdString(), c);
        double last = 0.0;
        long long lastCount = 0, total = 0;
        int templateReports = 0;
        map->fit(d.X, 5, [&](double f, const std::string& what) {
            if (f < last - 1e-12 || f < 0 || f > 1 + 1e-12) QTest::qFail("fraction out of order", __FILE__, __LINE__);
            last = f;
            const auto [i, n] = templateCount(what);
            if (i < 0) return false;
            if (i - lastCount > maxStep) QTest::qFail(("a gap of " + std::to_string(i - lastCount)).c_str(), __FILE__, __LINE__);
            lastCount = i;
            total = n;
            ++templateReports;
            return false;
        });
        QVERIFY2(templateReports >= 4, std::to_string(templateReports).c_str());
        QCOMPARE(lastCount, total);
        QVERIFY(std::abs(last - 1.0) < 1e-12);
        const MatrixXfR reference = map->transform(d.X);

        std::string stoppedAt;
        int reportsAfterCancel = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, map->fit(d.X, 5, [&](double, const std::string& what) {
            if (!stoppedAt.empty()) ++reportsAfterCancel;
            if (templateCount(what).first <= 0) return false;
            stoppedAt = what;
            return true;  // at the second report of the move
        }));
        QCOMPARE(reportsAfterCancel, 0);
        QVERIFY2(templateCount(stoppedAt).first < total, stoppedAt.c_str());
        map->fit(d.X, 5);
        QVERIFY(sameBits(map->transform(d.X), reference));
    }

    // Reporting progress changes no bit: a fit without a callback at one thread and a fit with one
    // (never cancelling) at two threads give identical features.
    void progressDoesNotChangeBits()
    {
        const Dataset& d = digits();
        const auto c = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0.5", 8.0);
        std::vector<std::string> specs(std::begin(kMovingSpecs), std::end(kMovingSpecs));
        specs.push_back("kif:k=300,eta=mean,r=64");  // Gaussian values through Eigen's exp on scratch
        specs.push_back("irf:s=300,r=8+rf2:s=64");
        specs.push_back("nystrom:s=100,landmarks=kmeans");
        for (const std::string& spec : specs) {
            MatrixXfR F[2];
            int reports = 0;
            for (int t = 0; t < 2; ++t) {
                omp_set_num_threads(t + 1);
                auto f = makeFeatureMap(spec, c);
                if (t == 0)
                    f->fit(d.X, 77);
                else
                    f->fit(d.X, 77, [&](double, const std::string&) { return ++reports < 0; });
                F[t] = f->transform(d.X);
            }
            omp_set_num_threads(2);
            QVERIFY2(reports > 0, spec.c_str());
            QVERIFY2(sameBits(F[0], F[1]), spec.c_str());
        }
    }

    // A call whose rows form a single block (Trainer::features asks for 64 rows or fewer) spreads
    // the block's column tiles over the threads; the block's features are the bits of the same
    // block computed inside a call of many blocks (one block per thread, tiles in order).
    void oneBlockSplitsItsTilesWithTheSameBits()
    {
        const Dataset& d = digits();
        const auto c = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0.5", 8.0);
        // Block rows: 128 (irf, inystrom), 256 (gicdf); every spec has at least two column tiles.
        const std::pair<const char*, Eigen::Index> cases[] = {{"irf:s=1100,r=3", 128}, {"irf:s=700,r=2,form=complex", 128},
                                                              {"inystrom:s=600,r=3", 128}, {"gicdf:m=600,bins=5,r=4", 256}};
        for (const auto& [spec, block] : cases) {
            auto f = makeFeatureMap(spec, c);
            f->fit(d.X, 31);
            omp_set_num_threads(1);
            const MatrixXfR whole = f->transform(d.X);  // >= 2 blocks at one thread: block by block
            omp_set_num_threads(2);
            for (Eigen::Index b0 : {Eigen::Index(0), block}) {
                MatrixXfR part;
                f->transform(d.X, std::size_t(b0), std::size_t(b0 + block), part);  // one block: tiles in parallel
                QVERIFY2(sameBits(part, whole.middleRows(b0, block)), spec);
            }
            MatrixXfR rows64[2];  // a 64-row call: the same bits at one and two threads
            for (int t = 0; t < 2; ++t) {
                omp_set_num_threads(t + 1);
                f->transform(d.X, 64, 128, rows64[t]);
            }
            QVERIFY2(sameBits(rows64[0], rows64[1]), spec);
        }
    }

    // Bad specs are SpecErrors naming --features.
    void rejectsBadSpecs()
    {
        auto c = context(DataKind::Vectors, Shape{1, 4, 1}, "", "", 1.0);
        for (const char* bad : {"rf", "rf:s=0", "rf:s=10,form=tan", "irf:s=10,r=2", "magic", "rf:s=5+rf3:s=2",
                                "kif:k=2,eta=median", "nystrom:s=10,landmarks=grid", "raw:s=1",
                                "nystrom:s=10,jitter=0", "nystrom:s=10,jitter=0.5", "nystrom:s=10,tol=1",
                                "nystrom:s=10,tol=-1", "nystrom:s=10,tol=1e-6,jitter=1e-6", "nystrom:s=10,jitter=nan"})
            QVERIFY_THROWS_EXCEPTION(SpecError, makeFeatureMap(bad, c));
    }
};

QTEST_APPLESS_MAIN(TestFeatures)
#include "test_features.moc"

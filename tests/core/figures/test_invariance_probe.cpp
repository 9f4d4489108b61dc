// The Orbits panel's invariance probe in core: an invariant map and its plain map of the same
// templates, fitted on the kernel-plot points, probed on one input. Exact group averaging (Haar on
// C_4 with the whole-group Nystrom map, LGIKA Lemma: k_G(gx, y) = k_G(x, y)) gives similarity 1.
#include "orbit/figures/InvarianceProbe.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/util/Error.hpp"

#include "BundledDigits.hpp"
#include "TestPaths.hpp"

#include <QTest>
#include <QObject>
#include <QString>

using namespace orbit;

namespace {

/// The first 500 bundled digits.
const Dataset& digits() { return orbittest::firstDigits<500>(); }

ProbeResult probe(const std::string& group, const std::string& dist, const std::string& features, std::size_t index = 17,
                  std::uint64_t seed = 3)
{
    ProbeConfig c;
    c.group = group;
    c.dist = dist;
    c.features = features;
    c.fitCount = 120;
    c.points = 25;
    c.seed = seed;
    return probeInvariance(digits(), index, c);
}

} // namespace

class TestInvarianceProbe : public QObject {
    Q_OBJECT
private slots:
    // Haar on the finite group C_4 with inystrom, which averages over all four rotations: psi(g x)
    // = psi(x) for every g, so the invariant column is 1; the plain Nystrom map is not invariant.
    void exactGroupAveragingIsInvariant()
    {
        const ProbeResult p = probe("cyclic:n=4", "haar", "inystrom:s=60,r=4");
        QCOMPARE(p.parameter, std::string("k"));
        QCOMPARE(p.values, (std::vector<double>{0, 1, 2, 3}));
        for (double s : p.invariant) QVERIFY2(std::abs(s - 1.0) < 1e-5, qPrintable(QString::number(s, 'g', 10)));
        QVERIFY(std::abs(p.plain[0] - 1.0) < 1e-5);  // k = 0 is the identity
        QVERIFY2(*std::min_element(p.plain.begin(), p.plain.end()) < 0.95,
                 qPrintable(QString::number(*std::min_element(p.plain.begin(), p.plain.end()))));
        QCOMPARE(p.plainSpec, std::string("nystrom:s=60"));
    }

    // q = delta: the invariant map averages r copies of the identity, i.e. it is the plain map of
    // the same templates, so the two curves coincide (up to float rounding).
    void deltaMakesTheInvariantMapPlain()
    {
        const ProbeResult p = probe("rotation", "delta", "irf:s=150,r=3");
        QCOMPARE(int(p.values.size()), 25);
        for (std::size_t i = 0; i < p.values.size(); ++i)
            QVERIFY2(std::abs(p.invariant[i] - p.plain[i]) < 1e-5,
                     qPrintable(QString("t = %1: %2 vs %3").arg(p.values[i]).arg(p.invariant[i]).arg(p.plain[i])));
    }

    // A von Mises locality: similarity 1 at the identity for both maps; at a quarter turn the invariant
    // map stays more similar than the plain one.
    void localInvarianceWidensTheCurve()
    {
        const ProbeResult p = probe("rotation", "vonmises:kappa=1", "irf:s=600,r=32");
        QCOMPARE(p.parameter, std::string("theta (rad)"));
        QCOMPARE(p.values[12], 0.0);
        QVERIFY(std::abs(p.invariant[12] - 1.0) < 1e-5 && std::abs(p.plain[12] - 1.0) < 1e-5);
        QVERIFY2(p.invariant[18] > p.plain[18] + 0.05,  // theta = pi/2
                 qPrintable(QString("%1 vs %2").arg(p.invariant[18]).arg(p.plain[18])));
    }

    void sameSeedSameBits()
    {
        const ProbeResult a = probe("rotation", "vonmises:kappa=2", "irf:s=80,r=4", 9, 5);
        const ProbeResult b = probe("rotation", "vonmises:kappa=2", "irf:s=80,r=4", 9, 5);
        QVERIFY(a.invariant == b.invariant && a.plain == b.plain);
    }

    // A map whose rows do not depend on their index moves x and its copies through the map in
    // batches (of 256 rows: 13 points fit one, 300 take two): the same curve as transforming each
    // copy alone (FeatureMap's contract: another batching gives the same features up to float rounding).
    void oneBatchIsEveryCopyAlone_data()
    {
        QTest::addColumn<int>("points");
        QTest::newRow("one batch") << 13;
        QTest::newRow("two batches") << 300;
    }
    void oneBatchIsEveryCopyAlone()
    {
        QFETCH(int, points);
        const Dataset fit = digits().subset({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19});
        const FeatureContext context = makeFeatureContext(fit, "rotation", "vonmises:kappa=2", "gaussian:median=1", 4);
        const auto map = makeFeatureMap("irf:s=120,r=8", context);
        map->fit(fit.X, 4);
        QVERIFY(!map->usesRowIndex());
        const float* x = digits().sample(33);
        const InvarianceCurve curve = invarianceProbe(*map, *context.group, context.shape, x, points, 4);
        const ElementPath path = context.group->probePath(context.shape, points, 4);
        QCOMPARE(curve.similarity.size(), path.elements.size());
        const int d = context.shape.dim();
        MatrixXfR one(1, d), psi0, psi;
        std::copy(x, x + d, one.data());
        map->transform(one, 0, 1, psi0);
        for (std::size_t k = 0; k < path.elements.size(); ++k) {
            context.group->apply(path.elements[k], x, one.data(), context.shape);
            map->transform(one, 0, 1, psi);
            const double alone = double(psi0.row(0).dot(psi.row(0))) / (double(psi0.norm()) * double(psi.norm()));
            const QString what = QString("copy %1: %2 in the batch, %3 alone").arg(k).arg(curve.similarity[k]).arg(alone);
            QVERIFY2(std::abs(curve.similarity[k] - alone) < 1e-5, qPrintable(what));
        }
    }

    // A map whose rows depend on their index (noisy sort: each input draws its own permutations)
    // takes each copy alone as dataset index 0, so every copy draws from the same sub-stream.
    void aDataDependentMapTakesEachCopyAsIndexZero()
    {
        const Dataset g2 = loadDataset(orbittest::bundledFile("g2.extxyz"), {});
        const FeatureContext context =
            makeFeatureContext(g2, "permutation", "noisysort:sigma=1", "gaussian:median=1", 2);
        const auto map = makeFeatureMap("irf:s=60,r=4", context);
        map->fit(g2.X, 2);
        QVERIFY(map->usesRowIndex());
        // The molecule with the most atoms: its noisy sorts differ from one sub-stream to another.
        std::size_t largest = 0;
        const auto atoms = [&](std::size_t i) { return (g2.X.row(Eigen::Index(i)).array() != 0).count(); };
        for (std::size_t i = 0; i < g2.count(); ++i)
            if (atoms(i) > atoms(largest)) largest = i;
        const float* x = g2.sample(largest);
        const InvarianceCurve curve = invarianceProbe(*map, *context.group, context.shape, x, 7, 2);
        const ElementPath path = context.group->probePath(context.shape, 7, 2);
        QCOMPARE(curve.similarity.size(), path.elements.size());
        const int d = context.shape.dim();
        MatrixXfR one(1, d), psi0, psi;
        std::copy(x, x + d, one.data());
        map->transform(one, 0, 1, psi0);
        for (std::size_t k = 0; k < path.elements.size(); ++k) {
            context.group->apply(path.elements[k], x, one.data(), context.shape);
            map->transform(one, 0, 1, psi);
            const double alone = double(psi0.row(0).dot(psi.row(0))) / (double(psi0.norm()) * double(psi.norm()));
            QCOMPARE(curve.similarity[k], alone);  // the same rows through the same calls: the same bits
        }
        // No transposition: x itself, through the same sub-stream.
        QVERIFY2(std::abs(curve.similarity[0] - 1.0) < 1e-6, qPrintable(QString::number(curve.similarity[0], 'g', 10)));
    }

    void plainSpecKeepsTheTemplates()
    {
        QCOMPARE(plainFeatureSpec("irf:s=10,r=4"), std::string("rf:s=10"));
        QCOMPARE(plainFeatureSpec("irf:s=10,r=4,mode=templates,form=complex"), std::string("rf:form=complex,s=10"));
        QCOMPARE(plainFeatureSpec("inystrom:s=5,r=2,landmarks=kmeans"), std::string("nystrom:landmarks=kmeans,s=5"));
        QCOMPARE(plainFeatureSpec("irf:s=10,r=4+rf2:s=20"), std::string("rf:s=10+rf2:s=20"));
        QVERIFY_THROWS_EXCEPTION(SpecError, plainFeatureSpec("gicdf:m=4,bins=3,r=2"));
    }

    void refusesBadInputs()
    {
        QVERIFY_THROWS_EXCEPTION(SpecError, probe("rotation", "haar", "irf:s=10,r=2", digits().count()));
        QVERIFY_THROWS_EXCEPTION(SpecError, probe("rotation", "haar", "kif:k=3,eta=mean"));
    }
};

QTEST_APPLESS_MAIN(TestInvarianceProbe)
#include "test_invariance_probe.moc"

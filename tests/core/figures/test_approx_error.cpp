// LGIKA Figure 1 and the invariance probe, on real digits.
#include "orbit/figures/ApproxError.hpp"
#include "orbit/figures/InvarianceProbe.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/util/Error.hpp"

#include "BundledDigits.hpp"

#include <QTest>
#include <QObject>
#include <QString>

using namespace orbit;

namespace {

/// 60 plot points (seed 3) among the first 1000 digits.
const Dataset& digits() { return orbittest::kernelPlotDigits<1000, 60, 3>(); }

} // namespace

class TestApproxError : public QObject {
    Q_OBJECT
private slots:
    // ||K - Psi Psi^T|| / ||K|| falls with s (the Monte Carlo error over templates is O(1/sqrt s)), and at
    // large s it is lower for larger r (the error over group samples is O(1/sqrt r)); averaged over 3
    // independent draws so the ordering is robust, for RF and Nystrom, spectral and Frobenius.
    void errorsFallWithSAndR_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("rf") << "rf";
        QTest::newRow("nystrom") << "nystrom";
    }
    void errorsFallWithSAndR()
    {
        QFETCH(QString, method);
        const Dataset& d = digits();
        const FeatureContext c = makeFeatureContext(d, "rotation", "vonmises:kappa=0.5", "gaussian:median=1", 1);
        ApproxErrorConfig config;
        config.method = method.toStdString();
        config.sList = method == "rf" ? std::vector<int>{40, 1200} : std::vector<int>{5, 50};
        config.rList = {2, 16};
        config.refR = 32;
        config.repeats = 3;
        config.seed = 7;
        const auto rows = approximationError(d.X, c, config);
        QCOMPARE(rows.size(), std::size_t(4));  // r-major: (2, s0), (2, s1), (16, s0), (16, s1)
        for (int r = 0; r < 2; ++r) {
            QVERIFY2(rows[r * 2 + 1].spectral < rows[r * 2].spectral, qPrintable(QString::number(rows[r * 2 + 1].spectral)));
            QVERIFY(rows[r * 2 + 1].frobenius < rows[r * 2].frobenius);
        }
        QVERIFY2(rows[3].spectral < rows[1].spectral,
                 qPrintable(QString("r=16: %1, r=2: %2").arg(rows[3].spectral).arg(rows[1].spectral)));
        QVERIFY(rows[3].frobenius < rows[1].frobenius);
        for (const auto& row : rows) QVERIFY(row.spectral > 0 && row.frobenius > 0 && row.frobenius < 2);
    }

    void validatesConfig()
    {
        ApproxErrorConfig config;
        config.sList = {10};
        config.rList = {};
        QVERIFY_THROWS_EXCEPTION(SpecError, config.validate());
        config.rList = {0};
        QVERIFY_THROWS_EXCEPTION(SpecError, config.validate());
        config.rList = {2};
        config.method = "gicdf";
        QVERIFY_THROWS_EXCEPTION(SpecError, config.validate());
    }

    // The probe: exactly invariant maps give similarity 1 over the whole group (GICDF over C_4);
    // for rotation the Haar-invariant RF stays more similar at 90 degrees than plain RF, and both are 1
    // at the identity.
    void probeShowsInvariance()
    {
        const Dataset& d = digits();
        {
            const FeatureContext c = makeFeatureContext(d, "cyclic:n=4", "haar", "gaussian:median=1", 1);
            auto f = makeFeatureMap("gicdf:m=40,bins=8,r=4", c);
            f->fit(d.X, 2);
            const InvarianceCurve curve = invarianceProbe(*f, *c.group, d.shape, d.sample(5));
            QCOMPARE(curve.similarity.size(), std::size_t(4));
            for (double s : curve.similarity) QVERIFY(std::abs(s - 1) < 1e-6);
        }
        const FeatureContext inv = makeFeatureContext(d, "rotation", "haar", "gaussian:median=1", 1);
        FeatureContext plain = inv;
        auto fi = makeFeatureMap("irf:s=2000,r=64", inv);
        auto fp = makeFeatureMap("rf:s=2000", plain);
        fi->fit(d.X, 3);
        fp->fit(d.X, 3);
        const InvarianceCurve ci = invarianceProbe(*fi, *inv.group, d.shape, d.sample(9), 9);
        const InvarianceCurve cp = invarianceProbe(*fp, *inv.group, d.shape, d.sample(9), 9);
        QCOMPARE(ci.values[4], 0.0);  // theta grid -pi .. pi, the middle is the identity
        QVERIFY(std::abs(ci.similarity[4] - 1) < 1e-6 && std::abs(cp.similarity[4] - 1) < 1e-6);
        QVERIFY2(ci.similarity[6] > cp.similarity[6] + 0.1,  // theta = pi/2
                 qPrintable(QString("%1 vs %2").arg(ci.similarity[6]).arg(cp.similarity[6])));
    }
};

QTEST_APPLESS_MAIN(TestApproxError)
#include "test_approx_error.moc"

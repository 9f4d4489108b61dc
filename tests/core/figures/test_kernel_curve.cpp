// The kernel curve of a pair along a one-parameter group (KernelCurve.hpp): c(t) = k(g_t x_i, x_j).
// A digit against its own rotation by theta0: the curve peaks at t* = theta0 -- exactly, with the
// Gaussian's maximum k = 1, when theta0 lies on the grid (the same warp of the same input), and
// within one grid step when it does not. A quarter turn is an element of C_4: c(1) = 1 there. q is
// the distribution's density on the grid (von Mises: exp(kappa cos t) / (2 pi I0(kappa))), and a
// group without one parameter has no curve, with the reason in the error.
#include "orbit/figures/KernelCurve.hpp"
#include "orbit/util/Error.hpp"

#include "BundledDigits.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <numbers>

using namespace orbit;

namespace {

/// All 5000 bundled digits.
const Dataset& digits() { return orbittest::firstDigits<0>(); }

/// x rotated by theta (the group's own warp).
std::vector<float> rotated(const Group& g, const Shape& shape, const float* x, double theta)
{
    std::vector<float> out(static_cast<std::size_t>(shape.dim()));
    GroupElement e = g.identity(shape);
    e.theta = theta;
    g.apply(e, x, out.data(), shape);
    return out;
}

} // namespace

class TestKernelCurve : public QObject {
    Q_OBJECT
private slots:
    void peaksAtTheAligningAngle()
    {
        const Dataset& ds = digits();
        const auto group = makeGroup("rotation");
        const auto dist = makeDistribution("vonmises:kappa=2", *group);
        const BaseKernel k = BaseKernel::gaussian(4.0);
        const float* x = ds.sample(3000);  // a 6: no rotation maps it onto itself
        KernelCurveConfig config;
        config.points = 360;
        const double step = 2 * std::numbers::pi / config.points;

        // theta0 on the grid: the same warp as the grid's element, so k = 1 exactly there.
        const double onGrid = 2 * std::numbers::pi * 29 / 360.0;  // grid point k = 180 + 29, ~0.506 rad
        const std::vector<float> y = rotated(*group, ds.shape, x, onGrid);
        const KernelCurve exact = kernelCurve(*group, *dist, k, ds.shape, x, y.data(), config);
        QCOMPARE(exact.t.size(), std::size_t(360));
        QCOMPARE(exact.t.front(), -std::numbers::pi);
        QCOMPARE(exact.t[180], 0.0);
        QCOMPARE(exact.tStar(), exact.t[209]);
        QVERIFY(std::abs(exact.tStar() - onGrid) < 1e-12);
        QVERIFY2(std::abs(exact.cStar() - 1.0) < 1e-6, qPrintable(QString::number(exact.cStar(), 'g', 17)));
        QVERIFY(exact.c[180] < 0.9);  // unrotated, the two are far apart: the curve is what brings them close

        // 0.5 rad, off the grid: the peak is within one step, and the other order gives -0.5.
        const std::vector<float> half = rotated(*group, ds.shape, x, 0.5);
        const KernelCurve forward = kernelCurve(*group, *dist, k, ds.shape, x, half.data(), config);
        QVERIFY2(std::abs(forward.tStar() - 0.5) <= step, qPrintable(QString::number(forward.tStar())));
        const KernelCurve backward = kernelCurve(*group, *dist, k, ds.shape, half.data(), x, config);
        QVERIFY2(std::abs(backward.tStar() + 0.5) <= step, qPrintable(QString::number(backward.tStar())));
        for (double c : forward.c) QVERIFY(c > 0 && c <= 1.0);
    }

    // q is the von Mises density on the grid, it integrates to 1 over the circle; argmax c q is no
    // farther from the identity than t*; the weighted mean lies between the curve's extremes.
    void densityOnTheSameGrid()
    {
        const Dataset& ds = digits();
        const auto group = makeGroup("rotation");
        const auto dist = makeDistribution("vonmises:kappa=4", *group);
        const BaseKernel k = BaseKernel::gaussian(4.0);
        const float* x = ds.sample(3000);
        const std::vector<float> y = rotated(*group, ds.shape, x, 1.2);
        const KernelCurve curve = kernelCurve(*group, *dist, k, ds.shape, x, y.data());
        QCOMPARE(curve.q.size(), curve.t.size());
        double integral = 0;
        for (std::size_t i = 0; i < curve.t.size(); ++i) {
            QCOMPARE(curve.q[i], dist->density(curve.t[i]));
            integral += curve.q[i] * 2 * std::numbers::pi / double(curve.t.size());
        }
        QVERIFY2(std::abs(integral - 1.0) < 1e-6, qPrintable(QString::number(integral)));
        QVERIFY(curve.bestWeighted.has_value());
        const double tq = curve.t[*curve.bestWeighted];
        // c(tq) <= c(t*) and c(tq) q(tq) >= c(t*) q(t*), so q(tq) >= q(t*): for the von Mises about 0,
        // the weighted alignment is no farther from the identity than t*.
        QVERIFY2(std::abs(tq) <= std::abs(curve.tStar()) + 1e-12, qPrintable(QString("%1 %2").arg(tq).arg(curve.tStar())));
        for (std::size_t i = 0; i < curve.t.size(); ++i)
            QVERIFY(curve.c[i] * curve.q[i] <= curve.c[*curve.bestWeighted] * curve.q[*curve.bestWeighted]);
        const auto [lo, hi] = std::minmax_element(curve.c.begin(), curve.c.end());
        QVERIFY(curve.weightedMean > *lo && curve.weightedMean < *hi);
    }

    // C_4 acts exactly: a quarter turn of x is element k = 1, with k = 1 there; q of Haar is 1/4
    // up to the draws' sampling error.
    void cyclicElements()
    {
        const Dataset& ds = digits();
        const auto group = makeGroup("cyclic:n=4");
        const auto dist = makeDistribution("haar", *group);
        const BaseKernel k = BaseKernel::gaussian(4.0);
        const float* x = ds.sample(3000);
        std::vector<float> y(static_cast<std::size_t>(ds.shape.dim()));
        GroupElement quarter = group->identity(ds.shape);
        quarter.k = 1;
        group->apply(quarter, x, y.data(), ds.shape);
        const KernelCurve curve = kernelCurve(*group, *dist, k, ds.shape, x, y.data());
        QCOMPARE(curve.t, (std::vector<double>{0, 1, 2, 3}));
        QCOMPARE(curve.best, std::size_t(1));
        QCOMPARE(curve.cStar(), 1.0);
        for (double q : curve.q) QVERIFY2(std::abs(q - 0.25) < 0.02, qPrintable(QString::number(q)));
    }

    // Scale: the grid covers [1/2, 2] and the log-normal's range, log-spaced, with the identity
    // inside; a pair of equal inputs peaks at s ~ 1 with k ~ 1.
    void scaleGridCoversTheSupport()
    {
        const Dataset& ds = digits();
        const auto group = makeGroup("scale");
        const auto dist = makeDistribution("lognormal:mu=0,sigma=0.3", *group);
        const BaseKernel k = BaseKernel::gaussian(4.0);
        const float* x = ds.sample(3000);
        KernelCurveConfig config;
        config.points = 201;
        const KernelCurve curve = kernelCurve(*group, *dist, k, ds.shape, x, x, config);
        QVERIFY(curve.t.front() <= 0.5 && curve.t.back() >= 2.0);
        QVERIFY(curve.t.back() >= std::exp(1.2) - 1e-9);
        for (std::size_t i = 1; i < curve.t.size(); ++i)
            QVERIFY(std::abs(std::log(curve.t[i] / curve.t[i - 1]) - std::log(curve.t[1] / curve.t[0])) < 1e-9);
        QVERIFY2(std::abs(std::log(curve.tStar())) < 0.02, qPrintable(QString::number(curve.tStar())));
        QVERIFY(curve.cStar() > 0.999);
    }

    void noCurveWithoutOneParameter()
    {
        const Dataset& ds = digits();
        const BaseKernel k = BaseKernel::gaussian(4.0);
        for (const char* spec : {"affine", "orthogonal:k=4"}) {
            const auto group = makeGroup(spec, ds.shape, 1);
            QVERIFY(!kernelCurveUnavailable(*group).empty());
            const auto dist = makeDistribution(std::string(spec) == "affine" ? "rotation=vonmises:kappa=1" : "haar", *group);
            QVERIFY_THROWS_EXCEPTION(SpecError, kernelCurve(*group, *dist, k, ds.shape, ds.sample(0), ds.sample(1)));
        }
        const auto perm = makeGroup("permutation");
        QVERIFY(kernelCurveUnavailable(*perm).find("permutations") != std::string::npos);
        QVERIFY(kernelCurveUnavailable(*makeGroup("rotation")).empty());
        KernelCurveConfig bad;
        bad.points = 1;
        QVERIFY_THROWS_EXCEPTION(SpecError, bad.validate());
    }
};

QTEST_APPLESS_MAIN(TestKernelCurve)
#include "test_kernel_curve.moc"

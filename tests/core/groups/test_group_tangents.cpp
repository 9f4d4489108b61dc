// Derivatives of the group actions (the generators behind learning the locality): applyTangent
// against central differences of apply in double precision, inverseTangent against differences of
// inverse, the double-precision warp against the float one.
#include "orbit/groups/Group.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <vector>

using namespace orbit;

namespace {

/// A smooth image (a few Gaussian blobs) plus white noise, like a template: h x w x ch.
std::vector<double> testImage(const Shape& shape, bool noise, std::uint64_t seed)
{
    Rng rng = makeRng(seed);
    std::vector<double> img(std::size_t(shape.dim()));
    for (int y = 0; y < shape.height; ++y)
        for (int x = 0; x < shape.width; ++x)
            for (int c = 0; c < shape.channels; ++c) {
                const double dx = x - 0.4 * shape.width, dy = y - 0.6 * shape.height;
                double v = std::exp(-(dx * dx + dy * dy) / 18.0) + 0.5 * std::exp(-((x - 3.0) * (x - 3.0) + (y - 4.0) * (y - 4.0)) / 8.0);
                if (noise) v += standardNormal(rng);
                img[std::size_t((y * shape.width + x) * shape.channels + c)] = v + 0.1 * c;
            }
    return img;
}

GroupElement moved(GroupElement g, const GroupTangent& t, double e)
{
    g.theta += e * t.theta;
    g.dx += e * t.dx;
    g.dy += e * t.dy;
    g.scale += e * t.scale;
    return g;
}

} // namespace

class TestGroupTangents : public QObject {
    Q_OBJECT
private slots:
    void applyTangentIsTheDerivativeOfApply_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<double>("theta");
        QTest::addColumn<double>("dx");
        QTest::addColumn<double>("scale");
        QTest::addColumn<bool>("noise");
        QTest::newRow("rotation, smooth") << "rotation" << 0.37 << 0.0 << 1.0 << false;
        QTest::newRow("rotation, white noise") << "rotation" << -1.1 << 0.0 << 1.0 << true;
        QTest::newRow("translation") << "translation" << 0.0 << 1.3 << 1.0 << true;
        QTest::newRow("scale") << "scale" << 0.0 << 0.0 << 1.17 << true;
        QTest::newRow("affine") << "affine" << 0.61 << -0.7 << 0.83 << true;
    }
    void applyTangentIsTheDerivativeOfApply()
    {
        // d/de T_{g + e t} x at e = 0 equals the central difference of apply in double precision
        // for a step far below a pixel (no sample crosses a pixel edge inside it, almost surely).
        QFETCH(QString, group);
        QFETCH(double, theta);
        QFETCH(double, dx);
        QFETCH(double, scale);
        QFETCH(bool, noise);
        const Shape shape{17, 19, 2};
        const auto G = makeGroup(group.toStdString());
        QVERIFY(G->isDifferentiable());
        GroupElement g;
        g.theta = theta;
        g.dx = dx;
        g.dy = 0.4 * dx;
        g.scale = scale;
        const std::vector<double> x = testImage(shape, noise, 3);
        for (const GroupTangent t : {GroupTangent{1, 0, 0, 0}, GroupTangent{0, 1, 0, 0}, GroupTangent{0, 0, 1, 0},
                                     GroupTangent{0, 0, 0, 1}, GroupTangent{0.3, -0.2, 0.5, 0.1}}) {
            std::vector<double> analytic(x.size()), plus(x.size()), minus(x.size());
            G->applyTangent(g, t, x.data(), analytic.data(), shape);
            const double h = 1e-7;
            G->apply(moved(g, t, h), x.data(), plus.data(), shape);
            G->apply(moved(g, t, -h), x.data(), minus.data(), shape);
            double err = 0, norm = 0;
            for (std::size_t i = 0; i < x.size(); ++i) {
                const double fd = (plus[i] - minus[i]) / (2 * h);
                err += (fd - analytic[i]) * (fd - analytic[i]);
                norm += fd * fd;
            }
            // A parameter outside the subgroup has no effect: both are zero.
            if (norm == 0) {
                QCOMPARE(err, 0.0);
                continue;
            }
            QVERIFY2(std::sqrt(err / norm) < 1e-6,
                     qPrintable(QString("%1: relative error %2").arg(group).arg(std::sqrt(err / norm))));
        }
    }
    void inverseTangentIsTheDerivativeOfInverse()
    {
        const auto G = makeGroup("affine");
        GroupElement g;
        g.theta = 0.8;
        g.dx = 1.5;
        g.dy = -0.6;
        g.scale = 1.3;
        const GroupTangent t{0.2, -0.5, 0.7, 0.3};
        const GroupTangent d = G->inverseTangent(g, t);
        const double h = 1e-6;
        const GroupElement p = G->inverse(moved(g, t, h)), m = G->inverse(moved(g, t, -h));
        QVERIFY(std::abs((p.theta - m.theta) / (2 * h) - d.theta) < 1e-7);
        QVERIFY(std::abs((p.dx - m.dx) / (2 * h) - d.dx) < 1e-7);
        QVERIFY(std::abs((p.dy - m.dy) / (2 * h) - d.dy) < 1e-7);
        QVERIFY(std::abs((p.scale - m.scale) / (2 * h) - d.scale) < 1e-7);
        // The rotation subgroup keeps only its own parameter.
        const GroupTangent r = makeGroup("rotation")->inverseTangent(g, t);
        QCOMPARE(r.theta, -0.2);
        QCOMPARE(r.dx, 0.0);
        QCOMPARE(r.scale, 0.0);
    }
    void doubleWarpMatchesTheFloatWarp()
    {
        const Shape shape{12, 12, 1};
        const auto G = makeGroup("affine");
        GroupElement g;
        g.theta = 0.3;
        g.dx = 0.4;
        g.scale = 1.1;
        const std::vector<double> xd = testImage(shape, true, 9);
        std::vector<float> xf(xd.begin(), xd.end()), of(xd.size());
        std::vector<double> od(xd.size());
        G->apply(g, xf.data(), of.data(), shape);
        G->apply(g, xd.data(), od.data(), shape);
        for (std::size_t i = 0; i < od.size(); ++i) QVERIFY(std::abs(od[i] - of[i]) < 1e-5 * (1 + std::abs(od[i])));
    }
    void discreteGroupsHaveNoTangent()
    {
        const auto P = makeGroup("permutation");
        QVERIFY(!P->isDifferentiable());
        float x[4] = {1, 2, 3, 4}, y[4];
        QVERIFY_THROWS_EXCEPTION(SpecError, P->applyTangent(GroupElement{}, GroupTangent{1, 0, 0, 0}, x, y, Shape{2, 2, 1}));
    }
};

QTEST_APPLESS_MAIN(TestGroupTangents)
#include "test_group_tangents.moc"

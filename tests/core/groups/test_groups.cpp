// Group actions T_g (docs/design.md, "Groups and actions"): group laws, exactness of the finite groups, unitarity,
// conventions (counter-clockwise rotation, +dx moves content right), channel-wise action.
#include "TestPaths.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/groups/AffineGroup.hpp"
#include "orbit/groups/CyclicGroup.hpp"
#include "orbit/groups/OrthogonalSetGroup.hpp"
#include "orbit/groups/PermutationGroup.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <opencv2/imgcodecs.hpp>

#include <QTest>
#include <QObject>
#include <QString>
#include <cmath>
#include <numbers>
#include <set>
#include <thread>

using namespace orbit;
using Vec = std::vector<float>;

namespace {

constexpr double kPi = std::numbers::pi;

Vec randomImage(const Shape& s, std::uint64_t seed)
{
    Rng rng = makeRng(seed);
    Vec v(static_cast<std::size_t>(s.dim()));
    for (auto& x : v) x = static_cast<float>(uniform01(rng));
    return v;
}

/// exp(-|p - p0|^2 / (2 w^2)) on an h x w grid: smooth, so bilinear interpolation is accurate.
Vec blob(const Shape& s, double x0, double y0, double width)
{
    Vec v(static_cast<std::size_t>(s.dim()));
    for (int y = 0; y < s.height; ++y)
        for (int x = 0; x < s.width; ++x)
            v[static_cast<std::size_t>(y * s.width + x)] =
                static_cast<float>(std::exp(-((x - x0) * (x - x0) + (y - y0) * (y - y0)) / (2 * width * width)));
    return v;
}

Vec centredBlob(const Shape& s, double width) { return blob(s, 0.5 * (s.width - 1), 0.5 * (s.height - 1), width); }

/// Digit `cell` of OpenCV's digits.png (20 x 20), padded to 28 x 28 and centred, values in [0, 1].
Vec digit(int cell)
{
    static const cv::Mat sheet = cv::imread(orbittest::bundledFile("digits.png"), cv::IMREAD_GRAYSCALE);
    if (sheet.empty()) qFatal("cannot read digits.png");
    const int r0 = (cell / 100) * 20, c0 = (cell % 100) * 20;
    Vec v(28 * 28, 0.0f);
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 20; ++x) v[static_cast<std::size_t>((y + 4) * 28 + x + 4)] = sheet.at<uchar>(r0 + y, c0 + x) / 255.0f;
    return v;
}

double norm(const Vec& a)
{
    double s = 0;
    for (float x : a) s += double(x) * x;
    return std::sqrt(s);
}

double relDiff(const Vec& a, const Vec& b)
{
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    return std::sqrt(s) / norm(b);
}

Vec act(const Group& g, const GroupElement& e, const Vec& x, const Shape& s)
{
    Vec out(x.size());
    g.apply(e, x.data(), out.data(), s);
    return out;
}

/// Intensity-weighted centroid (x, y).
std::pair<double, double> centroid(const Vec& v, const Shape& s)
{
    double m = 0, mx = 0, my = 0;
    for (int y = 0; y < s.height; ++y)
        for (int x = 0; x < s.width; ++x) {
            const double w = v[static_cast<std::size_t>(y * s.width + x)];
            m += w;
            mx += w * x;
            my += w * y;
        }
    return {mx / m, my / m};
}

GroupElement affine(double theta, double dx, double dy, double s)
{
    GroupElement g;
    g.theta = theta;
    g.dx = dx;
    g.dy = dy;
    g.scale = s;
    return g;
}

} // namespace

class TestGroups : public QObject {
    Q_OBJECT
private slots:
    void eachGroupSaysWhatItsKindUsedTo()
    {
        // What the figures, sample and haar read off the kind (issue 45 item 3), now the class's.
        const orbit::Shape image{8, 8, 1};
        const orbit::DistributionDescriptor& haar = *orbit::findDistribution("haar");
        for (const char* spec : {"rotation", "translation", "scale", "affine", "cyclic:n=4", "permutation:n=4",
                                 "orthogonal:k=3,d=64"}) {
            const auto g = orbit::makeGroup(spec, image, 1);
            QCOMPARE(g->hasHaarProbability(), haar.appliesTo(g->kind()));
            QCOMPARE(g->isClosed(), g->kind() != orbit::GroupKind::Orthogonal);
            QCOMPARE(g->curveUnavailable().empty(), !g->parameterAxis().name.empty() && !g->parameterAxis().movedAtoms);
            // Every axis has a title for the window's density chart, and a Haar average is summed
            // over the elements exactly for the finite groups of few elements, not the n! permutations.
            QCOMPARE(g->parameterAxis().title.empty(), g->parameterAxis().name.empty());
            QCOMPARE(g->sumsHaarOverElements(), g->isFinite() && g->kind() != orbit::GroupKind::Permutation);
        }
        QCOMPARE(orbit::makeGroup("rotation")->parameterAxis().title, std::string("rotation angle θ (rad)"));
        QCOMPARE(orbit::makeGroup("rotation")->parameterAxis().name, std::string("theta (rad)"));
        QVERIFY(orbit::makeGroup("cyclic:n=4")->parameterAxis().discrete);
        QVERIFY(orbit::makeGroup("permutation")->parameterAxis().movedAtoms);
        QVERIFY(orbit::makeGroup("affine")->parameterAxis().name.empty());
        orbit::Rng rng = orbit::makeRng(3);
        QVERIFY_THROWS_EXCEPTION(orbit::SpecError, orbit::makeGroup("translation")->sampleHaar(rng, image));
        orbit::GroupElement shift;
        shift.dx = 1.5;
        shift.dy = -2.0;
        const orbit::ElementCoordinates c = orbit::makeGroup("translation")->coordinates(shift);
        QVERIFY(c.list && !c.integers);
        QCOMPARE(c.values, (std::vector<double>{1.5, -2.0}));
        // A core-only program knows no registered group (tests/toy's flipx is linked elsewhere).
        QVERIFY(!orbit::findGroup("flipx"));
        QVERIFY_THROWS_EXCEPTION(orbit::ContractError, orbit::registeredGroupKind("flipx"));
    }

    // --- conventions -------------------------------------------------------------------------
    void rotationIsCounterClockwiseAboutTheCentre()
    {
        // A quarter turn sends the pixel right of the centre of a 3 x 3 image to the one above it.
        const Shape s{3, 3, 1};
        Vec x(9, 0.0f);
        x[1 * 3 + 2] = 1.0f;
        GroupElement g;
        g.theta = kPi / 2;
        const Vec y = act(RotationGroup(), g, x, s);
        Vec expected(9, 0.0f);
        expected[0 * 3 + 1] = 1.0f;
        QCOMPARE(y, expected);
    }
    void similarityMovesPointsAsDocumented()
    {
        // p -> c + s R(theta)(p - c) + R(theta) t: the centroid of a small blob follows that map.
        const Shape s{41, 41, 1};
        const double cx = 20, cy = 20, px = 26, py = 17;
        const Vec x = blob(s, px, py, 1.5);
        const GroupElement g = affine(0.6, 2.0, -1.5, 1.3);
        const auto [mx, my] = centroid(act(AffineGroup(), g, x, s), s);
        const double c = std::cos(g.theta), sn = std::sin(g.theta);
        // R(theta) = [[cos, sin], [-sin, cos]] in pixel coordinates (y down): counter-clockwise on screen.
        const double ux = g.scale * (px - cx) + g.dx, uy = g.scale * (py - cy) + g.dy;
        const double ex = cx + c * ux + sn * uy, ey = cy - sn * ux + c * uy;
        QVERIFY2(std::hypot(mx - ex, my - ey) < 0.05, qPrintable(QString("centroid %1 %2, expected %3 %4").arg(mx).arg(my).arg(ex).arg(ey)));
        // Translation alone: +dx to the right, +dy down.
        GroupElement t;
        t.dx = 3.25;
        t.dy = -2.5;
        const auto [tx, ty] = centroid(act(TranslationGroup(), t, x, s), s);
        QVERIFY(std::abs(tx - (px + 3.25)) < 1e-3 && std::abs(ty - (py - 2.5)) < 1e-3);
    }

    // --- exact finite groups -----------------------------------------------------------------
    void quarterTurnsAreExactPermutations_data()
    {
        QTest::addColumn<int>("side");
        QTest::addColumn<int>("channels");
        QTest::newRow("7x7") << 7 << 1;
        QTest::newRow("8x8") << 8 << 1;
        QTest::newRow("28x28x3") << 28 << 3;
    }
    void quarterTurnsAreExactPermutations()
    {
        QFETCH(int, side);
        QFETCH(int, channels);
        const Shape s{side, side, channels};
        const Vec x = randomImage(s, 3);
        const CyclicGroup c4(4);
        GroupElement one;
        one.k = 1;
        Vec y = x;
        std::multiset<float> before(x.begin(), x.end());
        for (int i = 0; i < 4; ++i) {
            y = act(c4, one, y, s);
            QCOMPARE(std::multiset<float>(y.begin(), y.end()), before);  // a permutation of the pixels
        }
        QCOMPARE(y, x);  // (T_1)^4 = identity, bitwise
        // compose and inverse are exact: T_{a+b} = T_a T_b, T_{-k} T_k = id.
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b) {
                GroupElement ga, gb;
                ga.k = a;
                gb.k = b;
                QCOMPARE(act(c4, c4.compose(ga, gb), x, s), act(c4, ga, act(c4, gb, x, s), s));
                QCOMPARE(act(c4, c4.inverse(ga), act(c4, ga, x, s), s), x);
            }
        // C_4 on images is the rotation group at multiples of pi/2.
        GroupElement q;
        q.theta = kPi / 2;
        QCOMPARE(act(RotationGroup(), q, x, s), act(c4, one, x, s));
    }
    void cyclicShiftsSignals()
    {
        const Shape s{1, 12, 1};
        const Vec x = randomImage(s, 5);
        const CyclicGroup c3(3);  // shifts by 4
        c3.checkShape(DataKind::Vectors, s);
        GroupElement g;
        g.k = 2;
        const Vec y = act(c3, g, x, s);
        for (int j = 0; j < 12; ++j) QCOMPARE(y[static_cast<std::size_t>((j + 8) % 12)], x[static_cast<std::size_t>(j)]);
        QCOMPARE(act(c3, c3.inverse(g), y, s), x);
        QCOMPARE(c3.elements(s).size(), std::size_t(3));
        QVERIFY_THROWS_EXCEPTION(SpecError, CyclicGroup(5).checkShape(DataKind::Vectors, s));
        QVERIFY_THROWS_EXCEPTION(SpecError, c3.checkShape(DataKind::Coulomb, Shape{5, 5, 1}));
    }
    void permutationsActOnRowsAndColumnsTogether()
    {
        const int n = 5;
        const Shape s{n, n, 1};
        Vec c = randomImage(s, 9);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < i; ++j) c[static_cast<std::size_t>(j * n + i)] = c[static_cast<std::size_t>(i * n + j)];
        const PermutationGroup sn;
        sn.checkShape(DataKind::Coulomb, s);
        const auto all = sn.elements(s);
        QCOMPARE(all.size(), std::size_t(120));
        QCOMPARE(std::set<std::vector<int>>([&] {
                     std::set<std::vector<int>> p;
                     for (const auto& g : all) p.insert(g.perm);
                     return p;
                 }()).size(),
                 std::size_t(120));
        const GroupElement a = all[37], b = all[101];
        const Vec y = act(sn, a, c, s);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                QCOMPARE(y[static_cast<std::size_t>(i * n + j)],
                         c[static_cast<std::size_t>(a.perm[static_cast<std::size_t>(i)] * n + a.perm[static_cast<std::size_t>(j)])]);
        QCOMPARE(act(sn, sn.compose(a, b), c, s), act(sn, a, act(sn, b, c, s), s));
        QCOMPARE(act(sn, sn.inverse(a), y, s), c);
        QCOMPARE(sn.compose(a, sn.inverse(a)), sn.identity(s));
        QCOMPARE(QString::fromStdString(sn.describe(a)).split(' ').size(), n);
        QVERIFY_THROWS_EXCEPTION(SpecError, sn.elements(Shape{9, 9, 1}));
        QVERIFY_THROWS_EXCEPTION(SpecError, sn.checkShape(DataKind::Images, Shape{5, 5, 1}));
        QVERIFY_THROWS_EXCEPTION(SpecError, PermutationGroup(6).checkShape(DataKind::Coulomb, s));
    }

    // --- continuous groups: laws up to interpolation -------------------------------------------
    void inverseUndoesWithinInterpolationError_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<double>("theta");
        QTest::addColumn<double>("dx");
        QTest::addColumn<double>("dy");
        QTest::addColumn<double>("scale");
        QTest::newRow("rotation") << "rotation" << 0.7 << 0.0 << 0.0 << 1.0;
        QTest::newRow("translation") << "translation" << 0.0 << 1.3 << -0.6 << 1.0;
        QTest::newRow("scale") << "scale" << 0.0 << 0.0 << 0.0 << 1.15;
        QTest::newRow("affine") << "affine" << -2.1 << 0.8 << 1.7 << 0.9;
    }
    void inverseUndoesWithinInterpolationError()
    {
        QFETCH(QString, group);
        QFETCH(double, theta);
        QFETCH(double, dx);
        QFETCH(double, dy);
        QFETCH(double, scale);
        const auto G = makeGroup(group.toStdString());
        const GroupElement g = affine(theta, dx, dy, scale);
        const Shape s{28, 28, 1};
        // Smooth blob: bilinear interpolation is nearly exact.
        const Vec b = centredBlob(s, 3.0);
        const double eBlob = relDiff(act(*G, G->inverse(g), act(*G, g, b, s), s), b);
        QVERIFY2(eBlob < 0.05, qPrintable(QString("blob error %1").arg(eBlob)));
        QCOMPARE(G->compose(G->inverse(g), g).theta + 1.0, 1.0);
        // A real digit: sharp strokes, so two interpolations blur it, but it stays the same digit.
        const Vec d = digit(1234);
        const double eDigit = relDiff(act(*G, G->inverse(g), act(*G, g, d, s), s), d);
        QVERIFY2(eDigit < 0.3, qPrintable(QString("digit error %1").arg(eDigit)));
        // And the identity element is exact.
        QCOMPARE(act(*G, G->identity(s), d, s), d);
    }
    void composeIsApplyAfterApply()
    {
        const Shape s{32, 32, 1};
        const Vec b = centredBlob(s, 3.5);
        const AffineGroup A;
        const GroupElement a = affine(0.9, 1.5, -0.5, 1.1), c = affine(-0.4, -1.0, 2.0, 0.92);
        // T_{a b} x = T_a (T_b x) up to interpolation, in every image group (each reads its own fields).
        for (const char* name : {"rotation", "translation", "scale", "affine"}) {
            const auto G = makeGroup(name);
            const double e = relDiff(act(*G, G->compose(a, c), b, s), act(*G, a, act(*G, c, b, s), s));
            QVERIFY2(e < 0.05, qPrintable(QString("%1: %2").arg(name).arg(e)));
            // ... and the composed map is not the one in the other order (the test can tell them apart).
            if (std::string(name) == "affine")
                QVERIFY(relDiff(act(*G, G->compose(c, a), b, s), act(*G, a, act(*G, c, b, s), s)) > 0.1);
        }
        // Parameters: g g^-1 = e and associativity hold to rounding.
        const GroupElement id = A.compose(a, A.inverse(a));
        QVERIFY(std::abs(id.theta) < 1e-12 && std::abs(id.dx) < 1e-12 && std::abs(id.dy) < 1e-12 &&
                std::abs(id.scale - 1) < 1e-12);
        const GroupElement l = A.compose(A.compose(a, c), a), r = A.compose(a, A.compose(c, a));
        QVERIFY(std::abs(l.theta - r.theta) < 1e-12 && std::abs(l.dx - r.dx) < 1e-12 && std::abs(l.dy - r.dy) < 1e-12 &&
                std::abs(l.scale - r.scale) < 1e-12);
        // The subgroups compose like their parameters.
        const RotationGroup R;
        GroupElement r1, r2;
        r1.theta = 2.5;
        r2.theta = 1.0;
        QVERIFY(std::abs(R.compose(r1, r2).theta - (3.5 - 2 * kPi)) < 1e-12);  // wrapped into (-pi, pi]
        QVERIFY(relDiff(act(R, R.compose(r1, r2), b, s), act(R, r1, act(R, r2, b, s), s)) < 0.03);
    }
    void actionIsUnitary()
    {
        const Shape s{28, 28, 1};
        const Vec d = digit(4321);
        GroupElement g;
        g.theta = 0.5;
        // Bilinear interpolation low-passes the sharp strokes of a digit (a few per cent of the energy);
        // a smooth blob keeps its norm to well under 1 %; a quarter turn is exact.
        const double ratio = norm(act(RotationGroup(), g, d, s)) / norm(d);
        QVERIFY2(std::abs(ratio - 1) < 0.1, qPrintable(QString("rotation of a digit %1").arg(ratio)));
        const Vec smooth = centredBlob(s, 3.0);
        const double ratioBlob = norm(act(RotationGroup(), g, smooth, s)) / norm(smooth);
        QVERIFY2(std::abs(ratioBlob - 1) < 0.01, qPrintable(QString("rotation of a blob %1").arg(ratioBlob)));
        g.theta = -kPi / 2;
        QCOMPARE(norm(act(RotationGroup(), g, d, s)), norm(d));
        // Scale: the 1/s factor compensates the Jacobian s^2 of the zoom, ||T_s x|| = ||x||; without it
        // the ratio would be s.
        const Vec b = centredBlob(s, 2.5);
        for (double sc : {0.8, 1.25, 1.5}) {
            GroupElement z;
            z.scale = sc;
            const double q = norm(act(ScaleGroup(), z, b, s)) / norm(b);
            QVERIFY2(std::abs(q - 1) < 0.02, qPrintable(QString("scale %1: ratio %2").arg(sc).arg(q)));
        }
    }
    void channelsTransformAlike()
    {
        const Shape s3{9, 11, 3}, s1{9, 11, 1};
        const Vec x = randomImage(s3, 21);
        const GroupElement g = affine(0.4, 0.3, -1.2, 1.17);
        for (const char* name : {"rotation", "translation", "scale", "affine"}) {
            const auto G = makeGroup(name);
            const Vec y = act(*G, g, x, s3);
            for (int c = 0; c < 3; ++c) {
                Vec xc(static_cast<std::size_t>(s1.dim()));
                for (int i = 0; i < s1.dim(); ++i) xc[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(3 * i + c)];
                const Vec yc = act(*G, g, xc, s1);
                for (int i = 0; i < s1.dim(); ++i) QCOMPARE(y[static_cast<std::size_t>(3 * i + c)], yc[static_cast<std::size_t>(i)]);
            }
        }
    }

    // --- the random orthogonal set -------------------------------------------------------------
    void orthogonalSetIsOrthogonalAndHaar()
    {
        const int d = 6, K = 300;
        const OrthogonalSetGroup G(K, d, 17);
        double mean11 = 0;
        for (int k = 0; k < K; ++k) {
            const MatrixXfR& q = G.matrix(k);
            QVERIFY(((q.transpose() * q) - MatrixXfR::Identity(d, d)).cwiseAbs().maxCoeff() < 1e-5f);
            mean11 += q(0, 0);
        }
        // Haar on O(d): E[Q_11] = 0, Var = 1/d (the sign fix removes the bias of raw Householder QR).
        mean11 /= K;
        QVERIFY2(std::abs(mean11) < 4.0 / std::sqrt(double(d) * K), qPrintable(QString("%1").arg(mean11)));
        const Shape s{1, d, 1};
        const Vec x = randomImage(s, 2);
        GroupElement g;
        g.k = 7;
        const Vec y = act(G, g, x, s);
        QVERIFY(std::abs(norm(y) - norm(x)) < 1e-5);
        QVERIFY(relDiff(act(G, G.inverse(g), y, s), x) < 1e-6);
        QCOMPARE(G.compose(G.inverse(g), g), G.identity(s));
        GroupElement h;
        h.k = 8;
        QVERIFY_THROWS_EXCEPTION(SpecError, G.compose(g, h));
        // Same seed, same matrices; another seed, others.
        QCOMPARE(OrthogonalSetGroup(3, d, 17).matrix(2), G.matrix(2));
        QVERIFY(OrthogonalSetGroup(3, d, 18).matrix(2) != G.matrix(2));
        QVERIFY_THROWS_EXCEPTION(SpecError, G.checkShape(DataKind::Vectors, Shape{1, d + 1, 1}));
    }
    void orthogonalSetDrawsOnceForOneSettingAndResumesAfterACancel()
    {
        const int d = 5, K = 64;  // more than a team (a report between teams)
        std::vector<MatrixXfR> expected;
        {
            const OrthogonalSetGroup whole(K, d, 41);
            for (int k = 0; k < K; ++k) expected.push_back(whole.matrix(k));
        }  // its drawing ends with it
        const OrthogonalSetGroup a(K, d, 41), b(K, d, 41);
        std::vector<double> fractions;
        bool named = true;
        // Stops at the second report: the first team's matrices are drawn, the rest not.
        QVERIFY_THROWS_EXCEPTION(Cancelled, a.prepare([&](double f, const std::string& what) {
            fractions.push_back(f);
            named = named && what.find("orthogonal matrices") != std::string::npos;
            return fractions.size() == 2;
        }));
        QVERIFY(named);
        QCOMPARE(fractions.size(), std::size_t(2));
        QCOMPARE(fractions[0], 0.0);
        QVERIFY2(fractions[1] > 0.0 && fractions[1] < 1.0, qPrintable(QString::number(fractions[1])));
        // b shares a's drawing: it resumes where a stopped and finishes it.
        std::vector<double> resumed;
        b.prepare([&](double f, const std::string&) {
            resumed.push_back(f);
            return false;
        });
        QVERIFY(!resumed.empty());
        QCOMPARE(resumed.front(), fractions.back());
        // Then a has nothing left to draw, and both hold the same matrices, the bits of a whole drawing.
        int more = 0;
        a.prepare([&](double, const std::string&) { return ++more < 0; });
        QCOMPARE(more, 0);
        for (int k = 0; k < K; ++k) {
            QCOMPARE(&a.matrix(k), &b.matrix(k));
            QCOMPARE(a.matrix(k), expected[static_cast<std::size_t>(k)]);
        }
        // Another seed or size is another drawing.
        QVERIFY(&OrthogonalSetGroup(K, d, 42).matrix(0) != &a.matrix(0));
        QVERIFY(&OrthogonalSetGroup(K + 1, d, 41).matrix(0) != &a.matrix(0));
    }
    void orthogonalSetDrawnByTwoThreadsAtOnceIsOneDrawing()
    {
        const int d = 6, K = 96;
        std::vector<MatrixXfR> expected;
        {
            const OrthogonalSetGroup whole(K, d, 77);
            for (int k = 0; k < K; ++k) expected.push_back(whole.matrix(k));
        }
        // Two workers prepare groups of one setting at once, one of them cancelled at its fifth report
        // (if the others have not finished first), while a third reads matrices through apply(),
        // which waits for the drawing: all see the same bits, whatever the interleaving.
        const OrthogonalSetGroup a(K, d, 77), b(K, d, 77), c(K, d, 77);
        std::thread first([&] {
            int reports = 0;
            try {
                a.prepare([&](double, const std::string&) { return ++reports == 5; });
            } catch (const Cancelled&) {
            }
        });
        std::thread second([&] { b.prepare([](double, const std::string&) { return false; }); });
        const Shape s{1, d, 1};
        const Vec x = randomImage(s, 3);
        GroupElement g;
        g.k = K - 1;
        const Vec y = act(c, g, x, s);
        first.join();
        second.join();
        for (int k = 0; k < K; ++k) {
            QCOMPARE(&a.matrix(k), &c.matrix(k));
            QCOMPARE(b.matrix(k), expected[static_cast<std::size_t>(k)]);
        }
        const Eigen::VectorXf moved = expected.back() * Eigen::Map<const Eigen::VectorXf>(x.data(), d);
        for (int i = 0; i < d; ++i) QCOMPARE(y[static_cast<std::size_t>(i)], moved(i));
    }
    void orthogonalSetRefusesHugeDimensions()
    {
        try {
            makeGroup("orthogonal:k=10", Shape{1, 3072 * 2, 1});
            QFAIL("accepted d = 6144");
        } catch (const SpecError& e) {
            QVERIFY2(QString(e.what()).contains("MiB"), e.what());
        }
    }

    // --- specs -------------------------------------------------------------------------------
    void specsParseAndRoundTrip()
    {
        for (const char* spec : {"rotation", "translation", "scale", "affine", "cyclic:n=6", "permutation"}) {
            const auto g = makeGroup(spec);
            QCOMPARE(QString::fromStdString(g->spec()), QString(spec));
            QCOMPARE(QString(toString(g->kind())), QString(spec).section(':', 0, 0));
        }
        QCOMPARE(makeGroup("orthogonal:k=3", Shape{1, 4, 1})->spec(), std::string("orthogonal:k=3"));
        for (const char* bad : {"spiral", "cyclic", "cyclic:n=0", "cyclic:n=2.5", "rotation:n=2", "orthogonal"})
            QVERIFY_THROWS_EXCEPTION(SpecError, makeGroup(bad, Shape{1, 4, 1}));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeGroup("rotation")->checkShape(DataKind::Coulomb, Shape{5, 5, 1}));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeGroup("rotation")->elements(Shape{5, 5, 1}));
        QCOMPARE(makeGroup("affine")->describe(affine(0.5, 1, -2, 1.25)), std::string("0.5 1 -2 1.25"));
    }
};

QTEST_APPLESS_MAIN(TestGroups)
#include "test_groups.moc"

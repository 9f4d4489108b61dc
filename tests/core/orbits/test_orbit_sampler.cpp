// OrbitSampler: g_{i,1..r} ~ q from stream i of the seed; the same bits at any thread count and for
// any blocking of the inputs; orbits are the group action applied row by row.
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"

#include "RandomMatrices.hpp"

#include <QTest>
#include <QObject>
#include <algorithm>
#include <omp.h>

using namespace orbit;
using orbittest::uniformMatrix;

namespace {

/// n symmetric "Coulomb" matrices of size m with the last `pad` rows/columns zero.
MatrixXfR coulombLike(int n, int m, int pad, std::uint64_t seed)
{
    MatrixXfR x = uniformMatrix(n, m * m, seed);
    for (int s = 0; s < n; ++s)
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < m; ++j) {
                float& v = x(s, i * m + j);
                if (i >= m - pad || j >= m - pad) v = 0.0f;
                else if (j < i) v = x(s, j * m + i);
            }
    return x;
}

OrbitSampler rotationSampler(int side, int r, std::uint64_t seed)
{
    const auto G = makeGroup("rotation");
    return OrbitSampler(G, makeDistribution("vonmises:kappa=2", *G), Shape{side, side, 1}, r, seed);
}

} // namespace

class TestOrbitSampler : public QObject {
    Q_OBJECT
private slots:
    void sameBitsAtAnyThreadCountAndBlocking()
    {
        const int n = 37, side = 12, r = 5;
        const MatrixXfR X = uniformMatrix(n, side * side, 1);
        const OrbitSampler s = rotationSampler(side, r, 99);
        MatrixXfR one, two, a, b;
        const int before = omp_get_max_threads();
        omp_set_num_threads(1);
        s.transformBlock(X, 0, n, one);
        omp_set_num_threads(2);
        s.transformBlock(X, 0, n, two);
        s.transformBlock(X, 0, 10, a);
        s.transformBlock(X, 10, n, b);
        omp_set_num_threads(before);
        QCOMPARE(one.rows(), Eigen::Index(n * r));
        QVERIFY(one == two);
        QVERIFY(one.topRows(10 * r) == a);
        QVERIFY(one.bottomRows((n - 10) * r) == b);
        // Row (i - begin) r + k is g_{i,k} x_i with the elements of elementsFor(i).
        MatrixXfR orbit;
        const auto g = s.elementsFor(23, X.row(23).data());
        s.orbit(X.row(23).data(), g, orbit);
        QVERIFY(orbit == one.middleRows(23 * r, r));
    }
    void elementsDependOnSeedAndIndexOnly()
    {
        const OrbitSampler s = rotationSampler(8, 6, 7);
        QCOMPARE(s.elementsFor(3, nullptr), rotationSampler(8, 6, 7).elementsFor(3, nullptr));
        QVERIFY(s.elementsFor(3, nullptr) != s.elementsFor(4, nullptr));
        QVERIFY(s.elementsFor(3, nullptr) != rotationSampler(8, 6, 8).elementsFor(3, nullptr));
        // The shared set is fixed, and drawn from a stream of its own.
        QCOMPARE(s.sharedElements(), s.sharedElements());
        QVERIFY(s.sharedElements() != s.elementsFor(0, nullptr));
        QCOMPARE(s.sharedElements().size(), std::size_t(6));
    }
    void noisySortOrbitsArePermutedCoulombMatrices()
    {
        // P C P^T keeps the multiset of entries and sends the zero padding to the last rows.
        const int n = 9, m = 7, pad = 2, r = 4;
        const MatrixXfR X = coulombLike(n, m, pad, 5);
        const auto P = makeGroup("permutation");
        const OrbitSampler s(P, makeDistribution("noisysort:sigma=0.5", *P), Shape{m, m, 1}, r, 3);
        MatrixXfR out, again;
        s.transformBlock(X, 0, n, out);
        omp_set_num_threads(1);
        s.transformBlock(X, 0, n, again);
        QVERIFY(out == again);
        for (int i = 0; i < n; ++i) {
            std::vector<float> x(X.row(i).data(), X.row(i).data() + m * m);
            std::sort(x.begin(), x.end());
            for (int k = 0; k < r; ++k) {
                const float* y = out.row(i * r + k).data();
                std::vector<float> ys(y, y + m * m);
                std::sort(ys.begin(), ys.end());
                QVERIFY(ys == x);
                for (int row = m - pad; row < m; ++row)
                    for (int j = 0; j < m; ++j) QCOMPARE(y[row * m + j], 0.0f);
            }
        }
        QVERIFY_THROWS_EXCEPTION(SpecError, s.sharedElements());
    }
    void rejectsBadConfigurations()
    {
        const auto G = makeGroup("rotation");
        const auto d = makeDistribution("haar", *G);
        QVERIFY_THROWS_EXCEPTION(SpecError, OrbitSampler(G, d, Shape{4, 4, 1}, 0, 1));
        const auto P = makeGroup("permutation");
        QVERIFY_THROWS_EXCEPTION(SpecError, OrbitSampler(P, makeDistribution("vonmises:kappa=1", *G), Shape{4, 4, 1}, 3, 1));
        const OrbitSampler s(G, d, Shape{4, 4, 1}, 2, 1);
        MatrixXfR out;
        QVERIFY_THROWS_EXCEPTION(ContractError, s.transformBlock(uniformMatrix(3, 15, 1), 0, 3, out));
        QVERIFY_THROWS_EXCEPTION(ContractError, s.transformBlock(uniformMatrix(3, 16, 1), 2, 4, out));
    }
};

QTEST_APPLESS_MAIN(TestOrbitSampler)
#include "test_orbit_sampler.moc"

// Coulomb matrices (Rupp et al. 2012): C_ii = 0.5 Z_i^2.4, C_ij = Z_i Z_j / |R_i - R_j| in Bohr.
// Properties: symmetric; invariant under rigid motions of the molecule; permuting the atoms by P
// maps C to P C P^T; zero padding beyond the atoms.
#include "orbit/data/Coulomb.hpp"

#include <QTest>
#include <QObject>

#include <cmath>
#include <vector>

using namespace orbit;

namespace {
using Positions = std::vector<std::array<double, 3>>;

std::vector<float> matrix(const std::vector<int>& z, const Positions& r, int pad)
{
    std::vector<float> c(static_cast<std::size_t>(pad * pad), -1.0f);
    const auto clash = coulombMatrix(z, r, pad, c.data());
    if (clash) qFatal("unexpected coincident atoms");
    return c;
}

const std::vector<int> kZ = {8, 1, 1, 6};
const Positions kR = {{0.0, 0.0, 0.2}, {0.0, 1.4, -0.9}, {0.0, -1.4, -0.9}, {1.1, 0.3, 2.5}};
} // namespace

class TestCoulomb : public QObject {
    Q_OBJECT
private slots:
    void atomicNumbers()
    {
        QCOMPARE(*atomicNumber("H"), 1);
        QCOMPARE(*atomicNumber("Li"), 3);
        QCOMPARE(*atomicNumber("C"), 6);
        QCOMPARE(*atomicNumber("O"), 8);
        QCOMPARE(*atomicNumber("Si"), 14);
        QCOMPARE(*atomicNumber("S"), 16);
        QCOMPARE(*atomicNumber("Cl"), 17);
        QCOMPARE(*atomicNumber("Ar"), 18);
        QCOMPARE(*atomicNumber("Br"), 35);
        QCOMPARE(*atomicNumber("I"), 53);
        QVERIFY(!atomicNumber("Xx"));
        QVERIFY(!atomicNumber(""));
        QVERIFY(!atomicNumber("cl"));  // symbols are case-sensitive here; loaders normalise
    }
    void entriesFollowTheFormula()
    {
        const int pad = 4;
        const auto c = matrix(kZ, kR, pad);
        for (int i = 0; i < 4; ++i) {
            QVERIFY(std::abs(c[i * pad + i] - 0.5 * std::pow(kZ[i], 2.4)) < 1e-4 * c[i * pad + i]);
            for (int j = 0; j < 4; ++j) {
                if (i == j) continue;
                const double d = std::hypot(kR[i][0] - kR[j][0], kR[i][1] - kR[j][1], kR[i][2] - kR[j][2]);
                QVERIFY(std::abs(c[i * pad + j] - kZ[i] * kZ[j] / d) < 1e-5 * c[i * pad + j]);
                QCOMPARE(c[i * pad + j], c[j * pad + i]);  // symmetric
            }
        }
        QVERIFY(std::abs(c[3 * pad + 3] - 36.8581) < 1e-3);  // carbon: 0.5 * 6^2.4
    }
    void zeroPaddedBeyondTheAtoms()
    {
        const int pad = 7;
        const auto c = matrix(kZ, kR, pad);
        for (int i = 0; i < pad; ++i)
            for (int j = 0; j < pad; ++j)
                if (i >= 4 || j >= 4) QCOMPARE(c[i * pad + j], 0.0f);
                else QVERIFY(c[i * pad + j] > 0.0f);
    }
    void invariantUnderRigidMotion()
    {
        // rotate by 0.7 rad about z and translate: distances, hence C, do not change
        const double a = 0.7;
        Positions moved = kR;
        for (auto& p : moved) {
            const double x = std::cos(a) * p[0] - std::sin(a) * p[1];
            const double y = std::sin(a) * p[0] + std::cos(a) * p[1];
            p = {x + 3.0, y - 1.0, p[2] + 0.5};
        }
        const auto c0 = matrix(kZ, kR, 4), c1 = matrix(kZ, moved, 4);
        for (std::size_t k = 0; k < c0.size(); ++k) QVERIFY(std::abs(c0[k] - c1[k]) <= 1e-5f * std::max(1.0f, c0[k]));
    }
    void permutingAtomsConjugatesTheMatrix()
    {
        const std::vector<int> perm = {2, 0, 3, 1};  // new atom k is old atom perm[k]
        std::vector<int> z(4);
        Positions r(4);
        for (int k = 0; k < 4; ++k) z[k] = kZ[perm[k]], r[k] = kR[perm[k]];
        const auto c = matrix(kZ, kR, 4), cp = matrix(z, r, 4);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) QCOMPARE(cp[i * 4 + j], c[perm[i] * 4 + perm[j]]);  // P C P^T
    }
    void coincidentAtomsAreReportedNotWritten()
    {
        Positions r = kR;
        r[3] = r[1];
        std::vector<float> c(16, -1.0f);
        const auto clash = coulombMatrix(kZ, r, 4, c.data());
        QVERIFY(clash.has_value());
        QCOMPARE((*clash)[0], 1);
        QCOMPARE((*clash)[1], 3);
        for (float v : c) QVERIFY(std::isfinite(v));
    }
    void rejectsBadArguments()
    {
        std::vector<float> c(16);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, coulombMatrix(kZ, kR, 3, c.data()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, coulombMatrix({1, 1}, kR, 4, c.data()));
    }
    void bohrConversion() { QVERIFY(std::abs(kBohrPerAngstrom * 0.529177 - 1.0) < 1e-6); }  // a0 = 0.529177 Angstrom
};

QTEST_APPLESS_MAIN(TestCoulomb)
#include "test_coulomb.moc"

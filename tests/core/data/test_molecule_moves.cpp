// A molecule moved by hand (orbit/data/MoleculeMoves.hpp; issue 44's "swap two chosen atoms" and
// "position jitter"): the extended-XYZ loader keeps the atoms' positions; a swap exchanges two atoms'
// rows and columns exactly (the permutation group's action of the transposition); a jitter of 0
// recomputes the row's own bits with the loader's formula, a larger one moves the atoms; data without
// positions refuse the jitter in one line.
#include "orbit/data/Coulomb.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/data/MoleculeMoves.hpp"
#include "orbit/groups/PermutationGroup.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "TestPaths.hpp"

#include <QObject>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace orbit;

namespace {

const Dataset& g2()
{
    static const Dataset d = loadDataset(orbittest::bundledFile("g2.extxyz"));
    return d;
}

constexpr std::size_t kAcetamide = 100;  // CH3CONH2, 9 atoms: O C N C H H H H H

std::vector<float> rowOf(const Dataset& d, std::size_t i) { return {d.sample(i), d.sample(i) + d.shape.dim()}; }

} // namespace

class TestMoleculeMoves : public QObject {
    Q_OBJECT
private slots:
    void extendedXyzKeepsPositions()
    {
        const Dataset& d = g2();
        QCOMPARE(d.positions.size(), d.count());
        for (std::size_t i = 0; i < d.count(); ++i) {
            QCOMPARE(d.positions[i].size(), d.charges[i].size());
            QVERIFY(hasPositions(d, i));
        }
        QCOMPARE(d.names[kAcetamide], std::string("CH3CONH2"));
        // The first atom of acetamide: O at (0.424546, 1.327024, 0.008034) Angstrom, kept in Bohr.
        QCOMPARE(d.charges[kAcetamide][0], 8);
        QVERIFY(std::abs(d.positions[kAcetamide][0][1] - 1.327024 * kBohrPerAngstrom) < 1e-12);
        // Subsets keep them beside their charges.
        const Dataset s = d.subset({kAcetamide, 3});
        QCOMPARE(s.positions[0], d.positions[kAcetamide]);
        s.checkInvariants();
    }

    void jitterZeroIsTheRowsBits()
    {
        const Dataset& d = g2();
        for (std::size_t i : {std::size_t(0), std::size_t(57), kAcetamide, d.count() - 1}) {
            const std::vector<float> moved = jitteredMolecule(d, i, 0.0, 7);
            const std::vector<float> row = rowOf(d, i);
            QCOMPARE(moved.size(), row.size());
            QVERIFY2(std::memcmp(moved.data(), row.data(), row.size() * sizeof(float)) == 0, qPrintable(QString::number(i)));
        }
    }

    void jitterMovesTheAtomsAndRecomputesTheMatrix()
    {
        const Dataset& d = g2();
        const int n = d.shape.height;
        const std::vector<float> row = rowOf(d, kAcetamide);
        const std::vector<float> small = jitteredMolecule(d, kAcetamide, 0.01, 7);
        const std::vector<float> large = jitteredMolecule(d, kAcetamide, 0.1, 7);
        QCOMPARE(jitteredMolecule(d, kAcetamide, 0.1, 7), large);     // seeded
        QVERIFY(jitteredMolecule(d, kAcetamide, 0.1, 8) != large);   // by the seed
        double dSmall = 0, dLarge = 0;
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) {
                const std::size_t k = std::size_t(a * n + b);
                QCOMPARE(large[k], large[std::size_t(b * n + a)]);  // still a Coulomb matrix: symmetric,
                if (a == b) QCOMPARE(large[k], row[k]);             // the same atoms on the diagonal
                dSmall += std::abs(small[k] - row[k]);
                dLarge += std::abs(large[k] - row[k]);
            }
        QVERIFY(dSmall > 0);
        QVERIFY2(dLarge > 3 * dSmall, qPrintable(QString("%1 vs %2").arg(dLarge).arg(dSmall)));  // further along the same directions
        // The same numbers as the loader's formula at positions moved by hand.
        Rng rng = makeRng(7, kAcetamide);
        auto r = d.positions[kAcetamide];
        for (auto& p : r)
            for (double& c : p) c += 0.1 * kBohrPerAngstrom * standardNormal(rng);
        std::vector<float> expected(std::size_t(n * n));
        QVERIFY(!coulombMatrix(d.charges[kAcetamide], r, n, expected.data()));
        QCOMPARE(large, expected);
    }

    void swapIsThePermutationOfTwoAtoms()
    {
        const Dataset& d = g2();
        const int n = d.shape.height;
        const std::vector<float> row = rowOf(d, kAcetamide);
        const std::vector<float> s = swappedAtoms(row.data(), d.shape, 0, 5);
        QCOMPARE(swappedAtoms(s.data(), d.shape, 5, 0), row);  // its own inverse
        QCOMPARE(swappedAtoms(row.data(), d.shape, 3, 3), row);
        QCOMPARE(s[0], row[std::size_t(5 * n + 5)]);           // H's diagonal now first
        QCOMPARE(s[std::size_t(5 * n + 5)], row[0]);
        QCOMPARE(s[std::size_t(0 * n + 2)], row[std::size_t(5 * n + 2)]);
        // The permutation group's action of the transposition (0 5).
        GroupElement g;
        g.perm.resize(std::size_t(n));
        for (int i = 0; i < n; ++i) g.perm[std::size_t(i)] = i;
        std::swap(g.perm[0], g.perm[5]);
        std::vector<float> byGroup(row.size());
        PermutationGroup().apply(g, row.data(), byGroup.data(), d.shape);
        QCOMPARE(s, byGroup);
    }

    void badMovesAreRefusedInOneLine()
    {
        const Dataset& d = g2();
        const std::vector<float> row = rowOf(d, kAcetamide);
        for (auto [i, j] : {std::pair{0, 9}, std::pair{-1, 2}, std::pair{0, 22}}) {
            try {
                swappedAtoms(row.data(), d.shape, i, j);
                QFAIL("a swap of an atom the molecule does not have was taken");
            } catch (const SpecError& e) {
                QCOMPARE(e.field(), std::string("swap"));
                QVERIFY2(std::string(e.what()).find("9 atoms") != std::string::npos, e.what());
            }
        }
        // Coulomb matrices read as such (CSV, .mat) carry no positions: the jitter says so.
        Dataset noPositions = d.subset({kAcetamide});
        noPositions.positions.clear();
        QVERIFY(!hasPositions(noPositions, 0));
        QVERIFY_THROWS_EXCEPTION(SpecError, jitteredMolecule(noPositions, 0, 0.1, 0));
        try {
            jitteredMolecule(noPositions, 0, 0.1, 0);
        } catch (const SpecError& e) {
            QCOMPARE(e.field(), std::string("jitter"));
            QVERIFY2(std::string(e.what()).find("no atom positions") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(SpecError, jitteredMolecule(d, kAcetamide, -0.1, 0));
        QVERIFY_THROWS_EXCEPTION(SpecError, jitteredMolecule(d, kAcetamide, std::nan(""), 0));
    }
};

QTEST_APPLESS_MAIN(TestMoleculeMoves)
#include "test_molecule_moves.moc"

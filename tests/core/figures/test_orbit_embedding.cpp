// The Orbits panel's embedding in core: a PCA of the stacked orbits whose explained fractions are
// sorted, sum to at most 1 and equal the scores' variances over the stack's total variance.
#include "orbit/figures/OrbitEmbedding.hpp"
#include "orbit/util/Error.hpp"

#include "BundledDigits.hpp"

#include <QTest>
#include <QObject>
#include <QString>

using namespace orbit;

namespace {

/// The first 600 bundled digits.
const Dataset& digits() { return orbittest::firstDigits<600>(); }

OrbitSampler sampler(const std::string& dist, int r, std::uint64_t seed)
{
    auto group = makeGroup("rotation", digits().shape, seed);
    return OrbitSampler(group, makeDistribution(dist, *group), digits().shape, r, seed);
}

/// Sample variance of column j.
double columnVariance(const MatrixXfR& M, int j)
{
    const Eigen::VectorXd c = M.col(j).cast<double>();
    return (c.array() - c.mean()).square().sum() / double(c.size() - 1);
}

} // namespace

class TestOrbitEmbedding : public QObject {
    Q_OBJECT
private slots:
    void explainedFractionsAreTheScoresVariances()
    {
        const std::vector<std::size_t> inputs{12, 510, 333};
        const int r = 24;
        const OrbitSampler s = sampler("vonmises:kappa=1", r, 4);
        const OrbitEmbedding e = orbitEmbedding(digits(), inputs, s);
        QCOMPARE(e.inputs, inputs);
        QCOMPARE(e.scores.rows(), Eigen::Index(3 * r));
        QCOMPARE(e.scores.cols(), Eigen::Index(2));
        QCOMPARE(e.inputScores.rows(), Eigen::Index(3));
        QVERIFY(e.explained[0] >= e.explained[1] && e.explained[1] > 0.0);
        QVERIFY(e.explained[0] + e.explained[1] <= 1.0 + 1e-12);
        // The stack rebuilt from the sampler's elements: its total variance is the denominator.
        MatrixXfR stack(3 * r, digits().shape.dim()), block;
        for (int j = 0; j < 3; ++j) {
            const float* x = digits().sample(inputs[std::size_t(j)]);
            s.orbit(x, s.elementsFor(inputs[std::size_t(j)], x), block);
            stack.middleRows(j * r, r) = block;
        }
        const Eigen::MatrixXd centred = stack.cast<double>().rowwise() - stack.cast<double>().colwise().mean();
        const double total = centred.squaredNorm() / double(stack.rows() - 1);
        for (int j = 0; j < 2; ++j)
            QVERIFY2(std::abs(columnVariance(e.scores, j) / total - e.explained[std::size_t(j)]) < 1e-4,
                     qPrintable(QString("PC %1: %2 vs %3").arg(j + 1).arg(columnVariance(e.scores, j) / total).arg(e.explained[std::size_t(j)])));
        // The scores are centred (the stack's mean is removed).
        QVERIFY(std::abs(e.scores.col(0).cast<double>().mean()) < 1e-3);
    }

    // q = delta: every copy is the input itself, so the copies land on their input's point and two
    // inputs span one direction: PC 1 explains everything, PC 2 nothing.
    void deltaOrbitsCollapseOntoTheirInputs()
    {
        const OrbitSampler s = sampler("delta", 5, 0);
        const OrbitEmbedding e = orbitEmbedding(digits(), {3, 400}, s);
        QVERIFY(std::abs(e.explained[0] - 1.0) < 1e-9);
        QVERIFY(std::abs(e.explained[1]) < 1e-9);
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < 5; ++k)
                QVERIFY((e.scores.row(j * 5 + k) - e.inputScores.row(j)).cwiseAbs().maxCoeff() < 1e-4);
    }

    void sameSeedSameBits()
    {
        const OrbitEmbedding a = orbitEmbedding(digits(), {7, 8}, sampler("vonmises:kappa=2", 10, 3));
        const OrbitEmbedding b = orbitEmbedding(digits(), {7, 8}, sampler("vonmises:kappa=2", 10, 3));
        const OrbitEmbedding c = orbitEmbedding(digits(), {7, 8}, sampler("vonmises:kappa=2", 10, 4));
        QVERIFY(a.scores == b.scores && a.inputScores == b.inputScores);
        QVERIFY(a.scores != c.scores);
    }

    void refusesBadInputs()
    {
        const OrbitSampler s = sampler("haar", 1, 0);
        QVERIFY_THROWS_EXCEPTION(SpecError, orbitEmbedding(digits(), {}, s));
        QVERIFY_THROWS_EXCEPTION(SpecError, orbitEmbedding(digits(), {digits().count()}, s));
        QVERIFY_THROWS_EXCEPTION(SpecError, orbitEmbedding(digits(), {5}, s));  // one sample: no axis
        QCOMPARE(orbitEmbedding(digits(), {5, 6}, s).scores.rows(), Eigen::Index(2));
    }
};

QTEST_APPLESS_MAIN(TestOrbitEmbedding)
#include "test_orbit_embedding.moc"

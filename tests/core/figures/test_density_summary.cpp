// The Group panel's figure in core: the histogram of draws is a density (it integrates to 1), its
// moments match those of q, narrow densities get finer bins, discrete parameters one bar per value.
#include "orbit/data/Loaders.hpp"
#include "orbit/figures/DensitySummary.hpp"
#include "orbit/util/Error.hpp"

#include "TestPaths.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <numbers>

using namespace orbit;

namespace {

struct Built {
    std::shared_ptr<const Group> group;
    std::shared_ptr<const Distribution> dist;
};

Built build(const std::string& group, const std::string& dist, const Shape& shape = {28, 28, 1})
{
    Built b;
    b.group = makeGroup(group, shape, 0);
    b.dist = makeDistribution(dist, *b.group);
    return b;
}

DensitySummary summarise(const std::string& group, const std::string& dist, int samples = 20000, std::uint64_t seed = 0)
{
    const Built b = build(group, dist);
    DensityConfig c;
    c.samples = samples;
    c.seed = seed;
    return densitySummary(*b.group, *b.dist, {28, 28, 1}, nullptr, 0, c);
}

double histogramMass(const DensitySummary& d)
{
    double m = 0;
    for (double h : d.histogram) m += h * d.binWidth;
    return m;
}

/// The k-th moment of the histogram (bin centres weighted by their mass).
double histogramMoment(const DensitySummary& d, int k)
{
    double m = 0;
    for (std::size_t b = 0; b < d.histogram.size(); ++b)
        m += std::pow(d.binCentre(int(b)), k) * d.histogram[b] * d.binWidth;
    return m;
}

/// The k-th moment of the density curve (trapezoid rule on its grid).
double densityMoment(const DensitySummary& d, int k)
{
    double m = 0;
    for (std::size_t i = 1; i < d.t.size(); ++i)
        m += 0.5 * (std::pow(d.t[i - 1], k) * d.density[i - 1] + std::pow(d.t[i], k) * d.density[i]) * (d.t[i] - d.t[i - 1]);
    return m;
}

} // namespace

class TestDensitySummary : public QObject {
    Q_OBJECT
private slots:
    // For every distribution with a density: the curve integrates to ~1 over the range, the
    // histogram integrates to exactly 1 (every draw lands in a bin), and the histogram's mean and
    // variance agree with the density's within Monte Carlo and binning error.
    void histogramIsTheDensityOfTheDraws_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::newRow("vonmises kappa=2") << "rotation" << "vonmises:kappa=2";
        QTest::newRow("vonmises kappa=30") << "rotation" << "vonmises:kappa=30";
        QTest::newRow("uniform rotation") << "rotation" << "uniform:a=1";
        QTest::newRow("gaussian translation") << "translation" << "gaussian:sigma=2";
        QTest::newRow("lognormal scale") << "scale" << "lognormal:mu=0.2,sigma=0.3";
    }
    void histogramIsTheDensityOfTheDraws()
    {
        QFETCH(QString, group);
        QFETCH(QString, dist);
        const DensitySummary d = summarise(group.toStdString(), dist.toStdString(), 40000, 5);
        QVERIFY(d.hasDensity);
        QCOMPARE(int(d.t.size()), 2001);
        QVERIFY(std::is_sorted(d.t.begin(), d.t.end()));
        QCOMPARE(d.t.front(), d.lo);
        QVERIFY(std::abs(d.t.back() - d.hi) < 1e-12);
        QVERIFY(std::abs(histogramMass(d) - 1.0) < 1e-12);
        QVERIFY2(std::abs(densityMoment(d, 0) - 1.0) < 2e-3, qPrintable(QString::number(densityMoment(d, 0))));
        const double mean = densityMoment(d, 1), var = densityMoment(d, 2) - mean * mean;
        const double hMean = histogramMoment(d, 1), hVar = histogramMoment(d, 2) - hMean * hMean;
        const double sd = std::sqrt(var);
        // Mean: 5 standard errors plus half a bin; variance: 5 % plus the binning's w^2/12.
        QVERIFY2(std::abs(hMean - mean) < 5 * sd / std::sqrt(40000.0) + d.binWidth / 2,
                 qPrintable(QString("histogram mean %1, density mean %2").arg(hMean).arg(mean)));
        QVERIFY2(std::abs(hVar - var) < 0.05 * var + d.binWidth * d.binWidth / 12,
                 qPrintable(QString("histogram variance %1, density variance %2").arg(hVar).arg(var)));
        for (double h : d.histogram) QVERIFY(h >= 0.0);
        QVERIFY(d.peak() > 0.0);
    }

    // About three bins per standard deviation of q: a wide von Mises keeps the minimum of 40, a
    // narrow one gets ceil(3 (hi - lo) / sd) (its sd ~ 1/sqrt(kappa)), capped at 300.
    void narrowDensitiesGetFinerBins()
    {
        QCOMPARE(int(summarise("rotation", "vonmises:kappa=0.5").histogram.size()), 40);
        const DensitySummary narrow = summarise("rotation", "vonmises:kappa=100");
        const double sd = 1.0 / std::sqrt(100.0);  // von Mises: 1 / sqrt(kappa) for large kappa
        const int expected = int(std::ceil(3.0 * (narrow.hi - narrow.lo) / sd));
        QVERIFY2(std::abs(int(narrow.histogram.size()) - expected) <= expected / 20,
                 qPrintable(QString("%1 bins, about %2 expected").arg(narrow.histogram.size()).arg(expected)));
        QCOMPARE(int(summarise("rotation", "vonmises:kappa=100000").histogram.size()), 300);
        QVERIFY(std::abs(narrow.binWidth * double(narrow.histogram.size()) - (narrow.hi - narrow.lo)) < 1e-12);
    }

    // Discrete parameters: one bar of width 1 per value; Haar on C_4 puts 1/4 on each k.
    void cyclicHaarHasOneBarPerElement()
    {
        const DensitySummary d = summarise("cyclic:n=4", "haar", 40000);
        QVERIFY(!d.hasDensity);
        QVERIFY(d.t.empty());
        QCOMPARE(d.lo, -0.5);
        QCOMPARE(d.hi, 3.5);
        QCOMPARE(int(d.histogram.size()), 4);
        for (double h : d.histogram) QVERIFY2(std::abs(h - 0.25) < 0.01, qPrintable(QString::number(h)));
        QCOMPARE(d.histogramAt(2.0), d.histogram[2]);
    }

    // The delta draws the identity every time: one bar holds all the mass, around 0.
    void deltaIsOneBar()
    {
        const DensitySummary d = summarise("rotation", "delta", 100);
        QCOMPARE(d.lo, -1.0);
        QCOMPARE(d.hi, 1.0);
        QCOMPARE(d.histogramAt(0.0) * d.binWidth, 1.0);
    }

    // Permutations of a molecule: the number of atoms moved is a whole number of at most its atoms.
    void noisySortCountsMovedAtoms()
    {
        const Dataset g2 = loadDataset(orbittest::bundledFile("g2.extxyz"), {});
        const Built b = build("permutation", "noisysort:sigma=1", g2.shape);
        DensityConfig c;
        c.samples = 5000;
        const std::size_t index = 40;
        const DensitySummary d = densitySummary(*b.group, *b.dist, g2.shape, &g2, index, c);
        QCOMPARE(d.parameter, std::string("atoms moved"));
        QCOMPARE(d.lo, -0.5);
        QVERIFY(d.hi <= double(g2.charges[index].size()) + 0.5);
        QCOMPARE(d.binWidth, 1.0);
        QVERIFY(std::abs(histogramMass(d) - 1.0) < 1e-12);
        // Without data the count has no molecule: an error naming the data, not a crash.
        QVERIFY_THROWS_EXCEPTION(SpecError, densitySummary(*b.group, *b.dist, g2.shape, nullptr, 0, c));
        QVERIFY_THROWS_EXCEPTION(SpecError, densitySummary(*b.group, *b.dist, g2.shape, &g2, g2.count(), c));
    }

    void sameSeedSameBits()
    {
        const DensitySummary a = summarise("rotation", "vonmises:kappa=3", 3000, 9);
        const DensitySummary b = summarise("rotation", "vonmises:kappa=3", 3000, 9);
        const DensitySummary c = summarise("rotation", "vonmises:kappa=3", 3000, 10);
        QVERIFY(a.histogram == b.histogram && a.density == b.density);
        QVERIFY(a.histogram != c.histogram);
        QVERIFY(a.density == c.density);  // the density does not depend on the draws
    }

    // The affine group is plotted factor by factor, each with its own law from the product spec.
    void affineSplitsIntoFactors()
    {
        const Built b = build("affine", "rotation=vonmises:kappa=9,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.3");
        const auto factors = densityFactors(b.group, b.dist, {28, 28, 1}, 0);
        QCOMPARE(int(factors.size()), 3);
        QCOMPARE(factors[0].name, std::string("rotation"));
        QCOMPARE(factors[0].dist->spec(), std::string("vonmises:kappa=9"));
        QCOMPARE(factors[1].group->kind(), GroupKind::Translation);
        QCOMPARE(factors[2].dist->spec(), std::string("lognormal:mu=0,sigma=0.3"));
        const Built r = build("rotation", "vonmises:kappa=9");
        const auto one = densityFactors(r.group, r.dist, {28, 28, 1}, 0);
        QCOMPARE(int(one.size()), 1);
        QCOMPARE(one[0].dist.get(), r.dist.get());
    }

    void refusesWhatHasNoParameter()
    {
        const Built b = build("affine", "delta");
        DensityConfig c;
        QVERIFY_THROWS_EXCEPTION(SpecError, densitySummary(*b.group, *b.dist, {28, 28, 1}, nullptr, 0, c));
        QVERIFY(densityParameterName(*makeGroup("orthogonal:k=2", Shape{4, 1, 1})).empty());
        c.samples = 0;
        const Built r = build("rotation", "haar");
        QVERIFY_THROWS_EXCEPTION(SpecError, densitySummary(*r.group, *r.dist, {28, 28, 1}, nullptr, 0, c));
    }
};

QTEST_APPLESS_MAIN(TestDensitySummary)
#include "test_density_summary.moc"

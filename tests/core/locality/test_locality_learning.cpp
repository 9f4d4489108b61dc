// Learning the locality (van der Wilk et al. 2018 in LGIKA's setting) on the bundled digits and G2
// molecules: the evidence gradient against finite differences, smooth common-random-number curves,
// the optimiser against the curve, determinism, and one-line errors.
#include "TestPaths.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/locality/LocalityLearning.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <QTest>
#include <QObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>

using namespace orbit;

namespace {

/// 400 bundled digits, padded to 28 x 28 and rotated over the whole circle (the digits table's recipe).
const Dataset& rotatedDigits()
{
    static const Dataset d = prepareDataset(loadDataset(orbittest::source("resources/data/digits.png")), 400, true, 28, 0);
    return d;
}

LocalityConfig digitsConfig(const std::string& group, const std::string& dist, std::vector<std::string> learn)
{
    LocalityConfig c;
    c.features = "irf:s=200,r=6";
    c.group = group;
    c.dist = dist;
    c.kernel = "gaussian:median=1";
    c.learn = std::move(learn);
    c.seed = 3;
    return c;
}

/// An analytic evidence curve over one parameter "a" in [0, 3]: a sum of Gaussian bumps
/// sum_k h_k exp(-(a - c_k)^2 / (2 w_k^2)) plus a slope, with its exact derivative; counts its
/// evaluations.
class Bumps : public EvidenceFunction {
public:
    struct Bump {
        double height, centre, width;
    };
    explicit Bumps(std::vector<Bump> bumps, double slope = 0.0) : bumps_(std::move(bumps)), slope_(slope) {}
    bool hasGradient() const override { return true; }
    EvidencePoint evaluate(const std::map<std::string, double>& values, bool gradient, const Progress& = {}) const override
    {
        const double a = values.at("a");
        EvidencePoint p;
        p.params = values;
        double f = slope_ * a, g = slope_;
        for (const Bump& b : bumps_) {
            const double e = b.height * std::exp(-(a - b.centre) * (a - b.centre) / (2 * b.width * b.width));
            f += e;
            g -= e * (a - b.centre) / (b.width * b.width);
        }
        p.logEvidence = f;
        if (gradient) p.gradient = {g};
        ++evaluations;
        return p;
    }
    mutable int evaluations = 0;

private:
    std::vector<Bump> bumps_;
    double slope_;
};

std::vector<SearchRange> rangeOfA(double start) { return {SearchRange{"a", 0.0, 3.0, start, false}}; }

/// Interior points of a curve where its discrete slope changes sign.
int localExtrema(const std::vector<double>& y)
{
    int n = 0;
    for (std::size_t i = 1; i + 1 < y.size(); ++i)
        if ((y[i] - y[i - 1]) * (y[i + 1] - y[i]) < 0) ++n;
    return n;
}

} // namespace

class TestLocalityLearning : public QObject {
    Q_OBJECT
private slots:
    void gradientMatchesFiniteDifferences_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<QString>("params");
        QTest::addColumn<QString>("features");
        QTest::newRow("rotation, vonmises kappa") << "rotation" << "vonmises:kappa=1.5" << "kappa" << "irf:s=200,r=6";
        QTest::newRow("rotation, vonmises kappa, complex") << "rotation" << "vonmises:kappa=4" << "kappa" << "irf:s=100,r=6,form=complex";
        QTest::newRow("rotation, vonmises kappa, inputs moved") << "rotation" << "vonmises:kappa=0.7" << "kappa" << "irf:s=200,r=4,mode=data";
        QTest::newRow("rotation, uniform a") << "rotation" << "uniform:a=1.2" << "a" << "irf:s=200,r=6";
        QTest::newRow("translation, gaussian sigma") << "translation" << "gaussian:sigma=1.3" << "sigma" << "irf:s=200,r=6";
        QTest::newRow("translation, uniform a") << "translation" << "uniform:a=2" << "a" << "irf:s=200,r=6";
        QTest::newRow("scale, lognormal mu and sigma") << "scale" << "lognormal:mu=0.05,sigma=0.2" << "mu,sigma" << "irf:s=200,r=4";
        QTest::newRow("affine, three factors") << "affine"
                                               << "rotation=uniform:a=0.8,translation=gaussian:sigma=0.9,scale=lognormal:mu=0,sigma=0.15"
                                               << "rotation.a,translation.sigma,scale.sigma" << "irf:s=200,r=4";
    }
    void gradientMatchesFiniteDifferences()
    {
        // d log p / d theta_m (chain rule through the features) against the central difference of the
        // whole evidence, re-maximised over alpha and beta, in double precision: relative error <= 1e-3.
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(QString, params);
        QFETCH(QString, features);
        std::vector<std::string> names;
        for (const QString& p : params.split(',')) names.push_back(p.toStdString());
        LocalityConfig c = digitsConfig(group.toStdString(), dist.toStdString(), names);
        c.features = features.toStdString();
        c.doublePrecision = true;
        const EvidenceObjective objective(rotatedDigits(), learningRows(rotatedDigits(), c), c);
        QVERIFY(objective.hasGradient());
        const auto start = objective.startValues();
        const EvidencePoint p = objective.evaluate(start, true);
        QCOMPARE(p.gradient.size(), names.size());
        for (std::size_t m = 0; m < names.size(); ++m) {
            const double v = start.at(names[m]), h = 1e-6 * std::max(1.0, std::abs(v));
            auto up = start, down = start;
            up[names[m]] = v + h;
            down[names[m]] = v - h;
            const double fd = (objective.evaluate(up, false).logEvidence - objective.evaluate(down, false).logEvidence) / (2 * h);
            const double rel = std::abs(fd - p.gradient[m]) / std::max(std::abs(fd), 1e-3);
            QVERIFY2(rel <= 1e-3, qPrintable(QString("%1: analytic %2, finite difference %3 (relative %4)")
                                                 .arg(QString::fromStdString(names[m])).arg(p.gradient[m], 0, 'g', 9)
                                                 .arg(fd, 0, 'g', 9).arg(rel)));
        }
    }
    void floatEvidenceAgreesWithDouble()
    {
        LocalityConfig c = digitsConfig("rotation", "vonmises:kappa=2", {"kappa"});
        const EvidenceObjective f(rotatedDigits(), learningRows(rotatedDigits(), c), c);
        c.doublePrecision = true;
        const EvidenceObjective d(rotatedDigits(), learningRows(rotatedDigits(), c), c);
        const EvidencePoint pf = f.evaluate(f.startValues(), true), pd = d.evaluate(d.startValues(), true);
        QVERIFY2(std::abs(pf.logEvidence - pd.logEvidence) < 1e-5 * std::abs(pd.logEvidence),
                 qPrintable(QString("%1 vs %2").arg(pf.logEvidence).arg(pd.logEvidence)));
        QVERIFY(std::abs(pf.gradient[0] - pd.gradient[0]) < 1e-2 * std::abs(pd.gradient[0]) + 1e-2);
    }
    void commonRandomNumbersGiveASmoothCurve()
    {
        // 40 values of kappa from 0.03 to 30 with one seed, on 1000 rotated digits with irf:s=500,r=16
        // and a hold-out split (the setting where a grid of fresh samples zigzagged): the curve does
        // not zigzag (at most three local extrema). Drawing fresh templates and elements at every
        // value (a seed per point) does.
#if defined(__SANITIZE_ADDRESS__)
        // Under AddressSanitizer (CI's asan-core step) the same code runs on a tenth of the work, for
        // its memory checks; the statistics need the full setting, which the Release run checks.
        constexpr bool kSanitized = true;
        const Dataset data = prepareDataset(loadDataset(orbittest::source("resources/data/digits.png")), 300, true, 28, 0);
        LocalityConfig c = digitsConfig("rotation", "vonmises:kappa=1", {});
        c.features = "irf:s=200,r=8";
        const std::vector<double> kappas = parseValueList("0.03:30:10:log");
#else
        constexpr bool kSanitized = false;
        const Dataset data = prepareDataset(loadDataset(orbittest::source("resources/data/digits.png")), 1000, true, 28, 0);
        LocalityConfig c = digitsConfig("rotation", "vonmises:kappa=1", {});
        c.features = "irf:s=500,r=16";
        const std::vector<double> kappas = parseValueList("0.03:30:40:log");
#endif
        c.eval = "holdout:0.2";
        const EvidenceCurve curve = evidenceCurve(data, c, "kappa", kappas);
        QCOMPARE(curve.logEvidence.size(), kappas.size());
        for (double e : curve.logEvidence) QVERIFY(std::isfinite(e));
        if (kSanitized) QSKIP("under AddressSanitizer the curve runs on 300 digits for its memory checks only");
        QVERIFY2(localExtrema(curve.logEvidence) <= 3, qPrintable(QString("%1 extrema").arg(localExtrema(curve.logEvidence))));
        std::vector<double> fresh;
        for (std::size_t i = 0; i < kappas.size(); ++i) {
            LocalityConfig f = c;
            f.seed = 100 + i;
            fresh.push_back(evidenceCurve(data, f, "kappa", {kappas[i]}).logEvidence.front());
        }
        QVERIFY2(localExtrema(fresh) > 3, qPrintable(QString("fresh samples: %1 extrema").arg(localExtrema(fresh))));
    }
    void learnedValueReachesTheTopOfTheCurve()
    {
        // The learned window's evidence is at least the maximum of a 24-point curve of the same seed,
        // less 0.1 % of the curve's range, within 20 evaluations.
        const Dataset& data = rotatedDigits();
        LocalityConfig c = digitsConfig("rotation", "uniform:a=0.5", {"a"});
        c.maxEvaluations = 20;
        const LearnResult r = learnLocality(data, c);
        QVERIFY(int(r.trajectory.size()) <= 20);
        QCOMPARE(r.method, std::string("parabolic"));
        QVERIFY(r.converged);
        const EvidenceCurve curve = evidenceCurve(data, c, "a", parseValueList("0.01:3.14159:24:log"));
        const auto [lo, hi] = std::minmax_element(curve.logEvidence.begin(), curve.logEvidence.end());
        QVERIFY2(r.logEvidence >= *hi - 1e-3 * (*hi - *lo),
                 qPrintable(QString("learned a=%1: %2, curve max %3").arg(r.learned.at("a")).arg(r.logEvidence).arg(*hi)));
        QCOMPARE(r.dist, "uniform:a=" + formatNumber(r.learned.at("a")));
    }
    void searchStopsWhenConverged()
    {
        // A smooth single peak: the search stops on its own, far below its budget of 30, at the top.
        const Bumps curve({{100.0, 1.3, 0.4}});
        const SearchOutcome r = maximiseEvidence(curve, {}, {}, rangeOfA(0.5), 30);
        QVERIFY(r.converged);
        QVERIFY2(r.trajectory.size() < 20, qPrintable(QString::number(r.trajectory.size())));
        QCOMPARE(curve.evaluations, int(r.trajectory.size()));
        QVERIFY2(std::abs(r.best.params.at("a") - 1.3) < 0.01, qPrintable(QString::number(r.best.params.at("a"))));
        // With a pilot whose peak is off (at 1.1, a quarter of the height, as a subset of rows gives):
        // the pilot finds the basin, and two full-size evaluations with their gradients reach the top.
        const Bumps full({{400.0, 1.3, 0.4}}), pilot({{100.0, 1.1, 0.4}});
        const SearchOutcome p = maximiseEvidence(full, {&pilot}, {4.0}, rangeOfA(0.5), 30);
        QVERIFY(p.converged);
        QCOMPARE(p.pilots.size(), std::size_t(1));
        QVERIFY2(p.trajectory.size() <= 3, qPrintable(QString::number(p.trajectory.size())));
        for (const EvidencePoint& e : p.trajectory) QVERIFY(e.pilotLevel == -1 && !e.gradient.empty());
        for (const EvidencePoint& e : p.pilots[0]) QCOMPARE(e.pilotLevel, 0);
        QVERIFY2(p.best.logEvidence > 400.0 - 1e-3 * 400.0, qPrintable(QString::number(p.best.logEvidence)));
    }
    void searchFindsTheHigherOfTwoPeaks_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<bool>("withPilot");
        QTest::addColumn<double>("pilotLowerPeak");
        QTest::newRow("start on the lower peak") << 0.7 << false << 0.0;
        QTest::newRow("start on the lower peak, pilot") << 0.7 << true << 25.0;
        QTest::newRow("start between") << 1.5 << false << 0.0;
        // The pilot's rows favour the other peak a little: both are tried at full size.
        QTest::newRow("pilot prefers the lower peak") << 0.7 << true << 27.5;
    }
    void searchFindsTheHigherOfTwoPeaks()
    {
        // Peaks at 0.7 (height 100) and 2.2 (height 110, narrower): the scan sees both, and the
        // search ends on the higher one, still within its budget.
        QFETCH(double, start);
        QFETCH(bool, withPilot);
        QFETCH(double, pilotLowerPeak);
        const Bumps full({{100.0, 0.7, 0.3}, {110.0, 2.2, 0.2}});
        const Bumps pilot({{pilotLowerPeak, 0.72, 0.3}, {27.0, 2.15, 0.2}});
        const SearchOutcome r = withPilot ? maximiseEvidence(full, {&pilot}, {4.0}, rangeOfA(start), 30)
                                          : maximiseEvidence(full, {}, {}, rangeOfA(start), 30);
        QVERIFY(r.converged && r.trajectory.size() < 30);
        QVERIFY2(std::abs(r.best.params.at("a") - 2.2) < 0.02 && r.best.logEvidence > 110 - 0.1,
                 qPrintable(QString("a = %1, %2").arg(r.best.params.at("a")).arg(r.best.logEvidence)));
    }
    void searchClimbsFromItsSeed()
    {
        // A seed (a full-size point with its gradient, evaluated elsewhere) opens the trajectory
        // outside the budget, and the search never ends below it. The pilot prefers the far peak
        // (2.5), whose full-size value is lower: it is tried, and the refine climbs from the seed to
        // the full curve's top (1.0). Without the seed it ends on the far peak.
        const Bumps full({{400.0, 1.0, 0.3}, {300.0, 2.5, 0.2}}), pilot({{60.0, 1.0, 0.3}, {150.0, 2.5, 0.4}});
        KnownPoints known;
        known.seeds = {full.evaluate({{"a", 0.8}}, true)};
        known.seeds.front().stage = "elsewhere";
        full.evaluations = pilot.evaluations = 0;
        const SearchOutcome r = maximiseEvidence(full, {&pilot}, {4.0}, rangeOfA(0.5), 12, {}, {}, {}, known);
        QCOMPARE(r.trajectory.front().stage, std::string("seed"));
        QCOMPARE(r.trajectory.front().params.at("a"), 0.8);
        QCOMPARE(full.evaluations, int(r.trajectory.size()) - 1);  // the seed is recorded, not evaluated
        QVERIFY(full.evaluations <= 12);
        QVERIFY2(std::abs(r.best.params.at("a") - 1.0) < 0.02 && r.best.logEvidence > 400.0 - 0.1,
                 qPrintable(QString("a = %1, %2").arg(r.best.params.at("a")).arg(r.best.logEvidence)));
        const SearchOutcome without = maximiseEvidence(full, {&pilot}, {4.0}, rangeOfA(0.5), 12);
        QVERIFY2(without.best.logEvidence < 350.0, qPrintable(QString::number(without.best.logEvidence)));

        // At full size (no pilot) with a gradient, the search scans, then climbs with the gradient
        // from the best point it knows: here the seed on the higher peak's flank (1.3), above every
        // scanned point.
        const Bumps wide({{400.0, 1.4, 0.25}, {300.0, 2.5, 0.3}});
        known.seeds = {wide.evaluate({{"a", 1.3}}, true)};
        const SearchOutcome f = maximiseEvidence(wide, {}, {}, rangeOfA(2.9), 12, {}, {}, {}, known);
        QVERIFY(f.converged);
        QVERIFY2(std::abs(f.best.params.at("a") - 1.4) < 0.01 && f.best.logEvidence > 399.9,
                 qPrintable(QString("a = %1, %2").arg(f.best.params.at("a")).arg(f.best.logEvidence)));

        // A scan given at full size (per-class locality evaluates it for every class at once) is
        // recorded outside the budget, beside the seed: the climb starts from the best point known
        // (here the scanned 2.2, next to the higher peak; the seed sits on the lower one) with the
        // gradient, and a few evaluations of its own reach the top.
        const Bumps two({{100.0, 0.7, 0.3}, {110.0, 2.25, 0.2}});
        known.seeds = {two.evaluate({{"a", 0.75}}, true)};
        known.scanned.clear();
        for (int k = 0; k <= 15; ++k) known.scanned.push_back(two.evaluate({{"a", 3.0 * k / 15.0}}, false));
        two.evaluations = 0;
        const SearchOutcome s2 = maximiseEvidence(two, {}, {}, rangeOfA(0.5), 4, {}, {}, {}, known);
        QCOMPARE(s2.trajectory.size(), std::size_t(1 + 16 + two.evaluations));
        QVERIFY2(two.evaluations <= 4, qPrintable(QString::number(two.evaluations)));
        QVERIFY2(std::abs(s2.best.params.at("a") - 2.25) < 0.01, qPrintable(QString::number(s2.best.params.at("a"))));
    }
    void searchStopsAtABound()
    {
        // Rising to the end of the range (a window wider than any allowed): the end, and a stop.
        const Bumps rising({}, 10.0);
        const SearchOutcome r = maximiseEvidence(rising, {}, {}, rangeOfA(0.5), 30);
        QVERIFY(r.converged && r.trajectory.size() < 30);
        QCOMPARE(r.best.params.at("a"), 3.0);
    }
    void theBudgetIsAHardCap()
    {
        // A peak on a bound brackets with a midpoint the scan did not evaluate; with the budget
        // spent by the scan, the search ends on what it has (EvidenceLocality(max_evals=4) once
        // took a fifth evaluation there).
        for (double slope : {-10.0, 10.0})
            for (int budget : {2, 3, 4, 5, 6}) {
                const Bumps monotone({}, slope);
                const SearchOutcome r = maximiseEvidence(monotone, {}, {}, rangeOfA(1.0), budget);
                QVERIFY2(int(r.trajectory.size()) <= budget && monotone.evaluations <= budget,
                         qPrintable(QString("slope %1, budget %2: %3 evaluations").arg(slope).arg(budget).arg(monotone.evaluations)));
                if (budget >= 3)  // the scan has reached both ends
                    QCOMPARE(r.best.params.at("a"), slope < 0 ? 0.0 : 3.0);
            }
    }
    void learnWithPilotsReachesTheTopOfTheCurve()
    {
        // 1200 rotated digits, hold-out 600 / 600, irf:s=600: large enough for a pilot (250 rows,
        // 150 templates). The learn stops on its own after a few full-size evaluations, at least as
        // high as a 16-point curve of the same seed less 0.1 % of its range; its held-out score
        // (the weights of its own evaluation, only the test rows' features computed) is that of a
        // fresh fit at the learned value.
        const Dataset data = prepareDataset(loadDataset(orbittest::source("resources/data/digits.png")), 1200, true, 28, 0, 90.0);
        LocalityConfig c = digitsConfig("rotation", "uniform:a=0.5", {"a"});
        c.features = "irf:s=600,r=8";
        c.eval = "holdout:0.5";
        const LearnResult r = learnLocality(data, c);
        QCOMPARE(r.pilots.size(), std::size_t(1));
        QCOMPARE(r.pilots[0].rows, std::size_t(250));
        QVERIFY(!r.pilots[0].trajectory.empty());
        QVERIFY(r.converged);
        QVERIFY2(r.trajectory.size() <= 5, qPrintable(QString::number(r.trajectory.size())));
        const EvidenceCurve curve = evidenceCurve(data, c, "a", parseValueList("0.05:3.14159:16"));
        const auto [lo, hi] = std::minmax_element(curve.logEvidence.begin(), curve.logEvidence.end());
        QVERIFY2(r.logEvidence >= *hi - 1e-3 * (*hi - *lo),
                 qPrintable(QString("learned a=%1: %2, curve max %3").arg(r.learned.at("a")).arg(r.logEvidence).arg(*hi)));
        Indices test;
        const Indices rows = learningRows(data, c, &test);
        const EvidenceObjective objective(data, rows, c);
        EvidencePoint unfitted;
        unfitted.params = r.learned;
        QCOMPARE(objective.heldOutScore(unfitted, test), *r.test);
        // The landscape: every evaluation, the pilot's mapped onto the full scale, sorted by a.
        const std::vector<LandscapePoint> land = learnLandscape(r);
        QCOMPARE(land.size(), r.trajectory.size() + r.pilots[0].trajectory.size());
        for (std::size_t i = 1; i < land.size(); ++i) QVERIFY(land[i - 1].params.at("a") <= land[i].params.at("a"));
    }
    void evidenceAgreesWithTrain()
    {
        // The objective's evidence at a point is the log evidence `train --learner blr` reports on the
        // same training rows with the same seed and kernel (same templates and group elements).
        const Dataset& data = rotatedDigits();
        LocalityConfig c = digitsConfig("rotation", "vonmises:kappa=0.5", {"kappa"});
        c.eval = "holdout:0.25";
        const BaseKernel k = makeKernel(c.kernel, data.X, featureSeed(c.seed));
        c.kernel = k.spec();
        const EvidenceCurve curve = evidenceCurve(data, c, "kappa", {0.5});
        TrainConfig t;
        t.features = c.features;
        t.group = c.group;
        t.dist = c.dist;
        t.kernel = c.kernel;
        t.learner = "blr";
        t.eval = c.eval;
        t.seed = c.seed;
        const TrainResult r = train(data, t);
        QVERIFY2(std::abs(curve.logEvidence[0] - *r.logEvidence) < 1e-4 * std::abs(*r.logEvidence),
                 qPrintable(QString("evidence %1, train %2").arg(curve.logEvidence[0], 0, 'g', 12).arg(*r.logEvidence, 0, 'g', 12)));
    }
    void noisySortIsSearchedWithoutGradient()
    {
        const Dataset g2 = loadDataset(orbittest::source("resources/data/g2.extxyz"));
        LocalityConfig c;
        c.features = "irf:s=300,r=8";
        c.group = "permutation";
        c.dist = "noisysort:sigma=1";
        c.learn = {"sigma"};
        c.maxEvaluations = 14;
        const LearnResult r = learnLocality(g2, c);
        QCOMPARE(r.method, std::string("bracket"));
        QVERIFY(int(r.trajectory.size()) <= 14);
        for (const EvidencePoint& p : r.trajectory) QVERIFY(p.gradient.empty() && r.logEvidence >= p.logEvidence);
        QVERIFY(r.learned.at("sigma") >= 0.01 && r.learned.at("sigma") <= 1000);
    }
    void rejectsBadRequests_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<QString>("learn");
        QTest::addColumn<QString>("bounds");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown name") << "rotation" << "vonmises:kappa=1" << "kapa" << "" << "distribution" << "kapa";
        QTest::newRow("haar has none") << "rotation" << "haar" << "kappa" << "" << "distribution" << "kappa";
        QTest::newRow("delta has none") << "rotation" << "delta" << "a" << "" << "distribution" << "a";
        QTest::newRow("affine needs factor.key") << "affine" << "rotation=vonmises:kappa=2" << "kappa" << "" << "distribution" << "kappa";
        QTest::newRow("bounds exclude start") << "rotation" << "vonmises:kappa=5" << "kappa" << "0.1:2" << "bounds" << "kappa=5";
        QTest::newRow("bounds outside valid") << "rotation" << "uniform:a=1" << "a" << "0.5:4" << "bounds" << "4";
        QTest::newRow("bounds reversed") << "rotation" << "uniform:a=1" << "a" << "2:0.5" << "bounds" << "2";
        QTest::newRow("named twice") << "rotation" << "vonmises:kappa=1" << "kappa,kappa" << "" << "learn" << "kappa";
    }
    void rejectsBadRequests()
    {
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(QString, learn);
        QFETCH(QString, bounds);
        QFETCH(QString, field);
        QFETCH(QString, mentions);
        std::vector<std::string> names;
        for (const QString& p : learn.split(',')) names.push_back(p.toStdString());
        LocalityConfig c = digitsConfig(group.toStdString(), dist.toStdString(), names);
        c.maxEvaluations = 3;
        if (!bounds.isEmpty()) {
            const QStringList b = bounds.split(':');
            c.bounds[names.front()] = {b[0].toDouble(), b[1].toDouble()};
        }
        try {
            learnLocality(rotatedDigits(), c);
            QFAIL("accepted");
        } catch (const SpecError& e) {
            QVERIFY2(QString::fromStdString(e.field()) == field && QString(e.what()).contains(mentions) &&
                         !QString(e.what()).contains('\n'),
                     e.what());
        }
    }
    void severalParametersNeedAGradient()
    {
        // Nystrom features have no gradient here: one parameter is searched, two are refused.
        LocalityConfig c = digitsConfig("affine", "rotation=uniform:a=1,translation=gaussian:sigma=1", {"rotation.a", "translation.sigma"});
        c.features = "nystrom:s=40";
        c.maxEvaluations = 3;
        try {
            learnLocality(rotatedDigits(), c);
            QFAIL("accepted");
        } catch (const SpecError& e) {
            QCOMPARE(e.field(), std::string("learn"));
        }
        c.learn = {"rotation.a"};
        QCOMPARE(learnLocality(rotatedDigits(), c).method, std::string("bracket"));
    }
};

QTEST_APPLESS_MAIN(TestLocalityLearning)
#include "test_locality_learning.moc"

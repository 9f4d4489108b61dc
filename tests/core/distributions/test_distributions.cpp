// Distributions over the groups (docs/design.md, "Distributions over a group"): samplers against closed-form moments and exact CDFs
// (Kolmogorov-Smirnov), densities, validation of parameters and of the group they are used with.
#include "orbit/distributions/AffineProduct.hpp"
#include "orbit/distributions/NoisySort.hpp"
#include "orbit/distributions/VonMises.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>
#include <QString>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>

using namespace orbit;

namespace {

constexpr double kPi = std::numbers::pi;

double normalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

/// sqrt(n) sup_t |F_n(t) - F(t)| for the sample xs.
double ksStatistic(std::vector<double> xs, const std::function<double(double)>& cdf)
{
    std::sort(xs.begin(), xs.end());
    const double n = static_cast<double>(xs.size());
    double d = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const double f = cdf(xs[i]);
        d = std::max({d, std::abs((i + 1) / n - f), std::abs(f - i / n)});
    }
    return std::sqrt(n) * d;
}

/// The Kolmogorov distribution's 0.1 % critical value of sqrt(n) D_n.
constexpr double kKsCritical = 1.95;

/// CDF of VM(0, kappa) on [-pi, pi] by the trapezoidal rule on the density (fine grid, tabulated).
std::function<double(double)> vonMisesCdf(double kappa)
{
    const VonMises vm(kappa);
    const int m = 200000;
    auto table = std::make_shared<std::vector<double>>(m + 1, 0.0);
    const double h = 2 * kPi / m;
    for (int i = 1; i <= m; ++i)
        (*table)[static_cast<std::size_t>(i)] =
            (*table)[static_cast<std::size_t>(i - 1)] + 0.5 * h * (vm.density(-kPi + (i - 1) * h) + vm.density(-kPi + i * h));
    return [table, h, m](double t) {
        const double u = (t + kPi) / h;
        const int i = std::clamp(static_cast<int>(u), 0, m - 1);
        const double f = u - i;
        return (*table)[static_cast<std::size_t>(i)] * (1 - f) + (*table)[static_cast<std::size_t>(i + 1)] * f;
    };
}

std::vector<double> draw(const Distribution& d, const Group& g, int n, std::uint64_t seed,
                         const std::function<double(const GroupElement&)>& field)
{
    Rng rng = makeRng(seed);
    std::vector<double> xs;
    xs.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) xs.push_back(field(d.sample(rng, g, Shape{}, nullptr)));
    return xs;
}

double mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

double variance(const std::vector<double>& v)
{
    const double m = mean(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return s / static_cast<double>(v.size() - 1);
}

/// I1(kappa) / I0(kappa), the mean resultant length E[cos theta] of VM(0, kappa).
double besselRatio(double kappa)
{
    if (kappa == 0) return 0;
    if (kappa > 500) return 1 - 1 / (2 * kappa) - 1 / (8 * kappa * kappa) - 1 / (8 * kappa * kappa * kappa);
    return std::cyl_bessel_i(1.0, kappa) / std::cyl_bessel_i(0.0, kappa);
}

double theta(const GroupElement& g) { return g.theta; }

} // namespace

class TestDistributions : public QObject {
    Q_OBJECT
private slots:
    void vonMisesMeanResultantLength_data()
    {
        QTest::addColumn<double>("kappa");
        for (double k : {0.0, 0.2, 1.0, 2.0, 9.0, 100.0, 1e4}) QTest::newRow(qPrintable(QString::number(k))) << k;
    }
    void vonMisesMeanResultantLength()
    {
        // E[cos theta] = I1(kappa) / I0(kappa), E[sin theta] = 0; every theta in (-pi, pi].
        QFETCH(double, kappa);
        const auto G = makeGroup("rotation");
        const auto d = makeDistribution("vonmises:kappa=" + std::to_string(kappa), *G);
        const auto t = draw(*d, *G, 100000, 11, theta);
        std::vector<double> c, s;
        for (double x : t) {
            QVERIFY(x > -kPi && x <= kPi);
            c.push_back(std::cos(x));
            s.push_back(std::sin(x));
        }
        const double se = std::sqrt(std::max(variance(c), 1e-300) / c.size());
        QVERIFY2(std::abs(mean(c) - besselRatio(kappa)) < 5 * se,
                 qPrintable(QString("E cos %1 vs %2 (se %3)").arg(mean(c)).arg(besselRatio(kappa)).arg(se)));
        QVERIFY(std::abs(mean(s)) < 5 * std::sqrt(variance(s) / s.size()) + 1e-12);
    }
    void samplersMatchTheirExactCdf_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<int>("field");  // 0 theta, 1 dx, 2 dy, 3 scale
        QTest::newRow("vonmises 0.5") << "rotation" << "vonmises:kappa=0.5" << 0;
        QTest::newRow("vonmises 2") << "rotation" << "vonmises:kappa=2" << 0;
        QTest::newRow("vonmises 9") << "rotation" << "vonmises:kappa=9" << 0;
        QTest::newRow("haar rotation") << "rotation" << "haar" << 0;
        QTest::newRow("uniform angle") << "rotation" << "uniform:a=0.7" << 0;
        QTest::newRow("uniform dx") << "translation" << "uniform:a=3" << 1;
        QTest::newRow("gaussian dx") << "translation" << "gaussian:sigma=1.5" << 1;
        QTest::newRow("gaussian dy") << "translation" << "gaussian:sigma=1.5" << 2;
        QTest::newRow("lognormal") << "scale" << "lognormal:mu=0.1,sigma=0.3" << 3;
        QTest::newRow("affine scale factor") << "affine" << "rotation=vonmises:kappa=9,scale=lognormal:mu=0.1,sigma=0.3" << 3;
    }
    void samplersMatchTheirExactCdf()
    {
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(int, field);
        const auto G = makeGroup(group.toStdString());
        const auto d = makeDistribution(dist.toStdString(), *G);
        const std::function<double(const GroupElement&)> pick[4] = {
            theta, [](const GroupElement& g) { return g.dx; }, [](const GroupElement& g) { return g.dy; },
            [](const GroupElement& g) { return g.scale; }};
        const auto xs = draw(*d, *G, 20000, 5, pick[field]);
        std::function<double(double)> cdf;
        const std::string s = dist.toStdString();
        if (s.rfind("vonmises", 0) == 0) cdf = vonMisesCdf(std::stod(s.substr(s.find('=') + 1)));
        else if (s == "haar") cdf = [](double t) { return (t + kPi) / (2 * kPi); };
        else if (s == "uniform:a=0.7") cdf = [](double t) { return std::clamp((t + 0.7) / 1.4, 0.0, 1.0); };
        else if (s == "uniform:a=3") cdf = [](double t) { return std::clamp((t + 3) / 6, 0.0, 1.0); };
        else if (s.rfind("gaussian", 0) == 0) cdf = [](double t) { return normalCdf(t / 1.5); };
        else cdf = [](double v) { return normalCdf((std::log(v) - 0.1) / 0.3); };
        const double ks = ksStatistic(xs, cdf);
        QVERIFY2(ks < kKsCritical, qPrintable(QString("sqrt(n) D = %1").arg(ks)));
    }
    void kolmogorovSmirnovSeesAWrongKappa()
    {
        // The test above has power: VM(2) samples against the VM(2.5) CDF are rejected.
        const auto G = makeGroup("rotation");
        const auto xs = draw(*makeDistribution("vonmises:kappa=2", *G), *G, 20000, 5, theta);
        QVERIFY(ksStatistic(xs, vonMisesCdf(2.5)) > kKsCritical);
    }
    void vonMisesDensityIsNormalisedWithoutOverflow()
    {
        // integral over (-pi, pi] of exp(kappa cos t) / (2 pi I0(kappa)) = 1, also at kappa = 1e4 where
        // exp(kappa) alone overflows; the peak there is ~ sqrt(kappa / (2 pi)).
        for (double kappa : {0.0, 2.0, 50.0, 1e4}) {
            const VonMises vm(kappa);
            const int m = 400000;
            const double h = 2 * kPi / m;
            double integral = 0;
            for (int i = 0; i < m; ++i) integral += vm.density(-kPi + (i + 0.5) * h) * h;
            QVERIFY2(std::abs(integral - 1) < 1e-6, qPrintable(QString("kappa %1: %2").arg(kappa).arg(integral)));
        }
        const double peak = VonMises(1e4).density(0);
        QVERIFY(std::isfinite(peak) && std::abs(peak / std::sqrt(1e4 / (2 * kPi)) - 1) < 1e-4);
        QCOMPARE(VonMises(0).density(1.0), 1 / (2 * kPi));
        QVERIFY(std::abs(VonMises::scaledBesselI0(499.9) / VonMises::scaledBesselI0(500.1) - 1) < 1e-3);
        // exp(-k) I0(k) against the standard library's Bessel function, on both sides of the switch
        // from the power series to the asymptotic expansion (k = 50).
        for (double k : {0.0, 1e-3, 0.2, 1.0, 9.0, 49.9, 50.1, 120.0, 480.0}) {
            const double expected = std::cyl_bessel_i(0.0, k) * std::exp(-k);
            QVERIFY2(std::abs(VonMises::scaledBesselI0(k) / expected - 1) < 1e-12,
                     qPrintable(QString("kappa %1: %2 vs %3").arg(k).arg(VonMises::scaledBesselI0(k), 0, 'g', 17).arg(expected, 0, 'g', 17)));
        }
    }
    void logNormalMoments()
    {
        // E[s] = exp(mu + sigma^2 / 2), Var[s] = (exp(sigma^2) - 1) exp(2 mu + sigma^2).
        const double mu = -0.2, sigma = 0.3;
        const auto G = makeGroup("scale");
        const auto d = makeDistribution("lognormal:mu=-0.2,sigma=0.3", *G);
        const auto s = draw(*d, *G, 200000, 8, [](const GroupElement& g) { return g.scale; });
        const double m = std::exp(mu + sigma * sigma / 2), v = (std::exp(sigma * sigma) - 1) * std::exp(2 * mu + sigma * sigma);
        QVERIFY(std::abs(mean(s) - m) < 5 * std::sqrt(v / s.size()));
        QVERIFY(std::abs(variance(s) / v - 1) < 0.02);
        QVERIFY(d->hasDensity() && !d->isSymmetric());
        QVERIFY(makeDistribution("lognormal:mu=0,sigma=0.3", *G)->isSymmetric());
    }
    void gaussianTranslationIsIsotropic()
    {
        const auto G = makeGroup("translation");
        const auto d = makeDistribution("gaussian:sigma=2", *G);
        Rng rng = makeRng(4);
        const int n = 100000;
        double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
        for (int i = 0; i < n; ++i) {
            const GroupElement g = d->sample(rng, *G, Shape{}, nullptr);
            sx += g.dx, sy += g.dy, sxx += g.dx * g.dx, syy += g.dy * g.dy, sxy += g.dx * g.dy;
        }
        QVERIFY(std::abs(sx / n) < 0.05 && std::abs(sy / n) < 0.05);
        QVERIFY(std::abs(sxx / n / 4 - 1) < 0.03 && std::abs(syy / n / 4 - 1) < 0.03);
        QVERIFY(std::abs(sxy / n / 4) < 0.03);  // independent axes
    }
    void haarIsUniformOnFiniteGroups()
    {
        // Chi-square on the 6 elements of S_3 and the 5 of C_5 (0.1 % critical values 20.5 and 18.5).
        const auto S = makeGroup("permutation");
        const auto h = makeDistribution("haar", *S);
        Rng rng = makeRng(12);
        std::map<std::vector<int>, int> counts;
        const int n = 60000;
        for (int i = 0; i < n; ++i) counts[h->sample(rng, *S, Shape{3, 3, 1}, nullptr).perm]++;
        QCOMPARE(counts.size(), std::size_t(6));
        double chi = 0;
        for (const auto& [p, c] : counts) chi += (c - n / 6.0) * (c - n / 6.0) / (n / 6.0);
        QVERIFY2(chi < 20.5, qPrintable(QString::number(chi)));
        const auto C = makeGroup("cyclic:n=5");
        const auto hc = makeDistribution("haar", *C);
        std::vector<int> k(5, 0);
        for (int i = 0; i < n; ++i) k[static_cast<std::size_t>(hc->sample(rng, *C, Shape{}, nullptr).k)]++;
        chi = 0;
        for (int c : k) chi += (c - n / 5.0) * (c - n / 5.0) / (n / 5.0);
        QVERIFY2(chi < 18.5, qPrintable(QString::number(chi)));
        QVERIFY(!hc->hasDensity());
    }
    void noisySortOrdersRowsByNoisyNorm()
    {
        // 4 atoms and 2 padding rows: C = diag-dominant, row norms 5 > 4 > 3 > 1 in a shuffled order.
        const int n = 6;
        std::vector<float> c(n * n, 0.0f);
        const float diag[n] = {3, 0, 5, 1, 0, 4};
        for (int i = 0; i < n; ++i) c[static_cast<std::size_t>(i * n + i)] = diag[i];
        const auto P = makeGroup("permutation");
        const Shape shape{n, n, 1};
        for (const char* spec : {"noisysort:sigma=0", "noisysort:sigma=1e-9"}) {
            const auto d = makeDistribution(spec, *P);
            QVERIFY(d->dependsOnInput() && !d->isSymmetric());
            Rng rng = makeRng(1);
            QCOMPARE(d->sample(rng, *P, shape, c.data()).perm, (std::vector<int>{2, 5, 0, 3, 1, 4}));
        }
        // Large noise shuffles the atoms, but the zero rows stay last, in order.
        const auto noisy = makeDistribution("noisysort:sigma=5", *P);
        Rng rng = makeRng(2);
        bool changed = false;
        for (int i = 0; i < 200; ++i) {
            const auto p = noisy->sample(rng, *P, shape, c.data()).perm;
            QCOMPARE(p[4], 1);
            QCOMPARE(p[5], 4);
            changed |= p != std::vector<int>{2, 5, 0, 3, 1, 4};
        }
        QVERIFY(changed);
        Rng r2 = makeRng(2);
        QVERIFY_THROWS_EXCEPTION(SpecError, noisy->sample(r2, *P, shape, nullptr));
    }
    void affineProductParsesFactors()
    {
        const auto A = makeGroup("affine");
        const auto d = makeDistribution("rotation=vonmises:kappa=9,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.3", *A);
        QCOMPARE(d->spec(), std::string("rotation=vonmises:kappa=9,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.3"));
        QCOMPARE(makeDistribution(d->spec(), *A)->spec(), d->spec());
        const auto semi = makeDistribution("scale=lognormal:mu=0,sigma=0.3; rotation=haar", *A);
        QCOMPARE(semi->spec(), std::string("rotation=haar,translation=delta,scale=lognormal:mu=0,sigma=0.3"));
        // Missing factors are the delta: no translation, no zoom.
        const auto rotOnly = makeDistribution("rotation=vonmises:kappa=2", *A);
        Rng rng = makeRng(3);
        bool turned = false;
        for (int i = 0; i < 100; ++i) {
            const GroupElement g = rotOnly->sample(rng, *A, Shape{}, nullptr);
            QCOMPARE(g.dx, 0.0);
            QCOMPARE(g.scale, 1.0);
            turned |= g.theta != 0.0;
        }
        QVERIFY(turned);
        QVERIFY(rotOnly->isSymmetric());
        QVERIFY(!d->isSymmetric());  // t -> -t / s mixes translation and scale
        QVERIFY(makeDistribution("rotation=vonmises:kappa=9,translation=gaussian:sigma=1", *A)->isSymmetric());
        QVERIFY(!makeDistribution("rotation=vonmises:kappa=9,translation=uniform:a=1", *A)->isSymmetric());
        for (const char* bad : {"vonmises:kappa=2", "rotation=vonmises:kappa=2,rotation=haar", "rotation=gaussian:sigma=1",
                                "scale=vonmises:kappa=1", "translation=haar", "rotation=vonmises:kappa=-1"})
            QVERIFY_THROWS_EXCEPTION(SpecError, makeDistribution(bad, *A));
    }
    void parametersAreValidated_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("negative kappa") << "rotation" << "vonmises:kappa=-1" << "distribution vonmises.kappa";
        QTest::newRow("nan kappa") << "rotation" << "vonmises:kappa=nan" << "nan";
        QTest::newRow("inf kappa") << "rotation" << "vonmises:kappa=inf" << "vonmises.kappa";
        QTest::newRow("typo") << "rotation" << "vonmises:kapa=2" << "kapa";
        QTest::newRow("zero window") << "rotation" << "uniform:a=0" << "uniform.a";
        QTest::newRow("window > pi") << "rotation" << "uniform:a=4" << "uniform.a";
        QTest::newRow("zero sigma") << "translation" << "gaussian:sigma=0" << "gaussian.sigma";
        QTest::newRow("negative sigma") << "scale" << "lognormal:mu=0,sigma=-1" << "-1";
        QTest::newRow("negative noise") << "permutation" << "noisysort:sigma=-1" << "noisysort.sigma";
        QTest::newRow("unknown") << "rotation" << "cauchy:gamma=1" << "cauchy";
        QTest::newRow("vonmises on S_n") << "permutation" << "vonmises:kappa=1" << "permutation";
        QTest::newRow("noisysort on rotation") << "rotation" << "noisysort:sigma=1" << "rotation";
        QTest::newRow("haar on translation") << "translation" << "haar" << "translation";
        QTest::newRow("gaussian on rotation") << "rotation" << "gaussian:sigma=1" << "rotation";
        QTest::newRow("lognormal on translation") << "translation" << "lognormal:sigma=1" << "translation";
        QTest::newRow("uniform on scale") << "scale" << "uniform:a=1" << "scale";
    }
    void parametersAreValidated()
    {
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(QString, mentions);
        const auto G = makeGroup(group.toStdString());
        try {
            makeDistribution(dist.toStdString(), *G);
            QFAIL("accepted");
        } catch (const SpecError& e) {
            QVERIFY2(QString(e.what()).contains(mentions) && QString(e.what()).startsWith("distribution"), e.what());
        }
    }
    void vonMisesCdfAndQuantileAreExact_data()
    {
        QTest::addColumn<double>("kappa");
        for (double k : {0.0, 0.2, 2.0, 9.0, 49.9, 50.1, 300.0}) QTest::newRow(qPrintable(QString::number(k))) << k;
    }
    void vonMisesCdfAndQuantileAreExact()
    {
        // F against the trapezoidal integral of the density; F^-1(F(t)) = t where F is not flat;
        // dF/dkappa against a central difference of F (both sides of the series / quadrature switch).
        QFETCH(double, kappa);
        const auto reference = vonMisesCdf(kappa);
        for (double t = -3.1; t < 3.1; t += 0.137) {
            const double F = VonMises::cdf(t, kappa);
            // (the trapezoid table itself is good to ~1e-8 for the narrow peak of kappa = 300)
            QVERIFY2(std::abs(F - reference(t)) < (kappa > 100 ? 1e-7 : 1e-8),
                     qPrintable(QString("t %1: %2 vs %3").arg(t).arg(F, 0, 'g', 12).arg(reference(t), 0, 'g', 12)));
            if (F > 1e-9 && F < 1 - 1e-9)
                QVERIFY2(std::abs(VonMises::quantile(F, kappa) - t) < 1e-9 * std::max(1.0, 1.0 / VonMises(kappa).density(t)),
                         qPrintable(QString("t %1: quantile %2").arg(t).arg(VonMises::quantile(F, kappa))));
            const double h = 1e-5 * std::max(1.0, kappa);
            const double fd = (VonMises::cdf(t, kappa + h) - VonMises::cdf(t, std::max(0.0, kappa - h))) /
                              (kappa + h - std::max(0.0, kappa - h));
            // (one-sided at kappa = 0: first-order accurate)
            const double tol = kappa == 0.0 ? 1e-5 : 1e-6;
            QVERIFY2(std::abs(VonMises::cdfKappaDerivative(t, kappa) - fd) < tol * std::max(1e-3, std::abs(fd)) + 1e-12,
                     qPrintable(QString("t %1: dF/dk %2 vs %3").arg(t).arg(VonMises::cdfKappaDerivative(t, kappa)).arg(fd)));
        }
        QCOMPARE(VonMises::cdf(0.0, kappa), 0.5);
        QVERIFY(std::abs(VonMises::besselRatio(kappa) - besselRatio(kappa)) < 1e-12);
    }
    void inverseCdfSamplesAgreeWithBestFisher()
    {
        // Two-sample check against Best & Fisher's (1979) exact rejection sampler (written here as
        // the independent reference): sqrt(n/2) D below the 0.1 % critical value.
        for (double kappa : {0.5, 4.0, 60.0}) {
            const double tau = 1 + std::sqrt(1 + 4 * kappa * kappa), rho = 2 * kappa / (tau + std::sqrt(2 * tau));
            const double r = (1 + rho * rho) / (2 * rho);
            Rng rng = makeRng(77);
            std::vector<double> bf;
            while (bf.size() < 20000) {
                const double z = std::cos(kPi * uniform01(rng)), u2 = uniform01(rng), f = (1 + r * z) / (r + z), c = kappa * (r - f);
                if (c * (2 - c) - u2 > 0 || std::log(c / u2) + 1 - c >= 0)
                    bf.push_back((uniform01(rng) < 0.5 ? -1 : 1) * std::acos(std::clamp(f, -1.0, 1.0)));
            }
            const auto G = makeGroup("rotation");
            std::vector<double> ic = draw(*makeDistribution("vonmises:kappa=" + std::to_string(kappa), *G), *G, 20000, 78, theta);
            std::sort(bf.begin(), bf.end());
            std::sort(ic.begin(), ic.end());
            double d = 0;
            std::size_t i = 0, j = 0;
            while (i < bf.size() && j < ic.size()) {
                if (bf[i] <= ic[j]) ++i; else ++j;
                d = std::max(d, std::abs(double(i) / bf.size() - double(j) / ic.size()));
            }
            QVERIFY2(std::sqrt(10000.0) * d < kKsCritical, qPrintable(QString("kappa %1: %2").arg(kappa).arg(std::sqrt(10000.0) * d)));
        }
    }
    void reparameterisedTangentsAreDerivativesOfTheSamples_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<QString>("param");
        QTest::newRow("vonmises kappa") << "rotation" << "vonmises:kappa=1.7" << "kappa";
        QTest::newRow("vonmises large kappa") << "rotation" << "vonmises:kappa=80" << "kappa";
        QTest::newRow("uniform angle") << "rotation" << "uniform:a=0.9" << "a";
        QTest::newRow("uniform shift") << "translation" << "uniform:a=2.5" << "a";
        QTest::newRow("gaussian shift") << "translation" << "gaussian:sigma=1.5" << "sigma";
        QTest::newRow("lognormal mu") << "scale" << "lognormal:mu=0.1,sigma=0.3" << "mu";
        QTest::newRow("lognormal sigma") << "scale" << "lognormal:mu=0.1,sigma=0.3" << "sigma";
        QTest::newRow("affine rotation.a") << "affine" << "rotation=uniform:a=1,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.2" << "rotation.a";
        QTest::newRow("affine translation.sigma") << "affine" << "rotation=uniform:a=1,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.2" << "translation.sigma";
        QTest::newRow("affine scale.sigma") << "affine" << "rotation=uniform:a=1,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.2" << "scale.sigma";
    }
    void reparameterisedTangentsAreDerivativesOfTheSamples()
    {
        // Common random numbers: the same engine state at p - h and p + h draws elements whose central
        // difference is the tangent sampleWithTangents reports; the elements are those sample() draws.
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(QString, param);
        const auto G = makeGroup(group.toStdString());
        const auto d = makeDistribution(dist.toStdString(), *G);
        const std::string p = param.toStdString();
        double value = 0;
        for (const auto& [name, v] : d->parameters())
            if (name == p) value = v;
        const double h = 1e-6 * std::max(1.0, std::abs(value));
        const auto up = d->withParameters({{p, value + h}}), down = d->withParameters({{p, value - h}});
        Rng a = makeRng(31), b = makeRng(31), c = makeRng(31), e = makeRng(31);
        for (int i = 0; i < 200; ++i) {
            std::vector<GroupTangent> t;
            const GroupElement g = d->sampleWithTangents(a, *G, Shape{}, nullptr, {p}, t);
            QCOMPARE(g, d->sample(e, *G, Shape{}, nullptr));
            const GroupElement gu = up->sample(b, *G, Shape{}, nullptr), gd = down->sample(c, *G, Shape{}, nullptr);
            const double tol = 1e-5 * (1 + std::abs(t[0].theta) + std::abs(t[0].dx) + std::abs(t[0].dy) + std::abs(t[0].scale));
            QVERIFY2(std::abs(std::remainder(gu.theta - gd.theta, 2 * kPi) / (2 * h) - t[0].theta) < tol, qPrintable(QString::number(i)));
            QVERIFY(std::abs((gu.dx - gd.dx) / (2 * h) - t[0].dx) < tol);
            QVERIFY(std::abs((gu.dy - gd.dy) / (2 * h) - t[0].dy) < tol);
            QVERIFY(std::abs((gu.scale - gd.scale) / (2 * h) - t[0].scale) < tol);
        }
    }
    void samplesMoveSmoothlyWithKappa()
    {
        // The same seed at kappa and 1.01 kappa gives nearly the same angles (inverse CDF), where the
        // rejection sampler it replaces gave unrelated ones.
        const auto G = makeGroup("rotation");
        const auto a = makeDistribution("vonmises:kappa=2", *G), b = makeDistribution("vonmises:kappa=2.02", *G);
        Rng ra = makeRng(5), rb = makeRng(5);
        for (int i = 0; i < 1000; ++i) {
            const double ta = a->sample(ra, *G, Shape{}, nullptr).theta, tb = b->sample(rb, *G, Shape{}, nullptr).theta;
            QVERIFY2(std::abs(ta - tb) < 0.02, qPrintable(QString("%1 vs %2").arg(ta).arg(tb)));
        }
    }
    void parametersAreNamedAndReplaced()
    {
        const auto A = makeGroup("affine");
        const auto d = makeDistribution("rotation=vonmises:kappa=9,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.3", *A);
        const std::vector<std::pair<std::string, double>> expected = {
            {"rotation.kappa", 9}, {"translation.sigma", 1}, {"scale.mu", 0}, {"scale.sigma", 0.3}};
        QCOMPARE(d->parameters(), expected);
        QCOMPARE(d->withParameters({{"rotation.kappa", 2.5}, {"scale.sigma", 0.1}})->spec(),
                 std::string("rotation=vonmises:kappa=2.5,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.1"));
        QCOMPARE(d->parameterDescriptor("translation.sigma").unit, std::string("px"));
        for (const char* bad : {"kappa", "rotation.a", "shear.x"}) {
            try {
                d->withParameters({{bad, 1.0}});
                QFAIL(bad);
            } catch (const SpecError& e) {
                QVERIFY2(QString(e.what()).contains(bad), e.what());
            }
        }
        // Outside the valid range: the constructor's message, naming the parameter.
        QVERIFY_THROWS_EXCEPTION(SpecError, d->withParameters({{"rotation.kappa", -1.0}}));
        const auto P = makeGroup("permutation");
        const auto ns = makeDistribution("noisysort:sigma=1", *P);
        QCOMPARE(ns->parameters().size(), std::size_t(1));
        const float c[4] = {1, 0, 0, 2};
        Rng rng = makeRng(0);
        std::vector<GroupTangent> t;
        try {
            ns->sampleWithTangents(rng, *P, Shape{2, 2, 1}, c, {"sigma"}, t);
            QFAIL("noisy sort differentiated");
        } catch (const SpecError& e) {
            QVERIFY2(QString(e.what()).contains("piecewise constant"), e.what());
        }
        QVERIFY(makeDistribution("haar", *makeGroup("rotation"))->parameters().empty());
    }
    void deltaIsTheIdentity()
    {
        for (const char* g : {"rotation", "translation", "scale", "cyclic:n=3", "permutation"}) {
            const auto G = makeGroup(g);
            const auto d = makeDistribution("delta", *G);
            Rng rng = makeRng(0);
            QCOMPARE(d->sample(rng, *G, Shape{4, 4, 1}, nullptr), G->identity(Shape{4, 4, 1}));
            QVERIFY(d->isSymmetric() && !d->hasDensity());
        }
    }
};

QTEST_APPLESS_MAIN(TestDistributions)
#include "test_distributions.moc"

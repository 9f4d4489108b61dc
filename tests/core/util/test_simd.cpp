// Run-time SIMD dispatch (orbit/util/Simd.hpp): the level follows the CPU, and every kernel gives
// the same bits at every level, so a portable binary computes the same features on any x86-64.
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/InvariantFourierTangents.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/PermutationGroup.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Simd.hpp"

#include "BundledDigits.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace orbit;

namespace {

/// The flags line of /proc/cpuinfo (empty where there is none), read independently of the library.
std::string cpuFlags()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("flags", 0) == 0) return line + " ";
    return {};
}

bool hasFlag(const std::string& flags, const std::string& name) { return flags.find(" " + name + " ") != std::string::npos; }

/// Restores the level a test changed.
struct LevelGuard {
    SimdLevel saved = simdLevel();
    ~LevelGuard() { setSimdLevel(saved); }
};

/// The first 200 bundled digits.
const Dataset& digits() { return orbittest::firstDigits<200>(); }

MatrixXfR features(const std::string& spec, const std::string& group, const std::string& dist, SimdLevel level)
{
    setSimdLevel(level);
    const Dataset& d = digits();
    const FeatureContext c = makeFeatureContext(d, group, dist, "gaussian:median=1", 5);
    auto map = makeFeatureMap(spec, c);
    map->fit(d.X.topRows(60), 5);
    MatrixXfR F;
    map->transform(d.X, 60, std::size_t(d.X.rows()), F);
    return F;
}

/// The features of `spec` (rotation, von Mises 0.5) at the AVX-512 and the baseline level: the
/// same bits, and not all zero.
void expectSameBitsAtBothLevels(const std::string& spec)
{
    LevelGuard guard;
    const MatrixXfR fast = features(spec, "rotation", "vonmises:kappa=0.5", SimdLevel::Avx512);
    const MatrixXfR base = features(spec, "rotation", "vonmises:kappa=0.5", SimdLevel::Baseline);
    QCOMPARE(fast.rows(), base.rows());
    QCOMPARE(fast.cols(), base.cols());
    QVERIFY(fast.cwiseAbs().maxCoeff() > 0);
    QVERIFY2(std::memcmp(fast.data(), base.data(), sizeof(float) * std::size_t(fast.size())) == 0,
             qPrintable(QString("max |difference| %1").arg(double((fast - base).cwiseAbs().maxCoeff()))));
}

} // namespace

class TestSimd : public QObject {
    Q_OBJECT

private slots:
    // AVX-512 kernels are used exactly when the CPU reports AVX-512 F and BW (as /proc/cpuinfo says).
    void levelFollowsTheCpu()
    {
        const std::string flags = cpuFlags();
#if !defined(__x86_64__)
        QCOMPARE(simdSupported(), SimdLevel::Baseline);
#else
        if (flags.empty()) QSKIP("no /proc/cpuinfo to compare with");
        const bool avx512 = hasFlag(flags, "avx512f") && hasFlag(flags, "avx512bw");
        QCOMPARE(simdSupported() == SimdLevel::Avx512, avx512);
#endif
        if (!qEnvironmentVariableIsSet("ORBIT_SIMD")) QCOMPARE(simdLevel(), simdSupported());
        QCOMPARE(simdName(SimdLevel::Baseline), std::string("baseline"));
        QCOMPARE(simdName(SimdLevel::Avx512), std::string("avx512"));
        QVERIFY(buildArch() == "portable" || buildArch() == "native");
    }

    // The baseline can always be chosen; a level above the CPU's is refused with both names.
    void levelCanBeLoweredNotRaised()
    {
        LevelGuard guard;
        setSimdLevel(SimdLevel::Baseline);
        QCOMPARE(simdLevel(), SimdLevel::Baseline);
        if (simdSupported() == SimdLevel::Avx512) {
            setSimdLevel(SimdLevel::Avx512);
            QCOMPARE(simdLevel(), SimdLevel::Avx512);
        } else {
            try {
                setSimdLevel(SimdLevel::Avx512);
                QFAIL("setSimdLevel(Avx512) accepted on a CPU without AVX-512");
            } catch (const std::invalid_argument& e) {
                QVERIFY2(std::string(e.what()).find("avx512") != std::string::npos, e.what());
            }
            QCOMPARE(simdLevel(), SimdLevel::Baseline);
        }
    }

    // GICDF pooling: the AVX-512 byte-step rows, vector threshold indices and line-wide streaming
    // stores give the same bits as the portable float steps, histogram, scalar indices and copies, on both product paths (templates moved
    // by the group, inputs moved) and for widths 2n + 1 on both sides of the byte limit (64).
    void gicdfGivesTheSameBitsAtEveryLevel_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("bins=6 templates") << "gicdf:m=40,bins=6,r=8,mode=templates";
        QTest::newRow("bins=31 templates") << "gicdf:m=40,bins=31,r=8,mode=templates";
        QTest::newRow("bins=31 r=1") << "gicdf:m=33,bins=31,r=1,mode=templates";
        QTest::newRow("bins=6 data") << "gicdf:m=40,bins=6,r=8,mode=data";
        QTest::newRow("bins=25 data") << "gicdf:m=17,bins=25,r=12,mode=data";
        QTest::newRow("bins=40 templates") << "gicdf:m=40,bins=40,r=8,mode=templates";
        QTest::newRow("bins=70 templates") << "gicdf:m=20,bins=70,r=8,mode=templates";
        // The byte rows widen to floats by a lookup of the 16 possible counts when r < 16, by a
        // product otherwise: both sides of that limit.
        QTest::newRow("bins=8 r=15 templates") << "gicdf:m=30,bins=8,r=15,mode=templates";
        QTest::newRow("bins=8 r=16 templates") << "gicdf:m=30,bins=8,r=16,mode=templates";
        QTest::newRow("bins=25 r=20 data") << "gicdf:m=12,bins=25,r=20,mode=data";
    }
    void gicdfGivesTheSameBitsAtEveryLevel()
    {
        if (simdSupported() == SimdLevel::Baseline) QSKIP("this CPU runs the baseline kernels only");
        QFETCH(QString, spec);
        expectSameBitsAtBothLevels(spec.toStdString());
    }

    // Random-Fourier pooling (features/CosPool): acc += cos(p + b) compiled for AVX-512 gives the
    // same bits as the baseline loop (the same float operations, no FMA contraction), in the cos and
    // the complex [cos, sin] forms, with the templates moved and with the inputs moved.
    void randomFourierGivesTheSameBitsAtEveryLevel_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("irf templates") << "irf:s=700,r=4,mode=templates";
        QTest::newRow("irf complex") << "irf:s=300,r=3,form=complex";
        QTest::newRow("irf data") << "irf:s=530,r=5,mode=data";
    }
    void randomFourierGivesTheSameBitsAtEveryLevel()
    {
        if (simdSupported() == SimdLevel::Baseline) QSKIP("this CPU runs the baseline kernels only");
        QFETCH(QString, spec);
        expectSameBitsAtBothLevels(spec.toStdString());
    }

    // The learner's features and their derivatives (InvariantFourierTangents, the pooling of
    // features/CosPool: cos, sin x tangent, and the complex form's sin and cos x tangent) compiled
    // for AVX-512 give the same bits as the baseline loops, on both orbit paths.
    void tangentsGiveTheSameBitsAtEveryLevel_data()
    {
        QTest::addColumn<QString>("form");
        QTest::addColumn<QString>("mode");
        QTest::newRow("cos, templates") << "cos" << "templates";
        QTest::newRow("cos, data") << "cos" << "data";
        QTest::newRow("complex, templates") << "complex" << "templates";
        QTest::newRow("complex, data") << "complex" << "data";
    }
    void tangentsGiveTheSameBitsAtEveryLevel()
    {
        if (simdSupported() == SimdLevel::Baseline) QSKIP("this CPU runs the baseline kernels only");
        QFETCH(QString, form);
        QFETCH(QString, mode);
        LevelGuard guard;
        const Dataset& d = digits();
        const FeatureContext c = makeFeatureContext(d, "rotation", "vonmises:kappa=0.5", "gaussian:median=1", 5);
        const InvariantFourierTangents map(c, 70, 3, form == "cos" ? InvariantFourierTangents::Form::Cos : InvariantFourierTangents::Form::Complex,
                                           mode.toStdString(), 11);
        Indices rows;
        for (std::size_t i = 0; i < 90; ++i) rows.push_back(3 * i % std::size_t(d.X.rows()));
        const auto dist = makeDistribution("vonmises:kappa=2", *c.group);
        MatrixXfR fast, base;
        std::vector<MatrixXfR> dFast, dBase;
        setSimdLevel(SimdLevel::Avx512);
        map.compute(dist, d.X, rows, {"kappa"}, fast, dFast);
        setSimdLevel(SimdLevel::Baseline);
        map.compute(dist, d.X, rows, {"kappa"}, base, dBase);
        QCOMPARE(dFast.size(), std::size_t(1));
        QVERIFY(fast.cwiseAbs().maxCoeff() > 0 && dFast[0].cwiseAbs().maxCoeff() > 0);
        QVERIFY(std::memcmp(fast.data(), base.data(), sizeof(float) * std::size_t(fast.size())) == 0);
        QVERIFY2(std::memcmp(dFast[0].data(), dBase[0].data(), sizeof(float) * std::size_t(dFast[0].size())) == 0,
                 qPrintable(QString("max |difference| %1").arg(double((dFast[0] - dBase[0]).cwiseAbs().maxCoeff()))));
    }

    // Gaussian kernel values (kernels/GaussianRows: fastExp of the clamped exponent) compiled for
    // AVX-512 give the same bits as the baseline loop: Nystrom on both product paths, Pal & Savvides'
    // kernel features, and a kernel matrix.
    void gaussianKernelGivesTheSameBitsAtEveryLevel_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("inystrom templates") << "inystrom:s=50,r=4,mode=templates";
        QTest::newRow("inystrom data") << "inystrom:s=40,r=3,mode=data";
        QTest::newRow("kif") << "kif:k=50,eta=mean,r=4";
    }
    void gaussianKernelGivesTheSameBitsAtEveryLevel()
    {
        if (simdSupported() == SimdLevel::Baseline) QSKIP("this CPU runs the baseline kernels only");
        QFETCH(QString, spec);
        expectSameBitsAtBothLevels(spec.toStdString());
        LevelGuard guard;
        const BaseKernel k = BaseKernel::gaussian(4.0);
        const MatrixXfR& X = digits().X;
        setSimdLevel(SimdLevel::Avx512);
        const MatrixXfR fast = k.matrix(X.topRows(70), X.bottomRows(37));
        setSimdLevel(SimdLevel::Baseline);
        const MatrixXfR base = k.matrix(X.topRows(70), X.bottomRows(37));
        QVERIFY(fast.minCoeff() < 0.5f && fast.maxCoeff() > 0.0f);
        QVERIFY(std::memcmp(fast.data(), base.data(), sizeof(float) * std::size_t(fast.size())) == 0);
    }

    // A permutation of atoms (the noisy-sort orbits) moves the same entries at both levels: row i,
    // column j of the result is entry (perm i, perm j) of the input, for sizes below, at and across
    // the 16 lanes of a gather.
    void permutationsMoveTheSameEntriesAtEveryLevel()
    {
        if (simdSupported() == SimdLevel::Baseline) QSKIP("this CPU runs the baseline kernels only");
        LevelGuard guard;
        const PermutationGroup group;
        Rng rng = makeRng(11);
        for (int n : {1, 5, 16, 17, 23, 33}) {
            const Shape shape{n, n, 1};
            GroupElement g = group.identity(shape);
            std::shuffle(g.perm.begin(), g.perm.end(), rng);
            std::vector<float> in(std::size_t(n * n));
            for (float& v : in) v = float(uniform01(rng));
            std::vector<float> fast(in.size(), -1.0f), base(in.size(), -2.0f);
            setSimdLevel(SimdLevel::Avx512);
            group.apply(g, in.data(), fast.data(), shape);
            setSimdLevel(SimdLevel::Baseline);
            group.apply(g, in.data(), base.data(), shape);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                    const float want = in[std::size_t(g.perm[std::size_t(i)] * n + g.perm[std::size_t(j)])];
                    QCOMPARE(fast[std::size_t(i * n + j)], want);
                    QCOMPARE(base[std::size_t(i * n + j)], want);
                }
        }
    }
};

QTEST_GUILESS_MAIN(TestSimd)
#include "test_simd.moc"

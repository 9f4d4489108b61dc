// Determinism: for a fixed seed every random quantity of Orbit Lab is a function of the seed and the
// data alone. Randomness is drawn per item from sub-streams deriveSeed(seed, i) and the parallel
// loops use a partition fixed by the data, so the features psi(X), the Monte Carlo kernel
// K_ij = (1/r^2) sum_{a,b} k(g_a x_i, h_b x_j), the orbits {g_k x_i} and the results of train() must be
// the same bits with OMP_NUM_THREADS = 1 and 2 (and Eigen's own thread count 1 and 2), and when the
// computation is repeated. The CLI's --threads must not change a byte of its output files.
// Each check also verifies that another seed changes the result, so a constant output cannot pass.
#include "CliRunner.hpp"
#include "TestPaths.hpp"

#include "orbit/data/Loaders.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/locality/LocalityLearning.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/orbits/OrbitSampler.hpp"

#include <Eigen/Core>
#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>
#include <omp.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <numeric>
#include <algorithm>

using namespace orbit;

namespace {

/// The raw bytes of a dense matrix (float or double): equality means bit-identical.
template <class M>
std::string bytesOf(const M& m)
{
    return std::string(reinterpret_cast<const char*>(m.data()), sizeof(typename M::Scalar) * std::size_t(m.size()));
}

std::string bytesOf(const std::vector<double>& v)
{
    return std::string(reinterpret_cast<const char*>(v.data()), sizeof(double) * v.size());
}

void setThreads(int n)
{
    omp_set_num_threads(n);
    Eigen::setNbThreads(n);
}

/// Runs compute(seed) at 1 thread, then twice at 2 threads: all three must give the same bytes;
/// compute(seed + 1) must differ (the result really depends on the random draw).
void expectBitIdentical(const char* what, const std::function<std::string(std::uint64_t)>& compute,
                        std::uint64_t seed)
{
    setThreads(1);
    const std::string one = compute(seed);
    setThreads(2);
    const std::string two = compute(seed);
    const std::string again = compute(seed);
    const std::string other = compute(seed + 1);
    QVERIFY2(!one.empty(), what);
    QVERIFY2(one == two, (std::string(what) + ": 1 thread vs 2 threads differ").c_str());
    QVERIFY2(two == again, (std::string(what) + ": two runs at 2 threads differ").c_str());
    QVERIFY2(other != one, (std::string(what) + ": another seed gives the same bits").c_str());
}

/// Every 25th cell of OpenCV's digits sheet: 200 images of all ten classes.
const Dataset& digits()
{
    static const Dataset d = [] {
        const Dataset all = loadDigitsSheet(orbittest::bundledFile("digits.png"));
        std::vector<std::size_t> idx;
        for (std::size_t i = 0; i < all.count(); i += 25) idx.push_back(i);
        return all.subset(idx);
    }();
    return d;
}

/// The first 60 of the bundled G2 molecules as Coulomb matrices padded to 23 x 23 (QM7's size), so
/// that the zero padding beyond each molecule's atoms takes part (molecules of 2 to 14 atoms).
const Dataset& molecules()
{
    static const Dataset d = [] {
        LoadOptions o;
        o.limit = 60;
        o.padTo = 23;
        Dataset out = loadExtXyz(orbittest::bundledFile("g2.extxyz"), o);
        out.names.clear();
        out.checkInvariants();
        return out;
    }();
    return d;
}

/// Features of the whole dataset for a spec, context and fit built with `seed`.
std::string features(const Dataset& d, const std::string& group, const std::string& dist, const std::string& spec,
                     std::uint64_t seed, const std::string& kernel = "gaussian:median=1")
{
    const FeatureContext c = makeFeatureContext(d, group, dist, kernel, seed);
    auto map = makeFeatureMap(spec, c);
    map->fit(d.X, seed);
    return bytesOf(map->transform(d.X));
}

std::string trainResultBytes(const TrainResult& r)
{
    std::vector<double> v{r.mean, r.stddev, r.mae, double(r.featureDim)};
    for (const FoldResult& f : r.folds) {
        v.push_back(f.score);
        v.push_back(f.mae);
        for (const auto& [name, value] : f.chosen) v.push_back(value);
    }
    for (const GridRow& g : r.grid) v.push_back(g.validation);
    for (const LearningCurvePoint& p : r.learningCurve) v.push_back(p.score);
    std::string bytes = bytesOf(v);
    if (r.confusion.size() > 0) bytes += bytesOf(r.confusion);
    return bytes;
}

std::string readFile(const QString& path)
{
    std::ifstream f(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

} // namespace

class TestDeterminism : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { setThreads(2); }

    // Invariant random features with shared templates (rotation, von Mises): one product X W^T.
    void irfTemplatesOnDigits()
    {
        expectBitIdentical("irf templates, digits", [](std::uint64_t seed) {
            return features(digits(), "rotation", "vonmises:kappa=0.5", "irf:s=128,r=4,mode=templates", seed);
        }, 11);
    }

    // The data path: noisy sort depends on x, so every molecule gets its own r permutations.
    void irfNoisySortOnMolecules()
    {
        expectBitIdentical("irf noisysort data path, G2", [](std::uint64_t seed) {
            return features(molecules(), "permutation", "noisysort:sigma=1", "irf:s=96,r=5,mode=data", seed);
        }, 12);
    }

    void gicdfOnMolecules()
    {
        expectBitIdentical("gicdf, G2", [](std::uint64_t seed) {
            return features(molecules(), "permutation", "noisysort:sigma=1", "gicdf:m=16,bins=5,r=6", seed);
        }, 13);
        expectBitIdentical("gicdf with measured thresholds, G2", [](std::uint64_t seed) {
            return features(molecules(), "permutation", "noisysort:sigma=1", "gicdf:m=16,bins=5,r=6,span=auto", seed);
        }, 19);
    }

    void nystromOnDigits()
    {
        expectBitIdentical("nystrom random landmarks", [](std::uint64_t seed) {
            return features(digits(), "", "", "nystrom:s=40", seed);
        }, 14);
        expectBitIdentical("nystrom k-means landmarks", [](std::uint64_t seed) {
            return features(digits(), "", "", "nystrom:s=24,landmarks=kmeans", seed);
        }, 15);
        expectBitIdentical("invariant nystrom", [](std::uint64_t seed) {
            return features(digits(), "rotation", "vonmises:kappa=1", "inystrom:s=24,r=3", seed);
        }, 16);
        expectBitIdentical("nystrom, s = 190 (three tiles of the triangular inverse)", [](std::uint64_t seed) {
            return features(digits(), "", "", "nystrom:s=190", seed);
        }, 17);
        // 300 landmarks from the orbits of 60 molecules: two 256-wide tiles in the landmark kernel
        // and its Cholesky factor, five 64-column tiles in the inverse.
        expectBitIdentical("invariant nystrom, landmarks from the orbits, G2", [](std::uint64_t seed) {
            return features(molecules(), "permutation", "noisysort:sigma=1", "inystrom:s=300,r=4", seed);
        }, 18);
    }

    // The Laplacian's Nystrom maps (L1 distance tiles instead of products): plain, the template
    // trick over permutations (r shared samples of S_23), the data path (noisy sort), and 600
    // landmarks (two column tiles of the pooling, three row tiles of K_ZZ) on either path; kif over C_4.
    void laplacianNystromOnMolecules()
    {
        const std::string l1 = "laplacian:median=1";
        expectBitIdentical("laplacian nystrom, G2", [&](std::uint64_t seed) {
            return features(molecules(), "", "", "nystrom:s=40", seed, l1);
        }, 31);
        expectBitIdentical("laplacian inystrom, template trick, G2", [&](std::uint64_t seed) {
            return features(molecules(), "permutation", "haar", "inystrom:s=40,r=5", seed, l1);
        }, 32);
        expectBitIdentical("laplacian inystrom, noisy sort (data path), G2", [&](std::uint64_t seed) {
            return features(molecules(), "permutation", "noisysort:sigma=1", "inystrom:s=600,r=3", seed, l1);
        }, 33);
        expectBitIdentical("laplacian inystrom, template trick, 600 orbit landmarks (parallel tiles), G2", [&](std::uint64_t seed) {
            return features(molecules(), "permutation", "haar", "inystrom:s=600,r=2,landmarks=orbit", seed, l1);
        }, 34);
        expectBitIdentical("laplacian kif, C4 on digits", [&](std::uint64_t seed) {
            return features(digits(), "cyclic:n=4", "haar", "kif:k=150,eta=moments:2", seed, l1);
        }, 35);
    }

    // Monte Carlo k_qG: both estimators on the digits (rotation) and on molecules (noisy sort).
    void monteCarloKernels()
    {
        const Dataset& d = digits();
        const MatrixXfR X = d.X.topRows(60);
        expectBitIdentical("Monte Carlo kernel, rotation", [&](std::uint64_t seed) {
            auto g = makeGroup("rotation", d.shape, seed);
            const OrbitSampler sampler(g, makeDistribution("vonmises:kappa=0.5", *g), d.shape, 6, seed);
            const BaseKernel k = makeKernel("gaussian:median=1", X, seed);
            return bytesOf(invariantKernelMatrix(X, sampler, k, Estimator::V))
                   + bytesOf(invariantKernelMatrix(X, sampler, k, Estimator::U));
        }, 21);
        const Dataset& m = molecules();
        expectBitIdentical("Monte Carlo kernel, noisy sort", [&](std::uint64_t seed) {
            auto g = makeGroup("permutation", m.shape, seed);
            const OrbitSampler sampler(g, makeDistribution("noisysort:sigma=1", *g), m.shape, 5, seed);
            return bytesOf(invariantKernelMatrix(m.X, sampler, makeKernel("gaussian:median=1", m.X, seed)));
        }, 22);
    }

    // Orbits g_{i,k} x_i for an affine product distribution and for the input-dependent noisy sort.
    void orbits()
    {
        const Dataset& d = digits();
        expectBitIdentical("affine orbits", [&](std::uint64_t seed) {
            auto g = makeGroup("affine", d.shape, seed);
            auto q = makeDistribution("rotation=vonmises:kappa=2,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.2", *g);
            const OrbitSampler sampler(g, q, d.shape, 4, seed);
            MatrixXfR out;
            sampler.transformBlock(d.X, 0, d.count(), out);
            return bytesOf(out);
        }, 31);
        const Dataset& m = molecules();
        expectBitIdentical("noisy-sort orbits", [&](std::uint64_t seed) {
            auto g = makeGroup("permutation", m.shape, seed);
            const OrbitSampler sampler(g, makeDistribution("noisysort:sigma=1", *g), m.shape, 4, seed);
            MatrixXfR out;
            sampler.transformBlock(m.X, 0, m.count(), out);
            return bytesOf(out);
        }, 32);
    }

    // orbit::train(): the grid-search scores, chosen points, fold scores and confusion matrix.
    void learningTheLocality()
    {
        // The evidence, its gradient and the optimiser's whole path: inverse-CDF angles, moved
        // templates and their tangents, the evidence and its feature gradient.
        expectBitIdentical("learn (rotation window, irf)", [](std::uint64_t seed) {
            LocalityConfig c;
            c.features = "irf:s=120,r=5";
            c.group = "rotation";
            c.dist = "vonmises:kappa=2";
            c.learn = {"kappa"};
            c.maxEvaluations = 5;
            c.seed = seed;
            const LearnResult r = learnLocality(digits(), c);
            std::vector<double> v;
            for (const EvidencePoint& p : r.trajectory) {
                v.push_back(p.logEvidence);
                v.insert(v.end(), p.gradient.begin(), p.gradient.end());
                v.push_back(p.params.at("kappa"));
            }
            return bytesOf(v);
        }, 4);
        expectBitIdentical("evidence curve (affine, inputs moved)", [](std::uint64_t seed) {
            LocalityConfig c;
            c.features = "irf:s=100,r=3";
            c.group = "affine";
            c.dist = "rotation=uniform:a=1,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.1";
            c.seed = seed;
            return bytesOf(evidenceCurve(digits(), c, "translation.sigma", {0.5, 1.5}).logEvidence);
        }, 4);
    }
    void training()
    {
        expectBitIdentical("train ridge on irf features, digits", [](std::uint64_t seed) {
            TrainConfig c;
            c.features = "irf:s=64,r=3";
            c.group = "rotation";
            c.dist = "vonmises:kappa=0.5";
            c.learner = "ridge";
            c.eval = "kfold:2";
            c.seed = seed;
            return trainResultBytes(train(digits(), c));
        }, 41);
        expectBitIdentical("train blr on noisy-sort irf features, molecules", [](std::uint64_t seed) {
            TrainConfig c;
            c.features = "irf:s=48,r=3";
            c.group = "permutation";
            c.dist = "noisysort:sigma=1";
            c.kernel = "gaussian:median=1";
            c.learner = "blr";
            c.eval = "holdout:0.3";
            c.seed = seed;
            return trainResultBytes(train(molecules(), c));
        }, 42);
    }

    // `features ... --threads 1` and `--threads 2` write byte-identical files (.npy and .csv).
    void cliFeaturesThreads_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("ext");
        QTest::newRow("digits irf rotation npy")
            << QString::fromStdString(orbittest::bundledFile("digits.png"))
            << "--features irf:s=32,r=2 --group rotation --dist vonmises:kappa=1 --kernel gaussian:sigma=8" << ".npy";
        QTest::newRow("g2 irf noisysort csv")
            << QString::fromStdString(orbittest::bundledFile("g2.extxyz"))
            << "--features irf:s=40,r=3 --group permutation --dist noisysort:sigma=1" << ".csv";
        QTest::newRow("g2 gicdf npy")
            << QString::fromStdString(orbittest::bundledFile("g2.extxyz"))
            << "--features gicdf:m=8,bins=4,r=4 --group permutation --dist noisysort:sigma=1" << ".npy";
    }

    void cliFeaturesThreads()
    {
        QFETCH(QString, data);
        QFETCH(QString, args);
        QFETCH(QString, ext);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string content[3];
        const char* threads[3] = {"1", "2", "2"};
        for (int t = 0; t < 3; ++t) {
            const QString out = dir.filePath(QString("f%1%2").arg(t).arg(ext));
            std::vector<std::string> argv{"features", "--data", data.toStdString(), "--seed", "5",
                                          "--threads", threads[t], "--out", out.toStdString()};
            for (const QString& a : args.split(' ')) argv.push_back(a.toStdString());
            const orbittest::CliResult r = orbittest::runCli(argv);
            QVERIFY2(r.status == 0, r.err.c_str());
            content[t] = readFile(out);
        }
        setThreads(2);
        QVERIFY(content[0].size() > 100);
        QVERIFY2(content[0] == content[1], "--threads 1 and --threads 2 wrote different bytes");
        QVERIFY2(content[1] == content[2], "two runs at --threads 2 wrote different bytes");
    }
};

QTEST_APPLESS_MAIN(TestDeterminism)
#include "test_determinism.moc"

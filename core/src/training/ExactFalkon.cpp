// trainExact's krr with `exact:r=R,centres=M`: FALKON (orbit/learn/Falkon.hpp) on the exact
// invariant kernel, its K_nm blocks computed from the orbit samples of the rows and the centres.
#include "training/ExactKernelParts.hpp"

#include "training/TrainingGrid.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/Falkon.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

namespace orbit::detail {

namespace {

using FalkonClock = std::chrono::steady_clock;

/// K_nm is kept in memory up to this many bytes (float: 4 n m), recomputed per CG iteration past it.
constexpr double kFalkonCacheBytes = 4.0 * 1024.0 * 1024.0 * 1024.0;
/// The CG tolerance on each column's preconditioned residual, relative to its start.
constexpr double kFalkonTolerance = 1e-6;
/// Rows of the kernel blocks (a fixed partition: the bits never depend on the thread count).
constexpr Eigen::Index kFalkonBlockRows = 1024;

/// m of `rows` drawn uniformly without replacement from seed's stream, in increasing order.
Indices falkonCentres(const Indices& rows, std::size_t m, std::uint64_t seed, std::uint64_t stream)
{
    Indices pool = rows;
    Rng rng = makeRng(seed, stream);
    for (std::size_t k = 0; k < m; ++k) std::swap(pool[k], pool[k + std::size_t(uniformIndex(rng, pool.size() - k))]);
    pool.resize(m);
    std::sort(pool.begin(), pool.end());
    return pool;
}

/// The orbit rows (R per input) of the inputs `rows`, in their order.
MatrixXfR falkonOrbitRows(const ExactOrbits& o, const Indices& rows, std::size_t begin, std::size_t end)
{
    MatrixXfR out(Eigen::Index(end - begin) * o.r, o.orbits.cols());
    for (std::size_t i = begin; i < end; ++i)
        out.middleRows(Eigen::Index(i - begin) * o.r, o.r) = o.orbits.middleRows(Eigen::Index(rows[i]) * o.r, o.r);
    return out;
}

/// k_G of the inputs `rows` against the centres' orbits C, in row blocks: the distances of each
/// block's orbit rows to C (all cores), then the kernel at k's bandwidth.
KernelRows falkonKernelRows(const ExactOrbits& o, const Indices& rows, const MatrixXfR& C, const BaseKernel& k)
{
    return [&o, &rows, &C, k](Eigen::Index begin, Eigen::Index end, Eigen::MatrixXf& block) {
        const MatrixXfR X = falkonOrbitRows(o, rows, std::size_t(begin), std::size_t(end));
        const OrbitDistances D(X, C, o.r, k.distance());
        Indices left(std::size_t(end - begin)), right(std::size_t(C.rows() / o.r));
        std::iota(left.begin(), left.end(), 0);
        std::iota(right.begin(), right.end(), 0);
        Eigen::MatrixXd K;
        D.gram(k, left, right, K);
        block = K.cast<float>();  // the values are float sums: exact
    };
}

/// All rows of a KernelRows of `count` rows, filled in blocks of kFalkonBlockRows (a validation
/// split's kernel, kept for every lambda of a bandwidth).
Eigen::MatrixXf falkonKernelOf(const KernelRows& rows, Eigen::Index count, Eigen::Index m)
{
    Eigen::MatrixXf K(count, m), block;
    for (Eigen::Index b0 = 0; b0 < count; b0 += kFalkonBlockRows) {
        const Eigen::Index w = std::min(kFalkonBlockRows, count - b0);
        rows(b0, b0 + w, block);
        K.middleRows(b0, w) = block;
    }
    return K;
}

/// K_mm of the centres' orbits C.
Eigen::MatrixXd falkonCentreKernel(const MatrixXfR& C, int r, const BaseKernel& k)
{
    const OrbitDistances D(C, r, k.distance());
    Indices all(std::size_t(C.rows() / r));
    std::iota(all.begin(), all.end(), 0);
    Eigen::MatrixXd K;
    D.gram(k, all, all, K);
    return K;
}

FalkonOptions falkonOptions(const ExactKernelSpec& spec)
{
    FalkonOptions o;
    o.tolerance = kFalkonTolerance;
    o.maxIterations = spec.iterations;
    o.blockRows = kFalkonBlockRows;
    o.cacheBytes = kFalkonCacheBytes;
    return o;
}

} // namespace

TrainResult trainExactFalkon(const Dataset& data, const TrainConfig& config, const ExactKernelSpec& spec,
                             const Progress& progress)
{
    const auto t0 = FalkonClock::now();
    const std::vector<Split> outer = outerSplits(data, config);
    const std::string centresText = std::to_string(spec.centres);
    for (const Split& s : outer)
        if (spec.centres > (long long)s.train.size())
            throw SpecError("features exact.centres",
                            "the centres are drawn from a fold's " + std::to_string(s.train.size()) +
                                " training rows: at most that many",
                            centresText);
    const std::size_t m = std::size_t(spec.centres);
    const double d = double(data.X.cols());
    checkFeatureMemory(4.0 * double(data.count()) * spec.r * d, "features",
                       "the group samples of " + std::to_string(data.count()) + " inputs x " + std::to_string(spec.r),
                       config.features);
    checkFeatureMemory(OrbitDistances::bytesFor(double(m), spec.r) + 8.0 * 4.0 * double(m) * double(m), "features",
                       "the kernel of " + centresText + " centres x " + std::to_string(spec.r) + " samples", config.features);
    const double validationShare = config.innerFolds >= 2 ? 1.0 / config.innerFolds : config.validationFraction;
    checkFeatureMemory(FalkonSolver::cacheBytesFor(double(data.count()) * validationShare, double(m)), "features",
                       "the kernel of a validation split and " + centresText + " centres", config.features);
    checkFeatureMemory(4.0 * double(kFalkonBlockRows) * spec.r * double(m) * spec.r, "features",
                       "the orbit distances of a block of " + std::to_string(kFalkonBlockRows) + " rows and " + centresText +
                           " centres",
                       config.features);
    reportProgress(progress, 0.0, "group samples");
    const ExactOrbits orbits = exactOrbits(data, config.group, config.dist, spec.r, exactOrbitSeed(config.seed));
    const std::string family = trim(config.kernel).empty() ? "gaussian:median=1" : config.kernel;
    exactDistance(family);  // SpecError for a kernel that is not a function of a distance
    const FalkonOptions options = falkonOptions(spec);
    const std::uint64_t centreSeed = deriveSeed(exactOrbitSeed(config.seed), 43);

    TrainResult r;
    r.metric = toString(metricFor(data));
    r.featureSpec = "exact:r=" + std::to_string(orbits.r) + ",centres=" + centresText +
                    (orbits.haarSum ? " (the exact Haar sum)" : "") + " (FALKON: Nystrom + preconditioned CG, at most " +
                    std::to_string(spec.iterations) + " iterations, tolerance " + formatNumber(kFalkonTolerance) + ")";
    r.featureDim = 0;
    if (data.isClassification()) r.confusion = Eigen::MatrixXi::Zero(data.numClasses, data.numClasses);
    std::vector<double> multiples, lambdas;
    exactKrrAxes(config, multiples, lambdas);
    const bool fixedSigma = !trim(config.kernel).empty() && !usesMedianRule(config.kernel);
    std::vector<double> scores, maes;
    for (std::size_t f = 0; f < outer.size(); ++f) {
        const auto tf = FalkonClock::now();
        const Split& s = outer[f];
        const MatrixXfR trainX = selectRows(data.X, s.train);
        const BaseKernel start = exactBaseKernel(family, trainX, config.seed);
        const double median = fixedSigma ? start.sigma() : exactMedian(family, trainX, config.seed);
        const double lo = 0.05 + 0.95 * double(f) / double(outer.size()), hi = 0.05 + 0.95 * double(f + 1) / double(outer.size());
        auto at = [&](double x, const std::string& step) {
            reportProgress(progress, lo + (hi - lo) * std::clamp(x, 0.0, 1.0), "fold " + std::to_string(f + 1) + ": " + step);
        };
        // The grid on the inner split(s): one solver (its K_nm) per bandwidth, every lambda on it.
        const std::vector<Split> inner = innerSplits(data, config, s.train, f);
        std::vector<double> value(multiples.size() * lambdas.size(), 0.0);
        std::vector<bool> ok(value.size(), true);
        const bool maximise = data.isClassification();
        std::size_t step = 0;
        for (std::size_t i = 0; i < inner.size(); ++i) {
            const Indices& tr = inner[i].train;
            const Indices& va = inner[i].test;
            const Indices centres = falkonCentres(tr, std::min(m, tr.size()), centreSeed, 1000 * f + i + 1);
            const MatrixXfR C = falkonOrbitRows(orbits, centres, 0, centres.size());
            const auto mean = exactMean(data, config.mean, tr);
            const TargetCoding coding = exactCoding(data, tr, TargetCoding::Kind::PlusMinusOne, meanOf(mean));
            const Eigen::MatrixXd Y = exactTargets(data, coding, tr, meanOf(mean));
            for (std::size_t a = 0; a < multiples.size(); ++a) {
                const BaseKernel k = start.withSigma(fixedSigma ? start.sigma() : multiples[a] * median);
                at(0.8 * double(step) / double(inner.size() * multiples.size() * lambdas.size()), "kernel of the centres");
                const FalkonSolver solver(falkonCentreKernel(C, orbits.r, k), Eigen::Index(tr.size()),
                                          falkonKernelRows(orbits, tr, C, k), options);
                const Eigen::MatrixXf Kva =
                    falkonKernelOf(falkonKernelRows(orbits, va, C, k), Eigen::Index(va.size()), Eigen::Index(centres.size()));
                const KernelRows validation = [&Kva](Eigen::Index b, Eigen::Index e, Eigen::MatrixXf& block) {
                    block = Kva.middleRows(b, e - b);
                };
                for (std::size_t b = 0; b < lambdas.size(); ++b) {
                    const std::size_t g = a * lambdas.size() + b;
                    at(0.8 * double(step++) / double(inner.size() * multiples.size() * lambdas.size()), "FALKON grid");
                    if (!ok[g]) continue;
                    const FalkonFit fit = solver.solve(Y, lambdas[b] / double(tr.size()));
                    const Eigen::MatrixXd F = falkonPredict(Eigen::Index(va.size()), validation, fit.alpha, kFalkonBlockRows);
                    if (!F.allFinite()) {
                        ok[g] = false;
                        continue;
                    }
                    value[g] += exactScore(data, coding, F, va, nullptr, meanOf(mean)) / double(inner.size());
                }
            }
        }
        std::size_t best = value.size();
        for (std::size_t g = 0; g < value.size(); ++g)
            if (ok[g] && (best == value.size() || (maximise ? value[g] > value[best] : value[g] < value[best]))) best = g;
        if (best == value.size())
            throw SpecError("kernel", "FALKON gave no finite prediction at any grid point", exactWhat(start, config.features));
        const double bestMultiple = multiples[best / lambdas.size()], bestLambda = lambdas[best % lambdas.size()];
        // The refit on the fold's training rows, scored on its test rows.
        const BaseKernel k = start.withSigma(fixedSigma ? start.sigma() : bestMultiple * median);
        const Indices centres = falkonCentres(s.train, m, centreSeed, 1000 * f);
        const MatrixXfR C = falkonOrbitRows(orbits, centres, 0, centres.size());
        const auto mean = exactMean(data, config.mean, s.train);
        const TargetCoding coding = exactCoding(data, s.train, TargetCoding::Kind::PlusMinusOne, meanOf(mean));
        at(0.85, "kernel of the rows and the centres");
        const FalkonSolver solver(falkonCentreKernel(C, orbits.r, k), Eigen::Index(s.train.size()),
                                  falkonKernelRows(orbits, s.train, C, k), options);
        at(0.9, "conjugate gradients");
        const FalkonFit fit = solver.solve(exactTargets(data, coding, s.train, meanOf(mean)), bestLambda / double(s.train.size()));
        FoldResult fr;
        fr.chosen = {{"bandwidth", k.sigma()}, {"lambda", bestLambda}, {"centres", double(m)},
                     {"cg_iterations", double(fit.iterations)}, {"cg_residual", fit.residual}};
        if (!fixedSigma) fr.chosen["median"] = bestMultiple;
        fr.logEvidence = std::numeric_limits<double>::quiet_NaN();
        if (!s.test.empty()) {
            at(0.95, "the test rows");
            const Eigen::MatrixXd F = falkonPredict(Eigen::Index(s.test.size()), falkonKernelRows(orbits, s.test, C, k),
                                                    fit.alpha, kFalkonBlockRows);
            fr.score = exactScore(data, coding, F, s.test, &fr.mae, meanOf(mean));
            if (data.isClassification()) {
                const std::vector<int> predicted = TargetCoding::argmax(F);
                r.confusion += confusionMatrix(predicted, select(data.labels, s.test), data.numClasses);
                for (std::size_t t = 0; t < s.test.size(); ++t)
                    r.predictions.push_back({s.test[t], f, data.labels[s.test[t]], predicted[t]});
            } else {
                maes.push_back(fr.mae);
            }
        }
        fr.seconds = std::chrono::duration<double>(FalkonClock::now() - tf).count();
        scores.push_back(fr.score);
        r.folds.push_back(std::move(fr));
    }
    r.mean = mean(scores);
    r.stddev = standardDeviation(scores);
    if (!maes.empty()) r.mae = mean(maes);
    r.seconds = std::chrono::duration<double>(FalkonClock::now() - t0).count();
    reportProgress(progress, 1.0, "done");
    return r;
}

} // namespace orbit::detail

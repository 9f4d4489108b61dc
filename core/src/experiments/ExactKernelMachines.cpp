#include "orbit/experiments/ExactKernelMachines.hpp"

#include "experiments/ExactKernelParts.hpp"
#include "experiments/TrainingGrid.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"
#include "registry/Builders.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

namespace orbit {

namespace {

using Clock = std::chrono::steady_clock;

/// The marginal-likelihood evaluations of train --learner gp per fold (L-BFGS over bandwidth,
/// signal and noise).
constexpr int kTrainGpEvaluations = 20;

double exactSeconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

FeatureMapDescriptor makeExactDescriptor()
{
    FeatureMapDescriptor d;
    d.name = "exact";
    d.displayName = "exact invariant kernel";
    d.doc = "No feature map: krr and gp use the invariant kernel k_G(x, y) = E k(g x, g' y) itself, from R group "
            "samples per input (the exact sum over cyclic or orthogonal groups with haar).";
    d.parameters = {registry::integer("r", 1, 10000, false, 4, "Group samples per input (common random numbers)."),
                    registry::integer("centres", 0, 10000000, false, 0,
                                      "m > 0: krr by the m-centre Nyström + preconditioned conjugate-gradient solver "
                                      "(FALKON), for n past an n x n matrix; m at most the training rows."),
                    registry::integer("iterations", 1, 100000, false, ExactKernelSpec{}.iterations,
                                      "With centres: the cap on conjugate-gradient iterations (each one pass over the "
                                      "kernel of the rows and the centres).")};
    d.invariant = true;
    d.usesBaseKernel = true;
    d.seedOnlyFit = true;
    return d;
}

using detail::exactBaseKernel;
using detail::exactCoding;
using detail::exactDistance;
using detail::exactMedian;
using detail::exactScore;
using detail::exactTargets;
using detail::exactWhat;

/// Kernel ridge on a Gram: (K + lambda I)^-1 Y, NaN-free or nullopt when not positive definite.
std::optional<Eigen::MatrixXd> exactRidgeSolve(const Eigen::MatrixXd& K, const Eigen::MatrixXd& Y, double lambda)
{
    Eigen::MatrixXd L = K;
    L.diagonal().array() += lambda;
    if (!choleskyInPlace(L)) return std::nullopt;
    return choleskySolve(L, Y);
}

} // namespace

const FeatureMapDescriptor& exactKernelDescriptor()
{
    static const FeatureMapDescriptor d = makeExactDescriptor();
    return d;
}

bool isExactKernelSpec(const std::string& features)
{
    const std::string t = trim(features);
    return t == "exact" || t.rfind("exact:", 0) == 0;
}

ExactKernelSpec parseExactKernelSpec(const std::string& features)
{
    const Spec s = parseSpec(features, "features");
    const FeatureMapDescriptor& d = exactKernelDescriptor();
    if (s.name != d.name) throw SpecError("features", "not an exact kernel spec (exact:r=R)", features);
    checkSpecKeys(s, d);
    ExactKernelSpec e;
    e.r = int(readInteger(s, *d.parameter("r")));
    e.centres = readInteger(s, *d.parameter("centres"));
    e.iterations = int(readInteger(s, *d.parameter("iterations")));
    return e;
}

std::uint64_t exactOrbitSeed(std::uint64_t seed) { return deriveSeed(featureSeed(seed), 7); }

ExactOrbits exactOrbits(const Dataset& data, const std::string& group, const std::string& dist, int r, std::uint64_t seed)
{
    ExactOrbits out;
    if (trim(group).empty()) {
        out.orbits = data.X;
        out.r = 1;
        return out;
    }
    const FeatureContext ctx = makeFeatureContext(data, group, dist, "", seed);
    if (!ctx.group || !ctx.dist) throw SpecError("distribution", "the exact invariant kernel needs a group and a distribution", dist);
    const bool haar = parseSpec(ctx.dist->spec(), "distribution").name == "haar";
    if (haar && ctx.group->isFinite() && ctx.group->kind() != GroupKind::Permutation) {
        const auto elements = ctx.group->elements(data.shape, 4096);
        const Eigen::Index G = Eigen::Index(elements.size()), d = data.X.cols();
        out.orbits.resize(data.X.rows() * G, d);
        for (Eigen::Index i = 0; i < data.X.rows(); ++i)
            for (Eigen::Index k = 0; k < G; ++k)
                ctx.group->apply(elements[std::size_t(k)], data.X.data() + i * d, out.orbits.data() + (i * G + k) * d, data.shape);
        out.r = int(G);
        out.haarSum = true;
        return out;
    }
    const OrbitSampler sampler(ctx.group, ctx.dist, data.shape, r, seed);
    sampler.transformBlock(data.X, 0, std::size_t(data.X.rows()), out.orbits);
    out.r = r;
    return out;
}

namespace {

Dataset inputsOf(const MatrixXfR& X, DataKind kind, const Shape& shape)
{
    if (X.cols() != shape.dim())
        throw SpecError("data", "rows of " + std::to_string(X.cols()) + " values for inputs of " + std::to_string(shape.dim()),
                        std::to_string(X.cols()));
    Dataset d;
    d.kind = kind;
    d.shape = shape;
    d.X = X;
    return d;
}

} // namespace

Eigen::MatrixXd exactKernelMatrix(const MatrixXfR& A, const MatrixXfR& B, DataKind kind, const Shape& shape,
                                  const std::string& group, const std::string& dist, const BaseKernel& kernel, int r,
                                  std::uint64_t seed)
{
    if (!kernel.stationary())
        throw SpecError("kernel", "exact invariant kernel machines need a shift-invariant kernel (gaussian, laplacian or matern)",
                        kernel.spec());
    const ExactOrbits a = exactOrbits(inputsOf(A, kind, shape), group, dist, r, seed);
    const ExactOrbits b = exactOrbits(inputsOf(B, kind, shape), group, dist, r, seed);
    const OrbitDistances D(a.orbits, b.orbits, a.r, kernel.distance());
    Indices rows(std::size_t(A.rows())), cols(std::size_t(B.rows()));
    std::iota(rows.begin(), rows.end(), 0);
    std::iota(cols.begin(), cols.end(), 0);
    Eigen::MatrixXd K;
    D.gram(kernel, rows, cols, K);
    return K;
}

ExactGpModel fitExactGp(const MatrixXfR& X, const Eigen::MatrixXd& Y, DataKind kind, const Shape& shape,
                        const std::string& group, const std::string& dist, const std::string& kernel, int r,
                        std::uint64_t seed, int maxEvaluations, const Progress& progress)
{
    if (Y.rows() != X.rows())
        throw ContractError("fitExactGp", std::to_string(X.rows()) + " rows, " + std::to_string(Y.rows()) + " targets");
    const std::string family = trim(kernel).empty() ? "gaussian:median=1" : kernel;
    const BaseKernel start = exactBaseKernel(family, X, seed);
    const ExactOrbits o = exactOrbits(inputsOf(X, kind, shape), group, dist, r, seed);
    const OrbitDistances D(o.orbits, o.r, start.distance());
    Indices all(std::size_t(X.rows()));
    std::iota(all.begin(), all.end(), 0);
    const GramFamily gram = [&](double sigma, Eigen::MatrixXd& K, Eigen::MatrixXd* dK) { D.gram(start.withSigma(sigma), all, all, K, dK); };
    GpBounds bounds;
    if (usesMedianRule(family)) {
        bounds.sigmaLo = start.sigma() / 100.0;
        bounds.sigmaHi = start.sigma() * 1000.0;
    }
    const std::string what = start.spec() + " on exact:r=" + std::to_string(o.r);
    const GpFit fit = fitGaussianProcess(gram, Y, GpHyper{start.sigma(), 1.0, 0.01}, bounds, maxEvaluations, what, progress);
    ExactGpModel m;
    m.hyper = fit.hyper;
    m.logLikelihood = fit.logLikelihood;
    m.evaluations = fit.evaluations;
    const BaseKernel k = start.withSigma(fit.hyper.sigma);
    m.kernel = k.spec();
    Eigen::MatrixXd K;
    D.gram(k, all, all, K);
    m.alpha = factoriseGp(K, Y, fit.hyper.signal, fit.hyper.noise, what).alpha;
    return m;
}

TrainResult trainExact(const Dataset& data, const TrainConfig& config, const Progress& progress)
{
    const auto t0 = Clock::now();
    const ExactKernelSpec spec = parseExactKernelSpec(config.features);
    const Learner learner = parseLearner(config.learner);
    if (learner != Learner::Krr && learner != Learner::Gp)
        throw SpecError("learner", "exact:r=R is the kernel itself: its learners are krr and gp", config.learner);
    if (spec.centres > 0) {
        if (learner == Learner::Gp)
            throw SpecError("learner", "gp's marginal likelihood needs the exact n x n solve: exact centres are for krr",
                            config.learner);
        return detail::trainExactFalkon(data, config, spec, progress);
    }
    const double bytes = OrbitDistances::bytesFor(double(data.count()), spec.r);
    detail::checkFeatureMemory(bytes, "features",
                               "the orbit distances of " + std::to_string(data.count()) + " inputs x " + std::to_string(spec.r) +
                                   " samples",
                               config.features);
    reportProgress(progress, 0.0, "group samples");
    const ExactOrbits orbits = exactOrbits(data, config.group, config.dist, spec.r, exactOrbitSeed(config.seed));
    detail::checkFeatureMemory(OrbitDistances::bytesFor(double(data.count()), orbits.r), "features",
                               "the orbit distances of the exact Haar sum", config.features);
    const std::string family = trim(config.kernel).empty() ? "gaussian:median=1" : config.kernel;
    const OrbitDistances D(orbits.orbits, orbits.r, exactDistance(family),
                           [&](double f, const std::string& what) { return progress && progress(0.2 * f, what); });
    const std::vector<Split> outer = outerSplits(data, config);
    TrainResult r;
    r.metric = toString(metricFor(data));
    r.featureSpec = "exact:r=" + std::to_string(orbits.r) + (orbits.haarSum ? " (the exact Haar sum)" : "");
    r.featureDim = 0;
    if (data.isClassification()) r.confusion = Eigen::MatrixXi::Zero(data.numClasses, data.numClasses);
    std::vector<double> scores, maes, evidences;
    // krr's grid: bandwidth multiples of the training rows' median (or the kernel's own sigma) x lambda.
    std::vector<double> multiples, lambdas;
    detail::exactKrrAxes(config, multiples, lambdas);
    const bool fixedSigma = !trim(config.kernel).empty() && !usesMedianRule(config.kernel);
    for (std::size_t f = 0; f < outer.size(); ++f) {
        const auto tf = Clock::now();
        const Split& s = outer[f];
        const MatrixXfR trainX = selectRows(data.X, s.train);
        const BaseKernel start = exactBaseKernel(family, trainX, config.seed);
        const double median = fixedSigma ? start.sigma() : exactMedian(family, trainX, config.seed);
        const std::string what = exactWhat(start, config.features);
        const double lo = 0.2 + 0.8 * double(f) / double(outer.size()), hi = 0.2 + 0.8 * double(f + 1) / double(outer.size());
        auto at = [&](double x, const std::string& step) {
            reportProgress(progress, lo + (hi - lo) * std::clamp(x, 0.0, 1.0), "fold " + std::to_string(f + 1) + ": " + step);
        };
        FoldResult fr;
        Eigen::MatrixXd F;
        if (learner == Learner::Gp) {
            const TargetCoding coding = exactCoding(data, s.train, TargetCoding::Kind::OneHot);
            const Eigen::MatrixXd Y = exactTargets(data, coding, s.train);
            const GramFamily gram = [&](double sigma, Eigen::MatrixXd& K, Eigen::MatrixXd* dK) {
                D.gram(start.withSigma(sigma), s.train, s.train, K, dK);
            };
            GpBounds bounds;
            if (!fixedSigma) {
                bounds.sigmaLo = start.sigma() / 100.0;
                bounds.sigmaHi = start.sigma() * 1000.0;
            }
            const GpFit fit = fitGaussianProcess(gram, Y, GpHyper{start.sigma(), 1.0, 0.01}, bounds, kTrainGpEvaluations, what,
                                                 [&](double x, const std::string& step) {
                                                     at(0.9 * x, step);
                                                     return false;
                                                 });
            Eigen::MatrixXd K;
            D.gram(start.withSigma(fit.hyper.sigma), s.train, s.train, K);
            const GpFactor factor = factoriseGp(K, Y, fit.hyper.signal, fit.hyper.noise, what);
            Eigen::MatrixXd Ks;
            D.gram(start.withSigma(fit.hyper.sigma), s.test, s.train, Ks);
            predictGp(factor, fit.hyper, Ks, Eigen::VectorXd::Zero(Eigen::Index(s.test.size())), F);
            fr.logEvidence = fit.logLikelihood;
            fr.chosen = {{"bandwidth", fit.hyper.sigma}, {"signal", fit.hyper.signal}, {"noise", fit.hyper.noise}};
            evidences.push_back(fit.logLikelihood);
            if (!s.test.empty()) fr.score = exactScore(data, coding, F, s.test, &fr.mae);
        } else {
            const std::vector<Split> inner = innerSplits(data, config, s.train, f);
            double best = std::numeric_limits<double>::quiet_NaN();
            double bestMultiple = multiples.front(), bestLambda = lambdas.front();
            const bool maximise = data.isClassification();
            std::size_t step = 0;
            for (double m : multiples) {
                const BaseKernel k = start.withSigma(fixedSigma ? start.sigma() : m * median);
                for (double lambda : lambdas) {
                    double v = 0.0;
                    bool ok = true;
                    for (const Split& in : inner) {
                        const Indices& tr = in.train;  // dataset rows, all of the fold's training part
                        const Indices& va = in.test;
                        const TargetCoding coding = exactCoding(data, tr, TargetCoding::Kind::PlusMinusOne);
                        Eigen::MatrixXd K, Ks;
                        D.gram(k, tr, tr, K);
                        const auto a = exactRidgeSolve(K, exactTargets(data, coding, tr), lambda);
                        if (!a) {
                            ok = false;
                            break;
                        }
                        D.gram(k, va, tr, Ks);
                        v += exactScore(data, coding, Ks * *a, va, nullptr) / double(inner.size());
                    }
                    at(0.8 * double(++step) / double(multiples.size() * lambdas.size()), "krr grid");
                    if (ok && (std::isnan(best) || (maximise ? v > best : v < best))) {
                        best = v;
                        bestMultiple = m;
                        bestLambda = lambda;
                    }
                }
            }
            const BaseKernel k = start.withSigma(fixedSigma ? start.sigma() : bestMultiple * median);
            const TargetCoding coding = exactCoding(data, s.train, TargetCoding::Kind::PlusMinusOne);
            Eigen::MatrixXd K, Ks;
            D.gram(k, s.train, s.train, K);
            const auto a = exactRidgeSolve(K, exactTargets(data, coding, s.train), bestLambda);
            if (!a)
                throw SpecError("kernel", "the Gram matrix plus lambda " + formatNumber(bestLambda) + " is not positive definite",
                                exactWhat(k, config.features));
            D.gram(k, s.test, s.train, Ks);
            F = Ks * *a;
            fr.chosen = {{"bandwidth", k.sigma()}, {"lambda", bestLambda}};
            if (!fixedSigma) fr.chosen["median"] = bestMultiple;
            fr.logEvidence = std::numeric_limits<double>::quiet_NaN();
            if (!s.test.empty()) fr.score = exactScore(data, coding, F, s.test, &fr.mae);
        }
        if (data.isClassification() && !s.test.empty()) {
            const std::vector<int> predicted = TargetCoding::argmax(F);
            r.confusion += confusionMatrix(predicted, select(data.labels, s.test), data.numClasses);
            for (std::size_t k = 0; k < s.test.size(); ++k)
                r.predictions.push_back({s.test[k], f, data.labels[s.test[k]], predicted[k]});
        } else if (!s.test.empty()) {
            maes.push_back(fr.mae);
        }
        fr.seconds = exactSeconds(tf);
        scores.push_back(fr.score);
        r.folds.push_back(std::move(fr));
    }
    r.mean = mean(scores);
    r.stddev = standardDeviation(scores);
    if (!maes.empty()) r.mae = mean(maes);
    if (!evidences.empty()) r.logEvidence = mean(evidences);
    r.seconds = exactSeconds(t0);
    reportProgress(progress, 1.0, "done");
    return r;
}

ExactLearnResult learnExactGp(const Dataset& data, const LocalityConfig& config, int innerEvaluations, int scan,
                              const Progress& progress, const std::vector<double>* curveValues)
{
    const auto t0 = Clock::now();
    if (!data.isClassification() && !data.isRegression())
        throw SpecError("data", "learning the locality by the GP needs class labels or regression targets", data.source);
    const ExactKernelSpec spec = parseExactKernelSpec(config.features);
    if (spec.centres > 0)
        throw SpecError("learner", "gp's marginal likelihood needs the exact n x n solve: exact centres are for krr", "gp");
    if (config.learn.size() != 1)
        throw SpecError("learn", "the GP learns one distribution parameter (with the bandwidth, signal and noise)",
                        std::to_string(config.learn.size()) + " parameters");
    const std::string param = config.learn.front();
    const FeatureContext ctx = makeFeatureContext(data, config.group, config.dist, "", featureSeed(config.seed));
    if (!ctx.group || !ctx.dist) throw SpecError("group", "the GP learns the locality of a group and a distribution", config.group);
    // The parameter's range: --bounds, or the descriptor's learning range.
    const DistributionDescriptor* dd = findDistribution(parseSpec(ctx.dist->spec(), "distribution").name);
    const ParamDescriptor* pd = nullptr;
    if (dd)
        for (const ParamDescriptor& p : dd->parametersOn(ctx.group->kind()))
            if (p.key == param) pd = &p;
    if (!pd)
        throw SpecError("learn", "the GP learns a parameter of the distribution " + ctx.dist->spec() +
                                     " (affine factors are not searched by it)",
                        param);
    double lo = pd->learnMinimum, hi = pd->learnMaximum;
    if (const auto b = config.bounds.find(param); b != config.bounds.end()) {
        lo = b->second.first;
        hi = b->second.second;
    }
    if (!(lo < hi) || !pd->accepts(lo) || !pd->accepts(hi))
        throw SpecError("bounds", param + " needs LO < HI inside " + pd->rangeText(), formatNumber(lo) + ":" + formatNumber(hi));
    const bool logScale = pd->logScale && lo > 0;
    auto toU = [&](double v) { return logScale ? std::log(v) : v; };
    auto fromU = [&](double u) { return logScale ? std::exp(u) : u; };

    TrainConfig tc;
    tc.group = config.group;
    tc.dist = config.dist;
    tc.seed = config.seed;
    std::vector<Split> folds;
    if (trim(config.eval).empty()) {
        Split all;
        for (std::size_t i = 0; i < data.count(); ++i) all.train.push_back(i);
        folds.push_back(all);
    } else {
        tc.eval = config.eval;
        folds = outerSplits(data, tc);
        if (curveValues) folds.resize(1);  // the curve: the first split's training rows, as evidence's
    }
    const std::size_t K = folds.size();
    const std::string family = trim(config.kernel).empty() ? "gaussian:median=1" : config.kernel;
    const bool fixedSigma = !usesMedianRule(family);
    // The scan holds the distances of every row (several folds) or of the one fold's training rows.
    const std::size_t held = K == 1 ? folds.front().train.size() : data.count();
    detail::checkFeatureMemory(OrbitDistances::bytesFor(double(held), spec.r), "features",
                               "the orbit distances of " + std::to_string(held) + " inputs x " + std::to_string(spec.r) + " samples",
                               config.features);

    struct FoldState {
        BaseKernel start = BaseKernel::gaussian(1.0);
        TargetCoding coding;
        Eigen::MatrixXd Y;
        GpHyper best;
        double bestLogLik = -std::numeric_limits<double>::infinity();
        double bestU = 0.0;
        std::vector<std::pair<double, double>> curve;  // (u, log lik), in evaluation order
        int inner = 0;
    };
    std::vector<FoldState> state(K);
    for (std::size_t f = 0; f < K; ++f) {
        // Everything a fold fits reads its training rows only: the median rule included.
        state[f].start = exactBaseKernel(family, selectRows(data.X, folds[f].train), config.seed);
        state[f].coding = exactCoding(data, folds[f].train, TargetCoding::Kind::OneHot);
        state[f].Y = exactTargets(data, state[f].coding, folds[f].train);
        state[f].best = GpHyper{state[f].start.sigma(), 1.0, 0.01};
    }
    ExactLearnResult result;
    result.param = param;
    result.metric = toString(metricFor(data));
    double evalSeconds = 0.0;
    const int budget = std::max(scan + 1, config.maxEvaluations);
    const double totalOuter = double(K) * double(budget);
    int outerDone = 0;
    auto report = [&](const std::string& what) {
        reportProgress(progress, std::min(1.0, double(outerDone) / totalOuter), what);
    };
    // One outer evaluation of fold f at parameter u on distances D whose inputs are `index` (rows
    // of D for the fold's training rows).
    auto evaluate = [&](std::size_t f, double u, const OrbitDistances& D, const Indices& trainInD) {
        FoldState& st = state[f];
        const std::string what = exactWhat(st.start, config.features) + " at " + param + " = " + formatNumber(fromU(u));
        const GramFamily gram = [&](double sigma, Eigen::MatrixXd& Kmat, Eigen::MatrixXd* dK) {
            D.gram(st.start.withSigma(sigma), trainInD, trainInD, Kmat, dK);
        };
        GpBounds bounds;
        if (!fixedSigma) {
            bounds.sigmaLo = st.start.sigma() / 100.0;
            bounds.sigmaHi = st.start.sigma() * 1000.0;
        }
        const auto te = Clock::now();
        const GpFit fit = fitGaussianProcess(gram, st.Y, st.best, bounds, innerEvaluations, what);
        evalSeconds += exactSeconds(te);
        result.evaluations += fit.evaluations;
        st.inner += fit.evaluations;
        st.curve.emplace_back(u, fit.logLikelihood);
        if (fit.logLikelihood > st.bestLogLik) {
            st.bestLogLik = fit.logLikelihood;
            st.best = fit.hyper;
            st.bestU = u;
        }
        ++outerDone;
        report("fold " + std::to_string(f + 1) + ", " + param + " = " + formatNumber(fromU(u)) + ": log marginal likelihood " +
               formatNumber(fit.logLikelihood));
        return fit.logLikelihood;
    };
    auto distAt = [&](double u) { return detail::distWith(tc, data.shape, {{param, fromU(u)}}); };
    // The orbit rows of `rows` at parameter u (their own per-input seeds: the same draws whatever
    // other rows are taken).
    auto orbitsAt = [&](double u, const Indices& rows) {
        const ExactOrbits o = exactOrbits(data, config.group, distAt(u), spec.r, exactOrbitSeed(config.seed));
        MatrixXfR sub(Eigen::Index(rows.size()) * o.r, o.orbits.cols());
        for (std::size_t i = 0; i < rows.size(); ++i)
            sub.middleRows(Eigen::Index(i) * o.r, o.r) = o.orbits.middleRows(Eigen::Index(rows[i]) * o.r, o.r);
        return std::make_pair(std::move(sub), o.r);
    };
    auto distancesAt = [&](double u, const Indices* rows) {
        if (!rows) {
            const ExactOrbits o = exactOrbits(data, config.group, distAt(u), spec.r, exactOrbitSeed(config.seed));
            return OrbitDistances(o.orbits, o.r, exactDistance(family));
        }
        const auto [sub, r] = orbitsAt(u, *rows);
        return OrbitDistances(sub, r, exactDistance(family));
    };
    auto localRows = [](std::size_t n) {
        Indices local(n);
        for (std::size_t i = 0; i < n; ++i) local[i] = i;
        return local;
    };
    // The scan, shared by the folds: one distance computation per value for every row.
    const double uLo = toU(lo), uHi = toU(hi);
    std::vector<double> scanU;
    if (curveValues) {
        for (double v : *curveValues) {
            if (!pd->accepts(v) || (logScale && !(v > 0)))
                throw SpecError("values", param + " " + pd->violation(v), formatNumber(v));
            scanU.push_back(toU(v));
        }
    } else {
        for (int i = 0; i < scan; ++i) scanU.push_back(uLo + (uHi - uLo) * double(i) / double(std::max(1, scan - 1)));
    }
    // One fold (a hold-out split, the curve) keeps the distances of its training rows only: a
    // quarter of the memory of all rows' for a 50 % split, so more views fit.
    for (double u : scanU) {
        report("orbit distances at " + param + " = " + formatNumber(fromU(u)));
        if (K == 1) {
            const OrbitDistances D = distancesAt(u, &folds.front().train);
            evaluate(0, u, D, localRows(folds.front().train.size()));
            continue;
        }
        const OrbitDistances D = distancesAt(u, nullptr);
        for (std::size_t f = 0; f < K; ++f) evaluate(f, u, D, folds[f].train);
    }
    // Golden-section steps per fold in the bracket around its best scanned value.
    const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
    for (std::size_t f = 0; f < (curveValues ? 0 : K); ++f) {
        FoldState& st = state[f];
        std::size_t bi = 0;
        for (std::size_t i = 0; i < scanU.size(); ++i)
            if (st.curve[i].second > st.curve[bi].second) bi = i;
        double a = scanU[bi == 0 ? 0 : bi - 1], b = scanU[std::min(scanU.size() - 1, bi + 1)];
        double x = scanU[bi], fx = st.curve[bi].second;
        for (int e = scan; e < budget; ++e) {
            // Probe the golden point of the larger side of the bracket around the best x.
            const bool right = (b - x) >= (x - a);
            const double probe = right ? x + (1.0 - phi) * (b - x) : x - (1.0 - phi) * (x - a);
            if (std::abs(b - a) < 1e-3 * std::abs(uHi - uLo)) break;
            const OrbitDistances D = distancesAt(probe, &folds[f].train);
            const double fp = evaluate(f, probe, D, localRows(folds[f].train.size()));
            if (fp > fx) {
                (right ? a : b) = x;
                x = probe;
                fx = fp;
            } else {
                (right ? b : a) = probe;
            }
        }
    }
    // Each fold's model at its optimum, scored on its test rows.
    std::vector<double> scores, maes;
    for (std::size_t f = 0; f < K; ++f) {
        FoldState& st = state[f];
        const Split& s = folds[f];
        ExactLearnFold out;
        out.params = {{param, fromU(st.bestU)}};
        out.dist = distAt(st.bestU);
        out.hyper = st.best;
        out.logEvidence = st.bestLogLik;
        out.outerEvaluations = int(st.curve.size());
        out.innerEvaluations = st.inner;
        for (const auto& [u, l] : st.curve) out.curve.emplace_back(fromU(u), l);
        std::sort(out.curve.begin(), out.curve.end());
        out.trainRows = s.train.size();
        out.testRows = s.test.size();
        if (!s.test.empty() && !curveValues) {
            report("fold " + std::to_string(f + 1) + ": the test rows");
            // The training rows' square distances and the test rows' against them.
            const auto [trainOrbits, r] = orbitsAt(st.bestU, s.train);
            const auto [testOrbits, rt] = orbitsAt(st.bestU, s.test);
            const OrbitDistances Dtt(trainOrbits, r, exactDistance(family));
            const OrbitDistances Dst(testOrbits, trainOrbits, rt, exactDistance(family));
            const Indices tr = localRows(s.train.size()), te = localRows(s.test.size());
            const BaseKernel k = st.start.withSigma(st.best.sigma);
            Eigen::MatrixXd Kmat, Ks, F;
            Dtt.gram(k, tr, tr, Kmat);
            const GpFactor factor = factoriseGp(Kmat, st.Y, st.best.signal, st.best.noise, exactWhat(k, config.features));
            Dst.gram(k, te, tr, Ks);
            predictGp(factor, st.best, Ks, Eigen::VectorXd::Zero(Eigen::Index(te.size())), F);
            double m = 0.0;
            out.test = exactScore(data, st.coding, F, s.test, &m);
            scores.push_back(*out.test);
            if (!data.isClassification()) {
                out.mae = m;
                maes.push_back(m);
            }
        }
        result.folds.push_back(std::move(out));
    }
    if (!scores.empty()) {
        result.mean = mean(scores);
        result.stddev = standardDeviation(scores);
    }
    if (!maes.empty()) result.mae = mean(maes);
    result.seconds = exactSeconds(t0);
    result.secondsPerEvaluation = evalSeconds / double(std::max(1, result.evaluations));
    reportProgress(progress, 1.0, "done");
    return result;
}

} // namespace orbit

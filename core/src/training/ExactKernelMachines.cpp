#include "orbit/training/ExactKernelMachines.hpp"

#include "training/ExactKernelParts.hpp"
#include "training/TrainingGrid.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/FeatureKernel.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/models/ExactModel.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"
#include "registry/Builders.hpp"
#include "util/Deterministic.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>

namespace orbit {

namespace {

/// The marginal-likelihood evaluations of train --learner gp per fold (L-BFGS over bandwidth,
/// signal and noise).
constexpr int kTrainGpEvaluations = 20;

/// The names a fold of trainExact may choose, in the order packedFoldResult writes them.
const std::vector<std::string>& exactChoiceNames()
{
    static const std::vector<std::string> names = {"bandwidth", "signal", "noise", "lambda", "median"};
    return names;
}

/// A fold of trainExact and its test decisions F as one matrix for Ranks::deal: column 0 holds
/// score, MAE, log evidence, seconds and each of exactChoiceNames() (NaN when not chosen), then
/// F's columns follow, each padded to the header's length.
Eigen::MatrixXd packedFoldResult(const FoldResult& fold, const Eigen::MatrixXd& F)
{
    const std::vector<std::string>& names = exactChoiceNames();
    const auto header = Eigen::Index(4 + names.size());
    for (const auto& [name, value] : fold.chosen)
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw ContractError("trainExact", "a fold chose " + name + ", which is not in exactChoiceNames()");
    Eigen::MatrixXd m = Eigen::MatrixXd::Constant(std::max(header, F.rows()), 2 + F.cols(), std::numeric_limits<double>::quiet_NaN());
    m(0, 0) = fold.score;
    m(1, 0) = fold.mae;
    m(2, 0) = fold.logEvidence;
    m(3, 0) = fold.seconds;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (const auto c = fold.chosen.find(names[i]); c != fold.chosen.end()) m(4 + Eigen::Index(i), 0) = c->second;
    m(0, 1) = double(F.rows());
    m.block(0, 2, F.rows(), F.cols()) = F;
    return m;
}

std::pair<FoldResult, Eigen::MatrixXd> unpackedFoldResult(const Eigen::MatrixXd& m)
{
    const std::vector<std::string>& names = exactChoiceNames();
    FoldResult fold;
    fold.score = m(0, 0);
    fold.mae = m(1, 0);
    fold.logEvidence = m(2, 0);
    fold.seconds = m(3, 0);
    for (std::size_t i = 0; i < names.size(); ++i)
        if (!std::isnan(m(4 + Eigen::Index(i), 0))) fold.chosen[names[i]] = m(4 + Eigen::Index(i), 0);
    return {fold, m.block(0, 2, Eigen::Index(m(0, 1)), m.cols() - 2)};
}

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

} // namespace

namespace detail {

double exactSeconds(ExactClock::time_point t0) { return std::chrono::duration<double>(ExactClock::now() - t0).count(); }

/// Kernel ridge on a Gram: (K + lambda I)^-1 Y, NaN-free or nullopt when not positive definite.
std::optional<Eigen::MatrixXd> exactRidgeSolve(const Eigen::MatrixXd& K, const Eigen::MatrixXd& Y, double lambda)
{
    Eigen::MatrixXd L = K;
    L.diagonal().array() += lambda;
    if (!choleskyInPlace(L)) return std::nullopt;
    return choleskySolve(L, Y);
}

} // namespace detail

using namespace detail;

const FeatureMapDescriptor& exactKernelDescriptor()
{
    static const FeatureMapDescriptor d = makeExactDescriptor();
    return d;
}

bool isExactKernelSpec(const std::string& features) { return isExactFeatures(features); }

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
    const bool haar = ctx.dist->isHaar();
    if (haar && ctx.group->sumsHaarOverElements()) {
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

MatrixXfR exactOrbitTangents(const Dataset& data, const std::string& group, const std::string& dist, int r, std::uint64_t seed,
                             const std::string& param)
{
    return std::move(exactOrbitTangents(data, group, dist, r, seed, std::vector<std::string>{param}).front());
}

std::vector<MatrixXfR> exactOrbitTangents(const Dataset& data, const std::string& group, const std::string& dist, int r,
                                          std::uint64_t seed, const std::vector<std::string>& params)
{
    const std::string named = params.empty() ? std::string() : params.front();
    const FeatureContext ctx = makeFeatureContext(data, group, dist, "", seed);
    if (!ctx.group || !ctx.dist) throw SpecError("learn", "a parameter's tangents need a group and a distribution", named);
    if (!ctx.group->isDifferentiable())
        throw SpecError("learn", "the action of " + ctx.group->spec() + " has no derivative: " + named + " is searched without one",
                        named);
    const OrbitSampler sampler(ctx.group, ctx.dist, data.shape, r, seed);
    const Eigen::Index d = data.X.cols();
    std::vector<MatrixXfR> T(params.size(), MatrixXfR(data.X.rows() * r, d));
    // One sampling pass: each draw's tangents in every parameter at once.
    detail::forEachBlock(std::size_t(data.X.rows()), 16, [&](std::size_t b0, std::size_t b1) {
        std::vector<std::vector<GroupTangent>> tangents;
        for (std::size_t i = b0; i < b1; ++i) {
            const float* x = data.X.data() + Eigen::Index(i) * d;
            const std::vector<GroupElement> g = sampler.elementsFor(i, x, params, tangents);
            for (int k = 0; k < r; ++k)
                for (std::size_t p = 0; p < params.size(); ++p)
                    ctx.group->applyTangent(g[std::size_t(k)], tangents[std::size_t(k)][p], x,
                                            T[p].data() + (Eigen::Index(i) * r + k) * d, data.shape);
        }
    });
    return T;
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

TrainResult trainExact(const Dataset& data, const TrainConfig& config, const Progress& progress, const Ranks& ranks)
{
    const auto t0 = ExactClock::now();
    const ExactKernelSpec spec = parseExactKernelSpec(config.features);
    const LearnerDescriptor& learner = parseLearner(config.learner);
    if (!learner.onExactKernel)
        throw SpecError("learner", "exact:r=R is the kernel itself: its learners are " +
                                       learnerList([](const LearnerDescriptor& l) { return l.onExactKernel; }), config.learner);
    if (spec.centres > 0) {
        if (learner.gaussianProcess)
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
    const std::vector<Split> outer = outerSplits(data, config);
    // Whole folds are dealt out to the ranks (see learnExactGp); a rank without a fold of its own
    // computes no distances.
    auto mine = [&](std::size_t f) { return exactFoldOwner(f, ranks.size()) == ranks.rank(); };
    std::optional<OrbitDistances> distances;
    if (std::size_t(ranks.rank()) < outer.size())
        distances.emplace(orbits.orbits, orbits.r, exactDistance(family),
                          [&](double f, const std::string& what) { return progress && progress(0.2 * f, what); });
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
    std::vector<FoldResult> done(outer.size());
    std::vector<Eigen::MatrixXd> decisions(outer.size());  // the test rows' decisions of each fold
    for (std::size_t f = 0; f < outer.size(); ++f) {
        if (!mine(f)) continue;
        const OrbitDistances& D = *distances;
        const auto tf = ExactClock::now();
        const Split& s = outer[f];
        const MatrixXfR trainX = selectRows(data.X, s.train);
        const BaseKernel start = exactBaseKernel(family, trainX, config.seed);
        const double median = fixedSigma ? start.sigma() : exactMedian(family, trainX, config.seed);
        const std::string what = exactWhat(start, config.features);
        const double lo = 0.2 + 0.8 * double(f) / double(outer.size()), hi = 0.2 + 0.8 * double(f + 1) / double(outer.size());
        auto at = [&](double x, const std::string& step) {
            reportProgress(progress, lo + (hi - lo) * std::clamp(x, 0.0, 1.0), "fold " + std::to_string(f + 1) + ": " + step);
        };
        FoldResult& fr = done[f];
        Eigen::MatrixXd& F = decisions[f];
        if (learner.gaussianProcess) {
            const auto mean = exactMean(data, config.mean, s.train);  // fitted on the fold's training rows
            const TargetCoding coding = exactCoding(data, s.train, TargetCoding::Kind::OneHot, meanOf(mean));
            const Eigen::MatrixXd Y = exactTargets(data, coding, s.train, meanOf(mean));
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
            if (!s.test.empty()) fr.score = exactScore(data, coding, F, s.test, &fr.mae, meanOf(mean));
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
                        const auto mean = exactMean(data, config.mean, tr);
                        const TargetCoding coding = exactCoding(data, tr, TargetCoding::Kind::PlusMinusOne, meanOf(mean));
                        Eigen::MatrixXd K, Ks;
                        D.gram(k, tr, tr, K);
                        const auto a = exactRidgeSolve(K, exactTargets(data, coding, tr, meanOf(mean)), lambda);
                        if (!a) {
                            ok = false;
                            break;
                        }
                        D.gram(k, va, tr, Ks);
                        v += exactScore(data, coding, Ks * *a, va, nullptr, meanOf(mean)) / double(inner.size());
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
            const auto mean = exactMean(data, config.mean, s.train);
            const TargetCoding coding = exactCoding(data, s.train, TargetCoding::Kind::PlusMinusOne, meanOf(mean));
            Eigen::MatrixXd K, Ks;
            D.gram(k, s.train, s.train, K);
            const auto a = exactRidgeSolve(K, exactTargets(data, coding, s.train, meanOf(mean)), bestLambda);
            if (!a)
                throw SpecError("kernel", "the Gram matrix plus lambda " + formatNumber(bestLambda) + " is not positive definite",
                                exactWhat(k, config.features));
            D.gram(k, s.test, s.train, Ks);
            F = dualScores(Ks, *a);  // a row's bits depend only on the row: a saved model's prediction of it
            fr.chosen = {{"bandwidth", k.sigma()}, {"lambda", bestLambda}};
            if (!fixedSigma) fr.chosen["median"] = bestMultiple;
            fr.logEvidence = std::numeric_limits<double>::quiet_NaN();
            if (!s.test.empty()) fr.score = exactScore(data, coding, F, s.test, &fr.mae, meanOf(mean));
        }
        fr.seconds = exactSeconds(tf);
    }
    // Every fold's result on every rank, from the rank that fitted it.
    const std::vector<Eigen::MatrixXd> packed =
        ranks.deal(0, outer.size(), [&](std::size_t f) { return packedFoldResult(done[f], decisions[f]); });
    for (std::size_t f = 0; f < outer.size(); ++f) {
        if (!mine(f)) std::tie(done[f], decisions[f]) = unpackedFoldResult(packed[f]);
        const Split& s = outer[f];
        FoldResult& fr = done[f];
        if (data.isClassification() && !s.test.empty()) {
            const std::vector<int> predicted = TargetCoding::argmax(decisions[f]);
            r.confusion += confusionMatrix(predicted, select(data.labels, s.test), data.numClasses);
            for (std::size_t k = 0; k < s.test.size(); ++k)
                r.predictions.push_back({s.test[k], f, data.labels[s.test[k]], predicted[k]});
        } else if (!s.test.empty()) {
            maes.push_back(fr.mae);
        }
        if (learner.logEvidence) evidences.push_back(fr.logEvidence);
        scores.push_back(fr.score);
        r.folds.push_back(std::move(fr));
    }
    r.ranks = ranks.size();
    r.mean = mean(scores);
    r.stddev = standardDeviation(scores);
    if (!maes.empty()) r.mae = mean(maes);
    if (!evidences.empty()) r.logEvidence = mean(evidences);
    r.seconds = exactSeconds(t0);
    reportProgress(progress, 1.0, "done");
    return r;
}

} // namespace orbit

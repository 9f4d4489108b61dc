#include "orbit/training/ExactKernelMachines.hpp"

#include "training/ExactKernelParts.hpp"
#include "training/TrainingGrid.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/GaussianProcess.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"
#include "registry/Builders.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace orbit {

using namespace detail;

namespace {

/// A fold of learnExactGp as one column for Ranks::deal: the parameter's value u (on its search
/// scale), bandwidth, signal, noise, log evidence, outer and inner evaluations, test score and
/// MAE (NaN without), the evaluations' seconds, training and test rows, then the curve's pairs,
/// then the slopes' count and pairs.
constexpr Eigen::Index kFoldSecondsAt = 9, kFoldCurveAt = 12;

Eigen::MatrixXd packedFold(const ExactLearnFold& f, double u, double seconds)
{
    const double none = std::numeric_limits<double>::quiet_NaN();
    const auto c = Eigen::Index(f.curve.size()), sl = Eigen::Index(f.slopes.size());
    Eigen::MatrixXd m(kFoldCurveAt + 2 + 2 * c + 2 * sl, 1);
    m.col(0).head(kFoldCurveAt + 1) << u, f.hyper.sigma, f.hyper.signal, f.hyper.noise, f.logEvidence, double(f.outerEvaluations),
        double(f.innerEvaluations), f.test.value_or(none), f.mae.value_or(none), seconds, double(f.trainRows),
        double(f.testRows), double(f.curve.size());
    for (std::size_t i = 0; i < f.curve.size(); ++i) {
        m(kFoldCurveAt + 1 + 2 * Eigen::Index(i), 0) = f.curve[i].first;
        m(kFoldCurveAt + 2 + 2 * Eigen::Index(i), 0) = f.curve[i].second;
    }
    const Eigen::Index at = kFoldCurveAt + 1 + 2 * c;
    m(at, 0) = double(sl);
    for (Eigen::Index i = 0; i < sl; ++i) {
        m(at + 1 + 2 * i, 0) = f.slopes[std::size_t(i)].first;
        m(at + 2 + 2 * i, 0) = f.slopes[std::size_t(i)].second;
    }
    return m;
}

ExactLearnFold unpackedFold(const Eigen::MatrixXd& m, const std::string& param, const std::function<double(double)>& fromU)
{
    ExactLearnFold f;
    f.params = {{param, fromU(m(0, 0))}};
    f.hyper = GpHyper{m(1, 0), m(2, 0), m(3, 0)};
    f.logEvidence = m(4, 0);
    f.outerEvaluations = int(m(5, 0));
    f.innerEvaluations = int(m(6, 0));
    if (!std::isnan(m(7, 0))) f.test = m(7, 0);
    if (!std::isnan(m(8, 0))) f.mae = m(8, 0);
    f.trainRows = std::size_t(m(10, 0));
    f.testRows = std::size_t(m(11, 0));
    const auto n = Eigen::Index(m(kFoldCurveAt, 0));
    for (Eigen::Index i = 0; i < n; ++i) f.curve.emplace_back(m(kFoldCurveAt + 1 + 2 * i, 0), m(kFoldCurveAt + 2 + 2 * i, 0));
    const Eigen::Index at = kFoldCurveAt + 1 + 2 * n, sl = Eigen::Index(m(at, 0));
    for (Eigen::Index i = 0; i < sl; ++i) f.slopes.emplace_back(m(at + 1 + 2 * i, 0), m(at + 2 + 2 * i, 0));
    return f;
}

} // namespace

ExactLearnResult learnExactGp(const Dataset& data, const LocalityConfig& config, int innerEvaluations, int scan,
                              const Progress& progress, const std::vector<double>* curveValues, const Ranks& ranks)
{
    const auto t0 = ExactClock::now();
    if (!data.isClassification() && !data.isRegression())
        throw SpecError("data", "learning the locality by the GP needs class labels or regression targets", data.source);
    const ExactKernelSpec spec = parseExactKernelSpec(config.features);
    if (spec.centres > 0)
        throw SpecError("learner", "gp's marginal likelihood needs the exact n x n solve: exact centres are for krr", "gp");
    if (config.learn.empty()) throw SpecError("learn", "name at least one parameter of the distribution", config.dist);
    if (config.learn.size() > 1) {
        if (curveValues)
            throw SpecError("learn", "the GP's curve is over one parameter (several are learned jointly, without a curve)",
                            std::to_string(config.learn.size()) + " parameters");
        return learnExactGpJoint(data, config, innerEvaluations, progress, ranks);
    }
    const std::string param = config.learn.front();
    const FeatureContext ctx = makeFeatureContext(data, config.group, config.dist, "", featureSeed(config.seed));
    if (!ctx.group || !ctx.dist) throw SpecError("group", "the GP learns the locality of a group and a distribution", config.group);
    // The parameter's range: --bounds, or the descriptor's learning range. The affine product's spec
    // is not one name: its factors' parameters (factor.key) come from the distribution itself.
    const GroupDescriptor* described = findGroup(parseSpec(ctx.group->spec(), "group").name);
    const bool affine = described && described->isProduct();  // its factors' parameters are factor.key
    const std::string distName = affine ? std::string("affine") : parseSpec(ctx.dist->spec(), "distribution").name;
    const DistributionDescriptor* dd = affine ? nullptr : findDistribution(distName);
    const ParamDescriptor* pd = nullptr;
    if (dd)
        for (const ParamDescriptor& p : dd->parametersOn(ctx.group->kind()))
            if (p.key == param) pd = &p;
    if (!pd && affine) pd = exactParamDescriptor(*ctx.dist, param);
    if (!pd) throw SpecError("learn", "the GP learns a parameter of the distribution " + ctx.dist->spec(), param);
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
    const std::string family = trim(config.kernel).empty() ? "gaussian:median=1" : config.kernel;
    // A smooth parameter: the log marginal likelihood's derivative in it from the orbits' tangents.
    const bool smooth = pd->learnable && ctx.group->isDifferentiable() && exactDistance(family) != BaseKernel::Distance::L1 &&
                        !ctx.dist->isHaar();

    TrainConfig tc;
    std::vector<Split> folds = detail::exactLearnSplits(data, config, tc);
    if (curveValues && !trim(config.eval).empty()) folds.resize(1);  // the curve: the first split's training rows, as evidence's
    const std::size_t K = folds.size();
    // Whole folds are dealt out to the ranks (fold f on rank f mod P), each fitted by one rank from
    // its own distances: a fold's evaluations need its whole n x n Gram and Cholesky, so splitting
    // them would move n^2 doubles per evaluation; a fold's numbers do not depend on where it runs.
    auto mine = [&](std::size_t f) { return exactFoldOwner(f, ranks.size()) == ranks.rank(); };
    std::size_t myFolds = 0;
    for (std::size_t f = 0; f < K; ++f) myFolds += mine(f) ? 1 : 0;
    const bool fixedSigma = !usesMedianRule(family);
    // The scan holds the distances of every row (several folds) or of the one fold's training rows.
    const std::size_t held = K == 1 ? folds.front().train.size() : data.count();
    // A smooth parameter keeps the distances' derivative beside them: twice the memory.
    detail::checkFeatureMemory((smooth ? 2.0 : 1.0) * OrbitDistances::bytesFor(double(held), spec.r), "features",
                               std::string(smooth ? "the orbit distances and their derivative" : "the orbit distances") + " of " +
                                   std::to_string(held) + " inputs x " + std::to_string(spec.r) + " samples",
                               config.features);

    struct FoldState {
        BaseKernel start = BaseKernel::gaussian(1.0);
        std::optional<CompositionMean> mean;  // config.mean composition: fitted on the fold's training rows
        TargetCoding coding;
        Eigen::MatrixXd Y;
        GpHyper best;
        double bestLogLik = -std::numeric_limits<double>::infinity();
        double bestU = 0.0;
        std::vector<std::pair<double, double>> curve;  // (u, log lik), in evaluation order
        std::vector<double> slopes;                    // d log lik / d u there (smooth parameters)
        int inner = 0;
        double seconds = 0.0;  // in its evaluations
    };
    std::vector<FoldState> state(K);
    for (std::size_t f = 0; f < K; ++f) {
        if (!mine(f)) continue;
        // Everything a fold fits reads its training rows only: the median rule included.
        state[f].start = exactBaseKernel(family, selectRows(data.X, folds[f].train), config.seed);
        state[f].mean = exactMean(data, config.mean, folds[f].train);
        state[f].coding = exactCoding(data, folds[f].train, TargetCoding::Kind::OneHot, meanOf(state[f].mean));
        state[f].Y = exactTargets(data, state[f].coding, folds[f].train, meanOf(state[f].mean));
        state[f].best = GpHyper{state[f].start.sigma(), 1.0, 0.01};
    }
    ExactLearnResult result;
    result.param = param;
    result.params = {param};
    result.method = smooth ? "scan+secant" : "scan+golden";
    result.metric = toString(metricFor(data));
    const int budget = std::max(scan + 1, config.maxEvaluations);
    const double totalOuter = double(std::max<std::size_t>(1, myFolds)) * double(budget);
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
        const auto te = ExactClock::now();
        const GpFit fit = fitGaussianProcess(gram, st.Y, st.best, bounds, innerEvaluations, what);
        double slope = std::numeric_limits<double>::quiet_NaN();
        if (D.hasTangents()) {
            // dL/dtheta at the inner optimum (the maximised curve's slope), then in u.
            Eigen::MatrixXd Kmat, dKtheta;
            D.gramWithTangent(st.start.withSigma(fit.hyper.sigma), trainInD, trainInD, Kmat, dKtheta);
            const GpLikelihood at = gpLogLikelihood(Kmat, &dKtheta, st.Y, fit.hyper.signal, fit.hyper.noise, true, what);
            slope = at.dLogSigma * (logScale ? fromU(u) : 1.0);
            st.slopes.push_back(slope);
        }
        st.seconds += exactSeconds(te);
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
        return std::make_pair(fit.logLikelihood, slope);
    };
    auto distAt = [&](double u) { return detail::distWith(tc, data.shape, {{param, fromU(u)}}); };
    auto subRows = [](const MatrixXfR& all, int r, const Indices& rows) {
        MatrixXfR sub(Eigen::Index(rows.size()) * r, all.cols());
        for (std::size_t i = 0; i < rows.size(); ++i) sub.middleRows(Eigen::Index(i) * r, r) = all.middleRows(Eigen::Index(rows[i]) * r, r);
        return sub;
    };
    auto distancesAt = [&](double u, const Indices* rows) {
        const ExactOrbits o = exactOrbits(data, config.group, distAt(u), spec.r, exactOrbitSeed(config.seed));
        const MatrixXfR sub = rows ? subRows(o.orbits, o.r, *rows) : MatrixXfR();
        OrbitDistances D(rows ? sub : o.orbits, o.r, exactDistance(family));
        if (smooth) {
            const MatrixXfR T = exactOrbitTangents(data, config.group, distAt(u), spec.r, exactOrbitSeed(config.seed), param);
            D.setTangents(rows ? sub : o.orbits, rows ? subRows(T, o.r, *rows) : T);
        }
        return D;
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
        if (myFolds == 0) break;  // more ranks than folds: this one waits for the others' results
        if (K == 1) {
            const OrbitDistances D = distancesAt(u, &folds.front().train);
            evaluate(0, u, D, localRows(folds.front().train.size()));
            continue;
        }
        const OrbitDistances D = distancesAt(u, nullptr);
        for (std::size_t f = 0; f < K; ++f)
            if (mine(f)) evaluate(f, u, D, folds[f].train);
    }
    // Steps per fold in the bracket around its best scanned value: on the derivative's sign change
    // for a smooth parameter, golden-section otherwise.
    const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
    for (std::size_t f = 0; f < (curveValues ? 0 : K); ++f) {
        if (!mine(f)) continue;
        FoldState& st = state[f];
        std::size_t bi = 0;
        for (std::size_t i = 0; i < scanU.size(); ++i)
            if (st.curve[i].second > st.curve[bi].second) bi = i;
        double a = scanU[bi == 0 ? 0 : bi - 1], b = scanU[std::min(scanU.size() - 1, bi + 1)];
        double x = scanU[bi], fx = st.curve[bi].second;
        if (smooth) {
            // The bracket on the side the best value's slope points to; at a bound with the slope
            // pointing out of the range the optimum is the bound.
            const double g = st.slopes[bi];
            const bool up = g > 0.0;
            if ((up && bi + 1 >= scanU.size()) || (!up && bi == 0)) continue;
            double ga = up ? g : st.slopes[bi - 1], gb = up ? st.slopes[bi + 1] : g;
            a = up ? x : scanU[bi - 1];
            b = up ? scanU[bi + 1] : x;
            int side = 0;  // the end moved last: -1 a, +1 b
            for (int e = scan; e < budget; ++e) {
                if (std::abs(b - a) < 1e-3 * std::abs(uHi - uLo)) break;
                // The secant root of the slope where it changes sign (regula falsi, Illinois: an end
                // kept twice has its slope halved), kept a tenth inside the bracket; the midpoint
                // when the slopes do not bracket a root.
                const double w = b - a;
                double probe = a + 0.5 * w;
                if (ga > 0.0 && gb < 0.0) probe = std::clamp(a + ga * w / (ga - gb), a + 0.1 * w, b - 0.1 * w);
                const OrbitDistances D = distancesAt(probe, &folds[f].train);
                const double gp = evaluate(f, probe, D, localRows(folds[f].train.size())).second;
                if (gp > 0.0) {
                    a = probe;
                    ga = gp;
                    if (side == -1) gb *= 0.5;
                    side = -1;
                } else {
                    b = probe;
                    gb = gp;
                    if (side == 1) ga *= 0.5;
                    side = 1;
                }
            }
            continue;
        }
        for (int e = scan; e < budget; ++e) {
            // Probe the golden point of the larger side of the bracket around the best x.
            const bool right = (b - x) >= (x - a);
            const double probe = right ? x + (1.0 - phi) * (b - x) : x - (1.0 - phi) * (x - a);
            if (std::abs(b - a) < 1e-3 * std::abs(uHi - uLo)) break;
            const OrbitDistances D = distancesAt(probe, &folds[f].train);
            const double fp = evaluate(f, probe, D, localRows(folds[f].train.size())).first;
            if (fp > fx) {
                (right ? a : b) = x;
                x = probe;
                fx = fp;
            } else {
                (right ? b : a) = probe;
            }
        }
    }
    // Each fold's model at its optimum, scored on its test rows, by its rank.
    std::vector<ExactLearnFold> done(K);
    for (std::size_t f = 0; f < K; ++f) {
        if (!mine(f)) continue;
        FoldState& st = state[f];
        const Split& s = folds[f];
        ExactLearnFold& out = done[f];
        out.params = {{param, fromU(st.bestU)}};
        out.dist = distAt(st.bestU);
        out.hyper = st.best;
        out.logEvidence = st.bestLogLik;
        out.outerEvaluations = int(st.curve.size());
        out.innerEvaluations = st.inner;
        for (std::size_t i = 0; i < st.curve.size(); ++i) {
            out.curve.emplace_back(fromU(st.curve[i].first), st.curve[i].second);
            // d L / d theta = (d L / d u) / (d theta / d u)
            if (!st.slopes.empty())
                out.slopes.emplace_back(fromU(st.curve[i].first), st.slopes[i] / (logScale ? fromU(st.curve[i].first) : 1.0));
        }
        std::sort(out.curve.begin(), out.curve.end());
        std::sort(out.slopes.begin(), out.slopes.end());
        out.trainRows = s.train.size();
        out.testRows = s.test.size();
        if (!s.test.empty() && !curveValues) {
            report("fold " + std::to_string(f + 1) + ": the test rows");
            exactGpTestScore(data, config, distAt(st.bestU), spec.r, st.start, st.best, st.coding, st.Y, s, out);
        }
    }
    // Every fold's result on every rank, from the rank that fitted it.
    const std::vector<Eigen::MatrixXd> packed = ranks.deal(0, K, [&](std::size_t f) {
        return packedFold(done[f], state[f].bestU, state[f].seconds);
    });
    std::vector<ExactLearnFold> learned;
    double evalSeconds = 0.0;
    for (std::size_t f = 0; f < K; ++f) {
        ExactLearnFold out = mine(f) ? std::move(done[f]) : unpackedFold(packed[f], param, fromU);
        if (!mine(f)) out.dist = distAt(packed[f](0, 0));
        evalSeconds += packed[f](kFoldSecondsAt, 0);
        learned.push_back(std::move(out));
    }
    summariseExactLearnFolds(std::move(learned), evalSeconds, t0, progress, result);
    return result;
}

} // namespace orbit

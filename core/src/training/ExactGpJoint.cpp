// learnExactGp with several distribution parameters (ExactKernelMachines.hpp): an outer NLopt search
// over their vector on the profile log marginal likelihood (the inner L-BFGS over the bandwidth,
// signal and noise at every point): LD_LBFGS on the envelope-theorem slopes when every parameter is
// smooth, LN_BOBYQA without them.
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

#include <nlopt.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace orbit::detail {

namespace {

/// One learned parameter's box: u = log v on a log scale, v otherwise; z = (u - lo) / (hi - lo).
struct JointRange {
    std::string name;
    double lo = 0.0, hi = 1.0;    ///< in u
    double vlo = 0.0, vhi = 1.0;  ///< in the parameter's units
    bool logScale = false;
    /// The value at z, inside the range (exp(log(30)) is 29.999999999999993: a bound is the bound).
    double toV(double z) const
    {
        if (z <= 0.0) return vlo;
        if (z >= 1.0) return vhi;
        const double u = lo + z * (hi - lo);
        return std::clamp(logScale ? std::exp(u) : u, vlo, vhi);
    }
    /// d v / d z: the factor from a slope in the parameter's units to one in z.
    double dvdz(double z) const { return (hi - lo) * (logScale ? toV(z) : 1.0); }
};

/// A fold of the joint learn as one column for Ranks::deal: m best values, bandwidth, signal, noise,
/// log evidence, outer and inner evaluations, test and MAE (NaN without), seconds, training and test
/// rows, the points' count, then per point its m values, log evidence and m slopes (NaN without).
constexpr Eigen::Index kJointHead = 11;

Eigen::MatrixXd packedJointFold(const ExactLearnFold& f, const std::vector<JointRange>& ranges, double seconds)
{
    const double none = std::numeric_limits<double>::quiet_NaN();
    const auto m = Eigen::Index(ranges.size()), p = Eigen::Index(f.points.size());
    Eigen::MatrixXd out(m + kJointHead + p * (2 * m + 1), 1);
    Eigen::Index at = 0;
    for (const JointRange& r : ranges) out(at++, 0) = f.params.at(r.name);
    for (double v : {f.hyper.sigma, f.hyper.signal, f.hyper.noise, f.logEvidence, double(f.outerEvaluations),
                     double(f.innerEvaluations), f.test.value_or(none), f.mae.value_or(none), seconds, double(f.trainRows),
                     double(f.testRows)})
        out(at++, 0) = v;
    for (const ExactLearnPoint& q : f.points) {
        for (const JointRange& r : ranges) out(at++, 0) = q.params.at(r.name);
        out(at++, 0) = q.logEvidence;
        for (const JointRange& r : ranges) out(at++, 0) = q.slopes.count(r.name) ? q.slopes.at(r.name) : none;
    }
    return out;
}

ExactLearnFold unpackedJointFold(const Eigen::MatrixXd& c, const std::vector<JointRange>& ranges, double& seconds)
{
    ExactLearnFold f;
    Eigen::Index at = 0;
    for (const JointRange& r : ranges) f.params[r.name] = c(at++, 0);
    f.hyper = GpHyper{c(at, 0), c(at + 1, 0), c(at + 2, 0)};
    f.logEvidence = c(at + 3, 0);
    f.outerEvaluations = int(c(at + 4, 0));
    f.innerEvaluations = int(c(at + 5, 0));
    if (!std::isnan(c(at + 6, 0))) f.test = c(at + 6, 0);
    if (!std::isnan(c(at + 7, 0))) f.mae = c(at + 7, 0);
    seconds = c(at + 8, 0);
    f.trainRows = std::size_t(c(at + 9, 0));
    f.testRows = std::size_t(c(at + 10, 0));
    at += kJointHead;
    while (at < c.rows()) {
        ExactLearnPoint q;
        for (const JointRange& r : ranges) q.params[r.name] = c(at++, 0);
        q.logEvidence = c(at++, 0);
        for (const JointRange& r : ranges) {
            if (!std::isnan(c(at, 0))) q.slopes[r.name] = c(at, 0);
            ++at;
        }
        f.points.push_back(std::move(q));
    }
    return f;
}

} // namespace

ExactLearnResult learnExactGpJoint(const Dataset& data, const LocalityConfig& config, int innerEvaluations,
                                   const Progress& progress, const Ranks& ranks)
{
    const auto t0 = ExactClock::now();
    const ExactKernelSpec spec = parseExactKernelSpec(config.features);
    const FeatureContext ctx = makeFeatureContext(data, config.group, config.dist, "", featureSeed(config.seed));
    if (!ctx.group || !ctx.dist) throw SpecError("group", "the GP learns the locality of a group and a distribution", config.group);
    const GroupDescriptor* described = findGroup(parseSpec(ctx.group->spec(), "group").name);
    const bool affine = described && described->isProduct();  // its factors' parameters are factor.key
    const std::string distName = affine ? std::string("affine") : parseSpec(ctx.dist->spec(), "distribution").name;
    const std::string family = trim(config.kernel).empty() ? "gaussian:median=1" : config.kernel;
    // The box from --bounds or the registry's learning ranges; the start the distribution's values.
    std::map<std::string, double> current;
    for (const auto& [name, v] : ctx.dist->parameters()) current[name] = v;
    std::vector<JointRange> ranges;
    std::vector<double> z0;
    bool smooth = ctx.group->isDifferentiable() && exactDistance(family) != BaseKernel::Distance::L1 && distName != "haar";
    std::string joined;
    for (const std::string& name : config.learn) {
        for (const JointRange& r : ranges)
            if (r.name == name) throw SpecError("learn", "a parameter is named twice", name);
        const ParamDescriptor* pd = exactParamDescriptor(*ctx.dist, name);
        if (!pd) throw SpecError("learn", "the GP learns a parameter of the distribution " + ctx.dist->spec(), name);
        double lo = pd->learnMinimum, hi = pd->learnMaximum;
        if (const auto b = config.bounds.find(name); b != config.bounds.end()) {
            lo = b->second.first;
            hi = b->second.second;
        }
        if (!(lo < hi) || !pd->accepts(lo) || !pd->accepts(hi))
            throw SpecError("bounds", name + " needs LO < HI inside " + pd->rangeText(), formatNumber(lo) + ":" + formatNumber(hi));
        JointRange r;
        r.name = name;
        r.logScale = pd->logScale && lo > 0;
        r.lo = r.logScale ? std::log(lo) : lo;
        r.hi = r.logScale ? std::log(hi) : hi;
        r.vlo = lo;
        r.vhi = hi;
        const double v = std::clamp(current.count(name) ? current.at(name) : pd->defaultValue, lo, hi);
        z0.push_back(std::clamp(((r.logScale ? std::log(v) : v) - r.lo) / (r.hi - r.lo), 0.0, 1.0));
        ranges.push_back(r);
        smooth = smooth && pd->learnable;
        joined += (joined.empty() ? "" : ",") + name;
    }
    const std::size_t m = ranges.size();

    TrainConfig tc;
    std::vector<Split> folds = detail::exactLearnSplits(data, config, tc);
    const std::size_t K = folds.size();
    auto mine = [&](std::size_t f) { return exactFoldOwner(f, ranks.size()) == ranks.rank(); };
    std::size_t myFolds = 0, largest = 0;
    for (std::size_t f = 0; f < K; ++f) {
        myFolds += mine(f) ? 1 : 0;
        largest = std::max(largest, folds[f].train.size());
    }
    // Each evaluation holds one fold's training distances, with one derivative per smooth parameter.
    const double copies = smooth ? 1.0 + double(m) : 1.0;
    detail::checkFeatureMemory(copies * OrbitDistances::bytesFor(double(largest), spec.r), "features",
                               std::string(smooth ? "the orbit distances and their derivatives" : "the orbit distances") + " of " +
                                   std::to_string(largest) + " inputs x " + std::to_string(spec.r) + " samples",
                               config.features);
    const bool fixedSigma = !usesMedianRule(family);
    const int budget = std::max(int(2 * m + 2), config.maxEvaluations);

    ExactLearnResult result;
    result.param = joined;
    result.params = config.learn;
    result.method = smooth ? "lbfgs" : "bobyqa";
    result.metric = toString(metricFor(data));
    const double totalOuter = double(std::max<std::size_t>(1, myFolds)) * double(budget);
    int outerDone = 0;
    auto valuesAt = [&](const std::vector<double>& z) {
        std::map<std::string, double> v;
        for (std::size_t k = 0; k < m; ++k) v[ranges[k].name] = ranges[k].toV(z[k]);
        return v;
    };
    auto distAt = [&](const std::map<std::string, double>& v) { return detail::distWith(tc, data.shape, v); };
    // "rotation.kappa = 0.5, scale.sigma = 0.2" in formatNumber's round-trip form.
    auto pointText = [](const std::map<std::string, double>& v) {
        std::string text;
        for (const auto& [name, x] : v) text += (text.empty() ? "" : ", ") + name + " = " + formatNumber(x);
        return text;
    };

    std::vector<ExactLearnFold> done(K);
    std::vector<double> seconds(K, 0.0);
    for (std::size_t f = 0; f < K; ++f) {
        if (!mine(f)) continue;
        const Split& s = folds[f];
        // Everything a fold fits reads its training rows only: the median rule included.
        const BaseKernel start = exactBaseKernel(family, selectRows(data.X, s.train), config.seed);
        const auto mean = exactMean(data, config.mean, s.train);  // config.mean composition: the fold's own
        const TargetCoding coding = exactCoding(data, s.train, TargetCoding::Kind::OneHot, meanOf(mean));
        const Eigen::MatrixXd Y = exactTargets(data, coding, s.train, meanOf(mean));
        GpHyper best{start.sigma(), 1.0, 0.01};
        double bestLogLik = -std::numeric_limits<double>::infinity();
        std::vector<double> bestZ = z0;
        ExactLearnFold& out = done[f];
        Indices local(s.train.size());
        for (std::size_t i = 0; i < local.size(); ++i) local[i] = i;
        GpBounds bounds;
        if (!fixedSigma) {
            bounds.sigmaLo = start.sigma() / 100.0;
            bounds.sigmaHi = start.sigma() * 1000.0;
        }
        // One outer evaluation at z: the profile log marginal likelihood and its gradient in z.
        auto evaluate = [&](const std::vector<double>& z, std::vector<double>* gradient) {
            const std::map<std::string, double> v = valuesAt(z);
            const std::string dist = distAt(v);
            const std::string what = exactWhat(start, config.features) + " at " + pointText(v);
            // The training rows' orbits (each row's sub-stream is its index in the whole set: the
            // same draws as the scoring's), their distances and, if smooth, their derivatives.
            const ExactOrbits all = exactOrbits(data, config.group, dist, spec.r, exactOrbitSeed(config.seed));
            MatrixXfR sub(Eigen::Index(s.train.size()) * all.r, all.orbits.cols());
            for (std::size_t i = 0; i < s.train.size(); ++i)
                sub.middleRows(Eigen::Index(i) * all.r, all.r) = all.orbits.middleRows(Eigen::Index(s.train[i]) * all.r, all.r);
            OrbitDistances D(sub, all.r, start.distance());
            if (smooth) {
                std::vector<MatrixXfR> T =
                    exactOrbitTangents(data, config.group, dist, spec.r, exactOrbitSeed(config.seed), config.learn);
                for (MatrixXfR& t : T) {
                    MatrixXfR ts(sub.rows(), sub.cols());
                    for (std::size_t i = 0; i < s.train.size(); ++i)
                        ts.middleRows(Eigen::Index(i) * all.r, all.r) = t.middleRows(Eigen::Index(s.train[i]) * all.r, all.r);
                    t = std::move(ts);
                }
                D.setTangents(sub, T);
            }
            const GramFamily gram = [&](double sigma, Eigen::MatrixXd& Kmat, Eigen::MatrixXd* dK) {
                D.gram(start.withSigma(sigma), local, local, Kmat, dK);
            };
            const auto te = ExactClock::now();
            const GpFit fit = fitGaussianProcess(gram, Y, best, bounds, innerEvaluations, what);
            ExactLearnPoint point;
            point.params = v;
            point.logEvidence = fit.logLikelihood;
            if (smooth) {
                // dL*/dtheta_k = dL/dtheta_k at the inner optimum (envelope theorem), then in z.
                Eigen::MatrixXd Kmat;
                std::vector<Eigen::MatrixXd> dK;
                D.gramWithTangents(start.withSigma(fit.hyper.sigma), local, local, Kmat, dK);
                std::vector<double> g;
                gpLogLikelihoodSlopes(Kmat, dK, Y, fit.hyper.signal, fit.hyper.noise, g, what);
                for (std::size_t k = 0; k < m; ++k) {
                    point.slopes[ranges[k].name] = g[k];
                    if (gradient) (*gradient)[k] = g[k] * ranges[k].dvdz(z[k]);
                }
            }
            seconds[f] += exactSeconds(te);
            out.innerEvaluations += fit.evaluations;
            if (fit.logLikelihood > bestLogLik) {
                bestLogLik = fit.logLikelihood;
                best = fit.hyper;
                bestZ = z;
            }
            out.points.push_back(point);
            ++outerDone;
            reportProgress(progress, std::min(1.0, double(outerDone) / totalOuter),
                           "fold " + std::to_string(f + 1) + ", " + pointText(v) + ": log marginal likelihood " +
                               formatNumber(fit.logLikelihood));
            return fit.logLikelihood;
        };
        nlopt::opt opt(smooth ? nlopt::LD_LBFGS : nlopt::LN_BOBYQA, unsigned(m));
        opt.set_lower_bounds(std::vector<double>(m, 0.0));
        opt.set_upper_bounds(std::vector<double>(m, 1.0));
        opt.set_maxeval(budget);
        opt.set_xtol_abs(std::vector<double>(m, 1e-3));
        opt.set_ftol_abs(1e-3);
        if (!smooth) opt.set_initial_step(std::vector<double>(m, 0.25));
        struct Call {
            decltype(evaluate)* objective;
            int left;
            std::exception_ptr error;
        } call{&evaluate, budget, nullptr};
        opt.set_max_objective(
            [](unsigned n, const double* z, double* grad, void* p) -> double {
                auto* c = static_cast<Call*>(p);
                if (c->left <= 0) throw nlopt::forced_stop();  // the budget, whatever NLopt counts
                try {
                    --c->left;
                    std::vector<double> g(n, 0.0);
                    const double value = (*c->objective)(std::vector<double>(z, z + n), grad ? &g : nullptr);
                    if (grad) std::copy(g.begin(), g.end(), grad);
                    return value;
                } catch (...) {
                    c->error = std::current_exception();
                    throw nlopt::forced_stop();
                }
            },
            &call);
        std::vector<double> z = z0;
        double value = 0.0;
        try {
            opt.optimize(z, value);
        } catch (const nlopt::roundoff_limited&) {  // converged as far as rounding allows
        } catch (const nlopt::forced_stop&) {
        } catch (const std::runtime_error&) {        // NLopt's own failure: keep the best point so far
            if (call.error) std::rethrow_exception(call.error);
        }
        if (call.error) std::rethrow_exception(call.error);
        out.params = valuesAt(bestZ);
        out.dist = distAt(out.params);
        out.hyper = best;
        out.logEvidence = bestLogLik;
        out.outerEvaluations = int(out.points.size());
        out.trainRows = s.train.size();
        out.testRows = s.test.size();
        if (!s.test.empty()) {
            reportProgress(progress, std::min(1.0, double(outerDone) / totalOuter), "fold " + std::to_string(f + 1) + ": the test rows");
            exactGpTestScore(data, config, out.dist, spec.r, start, best, coding, Y, s, out);
        }
    }
    // Every fold's result on every rank, from the rank that fitted it.
    const std::vector<Eigen::MatrixXd> packed =
        ranks.deal(0, K, [&](std::size_t f) { return packedJointFold(done[f], ranges, seconds[f]); });
    std::vector<ExactLearnFold> learned;
    double evalSeconds = 0.0;
    for (std::size_t f = 0; f < K; ++f) {
        double sec = seconds[f];
        ExactLearnFold out = mine(f) ? std::move(done[f]) : unpackedJointFold(packed[f], ranges, sec);
        if (!mine(f)) out.dist = distAt(out.params);
        evalSeconds += sec;
        learned.push_back(std::move(out));
    }
    summariseExactLearnFolds(std::move(learned), evalSeconds, t0, progress, result);
    return result;
}

} // namespace orbit::detail

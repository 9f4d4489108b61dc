#include "orbit/experiments/LocalityLearning.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/experiments/Training.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/InvariantFourierTangents.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/learn/BayesianLinearRegression.hpp"
#include "orbit/learn/NormalEquations.hpp"
#include "orbit/parallel/BlockSum.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <nlopt.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <type_traits>

namespace orbit {

namespace {

TrainConfig splitConfig(const LocalityConfig& c)
{
    TrainConfig t;
    t.eval = c.eval;
    t.seed = c.seed;
    return t;
}

Eigen::MatrixXd codedTargets(const Dataset& data, const Indices& rows)
{
    if (data.isClassification())
        return TargetCoding::classes(data.numClasses, TargetCoding::Kind::OneHot).encode(select(data.labels, rows));
    const std::vector<double> t = select(data.targets, rows);
    return TargetCoding::regression(t).encode(t);
}

/// The evidence maximised over alpha, beta from all rows of the features at once, and (for each
/// derivative in dPhi) its gradient sum_ij G_ij dPhi_ij, into `point`.
template <class Mat>
void evidenceOfAllRows(const Mat& Phi, const std::vector<Mat>& dPhi, const Eigen::MatrixXd& targets, EvidencePoint& point)
{
    const LinearEvidence evidence(Phi, targets);
    const LinearEvidence::Optimum o = evidence.maximise(1.0, 1.0);
    point.logEvidence = o.logEvidence;
    point.alpha = o.alpha;
    point.beta = o.beta;
    if (dPhi.empty()) return;
    const Eigen::MatrixXd G = evidence.featureGradient(o.alpha, o.beta, Phi, targets);
    for (const Mat& d : dPhi) point.gradient.push_back((G.array() * d.template cast<double>().array()).sum());
}

} // namespace

void LocalityConfig::validate() const
{
    if (trim(features).empty()) throw SpecError("features", "is empty");
    if (trim(group).empty() || trim(dist).empty()) throw SpecError(trim(group).empty() ? "group" : "distribution", "is needed to learn a locality");
    if (maxEvaluations < 1 || maxEvaluations > 100000)
        throw SpecError("max-evals", "must be between 1 and 100000", std::to_string(maxEvaluations));
    checkBlockRows(blockRows);
    if (!eval.empty()) splitConfig(*this).validate();
    for (std::size_t i = 0; i < learn.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (learn[i] == learn[j]) throw SpecError("learn", "parameter named twice", learn[i]);
    for (const auto& [name, range] : bounds) {
        if (!std::isfinite(range.first) || !std::isfinite(range.second) || !(range.first < range.second))
            throw SpecError("bounds", "needs finite LO < HI for " + name, formatNumber(range.first) + ":" + formatNumber(range.second));
        if (std::find(learn.begin(), learn.end(), name) == learn.end())
            throw SpecError("bounds", "names a parameter that is not learned", name);
    }
}


Indices learningRows(const Dataset& data, const LocalityConfig& config, Indices* test)
{
    if (test) test->clear();
    if (config.eval.empty()) {
        Indices all(data.count());
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
        return all;
    }
    const std::vector<Split> splits = outerSplits(data, splitConfig(config));
    if (test) *test = splits.front().test;
    return splits.front().train;
}

EvidenceObjective::EvidenceObjective(const Dataset& data, Indices rows, const LocalityConfig& config, const Ranks& ranks)
    : data_(data), rows_(std::move(rows)), config_(config), ranks_(ranks), params_(config.learn)
{
    if (!data.isClassification() && !data.isRegression())
        throw SpecError("data", "learning the locality needs class labels or regression targets", data.source);
    if (rows_.size() < 2) throw SpecError("data", "too few training rows", std::to_string(rows_.size()));
    const std::uint64_t seed = featureSeed(config.seed);
    const FeatureContext context = makeFeatureContext(data, config.group, config.dist, config.kernel, seed);
    group_ = context.group;
    dist_ = context.dist;
    if (context.kernel) kernelSpec_ = context.kernel->spec();
    for (const std::string& p : params_) dist_->parameterDescriptor(p);  // throws naming an unknown one
    const Spec spec = parseSpec(config.features, "features");
    if (spec.name == "irf" && group_->isDifferentiable()) {
        spec.allowOnly({"s", "r", "form", "mode"});
        const std::string form = spec.text("form", "cos");
        if (form != "cos" && form != "complex") throw SpecError("features irf.form", "must be cos or complex", form);
        tangents_ = std::make_unique<InvariantFourierTangents>(
            context, int(spec.integer("s", 1, 10000000)), int(spec.integer("r", 1, 100000)),
            form == "complex" ? InvariantFourierTangents::Form::Complex : InvariantFourierTangents::Form::Cos,
            spec.text("mode", "auto"), seed);
        gradientOk_ = std::all_of(params_.begin(), params_.end(),
                                  [&](const std::string& p) { return dist_->parameterDescriptor(p).learnable; });
    } else {
        makeFeatureMap(config.features, context);  // checks the spec now, not at the first evaluation
    }
    targets_ = codedTargets(data, rows_);
}

EvidenceObjective::~EvidenceObjective() = default;

std::map<std::string, double> EvidenceObjective::startValues() const
{
    std::map<std::string, double> out;
    for (const auto& [name, value] : dist_->parameters())
        if (std::find(params_.begin(), params_.end(), name) != params_.end()) out[name] = value;
    return out;
}

std::string EvidenceObjective::distSpec(const std::map<std::string, double>& values) const
{
    return dist_->withParameters(values)->spec();
}

MatrixXfR EvidenceObjective::features(const std::map<std::string, double>& values, const Indices& rows) const
{
    const std::shared_ptr<const Distribution> dist = dist_->withParameters(values);
    MatrixXfR Phi;
    if (tangents_) {
        std::vector<MatrixXfR> none;
        tangents_->compute(dist, data_.X, rows, {}, Phi, none);
        return Phi;
    }
    // Any other map: fitted on the learning rows with train's seed, then applied to `rows`.
    const std::uint64_t seed = featureSeed(config_.seed);
    const FeatureContext context = makeFeatureContext(data_, config_.group, dist->spec(), kernelSpec_, seed);
    const auto map = makeFeatureMap(config_.features, context);
    map->fit(selectRows(data_.X, rows_), seed);
    return map->transform(selectRows(data_.X, rows));
}

EvidencePoint EvidenceObjective::evaluate(const std::map<std::string, double>& values, bool gradient,
                                          const Progress& progress) const
{
    if (gradient && !hasGradient())
        throw SpecError("learn", "no gradient for these features and parameters (irf features of rotation, "
                                 "translation, scale or affine, and learnable parameters, have one)",
                        config_.features);
    return config_.doublePrecision ? evaluateInDouble(values, gradient, progress) : evaluateInBlocks(values, gradient, progress);
}

MatrixXfR EvidenceObjective::ownFeatures(const std::map<std::string, double>& values, const std::vector<std::string>& params,
                                         std::vector<MatrixXfR>& dPhi, const RowBlocks& blocks, const Progress& progress) const
{
    const std::shared_ptr<const Distribution> dist = dist_->withParameters(values);
    std::unique_ptr<FeatureMap> map;  // maps without tangents: fitted once on all learning rows, as featuresWith does
    if (!tangents_) {
        const std::uint64_t seed = featureSeed(config_.seed);
        map = makeFeatureMap(config_.features, makeFeatureContext(data_, config_.group, dist->spec(), kernelSpec_, seed));
        map->fit(selectRows(data_.X, rows_), seed, [&](double f, const std::string& what) {
            reportProgress(progress, 0.2 * f, "fitting: " + what);
            return false;
        });
    }
    const Eigen::Index D = tangents_ ? tangents_->dim() : map->dim();
    MatrixXfR Phi = MatrixXfR::Zero(blocks.rows, D);
    dPhi.assign(params.size(), MatrixXfR::Zero(blocks.rows, D));
    const Eigen::Index first = ranks_.firstBlock(blocks.count(), ranks_.rank()), last = ranks_.lastBlock(blocks.count(), ranks_.rank());
    for (Eigen::Index b = first; b < last; ++b) {
        const Eigen::Index r0 = blocks.begin(b), r1 = blocks.end(b);
        const Indices block(rows_.begin() + r0, rows_.begin() + r1);
        const Progress inBlock = [&](double f, const std::string& what) {
            reportProgress(progress, 0.2 + 0.8 * (double(b - first) + f) / double(last - first), what);
            return false;
        };
        MatrixXfR Pb;
        if (tangents_) {
            std::vector<MatrixXfR> dPb;
            tangents_->compute(dist, data_.X, block, params, Pb, dPb, inBlock);
            for (std::size_t m = 0; m < params.size(); ++m) dPhi[m].middleRows(r0, r1 - r0) = dPb[m];
        } else {
            Pb = map->transform(selectRows(data_.X, block));
        }
        Phi.middleRows(r0, r1 - r0) = Pb;
    }
    return Phi;
}

EvidencePoint EvidenceObjective::evaluateInBlocks(const std::map<std::string, double>& values, bool gradient,
                                                  const Progress& progress) const
{
    EvidencePoint point;
    point.params = values;
    const RowBlocks blocks{Eigen::Index(rows_.size()), Eigen::Index(config_.blockRows)};
    std::vector<MatrixXfR> dPhi;
    MatrixXfR Phi = ownFeatures(values, gradient ? params_ : std::vector<std::string>{}, dPhi, blocks, progress);
    if (Phi.cols() > blocks.rows) {  // the dual form needs every row on every rank
        ranks_.allGatherRows(Phi, blocks);
        for (MatrixXfR& d : dPhi) ranks_.allGatherRows(d, blocks);
        evidenceOfAllRows(Phi, dPhi, targets_, point);
        return point;
    }
    // Primal: the normal equations and the gradient's sums over rows go block by block, in the
    // fixed tree of orbit/parallel/BlockSum.hpp.
    Indices all(rows_.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const LinearEvidence evidence(normalEquations(Phi, all, targets_, blocks, ranks_), targets_.squaredNorm());
    const LinearEvidence::Optimum o = evidence.maximise(1.0, 1.0);
    point.logEvidence = o.logEvidence;
    point.alpha = o.alpha;
    point.beta = o.beta;
    if (gradient) {
        const Eigen::MatrixXd M = evidence.posteriorMean(o.alpha, o.beta);
        const Eigen::MatrixXd sums = sumOverBlocks(ranks_, blocks.count(), [&](Eigen::Index b) {
            const Eigen::Index r0 = blocks.begin(b), n = blocks.end(b) - r0;
            const Eigen::MatrixXd G = evidence.featureGradientOfRows(o.alpha, o.beta, M, Phi.middleRows(r0, n), targets_.middleRows(r0, n));
            Eigen::MatrixXd leaf(1, Eigen::Index(dPhi.size()));
            for (std::size_t m = 0; m < dPhi.size(); ++m)
                leaf(0, Eigen::Index(m)) = (G.array() * dPhi[m].middleRows(r0, n).cast<double>().array()).sum();
            return leaf;
        });
        for (Eigen::Index m = 0; m < sums.cols(); ++m) point.gradient.push_back(sums(0, m));
    }
    return point;
}

EvidencePoint EvidenceObjective::evaluateInDouble(const std::map<std::string, double>& values, bool gradient,
                                                  const Progress& progress) const
{
    if (!tangents_) throw SpecError("precision", "double precision needs irf features of a differentiable group", config_.features);
    EvidencePoint point;
    point.params = values;
    std::vector<MatrixXdR> dPhi;
    MatrixXdR Phi;
    tangents_->compute(dist_->withParameters(values), data_.X, rows_, gradient ? params_ : std::vector<std::string>{}, Phi,
                       dPhi, progress);
    evidenceOfAllRows(Phi, dPhi, targets_, point);
    return point;
}

std::vector<double> parseValueList(const std::string& text)
{
    std::vector<double> values;
    const std::string t = trim(text);
    if (t.find(':') != std::string::npos) {
        const auto parts = split(t, ':');
        const bool log = parts.size() == 4 && trim(parts[3]) == "log";
        if (parts.size() < 3 || parts.size() > 4 || (parts.size() == 4 && !log))
            throw SpecError("values", "expected LO:HI:N or LO:HI:N:log", text);
        const std::optional<double> loText = parseDouble(parts[0]), hiText = parseDouble(parts[1]);
        const std::optional<long long> nText = parseInteger(parts[2]);
        if (!loText || !hiText || !nText) throw SpecError("values", "expected LO:HI:N or LO:HI:N:log", text);
        // Plain copies: GCC 12 reports the optionals' payloads as maybe-uninitialized in the loop.
        const double lo = *loText, hi = *hiText;
        const long long n = *nText;
        if (n < 2 || n > 100000) throw SpecError("values", "N must be between 2 and 100000", parts[2]);
        if (!(lo < hi)) throw SpecError("values", "needs LO < HI", text);
        if (log && !(lo > 0)) throw SpecError("values", "a log range needs LO > 0", text);
        for (long long i = 0; i < n; ++i) {
            const double f = double(i) / double(n - 1);
            values.push_back(log ? std::exp(std::log(lo) + f * (std::log(hi) - std::log(lo))) : lo + f * (hi - lo));
        }
        return values;
    }
    for (const std::string& part : split(t, ',')) {
        const auto v = parseDouble(part);
        if (!v) throw SpecError("values", "not a finite number", part);
        values.push_back(*v);
    }
    if (values.empty()) throw SpecError("values", "is empty", text);
    return values;
}

EvidenceCurve evidenceCurve(const Dataset& data, const LocalityConfig& config, const std::string& param,
                            const std::vector<double>& values, const Progress& progress, const LearnStep& step,
                            const Ranks& ranks)
{
    const auto t0 = std::chrono::steady_clock::now();
    LocalityConfig c = config;
    c.learn = {param};
    c.bounds.clear();
    c.validate();
    if (values.empty()) throw SpecError("values", "is empty");
    const EvidenceObjective objective(data, learningRows(data, c), c, ranks);
    EvidenceCurve curve;
    curve.param = param;
    curve.trainRows = learningRows(data, c).size();
    EvidencePoint best;
    best.logEvidence = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double lo = double(i) / double(values.size()), hi = double(i + 1) / double(values.size());
        const std::string what = param + "=" + formatNumber(values[i]);
        const Progress sub = [&](double f, const std::string& w) {
            reportProgress(progress, lo + (hi - lo) * f, what + ": " + w);
            return false;
        };
        EvidencePoint p = objective.evaluate({{param, values[i]}}, false, sub);
        p.stage = "curve";
        curve.values.push_back(values[i]);
        curve.logEvidence.push_back(p.logEvidence);
        if (p.logEvidence > best.logEvidence) best = p;
        if (step) step(p, best, int(i) + 1);
    }
    reportProgress(progress, 1.0, "done");
    curve.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return curve;
}

EvidenceSurface evidenceSurface(const Dataset& data, const LocalityConfig& config, const std::string& xParam,
                                const std::vector<double>& xValues, const std::string& yParam,
                                const std::vector<double>& yValues, const Progress& progress, const LearnStep& step,
                                const Ranks& ranks)
{
    const auto t0 = std::chrono::steady_clock::now();
    LocalityConfig c = config;
    c.learn = {xParam, yParam};
    c.bounds.clear();
    c.validate();
    if (xValues.empty() || yValues.empty()) throw SpecError("values", "is empty");
    const Indices rows = learningRows(data, c);
    const EvidenceObjective objective(data, rows, c, ranks);
    EvidenceSurface surface;
    surface.xParam = xParam;
    surface.yParam = yParam;
    surface.xValues = xValues;
    surface.yValues = yValues;
    surface.trainRows = rows.size();
    surface.logEvidence.resize(Eigen::Index(xValues.size()), Eigen::Index(yValues.size()));
    const double total = double(xValues.size() * yValues.size());
    EvidencePoint best;
    best.logEvidence = -std::numeric_limits<double>::infinity();
    int n = 0;
    for (std::size_t i = 0; i < xValues.size(); ++i)
        for (std::size_t j = 0; j < yValues.size(); ++j) {
            const std::string what = xParam + "=" + formatNumber(xValues[i]) + ", " + yParam + "=" + formatNumber(yValues[j]);
            const Progress sub = [&](double f, const std::string& w) {
                reportProgress(progress, (double(n) + f) / total, what + ": " + w);
                return false;
            };
            EvidencePoint p = objective.evaluate({{xParam, xValues[i]}, {yParam, yValues[j]}}, false, sub);
            p.stage = "curve";
            surface.logEvidence(Eigen::Index(i), Eigen::Index(j)) = p.logEvidence;
            if (p.logEvidence > best.logEvidence) best = p;
            ++n;
            if (step) step(p, best, n);
        }
    reportProgress(progress, 1.0, "done");
    surface.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return surface;
}

namespace {

/// The search: evaluations in transformed coordinates u (log v for logScale parameters), the
/// budget, the trajectory and the best point.
class Search {
public:
    Search(const EvidenceObjective& objective, const std::vector<const ParamDescriptor*>& descriptors,
           int budget, bool gradient, const Progress& progress, const LearnStep& step)
        : objective_(objective), descriptors_(descriptors), budget_(budget), gradient_(gradient), progress_(progress),
          step_(step)
    {
        best_.logEvidence = -std::numeric_limits<double>::infinity();
    }

    double toU(std::size_t i, double v) const { return descriptors_[i]->logScale ? std::log(v) : v; }
    double toV(std::size_t i, double u) const { return descriptors_[i]->logScale ? std::exp(u) : u; }
    int remaining() const { return budget_ - int(trajectory_.size()); }

    /// The evidence at u (and its gradient in u when the search has one); records the point. A point
    /// evaluated before (L-BFGS probes its end point again, restarts may land on a scanned point)
    /// is answered from the record without spending the budget.
    double evaluate(const std::vector<double>& u, std::vector<double>* gradU, const std::string& stage)
    {
        auto same = [&u](const std::vector<double>& p) {  // to 1e-8 in u: NLopt's line search re-probes in the last digits
            for (std::size_t i = 0; i < u.size(); ++i)
                if (std::abs(p[i] - u[i]) > 1e-8) return false;
            return true;
        };
        for (std::size_t k = 0; k < points_.size(); ++k)
            if (same(points_[k]) && (!gradU || !trajectory_[k].gradient.empty())) {
                if (gradU) {
                    gradU->assign(u.size(), 0.0);
                    for (std::size_t i = 0; i < u.size(); ++i)
                        (*gradU)[i] = trajectory_[k].gradient[i] * (descriptors_[i]->logScale ? toV(i, u[i]) : 1.0);
                }
                return trajectory_[k].logEvidence;
            }
        std::map<std::string, double> values;
        for (std::size_t i = 0; i < u.size(); ++i) {
            double v = toV(i, u[i]);
            if (i < loV_.size()) {  // exp(log(1000)) is 999.9999999999989: a bound is the bound
                v = std::clamp(v, loV_[i], hiV_[i]);
                for (double b : {loV_[i], hiV_[i]})
                    if (std::abs(v - b) <= 1e-12 * std::abs(b)) v = b;
            }
            values[names_[i]] = v;
        }
        const int n = int(trajectory_.size());
        const Progress sub = [&](double f, const std::string& w) {
            reportProgress(progress_, (double(n) + f) / double(budget_),
                           "evaluation " + std::to_string(n + 1) + "/" + std::to_string(budget_) + ": " + w);
            return false;
        };
        // The gradient only where L-BFGS asks for it (it costs about two more evaluations); a scanned
        // point it starts from is evaluated again with its gradient.
        EvidencePoint p = objective_.evaluate(values, gradient_ && gradU, sub);
        p.stage = stage;
        if (gradU) {
            gradU->assign(u.size(), 0.0);
            for (std::size_t i = 0; i < u.size(); ++i)
                (*gradU)[i] = p.gradient[i] * (descriptors_[i]->logScale ? toV(i, u[i]) : 1.0);
        }
        if (p.logEvidence > best_.logEvidence) {
            best_ = p;
            bestU_ = u;
        }
        trajectory_.push_back(p);
        points_.push_back(u);
        if (step_) step_(p, best_, int(trajectory_.size()));
        return p.logEvidence;
    }

    std::vector<std::string> names_;
    std::vector<double> loV_, hiV_;  ///< the bounds in the parameters' units
    const EvidenceObjective& objective_;
    std::vector<const ParamDescriptor*> descriptors_;
    int budget_;
    bool gradient_;
    const Progress& progress_;
    const LearnStep& step_;
    std::vector<EvidencePoint> trajectory_;
    std::vector<std::vector<double>> points_;
    EvidencePoint best_;
    std::vector<double> bestU_;
};

/// The radical-inverse (Halton) sequence in base b: well spread points of [0, 1).
double halton(int index, int base)
{
    double f = 1.0, r = 0.0;
    for (int i = index; i > 0; i /= base) {
        f /= base;
        r += f * (i % base);
    }
    return r;
}

/// L-BFGS (NLopt's bound-constrained LD_LBFGS) from u0 with at most `evals` evaluations.
void localSearch(Search& search, std::vector<double> u0, const std::vector<double>& lo, const std::vector<double>& hi,
                 int evals)
{
    nlopt::opt opt(nlopt::LD_LBFGS, unsigned(u0.size()));
    opt.set_lower_bounds(lo);
    opt.set_upper_bounds(hi);
    opt.set_maxeval(evals);
    // Steps below a thousandth of the range, or gains below a thousandth of a nat, are not worth an
    // evaluation: the evidence is flat at that scale and L-BFGS's line search would keep re-probing.
    std::vector<double> xtol(u0.size());
    for (std::size_t i = 0; i < xtol.size(); ++i) xtol[i] = 1e-3 * (hi[i] - lo[i]);
    opt.set_xtol_abs(xtol);
    opt.set_ftol_abs(1e-3);
    std::exception_ptr error;
    struct Data {
        Search* search;
        std::exception_ptr* error;
    } data{&search, &error};
    opt.set_max_objective(
        [](unsigned n, const double* u, double* grad, void* p) -> double {
            auto* d = static_cast<Data*>(p);
            if (d->search->remaining() <= 0)  // NLopt's own count restarts with every local search
                throw nlopt::forced_stop();
            try {
                std::vector<double> g;
                const double f = d->search->evaluate(std::vector<double>(u, u + n), &g, "lbfgs");
                if (grad) std::copy(g.begin(), g.end(), grad);
                return f;
            } catch (...) {
                *d->error = std::current_exception();
                throw nlopt::forced_stop();
            }
        },
        &data);
    double f = 0.0;
    try {
        opt.optimize(u0, f);
    } catch (const nlopt::roundoff_limited&) {  // converged as far as rounding allows
    } catch (const nlopt::forced_stop&) {
    } catch (const std::runtime_error&) {       // NLopt's own failure: keep the best point so far
        if (error) std::rethrow_exception(error);
    }
    if (error) std::rethrow_exception(error);
}

} // namespace

LearnResult learnLocality(const Dataset& data, const LocalityConfig& config, const Progress& progress, const LearnStep& step,
                          const Ranks& ranks)
{
    const auto t0 = std::chrono::steady_clock::now();
    config.validate();
    if (config.learn.empty()) throw SpecError("learn", "name at least one parameter of the distribution", config.dist);
    Indices test;
    const Indices rows = learningRows(data, config, &test);
    const EvidenceObjective objective(data, rows, config, ranks);
    const std::shared_ptr<const Group> group = makeGroup(config.group, data.shape, featureSeed(config.seed));
    const std::shared_ptr<const Distribution> dist = makeDistribution(config.dist, *group);

    LearnResult result;
    result.params = config.learn;
    result.trainRows = rows.size();
    result.testRows = test.size();
    const std::size_t m = config.learn.size();
    std::vector<const ParamDescriptor*> descriptors;
    for (const std::string& name : config.learn) {
        const ParamDescriptor& d = dist->parameterDescriptor(name);
        if (!d.learnable && !(m == 1 && d.sweepable))
            throw SpecError("learn", dist->spec() + ": " + name + " has no gradient (its samples are piecewise constant); "
                                     "learn it alone, by a 1-D search",
                            name);
        descriptors.push_back(&d);
    }
    const bool gradient = objective.hasGradient();
    result.method = gradient ? "lbfgs" : "bracket";
    if (!gradient && m > 1)
        throw SpecError("learn", "several parameters at once need a gradient: irf features of rotation, translation, "
                                 "scale or affine, and learnable parameters",
                        config.features);

    // Bounds in the parameters' units, then transformed; the start value inside them.
    const std::map<std::string, double> start = objective.startValues();
    std::vector<double> lo(m), hi(m), u0(m);
    Search search(objective, descriptors, config.maxEvaluations, gradient, progress, step);
    search.names_ = config.learn;
    for (std::size_t i = 0; i < m; ++i) {
        const ParamDescriptor& d = *descriptors[i];
        const std::string& name = config.learn[i];
        const auto given = config.bounds.find(name);
        double l = d.learnMinimum, h = d.learnMaximum;
        if (given != config.bounds.end()) {
            l = given->second.first;
            h = given->second.second;
            for (double v : {l, h})
                if (!d.accepts(v) || (d.logScale && !(v > 0)))
                    throw SpecError("bounds", name + " " + (d.violation(v).empty() ? "must be > 0 (searched in log space)" : d.violation(v)),
                                    formatNumber(v));
        }
        double v = start.at(name);
        if (v < l || v > h) {
            if (given != config.bounds.end())
                throw SpecError("bounds", "exclude the start value " + name + "=" + formatNumber(v) + " of the distribution",
                                formatNumber(l) + ":" + formatNumber(h));
            v = std::clamp(v, l, h);  // the default range: start from its nearest end
        }
        result.bounds[name] = {l, h};
        search.loV_.push_back(l);
        search.hiV_.push_back(h);
        lo[i] = search.toU(i, l);
        hi[i] = search.toU(i, h);
        u0[i] = search.toU(i, v);
    }

    // The start, then a scan spread over the box (1-D: evenly, ends included; else Halton points).
    search.evaluate(u0, nullptr, "scan");
    // 1-D: two fifths of the budget (12 of 30), so that peaks a factor of two apart are told apart.
    const int scan = std::clamp(m == 1 ? 2 * config.maxEvaluations / 5 : config.maxEvaluations / 4,
                                std::min(3, config.maxEvaluations - 1), m == 1 ? 15 : int(4 * m + 2));
    for (int k = 0; k < scan && search.remaining() > 0; ++k) {
        std::vector<double> u(m);
        for (std::size_t i = 0; i < m; ++i) {
            static const int primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
            const double f = m == 1 ? (scan == 1 ? 0.5 : double(k) / double(scan - 1)) : halton(k + 1, primes[i % 10]);
            u[i] = lo[i] + f * (hi[i] - lo[i]);
        }
        search.evaluate(u, nullptr, "scan");
    }
    // Candidates: the scanned points by evidence; in 1-D only the local maxima of the scan curve.
    const std::vector<EvidencePoint>& scanned = search.trajectory_;
    std::vector<std::size_t> byU(scanned.size()), candidates;
    for (std::size_t i = 0; i < byU.size(); ++i) byU[i] = i;
    std::sort(byU.begin(), byU.end(), [&](std::size_t a, std::size_t b) { return search.points_[a] < search.points_[b]; });
    for (std::size_t k = 0; k < byU.size(); ++k) {
        const double f = scanned[byU[k]].logEvidence;
        const bool peak = m > 1 || ((k == 0 || scanned[byU[k - 1]].logEvidence <= f) &&
                                    (k + 1 == byU.size() || scanned[byU[k + 1]].logEvidence <= f));
        if (peak) candidates.push_back(byU[k]);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](std::size_t a, std::size_t b) { return scanned[a].logEvidence > scanned[b].logEvidence; });

    if (gradient) {
        for (std::size_t c : candidates) {
            if (search.remaining() < 2) break;
            localSearch(search, search.points_[c], lo, hi, search.remaining());
        }
        // 1-D, budget left after every peak converged: look into the widest gap next to a good
        // point (its upper end in the better half), and climb from the midpoint when it is a new peak.
        while (m == 1 && search.remaining() >= 3) {
            std::vector<std::pair<double, double>> seen;  // (u, evidence), sorted by u
            for (std::size_t k = 0; k < search.points_.size(); ++k)
                seen.emplace_back(search.points_[k][0], search.trajectory_[k].logEvidence);
            std::sort(seen.begin(), seen.end());
            std::vector<double> values;
            for (const auto& s : seen) values.push_back(s.second);
            std::nth_element(values.begin(), values.begin() + long(values.size() / 2), values.end());
            const double median = values[values.size() / 2];
            std::size_t widest = 0;
            double width = 0.0;
            for (std::size_t k = 1; k < seen.size(); ++k)
                if (std::max(seen[k - 1].second, seen[k].second) >= median && seen[k].first - seen[k - 1].first > width) {
                    width = seen[k].first - seen[k - 1].first;
                    widest = k;
                }
            if (width < 1e-3 * (hi[0] - lo[0])) break;  // explored finely enough
            const double mid = 0.5 * (seen[widest - 1].first + seen[widest].first);
            const double f = search.evaluate({mid}, nullptr, "scan");
            if (f > seen[widest - 1].second && f > seen[widest].second && search.remaining() >= 2)
                localSearch(search, {mid}, lo, hi, search.remaining());
        }
    } else {
        // Golden-section search inside the best scan bracket (the curve is piecewise constant).
        const std::size_t c = candidates.front();
        const double u = search.points_[c][0];
        double a = lo[0], b = hi[0];
        for (const auto& p : search.points_) {
            if (p[0] < u) a = std::max(a, p[0]);
            if (p[0] > u) b = std::min(b, p[0]);
        }
        const double phi = 0.5 * (std::sqrt(5.0) - 1.0);
        double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
        double f1 = search.remaining() > 0 ? search.evaluate({x1}, nullptr, "bracket") : -std::numeric_limits<double>::infinity();
        double f2 = search.remaining() > 0 ? search.evaluate({x2}, nullptr, "bracket") : -std::numeric_limits<double>::infinity();
        while (search.remaining() > 0 && b - a > 1e-6) {
            if (f1 >= f2) {
                b = x2;
                x2 = x1;
                f2 = f1;
                x1 = b - phi * (b - a);
                f1 = search.evaluate({x1}, nullptr, "bracket");
            } else {
                a = x1;
                x1 = x2;
                f1 = f2;
                x2 = a + phi * (b - a);
                f2 = search.evaluate({x2}, nullptr, "bracket");
            }
        }
    }

    result.trajectory = search.trajectory_;
    result.learned = search.best_.params;
    result.logEvidence = search.best_.logEvidence;
    result.dist = objective.distSpec(result.learned);
    reportProgress(progress, 1.0, "scoring");

    if (!test.empty()) {
        const MatrixXfR train = objective.features(result.learned, rows), held = objective.features(result.learned, test);
        BayesianLinearRegression blr;
        if (data.isClassification()) {
            blr.fit(train, select(data.labels, rows), data.numClasses);
            result.metric = "accuracy";
            result.test = accuracy(blr.predictClasses(held), select(data.labels, test));
        } else {
            blr.fit(train, select(data.targets, rows));
            result.metric = "rmse";
            result.test = rmse(blr.predictTargets(held), select(data.targets, test));
        }
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

} // namespace orbit

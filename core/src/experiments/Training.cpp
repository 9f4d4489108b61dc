#include "orbit/experiments/Training.hpp"

#include "experiments/TrainingLearners.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace orbit {
namespace {

using detail::Outcome;
using detail::PointFeatures;
using detail::TrainLearner;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint64_t kInnerStream = 1000;    // inner validation split of fold f: stream 1000 + f
constexpr std::uint64_t kCurveStream = 3000;    // learning-curve permutation
constexpr std::uint64_t kLearnerStream = 4000;  // liblinear seed

/// A learner's grid axis (`lambda`, `C`: scored in one batch per feature point).
bool isLearnerAxis(const std::string& name)
{
    for (const LearnerDescriptor& l : learnerDescriptors())
        if (!l.parameters.empty() && l.axis() == name) return true;
    return false;
}

std::string learnerAxisOf(const std::string& learner) { return learnerDescriptor(parseLearner(learner)).axis(); }

std::string firstMapName(const std::string& features)
{
    const std::string first = split(features, '+').front();
    return trim(first.substr(0, first.find(':')));
}

/// The registry's descriptor of the first map of a --features spec (null for an unknown name:
/// makeFeatureMap reports it).
const FeatureMapDescriptor* firstMap(const std::string& features) { return findFeatureMap(firstMapName(features)); }

/// Maps whose features use the base kernel of the context (so `median` is meaningful).
bool usesBaseKernel(const std::string& features)
{
    const FeatureMapDescriptor* d = firstMap(features);
    return d && d->usesBaseKernel;
}

bool needsKernel(const TrainConfig& c)
{
    return learnerDescriptor(parseLearner(c.learner)).gaussianKernel || usesBaseKernel(c.features);
}

/// Maps whose fit draws from the seed only, never from the values of the rows it is given: their
/// features of all dataset rows can be computed once per grid point and shared by every fold.
bool isDataIndependent(const std::string& features)
{
    const FeatureMapDescriptor* d = firstMap(features);
    const auto parts = split(features, '+');
    if (!d || !d->seedOnlyFit) return false;
    if (parts.size() == 1) return true;
    return parseSpec(parts[1], "features").has("sigma");  // rf2 with median looks at the data
}

/// v rounded to 12 significant digits. A grid point's bandwidth used to reach the base kernel as
/// "%.12g" text, and the recorded results depend on those bits (the exact value moves Nystrom
/// results in the 8th digit), so the rounding is kept as a numeric step of its own.
double roundedBandwidth(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return parseDouble(buf).value_or(v);
}

bool isSecondLayerAxis(const std::string& name) { return name.rfind("rf2.", 0) == 0; }
bool isDistAxis(const std::string& name)
{
    return name != "median" && name != "bandwidth" && !isLearnerAxis(name) && !isSecondLayerAxis(name);
}

/// The --dist spec with the grid's distribution parameters set to the point's values (named as
/// Distribution::parameters() names them: `kappa`, or `rotation.kappa` for affine).
std::string distWith(const TrainConfig& c, const Shape& shape, const ParamPoint& featurePoint)
{
    std::map<std::string, double> values;
    for (const auto& [name, v] : featurePoint)
        if (isDistAxis(name)) values[name] = v;
    if (values.empty()) return c.dist;
    if (c.dist.empty()) throw SpecError("grid", "distribution parameters need a distribution", toString(featurePoint));
    try {
        return makeDistribution(c.dist, *makeGroup(c.group, shape))->withParameters(values)->spec();
    } catch (const SpecError& e) {
        throw SpecError(values.size() == 1 ? "grid " + values.begin()->first : std::string("grid"), e.detail(), e.value());
    }
}

/// The --features spec with the grid's `rf2.median` / `rf2.sigma` set on the second layer.
std::string featuresWith(const std::string& features, const ParamPoint& featurePoint)
{
    auto parts = split(features, '+');
    bool any = false;
    for (const auto& [name, v] : featurePoint) any = any || isSecondLayerAxis(name);
    if (!any) return features;
    if (parts.size() != 2) throw SpecError("grid", "rf2.* axes need a second layer (+rf2:s=S) in the features", features);
    Spec s = parseSpec(parts[1], "features");
    for (const auto& [name, v] : featurePoint) {
        if (!isSecondLayerAxis(name)) continue;
        const std::string key = name.substr(4);
        if (key != "median" && key != "sigma") throw SpecError("grid " + name, "the second layer takes rf2.median or rf2.sigma", name);
        s.params.erase(key == "median" ? "sigma" : "median");
        s.params[key] = formatNumber(v);
    }
    return parts[0] + "+" + formatSpec(s);
}

/// The mean over rows of 1 + the last non-zero column (products skip trailing zeros: zero-padded
/// molecules), a quarter of it for Coulomb matrices when the map folds them onto one triangle and
/// sorts a block's molecules by size (rf, irf, kif: most products run on far fewer columns). Nystrom
/// and GICDF need the true norms and keep the whole matrix.
double effectiveInputSize(const Dataset& data, const std::string& spec)
{
    const FeatureMapDescriptor* map = firstMap(spec);
    const bool folds = !map || map->foldsCoulomb;
    const Eigen::Index n = data.X.rows(), d = data.X.cols();
    if (n == 0) return double(d);
    double sum = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        Eigen::Index last = d;
        while (last > 0 && data.X(i, last - 1) == 0.0f) --last;
        sum += double(std::max<Eigen::Index>(last, 1));
    }
    return (data.kind == DataKind::Coulomb && folds ? 0.25 : 1.0) * sum / double(n);
}

/// Rows per transform call in Trainer::features: 64, halved while a block would cost more than
/// 2^32 units (rows x effective input size x features x orbit samples r; measured: a few tenths of
/// a second on two cores), at least 1. Depends on the spec and sizes only, so the partition (and every bit) is fixed; maps
/// cheap enough for 64-row blocks keep exactly the partition they always had.
Eigen::Index featureBlockRows(const std::string& spec, double inputDim, Eigen::Index dim)
{
    double r = 1.0;
    for (const std::string& part : split(spec, '+')) {
        const Spec s = parseSpec(part, "features");
        if (s.has("r")) r = std::max(r, parseDouble(s.params.at("r")).value_or(1.0));
    }
    const double perRow = std::max(inputDim, 1.0) * double(std::max<Eigen::Index>(dim, 1)) * r;
    Eigen::Index rows = 64;
    while (rows > 1 && double(rows) * perRow > double(1LL << 32)) rows /= 2;
    return rows;
}

/// Maps progress of a sub-task onto [lo, hi] of the whole run.
struct Stage {
    const Progress* progress;
    double lo, hi;
    void at(double f, const std::string& what) const { reportProgress(*progress, lo + (hi - lo) * std::clamp(f, 0.0, 1.0), what); }
};

class Trainer {
public:
    Trainer(const Dataset& data, const TrainConfig& config, const Progress& progress)
        : data_(data), config_(config), progress_(progress)
    {
        learner_ = detail::makeTrainLearner(config.learner, data, deriveSeed(config.seed, kLearnerStream));
        learnerKind_ = parseLearner(config.learner);
        for (const ParamAxis& a : defaultGrid(config)) {
            if (isLearnerAxis(a.name))
                learnerAxis_ = a;
            else
                featureAxes_.push_back(a);
        }
        if (learnerAxis_.values.empty()) learnerAxis_.values = {kNaN};  // blr: one fit per point
        featurePoints_ = gridPoints(featureAxes_);
        independent_ = isDataIndependent(featuresWith(config.features, featurePoints_.front()));
    }

    TrainResult run();

private:
    double medianDistance()
    {
        if (!median_) median_ = medianPairwiseDistance(data_.X, 1000, config_.seed);
        return *median_;
    }

    /// Gaussian bandwidth of a point (absolute, or median multiple), or nullopt for the configured kernel.
    std::optional<double> bandwidth(const ParamPoint& p, const MatrixXfR& reference, bool onFeatures)
    {
        if (p.count("bandwidth")) return p.at("bandwidth");
        if (p.count("median"))
            return p.at("median") * (onFeatures ? medianPairwiseDistance(reference, 1000, config_.seed) : medianDistance());
        return std::nullopt;
    }

    PointFeatures features(const ParamPoint& p, const Indices* fitRows, const Stage& stage);

    const Dataset& data_;
    const TrainConfig& config_;
    const Progress& progress_;
    std::unique_ptr<TrainLearner> learner_;
    Learner learnerKind_ = Learner::Ridge;
    std::vector<ParamAxis> featureAxes_;
    ParamAxis learnerAxis_;
    std::vector<ParamPoint> featurePoints_;
    bool independent_ = false;
    std::optional<double> median_;
    Eigen::Index featureDim_ = 0;
    std::string featureSpec_;
};

PointFeatures Trainer::features(const ParamPoint& p, const Indices* fitRows, const Stage& stage)
{
    const bool krr = learnerDescriptor(learnerKind_).gaussianKernel;  // the kernel acts on the features
    std::string kernelSpec = config_.kernel;
    if (!krr) {
        if (const auto sigma = bandwidth(p, data_.X, false)) kernelSpec = formatSpec("gaussian", {{"sigma", roundedBandwidth(*sigma)}});
    }
    const FeatureContext ctx = makeFeatureContext(data_, config_.group, distWith(config_, data_.shape, p), kernelSpec,
                                                  featureSeed(config_.seed));
    const auto map = makeFeatureMap(featuresWith(config_.features, p), ctx);
    // The fit takes the first tenth of the stage (moving r s templates can take seconds): its
    // reports, "fitting <spec>: templates i/(r s)", let a cancel through within tens of milliseconds.
    const std::string fitting = "fitting " + map->spec();
    stage.at(0.0, fitting);
    constexpr double kFitShare = 0.1;
    const Progress fitProgress = [&](double f, const std::string& what) {
        stage.at(kFitShare * f, fitting + ": " + what);
        return false;  // stage.at throws Cancelled itself
    };
    if (fitRows)
        map->fit(selectRows(data_.X, *fitRows), featureSeed(config_.seed), fitProgress);
    else
        map->fit(data_.X, featureSeed(config_.seed), fitProgress);
    // dim() is known after the fit (Nystrom keeps the landmark directions above its tolerance).
    const Eigen::Index n = data_.X.rows(), dim = map->dim();
    detail::checkFeatureMemory(4.0 * double(n) * double(dim), "features",
                               "the " + std::to_string(n) + " x " + std::to_string(dim) + " feature matrix",
                               config_.features);
    PointFeatures out;
    out.F.resize(n, dim);
    // A fixed partition (so every bit does not depend on the thread count): 64-row blocks, fewer
    // rows when the map is expensive, so a cancel is seen within a fraction of a second.
    const Eigen::Index kRows = featureBlockRows(map->spec(), effectiveInputSize(data_, map->spec()), dim);
    MatrixXfR block;
    for (Eigen::Index r = 0; r < n; r += kRows) {
        stage.at(kFitShare + (1.0 - kFitShare) * double(r) / double(n), "features " + std::to_string(r) + "/" + std::to_string(n));
        const Eigen::Index e = std::min(n, r + kRows);
        map->transform(data_.X, std::size_t(r), std::size_t(e), block);
        out.F.middleRows(r, e - r) = block;
    }
    if (krr) {
        if (const auto sigma = bandwidth(p, out.F, true)) {
            out.kernelSigma = *sigma;
        } else {
            const std::string spec = config_.kernel.empty() ? "gaussian:median=1" : config_.kernel;
            const BaseKernel k = makeKernel(spec, out.F, config_.seed);
            if (k.kind() != BaseKernel::Kind::Gaussian)
                throw SpecError("kernel", "krr uses a Gaussian kernel", config_.kernel);
            out.kernelSigma = k.sigma();
        }
    }
    featureDim_ = dim;
    featureSpec_ = map->spec();
    return out;
}

/// Accuracy or RMSE; a failed fit scores the worst possible value (never chosen when another works).
double scoreOf(const Dataset& data, const Outcome& o, const Indices& test)
{
    if (o.failed) return data.isClassification() ? -std::numeric_limits<double>::infinity()
                                                 : std::numeric_limits<double>::infinity();
    if (data.isClassification()) return accuracy(o.classes, select(data.labels, test));
    return rmse(o.targets, select(data.targets, test));
}

TrainResult Trainer::run()
{
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<Split> outer = outerSplits(data_, config_);
    std::vector<std::vector<Split>> inner;
    for (std::size_t f = 0; f < outer.size(); ++f) inner.push_back(innerSplits(data_, config_, outer[f].train, f));
    const std::size_t P = featurePoints_.size(), L = learnerAxis_.values.size(), K = outer.size();
    const bool maximise = data_.isClassification();
    const bool curve = !config_.learningCurve.empty();
    const double gridShare = curve ? 0.9 : 1.0;

    // val[(p * L + l) * K + f], evidence of the inner fit, outcomes of the outer fit.
    std::vector<double> val(P * L * K), innerEvidence(P * L * K);
    std::vector<Outcome> test(P * L * K);
    std::vector<double> foldSeconds(K, 0.0);
    auto idx = [&](std::size_t p, std::size_t l, std::size_t f) { return (p * L + l) * K + f; };
    const std::vector<double>& values = learnerAxis_.values;

    for (std::size_t p = 0; p < P; ++p) {
        const double lo = gridShare * double(p) / double(P), hi = gridShare * double(p + 1) / double(P);
        const std::string where = featurePoints_[p].empty() ? std::string("features") : toString(featurePoints_[p]);
        std::optional<PointFeatures> shared;
        if (independent_) {
            const auto ts = std::chrono::steady_clock::now();
            shared = features(featurePoints_[p], nullptr, Stage{&progress_, lo, lo + 0.5 * (hi - lo)});
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - ts).count();
            for (double& fs : foldSeconds) fs += s / double(K);
        }
        for (std::size_t f = 0; f < K; ++f) {
            const auto ts = std::chrono::steady_clock::now();
            const double flo = independent_ ? lo + 0.5 * (hi - lo) + 0.5 * (hi - lo) * double(f) / double(K)
                                            : lo + (hi - lo) * double(f) / double(K);
            const double fhi = independent_ ? flo + 0.5 * (hi - lo) / double(K) : flo + (hi - lo) / double(K);
            PointFeatures local;
            if (!independent_) local = features(featurePoints_[p], &outer[f].train, Stage{&progress_, flo, 0.5 * (flo + fhi)});
            const PointFeatures& pf = independent_ ? *shared : local;
            const Stage learn{&progress_, independent_ ? flo : 0.5 * (flo + fhi), fhi};
            const std::string what = where + ", fold " + std::to_string(f + 1) + "/" + std::to_string(K);
            // Progress of the fold: fit `fit` of `fits` (the inner splits, then the outer one) is g done.
            std::size_t fit = 0;
            const std::size_t fits = inner[f].size() + 1;
            auto poll = [&](double g, const std::string& step) {
                learn.at((double(std::min(fit, fits - 1)) + g) / double(fits), what + " · " + step);
                return false;  // a cancel throws from Stage::at
            };
            // Validation score and evidence of a point: the mean over the inner splits.
            for (const Split& in : inner[f]) {
                const auto vo = learner_->fit(pf, in.train, in.test, values, poll);
                ++fit;
                const double share = 1.0 / double(inner[f].size());
                for (std::size_t l = 0; l < L; ++l) {
                    val[idx(p, l, f)] += share * scoreOf(data_, vo.at(l), in.test);
                    innerEvidence[idx(p, l, f)] += share * vo.at(l).logEvidence;
                }
            }
            const auto to = learner_->fit(pf, outer[f].train, outer[f].test, values, poll);
            for (std::size_t l = 0; l < L; ++l) test[idx(p, l, f)] = to.at(l);
            foldSeconds[f] += std::chrono::duration<double>(std::chrono::steady_clock::now() - ts).count();
        }
    }

    TrainResult r;
    r.metric = toString(metricFor(data_));
    r.featureDim = featureDim_;
    r.featureSpec = featureSpec_;
    auto pointAt = [&](std::size_t p, std::size_t l) {
        ParamPoint q = featurePoints_[p];
        if (!learnerAxis_.name.empty()) q[learnerAxis_.name] = values[l];
        return q;
    };
    for (std::size_t p = 0; p < P; ++p)
        for (std::size_t l = 0; l < L; ++l) {
            GridRow row;
            row.params = pointAt(p, l);
            double v = 0, e = 0;
            for (std::size_t f = 0; f < K; ++f) {
                v += val[idx(p, l, f)];
                e += innerEvidence[idx(p, l, f)];
            }
            row.validation = v / double(K);
            row.logEvidence = e / double(K);
            r.grid.push_back(std::move(row));
        }
    if (data_.isClassification()) r.confusion = Eigen::MatrixXi::Zero(data_.numClasses, data_.numClasses);
    std::vector<double> scores, maes, evidences;
    std::size_t firstP = 0, firstL = 0;
    for (std::size_t f = 0; f < K; ++f) {
        std::size_t bp = 0, bl = 0;
        for (std::size_t p = 0; p < P; ++p)
            for (std::size_t l = 0; l < L; ++l) {
                const double cur = val[idx(p, l, f)], best = val[idx(bp, bl, f)];
                if (maximise ? cur > best : cur < best) {
                    bp = p;
                    bl = l;
                }
            }
        if (f == 0) {
            firstP = bp;
            firstL = bl;
        }
        const Outcome& o = test[idx(bp, bl, f)];
        FoldResult fr;
        fr.score = scoreOf(data_, o, outer[f].test);
        fr.logEvidence = o.logEvidence;
        fr.chosen = pointAt(bp, bl);
        fr.seconds = foldSeconds[f];
        if (o.failed) {  // nothing worked at any grid point of this fold
            if (!data_.isClassification()) {
                fr.mae = fr.score;
                maes.push_back(fr.mae);
            }
        } else if (data_.isClassification()) {
            r.confusion += confusionMatrix(o.classes, select(data_.labels, outer[f].test), data_.numClasses);
        } else {
            fr.mae = mae(o.targets, select(data_.targets, outer[f].test));
            maes.push_back(fr.mae);
        }
        scores.push_back(fr.score);
        evidences.push_back(fr.logEvidence);
        r.folds.push_back(std::move(fr));
    }
    r.mean = mean(scores);
    r.stddev = standardDeviation(scores);
    if (!maes.empty()) r.mae = mean(maes);
    if (learnerDescriptor(learnerKind_).logEvidence) r.logEvidence = mean(evidences);

    if (curve) {
        const Split& s = outer.front();
        const Stage cs{&progress_, gridShare, 1.0};
        PointFeatures pf = features(featurePoints_[firstP], independent_ ? nullptr : &s.train, Stage{&progress_, gridShare, gridShare + 0.05});
        std::vector<std::size_t> sizes;
        for (double frac : config_.learningCurve)
            sizes.push_back(std::clamp<std::size_t>(std::size_t(std::llround(frac * double(s.train.size()))), 2, s.train.size()));
        const std::vector<double> one = {values[firstL]};
        double curveAt = 0.0;  // the fits of the curve poll at its last reported fraction
        std::string curveWhat = "learning curve";
        auto poll = [&](double, const std::string& step) {
            cs.at(0.05 + 0.95 * curveAt, curveWhat + " · " + step);
            return false;  // a cancel throws from Stage::at
        };
        r.learningCurve = learningCurve(
            s, sizes, deriveSeed(config_.seed, kCurveStream),
            [&](const Split& sub) { return scoreOf(data_, learner_->fit(pf, sub.train, sub.test, one, poll).front(), sub.test); },
            [&](double f, const std::string& what) {
                curveAt = f;
                curveWhat = what;
                cs.at(0.05 + 0.95 * f, what);
                return false;
            });
    }
    reportProgress(progress_, 1.0, "done");
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace

std::uint64_t featureSeed(std::uint64_t seed) { return deriveSeed(seed, 2000); }

std::vector<Split> outerSplits(const Dataset& data, const TrainConfig& c)
{
    const Evaluation e = parseEvaluation(c.eval);
    if (e.kind == EvaluationKind::HoldOut) return {holdOutFor(data, e.fraction, c.seed)};
    if (e.kind == EvaluationKind::KFold) {
        if (std::size_t(e.folds) > data.count())
            throw SpecError("eval", "more folds than samples (" + std::to_string(data.count()) + ")", c.eval);
        return kFold(data.count(), e.folds, c.seed);
    }
    if (data.folds.empty()) throw SpecError("eval", "the dataset has no folds of its own (use kfold:K)", c.eval);
    return kFoldFor(data, 0, c.seed);
}

std::vector<Split> innerSplits(const Dataset& data, const TrainConfig& c, const Indices& train, std::size_t fold)
{
    const std::uint64_t seed = deriveSeed(c.seed, kInnerStream + fold);
    if (c.innerFolds >= 2) return innerKFold(train, c.innerFolds, seed);
    return {innerValidation(train, c.validationFraction, seed, data.labels)};
}

namespace {

/// The descriptor of a grid axis that is a parameter of --dist (`kappa`, or `rotation.kappa` for
/// affine), or null when dist is empty or unknown (makeDistribution reports those).
const ParamDescriptor* distAxisParameter(const TrainConfig& c, const std::string& axis)
{
    if (c.dist.empty()) return nullptr;
    std::shared_ptr<const Distribution> dist;
    try {
        const GroupDescriptor* g = findGroup(trim(c.group.substr(0, c.group.find(':'))));
        if (!g || g->kind == GroupKind::Orthogonal) return nullptr;  // (its random matrices need the data's shape)
        dist = makeDistribution(c.dist, *makeGroup(c.group));
    } catch (const SpecError&) {
        return nullptr;
    }
    try {
        return &dist->parameterDescriptor(axis);
    } catch (const SpecError& e) {
        throw SpecError("grid " + axis, "is not a parameter of " + dist->spec() + " (" + e.detail() +
                                      "; or lambda, C, median, bandwidth, rf2.median, rf2.sigma)",
                        axis);
    }
}

} // namespace

void TrainConfig::validate() const
{
    parseLearner(learner);
    if (trim(features).empty()) throw SpecError("features", "is empty");
    parseEvaluation(eval);
    if (!(validationFraction > 0 && validationFraction < 1))
        throw SpecError("validation", "must be in (0, 1)", formatNumber(validationFraction));
    if (innerFolds != 0 && (innerFolds < 2 || innerFolds > 50))
        throw SpecError("inner-folds", "must be 0 (one validation split) or between 2 and 50", std::to_string(innerFolds));
    for (double f : learningCurve)
        if (!(f > 0 && f <= 1)) throw SpecError("learning-curve", "fractions must be in (0, 1]", formatNumber(f));
    std::set<std::string> names;
    const std::string own = learnerAxisOf(learner);
    // krr on a kernel feature map (a Gaussian hyperkernel on irf features, say): --kernel is the
    // map's base kernel and the median/bandwidth axes are the kernel ridge's width on the features.
    const bool kernelOnFeatures = learnerDescriptor(parseLearner(learner)).gaussianKernel && usesBaseKernel(features);
    const KernelDescriptor& gaussian = *findKernel("gaussian");
    for (const ParamAxis& a : grid) {
        if (a.name.empty()) throw SpecError("grid", "an axis has no name");
        const std::string field = "grid " + a.name;
        if (!names.insert(a.name).second) throw SpecError(field, "axis given twice", a.name);
        if (a.values.empty()) throw SpecError(field, "no values for the axis", a.name);
        for (double v : a.values)
            if (!std::isfinite(v)) throw SpecError(field, "non-finite value", formatNumber(v));
        if (isLearnerAxis(a.name) && a.name != own)
            throw SpecError(field, "is not a parameter of the " + learner + " learner", a.name);
        // The valid values of the axis: the learner's, the Gaussian kernel's, or the distribution's.
        const ParamDescriptor* p = a.name == own ? &learnerDescriptor(parseLearner(learner)).parameters.front()
                                   : a.name == "median"    ? gaussian.parameter("median")
                                   : a.name == "bandwidth" ? gaussian.parameter("sigma")
                                   : isDistAxis(a.name)    ? distAxisParameter(*this, a.name)
                                                           : nullptr;
        if (p)
            for (double v : a.values)
                if (!p->accepts(v)) throw SpecError(field, "values " + p->violation(v), formatNumber(v));
        if ((a.name == "median" || a.name == "bandwidth") && !kernel.empty() && !kernelOnFeatures)
            throw SpecError(field, "conflicts with the fixed kernel (drop one)", a.name);
    }
    if (names.count("median") && names.count("bandwidth"))
        throw SpecError("grid", "give median or bandwidth, not both", "median,bandwidth");
    if (group.empty() != dist.empty())
        throw SpecError(group.empty() ? "group" : "distribution",
                        group.empty() ? "is needed with a distribution" : "is needed with a group");
}

std::vector<ParamAxis> defaultGrid(const TrainConfig& config)
{
    std::vector<ParamAxis> axes;
    for (const ParamAxis& a : config.grid)
        if (!isLearnerAxis(a.name)) axes.push_back(a);
    const bool hasBandwidth = std::any_of(axes.begin(), axes.end(),
                                          [](const ParamAxis& a) { return a.name == "median" || a.name == "bandwidth"; });
    if (!hasBandwidth && config.kernel.empty() && needsKernel(config)) axes.push_back({"median", {0.5, 1.0, 2.0}});
    const std::string own = learnerAxisOf(config.learner);
    if (!own.empty()) {
        ParamAxis learner{own, {}};
        for (const ParamAxis& a : config.grid)
            if (a.name == own) learner = a;
        if (learner.values.empty()) learner.values = learnerDescriptor(parseLearner(config.learner)).defaultAxis;
        axes.push_back(learner);
    }
    return axes;
}

TrainResult train(const Dataset& data, const TrainConfig& config, const Progress& progress)
{
    config.validate();
    if (!data.isClassification() && !data.isRegression())
        throw SpecError("data", "train needs class labels or regression targets", data.source);
    if (data.count() < 4) throw SpecError("data", "too few samples to train and test", std::to_string(data.count()));
    Trainer t(data, config, progress);
    return t.run();
}

} // namespace orbit

#include "orbit/training/Training.hpp"

#include "training/FeatureCost.hpp"
#include "training/NestedSplits.hpp"
#include "training/TrainingGrid.hpp"
#include "training/TrainingLearners.hpp"
#include "training/RowPlanning.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/linalg/MatrixPool.hpp"
#include "orbit/parallel/BlockSum.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

namespace orbit {
namespace {

using detail::distWith;
using detail::effectiveInputSize;
using detail::featureBlockRows;
using detail::everyPointDataIndependent;
using detail::featurePointsOf;
using detail::featureRowCost;
using detail::featuresWith;
using detail::inputLengthSum;
using detail::isDataIndependent;
using detail::isLearnerAxis;
using detail::medianRows;
using detail::Outcome;
using detail::PointFeatures;
using detail::productRowCost;
using detail::roundedBandwidth;
using detail::runCells;
using detail::smallestTraining;
using detail::spreadOwners;
using detail::SharedRowSets;
using detail::TrainLearner;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint64_t kCurveStream = 3000;    // learning-curve permutation

/// Maps progress of a sub-task onto [lo, hi] of the whole run.
struct Stage {
    const Progress* progress;
    double lo, hi;
    void at(double f, const std::string& what) const { reportProgress(*progress, lo + (hi - lo) * std::clamp(f, 0.0, 1.0), what); }
};

/// Distinct distribution specs of a per-class run, each with its classes (in order of first class).
using ClassSpecs = std::vector<std::pair<std::string, std::vector<int>>>;

class Trainer {
public:
    /// `classSpecs` empty: the run's features are of config.dist; else class c's decision column
    /// comes from the features of the spec holding c (trainClassFeatures).
    Trainer(const Dataset& data, const TrainConfig& config, const Progress& progress, const Ranks& ranks,
            ClassSpecs classSpecs = {})
        : data_(data), config_(config), progress_(progress), ranks_(ranks), classSpecs_(std::move(classSpecs))
    {
        learner_ = detail::makeTrainLearner(config.learner, data, deriveSeed(config.seed, detail::kLearnerStream),
                                            detail::RowPartition{&ranks, Eigen::Index(config.blockRows), &stages_},
                                            !classSpecs_.empty());
        learnerKind_ = &parseLearner(config.learner);
        // krr's Gaussian acts on the map's output; a map that needs a base kernel (rf, irf, Nystrom,
        // kif) takes the configured kernel, never the grid's width, so without one it cannot run.
        const FeatureMapDescriptor* map = detail::firstMap(config.features);
        if (learner().gaussianKernel && map && map->usesBaseKernel && trim(config.kernel).empty())
            throw SpecError("kernel",
                            "krr puts its Gaussian on the output of the feature map: give it the kernel's inputs as "
                            "features (raw or sorted), or give the " + map->name + " map a base kernel of its own",
                            "none");
        for (const ParamAxis& a : defaultGrid(config))
            if (isLearnerAxis(a.name)) learnerAxis_ = a;
        if (learnerAxis_.values.empty()) learnerAxis_.values = {kNaN};  // blr: one fit per point
        featurePoints_ = featurePointsOf(config);
        independent_ = isDataIndependent(featuresWith(config.features, featurePoints_.front()));
        if (!data.holdsAll()) {
            // Loaded as trainingInputRows says: every map fits on its seed, and the median samples are here.
            if (!everyPointDataIndependent(config))
                throw ContractError("train", "a map that fits on the data needs every row, and only some were read");
            data.requireHeld(medianRows(data.count(), config), "train (median rule)");
        }
    }

    TrainResult run();

private:
    /// Validation scores and inner evidences (means over each fold's inner splits) and the outer
    /// fits' outcomes of every grid point, at [(p L + l) K + f] for feature point p, learner value
    /// l and outer fold f.
    struct GridScores {
        std::size_t L = 0, K = 0;
        std::vector<double> validation, innerEvidence;
        std::vector<Outcome> test;
        std::vector<double> foldSeconds;
        std::size_t at(std::size_t p, std::size_t l, std::size_t f) const { return (p * L + l) * K + f; }
    };

    /// Fits every grid point on every inner and outer split; progress runs over [0, share].
    GridScores scoreGrid(const std::vector<Split>& outer, const std::vector<std::vector<Split>>& inner, double share);
    /// A grid point: feature point p, learner value l.
    struct Point {
        std::size_t p = 0, l = 0;
    };
    /// The grid table, each fold's chosen point and its test scores, and their means, into r.
    /// Returns the point the first fold chose.
    Point summarise(const GridScores& g, const std::vector<Split>& outer, TrainResult& r) const;
    /// The learning curve at point (p, l) on split s; progress runs over [from, 1].
    std::vector<LearningCurvePoint> learningCurveAt(std::size_t p, std::size_t l, const Split& s, double from);
    ParamPoint pointAt(std::size_t p, std::size_t l) const;
    /// The training sizes of the learning curve on split s (none without one).
    std::vector<std::size_t> curveSizes(const Split& s) const
    {
        std::vector<std::size_t> sizes;
        for (double frac : config_.learningCurve)
            sizes.push_back(std::clamp<std::size_t>(std::size_t(std::llround(frac * double(s.train.size()))), 2, s.train.size()));
        return sizes;
    }

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

    /// The features of grid point p with the distribution of spec `spec` (classSpecs_; 0 and
    /// config.dist with the point's distribution values for an ordinary run).
    PointFeatures features(const ParamPoint& p, std::size_t spec, const Indices* fitRows, const Stage& stage);
    /// The distributions whose features a grid point needs: 1 for an ordinary run.
    std::size_t specCount() const { return std::max<std::size_t>(1, classSpecs_.size()); }

    const Dataset& data_;
    const TrainConfig& config_;
    const Progress& progress_;
    const Ranks& ranks_;
    ClassSpecs classSpecs_;
    StageCosts stages_;
    std::unique_ptr<TrainLearner> learner_;
    const LearnerDescriptor* learnerKind_ = nullptr;
    const LearnerDescriptor& learner() const { return *learnerKind_; }
    ParamAxis learnerAxis_;
    std::vector<ParamPoint> featurePoints_;
    bool independent_ = false;
    std::optional<double> median_;
    std::optional<double> meanInputLength_;
    /// The mean input length (FeatureCost's effectiveInputSize) over every row, the same bits at
    /// any rank count: summed over the rows of this rank's equal share when each holds only some.
    double meanInputLength()
    {
        if (meanInputLength_) return *meanInputLength_;
        const auto n = Eigen::Index(data_.count());
        double sum = 0.0;
        if (ranks_.size() == 1) {
            sum = inputLengthSum(data_.X, 0, n);
        } else {
            const RowBlocks blocks{n, Eigen::Index(config_.blockRows)};
            const Eigen::Index first = ranks_.firstRow(blocks), last = ranks_.lastRow(blocks);
            data_.requireHeld(std::size_t(first), std::size_t(last), "train (input sizes)");
            Eigen::MatrixXd mine(1, 1);
            mine(0, 0) = inputLengthSum(data_.X, first, last);
            for (const Eigen::MatrixXd& part : ranks_.allPieces(mine)) sum += part(0, 0);
        }
        meanInputLength_ = sum / double(std::max<Eigen::Index>(n, 1));
        return *meanInputLength_;
    }
    /// For spread features (PointFeatures::spread): the rows in some training set of the run, and
    /// the fewest training rows of any fit (features of more dimensions are gathered).
    std::vector<char> training_;
    std::size_t spreadLimit_ = 0;
    Eigen::Index featureDim_ = 0;
    std::string featureSpec_;
};

PointFeatures Trainer::features(const ParamPoint& p, std::size_t spec, const Indices* fitRows, const Stage& stage)
{
    const auto t0 = std::chrono::steady_clock::now();
    const bool krr = learner().gaussianKernel;  // the kernel acts on the features
    std::string kernelSpec = config_.kernel;
    if (!krr) {
        if (const auto sigma = bandwidth(p, data_.X, false)) kernelSpec = formatSpec("gaussian", {{"sigma", roundedBandwidth(*sigma)}});
    }
    const std::string dist = classSpecs_.empty() ? distWith(config_, data_.shape, p) : classSpecs_[spec].first;
    const FeatureContext ctx = makeFeatureContext(data_, config_.group, dist, kernelSpec, featureSeed(config_.seed));
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
    const RowBlocks blocks{n, Eigen::Index(config_.blockRows)};
    // Spread when the learner only sums over rows and every fit of the run is primal: each rank
    // then keeps just its own rows (a contiguous run of blocks of about equal cost) and never
    // receives the others'. Else every rank holds every row (gathered).
    PointFeatures out;
    const double inputSize = effectiveInputSize(data_.kind, map->spec(), meanInputLength());
    if (learner_->sumsOverRows() && std::size_t(dim) <= spreadLimit_) {
        out.starts = spreadOwners(training_, blocks, ranks_.size(), featureRowCost(map->spec(), inputSize, dim), productRowCost(dim));
        out.blocks = blocks;
    }
    const auto q = std::size_t(ranks_.rank());
    const Eigen::Index first = out.spread() ? blocks.begin(out.starts[q]) : ranks_.firstRow(blocks);
    const Eigen::Index last = out.spread() ? blocks.begin(out.starts[q + 1]) : ranks_.lastRow(blocks);
    const Eigen::Index held = out.spread() ? last - first : n, own = std::max<Eigen::Index>(1, last - first);
    detail::checkFeatureMemory(4.0 * double(held) * double(dim), "features",
                               "the " + std::to_string(held) + " x " + std::to_string(dim) + " feature matrix",
                               config_.features);
    data_.requireHeld(std::size_t(first), std::size_t(last), "train (features)");
    out.F.resize(held, dim);
    stages_.heldRows = std::max<long long>(stages_.heldRows, held);
    // This rank's rows of the run's row blocks, in calls of at most kRows rows (fewer when the map
    // is expensive, so a cancel is seen within a fraction of a second), cut alike at any rank count.
    const Eigen::Index kRows = featureBlockRows(map->spec(), inputSize, dim);
    const Eigen::Index offset = out.spread() ? first : 0;
    MatrixXfR block;
    Ranks::forRowsOf(blocks, first, last, kRows, [&](Eigen::Index r, Eigen::Index e) {
        stage.at(kFitShare + (1.0 - kFitShare) * double(r - first) / double(own),
                 "features " + std::to_string(r - first) + "/" + std::to_string(last - first));
        map->transform(data_.X, std::size_t(r), std::size_t(e), block);
        out.F.middleRows(r - offset, e - r) = block;
    });
    const auto gathering = std::chrono::steady_clock::now();
    if (!out.spread()) ranks_.allGatherRows(out.F, blocks);
    const auto gathered = std::chrono::steady_clock::now();
    stages_.reduction += std::chrono::duration<double>(gathered - gathering).count();
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
    stages_.features += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() -
                        std::chrono::duration<double>(gathered - gathering).count();
    return out;
}

TrainResult Trainer::run()
{
    const auto t0 = std::chrono::steady_clock::now();
    // The D x D sums and factors of one fit leave their memory to the next (no fresh pages).
    const MatrixPool::Scope matrices;
    const std::vector<Split> outer = outerSplits(data_, config_);
    std::vector<std::vector<Split>> inner;
    for (std::size_t f = 0; f < outer.size(); ++f) inner.push_back(innerSplits(data_, config_, outer[f].train, f));
    const bool curve = !config_.learningCurve.empty();
    const double gridShare = curve ? 0.9 : 1.0;
    spreadLimit_ = smallestTraining(outer, inner);
    for (std::size_t size : curveSizes(outer.front())) spreadLimit_ = std::min(spreadLimit_, size);
    training_.assign(data_.count(), 0);
    for (const Split& s : outer)
        for (std::size_t row : s.train) training_[row] = 1;

    const GridScores scores = scoreGrid(outer, inner, gridShare);
    TrainResult r;
    const Point first = summarise(scores, outer, r);
    if (curve) r.learningCurve = learningCurveAt(first.p, first.l, outer.front(), gridShare);
    reportProgress(progress_, 1.0, "done");
    r.seconds = ranks_.maximum(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    r.ranks = ranks_.size();
    r.rankStages = stages_.everyRank(ranks_);
    r.stages = StageCosts::slowestOf(r.rankStages);
    return r;
}

Trainer::GridScores Trainer::scoreGrid(const std::vector<Split>& outer, const std::vector<std::vector<Split>>& inner,
                                       double share)
{
    const std::size_t P = featurePoints_.size(), L = learnerAxis_.values.size(), K = outer.size();
    GridScores g;
    g.L = L;
    g.K = K;
    g.validation.assign(P * L * K, 0.0);
    g.innerEvidence.assign(P * L * K, 0.0);
    g.test.resize(P * L * K);
    g.foldSeconds.assign(K, 0.0);
    const std::vector<double>& values = learnerAxis_.values;
    // Fold f's inner and outer training sets are unions of cells[f]: a learner that sums over rows
    // computes each cell's products once for the whole fold. With features shared by the folds,
    // runCells may share them across folds instead (fewer product rows, e.g. 1.8 N against 4 N for
    // five folds with one inner split each).
    std::vector<SharedRowSets> cells(K);
    for (std::size_t f = 0; f < K; ++f) {
        std::vector<Indices> validationSets;
        for (const Split& in : inner[f]) validationSets.push_back(in.test);
        cells[f].cells = cellsOf(outer[f].train, validationSets);
    }
    const std::optional<SharedRowSets> acrossFolds = independent_ ? runCells(outer, inner, data_.count()) : std::nullopt;

    const std::size_t S = specCount();
    for (std::size_t p = 0; p < P; ++p) {
        const std::string where = featurePoints_[p].empty() ? std::string("features") : toString(featurePoints_[p]);
        // Every fold's fits (fits[j][l] of its inner splits and its outer one, last): of the one
        // distribution, or of a per-class run with each class's decisions from its own spec's.
        std::vector<std::vector<std::vector<Outcome>>> foldFits(K);
        for (std::size_t sp = 0; sp < S; ++sp) {
            const double lo = share * (double(p) + double(sp) / double(S)) / double(P);
            const double hi = share * (double(p) + double(sp + 1) / double(S)) / double(P);
            std::optional<PointFeatures> shared;
            if (independent_) {
                const auto ts = std::chrono::steady_clock::now();
                shared = features(featurePoints_[p], sp, nullptr, Stage{&progress_, lo, lo + 0.5 * (hi - lo)});
                const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - ts).count();
                for (double& fs : g.foldSeconds) fs += s / double(K);
            }
            // Across folds only while every fit is primal (D <= its training rows, the smallest being
            // an inner split's); a dual fit would not use the sets.
            const bool runWide = acrossFolds && std::size_t(shared->F.cols()) <= smallestTraining(outer, inner);
            if (runWide) {
                const Stage sharing{&progress_, lo + 0.5 * (hi - lo), lo + 0.5 * (hi - lo)};
                learner_->shareCells(*shared, *acrossFolds, [&](double, const std::string& step) {
                    sharing.at(0.0, where + " · " + step);
                    return false;  // a cancel throws from Stage::at
                });
            }
            // The fits of the folds `fs` in one deal (each fold's inner splits, then its outer one):
            // their dealt work (Choleskys, SVMs, evidences) shares the ranks.
            const auto fitFolds = [&](const PointFeatures& pf, const std::vector<std::size_t>& fs, const Stage& learn,
                                      const std::string& what) {
                std::vector<Split> splits;
                for (std::size_t f : fs) {
                    splits.insert(splits.end(), inner[f].begin(), inner[f].end());
                    splits.push_back(outer[f]);
                }
                auto outcomes = learner_->fitAll(pf, splits, values, [&](double done, const std::string& step) {
                    learn.at(done, what + " · " + step);
                    return false;  // a cancel throws from Stage::at
                });
                auto at = outcomes.begin();
                for (std::size_t f : fs) {
                    const auto end = at + static_cast<long>(inner[f].size() + 1);
                    std::vector<std::vector<Outcome>> mine(std::make_move_iterator(at), std::make_move_iterator(end));
                    at = end;
                    if (S == 1)
                        foldFits[f] = std::move(mine);
                    else
                        takeClassColumns(foldFits[f], std::move(mine), classSpecs_[sp].second);
                }
            };
            const std::string spec = S > 1 ? " · " + classSpecs_[sp].first : std::string();
            if (runWide && learner_->sumsOverRows()) {
                // On cells shared by the folds, every fold's fits in one deal: the ranks meet once for
                // the run instead of once per fold, and each rank's share of the tasks evens out over
                // the folds. The same fits, the same bits.
                const auto ts = std::chrono::steady_clock::now();
                std::vector<std::size_t> all(K);
                std::iota(all.begin(), all.end(), std::size_t(0));
                const std::string folds = K == 1 ? std::string(", fold 1/1") : ", folds 1–" + std::to_string(K);
                fitFolds(*shared, all, Stage{&progress_, lo + 0.5 * (hi - lo), hi}, where + spec + folds);
                const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - ts).count();
                for (double& fs : g.foldSeconds) fs += s / double(K);
            } else {
                for (std::size_t f = 0; f < K; ++f) {
                    const auto ts = std::chrono::steady_clock::now();
                    const double flo = independent_ ? lo + 0.5 * (hi - lo) + 0.5 * (hi - lo) * double(f) / double(K)
                                                    : lo + (hi - lo) * double(f) / double(K);
                    const double fhi = independent_ ? flo + 0.5 * (hi - lo) / double(K) : flo + (hi - lo) / double(K);
                    PointFeatures local;
                    if (!independent_)
                        local = features(featurePoints_[p], sp, &outer[f].train, Stage{&progress_, flo, 0.5 * (flo + fhi)});
                    const PointFeatures& pf = independent_ ? *shared : local;
                    const Stage learn{&progress_, independent_ ? flo : 0.5 * (flo + fhi), fhi};
                    const std::string what = where + spec + ", fold " + std::to_string(f + 1) + "/" + std::to_string(K);
                    if (!runWide)
                        learner_->shareCells(pf, cells[f], [&](double done, const std::string& step) {
                            learn.at(done, what + " · " + step);
                            return false;  // a cancel throws from Stage::at
                        });
                    fitFolds(pf, {f}, learn, what);
                    if (!runWide) pf.cells.clear();
                    g.foldSeconds[f] += std::chrono::duration<double>(std::chrono::steady_clock::now() - ts).count();
                }
            }
            if (shared) {
                shared->cells.clear();
                shared->removable.clear();
            }
        }
        // Validation score and evidence of a point: the mean over the inner splits.
        for (std::size_t f = 0; f < K; ++f) {
            std::vector<std::vector<Outcome>>& outcomes = foldFits[f];
            if (S > 1)
                for (auto& fit : outcomes)
                    for (Outcome& o : fit)
                        if (!o.failed) o.classes = TargetCoding::argmax(o.decisions);
            for (std::size_t j = 0; j < inner[f].size(); ++j) {
                const double w = 1.0 / double(inner[f].size());
                for (std::size_t l = 0; l < L; ++l) {
                    g.validation[g.at(p, l, f)] += w * scoreOf(data_, outcomes[j].at(l), inner[f][j].test);
                    g.innerEvidence[g.at(p, l, f)] += w * outcomes[j].at(l).logEvidence;
                }
            }
            for (std::size_t l = 0; l < L; ++l) g.test[g.at(p, l, f)] = std::move(outcomes.back().at(l));
        }
    }
    return g;
}

ParamPoint Trainer::pointAt(std::size_t p, std::size_t l) const
{
    ParamPoint q = featurePoints_[p];
    if (!learnerAxis_.name.empty()) q[learnerAxis_.name] = learnerAxis_.values[l];
    return q;
}

Trainer::Point Trainer::summarise(const GridScores& g, const std::vector<Split>& outer, TrainResult& r) const
{
    const std::size_t P = featurePoints_.size(), L = g.L, K = g.K;
    const bool maximise = data_.isClassification();
    r.metric = toString(metricFor(data_));
    r.featureDim = featureDim_;
    r.featureSpec = featureSpec_;
    for (std::size_t p = 0; p < P; ++p)
        for (std::size_t l = 0; l < L; ++l) {
            GridRow row;
            row.params = pointAt(p, l);
            double v = 0, e = 0;
            for (std::size_t f = 0; f < K; ++f) {
                v += g.validation[g.at(p, l, f)];
                e += g.innerEvidence[g.at(p, l, f)];
            }
            row.validation = v / double(K);
            row.logEvidence = e / double(K);
            r.grid.push_back(std::move(row));
        }
    if (data_.isClassification()) r.confusion = Eigen::MatrixXi::Zero(data_.numClasses, data_.numClasses);
    std::vector<double> scores, maes, evidences;
    Point first;
    for (std::size_t f = 0; f < K; ++f) {
        std::size_t bp = 0, bl = 0;
        for (std::size_t p = 0; p < P; ++p)
            for (std::size_t l = 0; l < L; ++l) {
                const double cur = g.validation[g.at(p, l, f)], best = g.validation[g.at(bp, bl, f)];
                if (maximise ? cur > best : cur < best) {
                    bp = p;
                    bl = l;
                }
            }
        if (f == 0) first = {bp, bl};
        const Outcome& o = g.test[g.at(bp, bl, f)];
        FoldResult fr;
        fr.score = scoreOf(data_, o, outer[f].test);
        fr.logEvidence = o.logEvidence;
        fr.chosen = pointAt(bp, bl);
        fr.seconds = g.foldSeconds[f];
        if (o.failed) {  // nothing worked at any grid point of this fold
            if (!data_.isClassification()) {
                fr.mae = fr.score;
                maes.push_back(fr.mae);
            }
        } else if (data_.isClassification()) {
            r.confusion += confusionMatrix(o.classes, select(data_.labels, outer[f].test), data_.numClasses);
            for (std::size_t k = 0; k < outer[f].test.size(); ++k)
                r.predictions.push_back({outer[f].test[k], f, data_.labels[outer[f].test[k]], o.classes[k]});
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
    if (learner().logEvidence) r.logEvidence = mean(evidences);
    return first;
}

std::vector<LearningCurvePoint> Trainer::learningCurveAt(std::size_t p, std::size_t l, const Split& s, double from)
{
    const Stage cs{&progress_, from, 1.0};
    PointFeatures pf = features(featurePoints_[p], 0, independent_ ? nullptr : &s.train, Stage{&progress_, from, from + 0.05});
    const std::vector<std::size_t> sizes = curveSizes(s);
    const std::vector<double> one = {learnerAxis_.values[l]};
    double curveAt = 0.0;  // the fits of the curve poll at its last reported fraction
    std::string curveWhat = "learning curve";
    auto poll = [&](double, const std::string& step) {
        cs.at(0.05 + 0.95 * curveAt, curveWhat + " · " + step);
        return false;  // a cancel throws from Stage::at
    };
    return learningCurve(
        s, sizes, deriveSeed(config_.seed, kCurveStream),
        [&](const Split& sub) { return scoreOf(data_, learner_->fit(pf, sub.train, sub.test, one, poll).front(), sub.test); },
        [&](double f, const std::string& what) {
            curveAt = f;
            curveWhat = what;
            cs.at(0.05 + 0.95 * f, what);
            return false;
        });
}

} // namespace

std::uint64_t featureSeed(std::uint64_t seed) { return deriveSeed(seed, 2000); }

TrainResult train(const Dataset& data, const TrainConfig& config, const Progress& progress, const Ranks& ranks)
{
    config.validate();
    if (!data.isClassification() && !data.isRegression())
        throw SpecError("data", "train needs class labels or regression targets", data.source);
    if (data.count() < 4) throw SpecError("data", "too few samples to train and test", std::to_string(data.count()));
    // Exact kernel machines deal their folds out to the ranks.
    if (isExactKernelSpec(config.features)) return trainExact(data, config, progress, ranks);
    Trainer t(data, config, progress, ranks);
    return t.run();
}

TrainResult trainClassFeatures(const Dataset& data, const TrainConfig& config, const std::vector<std::string>& classDists,
                               const Progress& progress)
{
    config.validate();
    if (!data.isClassification())
        throw SpecError("per-class", "needs class labels: regression targets have no classes to give distributions to",
                        data.source);
    if (!parseLearner(config.learner).oneVsRest)
        throw SpecError("learner", "a per-class model with its own features per class is one-vs-rest " +
                                       learnerList([](const LearnerDescriptor& l) { return l.oneVsRest; }),
                        config.learner);
    if (trim(config.group).empty()) throw SpecError("group", "a per-class model needs a group for its distributions", "none");
    for (const ParamAxis& a : config.grid)
        if (!isLearnerAxis(a.name) && a.name != "median" && a.name != "bandwidth")
            throw SpecError("grid", "a per-class model's distributions are fixed per class: its grid takes lambda or C, "
                                    "and median or bandwidth", a.name);
    if (!config.learningCurve.empty()) {
        std::string fractions;
        for (double f : config.learningCurve) fractions += (fractions.empty() ? "" : ",") + formatNumber(f);
        throw SpecError("learning-curve", "not drawn for a per-class model", fractions);
    }
    if (classDists.size() != std::size_t(data.numClasses))
        throw ContractError("trainClassFeatures", std::to_string(classDists.size()) + " distributions for " +
                                                      std::to_string(data.numClasses) + " classes");
    if (data.count() < 4) throw SpecError("data", "too few samples to train and test", std::to_string(data.count()));
    ClassSpecs specs;
    for (int c = 0; c < data.numClasses; ++c) {
        auto it = std::find_if(specs.begin(), specs.end(), [&](const auto& s) { return s.first == classDists[std::size_t(c)]; });
        if (it == specs.end()) it = specs.insert(specs.end(), {classDists[std::size_t(c)], {}});
        it->second.push_back(c);
    }
    Trainer t(data, config, progress, oneProcess(), std::move(specs));
    return t.run();
}

} // namespace orbit

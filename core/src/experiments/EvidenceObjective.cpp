#include "orbit/learn/CompositionMean.hpp"
#include "orbit/experiments/EvidenceObjective.hpp"

#include "experiments/TrainingGrid.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/experiments/LocalityLearning.hpp"
#include "orbit/experiments/Training.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/InvariantFourierTangents.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/learn/BayesianLinearRegression.hpp"
#include "orbit/learn/Gram.hpp"
#include "orbit/learn/NormalEquations.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/parallel/BlockSum.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <optional>
#include <chrono>
#include <cmath>
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

/// Seconds since the last lap (or the start), for the stage costs.
class Lap {
public:
    double next()
    {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - last_).count();
        last_ = now;
        return s;
    }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

/// The time of a primal step that summed over blocks: its leaves as products, their moves and
/// additions as reduction, the rest (`total` - both) as solve.
void addSums(StageCosts& stages, const BlockSumTimes& sums, double total)
{
    stages.products += sums.leaves;
    stages.reduction += sums.reduction;
    stages.solve += std::max(0.0, total - sums.leaves - sums.reduction);
}

/// BayesianLinearRegression's coding of the rows' labels or targets.
TargetCoding targetCoding(const Dataset& data, const Indices& rows)
{
    if (data.isClassification()) return TargetCoding::classes(data.numClasses, TargetCoding::Kind::OneHot);
    return TargetCoding::regression(select(data.targets, rows));
}

/// The coded targets of `rows`; with targetClass >= 0 only that class's one-hot column.
Eigen::MatrixXd codedTargets(const Dataset& data, const Indices& rows, int targetClass = -1)
{
    const TargetCoding coding = targetCoding(data, rows);
    const Eigen::MatrixXd all =
        data.isClassification() ? coding.encode(select(data.labels, rows)) : coding.encode(select(data.targets, rows));
    return targetClass >= 0 ? Eigen::MatrixXd(all.col(targetClass)) : all;
}

/// The evidence built from all rows of the features at once, maximised over alpha, beta, and (for
/// each derivative in dPhi) its gradient sum_ij G_ij dPhi_ij, into `point`.
template <class Mat>
void evidenceOfAllRows(const LinearEvidence& evidence, const Mat& Phi, const std::vector<Mat>& dPhi,
                       const Eigen::MatrixXd& targets, EvidencePoint& point)
{
    const LinearEvidence::Optimum o = evidence.maximise(1.0, 1.0);
    point.logEvidence = o.logEvidence;
    point.alpha = o.alpha;
    point.beta = o.beta;
    point.weights = std::make_shared<const Eigen::MatrixXd>(evidence.posteriorMean(o.alpha, o.beta, Phi));
    if (dPhi.empty()) return;
    const Eigen::MatrixXd G = evidence.featureGradient(o.alpha, o.beta, Phi, targets);
    for (const Mat& d : dPhi) point.gradient.push_back((G.array() * d.template cast<double>().array()).sum());
}

} // namespace

void LocalityConfig::validate() const
{
    checkMeanFunction(mean);
    if (trim(features).empty()) throw SpecError("features", "is empty");
    if (trim(group).empty() || trim(dist).empty()) throw SpecError(trim(group).empty() ? "group" : "distribution", "is needed to learn a locality");
    if (targetClass < -1) throw SpecError("class", "must be a class label (>= 0)", std::to_string(targetClass));
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
    if (config.fold < 0 || std::size_t(config.fold) >= splits.size())
        throw SpecError("eval", "has " + std::to_string(splits.size()) + " splits, no split " + std::to_string(config.fold + 1),
                        config.eval);
    if (test) *test = splits[std::size_t(config.fold)].test;
    return splits[std::size_t(config.fold)].train;
}

Indices learningMedianRows(const Indices& rows, std::uint64_t seed)
{
    Indices out;
    for (std::size_t k : medianSampleRows(rows.size(), 1000, seed)) out.push_back(rows[k]);
    return out;
}

std::vector<char> localityInputRows(const Dataset& data, const LocalityConfig& config, const Ranks& ranks)
{
    config.validate();
    if (ranks.size() == 1 || config.doublePrecision || !detail::isDataIndependent(config.features)) return {};
    std::vector<char> wanted(data.count(), 0);
    Indices test;
    const Indices rows = learningRows(data, config, &test);
    std::vector<Indices> parts{rows, test};
    const Spec spec = parseSpec(config.features, "features");
    if (spec.name == "irf" && spec.has("s"))  // the pilots' rows, when learnLocality takes pilots
        for (const PilotLevel& level : pilotLevels(rows.size(), int(spec.integer("s", 1, 10000000))))
            parts.push_back(pilotRows(rows, level.rows, config.seed));
    for (const Indices& part : parts) {
        const RowBlocks blocks{Eigen::Index(part.size()), Eigen::Index(config.blockRows)};
        for (Eigen::Index i = ranks.firstRow(blocks); i < ranks.lastRow(blocks); ++i) wanted[part[std::size_t(i)]] = 1;
    }
    if (usesMedianRule(config.kernel))
        for (std::size_t r : learningMedianRows(rows, featureSeed(config.seed))) wanted[r] = 1;
    return wanted;
}

EvidenceObjective::EvidenceObjective(const Dataset& data, Indices rows, const LocalityConfig& config, const Ranks& ranks)
    : data_(data), rows_(std::move(rows)), config_(config), ranks_(ranks), params_(config.learn)
{
    if (!data.isClassification() && !data.isRegression())
        throw SpecError("data", "learning the locality needs class labels or regression targets", data.source);
    if (rows_.size() < 2) throw SpecError("data", "too few training rows", std::to_string(rows_.size()));
    const std::uint64_t seed = featureSeed(config.seed);
    if (!data.holdsAll()) {
        // Loaded as localityInputRows says: a map fitted on its seed, the median sample read.
        if (!detail::isDataIndependent(config.features))
            throw ContractError("learn", "a map that fits on the data needs every row, and only some were read");
        if (usesMedianRule(config.kernel)) data.requireHeld(learningMedianRows(rows_, seed), "learn (median rule)");
    }
    // The median rule reads the learning rows only (never a test row): its sample is
    // learningMedianRows, the same rows as before when every row learns.
    std::string kernel = config.kernel;
    if (usesMedianRule(kernel)) kernel = makeKernel(kernel, selectRows(data.X, learningMedianRows(rows_, seed)), seed).spec();
    const FeatureContext context = makeFeatureContext(data, config.group, config.dist, kernel, seed);
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
    if (config.targetClass >= 0) {
        if (!data.isClassification())
            throw SpecError("per-class", "needs class labels: regression targets have no classes to give localities to", data.source);
        if (config.targetClass >= data.numClasses)
            throw SpecError("class", "is not a class of the data (" + std::to_string(data.numClasses) + " classes)",
                            std::to_string(config.targetClass));
    }
    targets_ = codedTargets(data, rows_, config.targetClass);
}

EvidenceObjective::EvidenceObjective(const EvidenceObjective& full, Indices rows, std::unique_ptr<InvariantFourierTangents> tangents)
    : data_(full.data_), rows_(std::move(rows)), config_(full.config_), ranks_(full.ranks_), params_(full.params_),
      group_(full.group_), dist_(full.dist_), kernelSpec_(full.kernelSpec_), tangents_(std::move(tangents)),
      gradientOk_(full.gradientOk_), targets_(codedTargets(data_, rows_, config_.targetClass))
{
}

EvidenceObjective::~EvidenceObjective() = default;

std::unique_ptr<EvidenceObjective> EvidenceObjective::pilot(std::size_t rows, int templates) const
{
    if (!hasGradient()) throw ContractError("EvidenceObjective::pilot", "a pilot needs irf features with a gradient");
    return std::unique_ptr<EvidenceObjective>(new EvidenceObjective(
        *this, pilotRows(rows_, rows, config_.seed),
        std::make_unique<InvariantFourierTangents>(tangents_->firstTemplates(std::min(templates, tangents_->templates())))));
}

int EvidenceObjective::templates() const { return hasGradient() ? tangents_->templates() : 0; }

Indices pilotRows(const Indices& rows, std::size_t n, std::uint64_t seed)
{
    if (n >= rows.size()) return rows;
    Indices order = seededPermutation(rows.size(), seed, 11);
    order.resize(n);
    std::sort(order.begin(), order.end());
    for (std::size_t& i : order) i = rows[i];
    return order;
}

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

Eigen::MatrixXd EvidenceObjective::heldOutDecisions(const EvidencePoint& fitted, const Indices& test, const Progress& progress) const
{
    const Progress half = [&](double f, const std::string& what) { return progress && progress(0.5 * f, what); };
    const EvidencePoint fit = fitted.weights ? fitted : evaluate(fitted.params, false, half);
    const Eigen::MatrixXd& W = *fit.weights;
    const RowBlocks testBlocks{Eigen::Index(test.size()), Eigen::Index(config_.blockRows)};
    std::vector<MatrixXfR> none;
    bool dual = false;
    Lap lap;
    MatrixXfR held = ownFeatures(fit.params, {}, none, test, testBlocks, dual, [&](double f, const std::string& what) {
        return progress && progress(fitted.weights ? f : 0.5 + 0.5 * f, what);
    });
    stages_.features += lap.next();
    stages_.heldRows = std::max<long long>(stages_.heldRows, held.rows());
    Eigen::MatrixXd decision;
    if (dual) {  // every row on every rank
        ranks_.allGatherRows(held, testBlocks);
        stages_.reduction += lap.next();
        decision = timesDouble(held, W);
    } else {     // each rank its test blocks, one product per block (the same calls at any number of ranks)
        const Eigen::Index first = ranks_.firstRow(testBlocks);
        Eigen::MatrixXd mine(held.rows(), W.cols());
        ranks_.forOwnRows(testBlocks, 0, [&](Eigen::Index r0, Eigen::Index r1) {
            mine.middleRows(r0 - first, r1 - r0) = timesDouble(MatrixXfR(held.middleRows(r0 - first, r1 - r0)), W);
        });
        decision.resize(Eigen::Index(test.size()), W.cols());
        Eigen::Index at = 0;
        for (const Eigen::MatrixXd& piece : ranks_.allPieces(mine)) {
            decision.middleRows(at, piece.rows()) = piece;
            at += piece.rows();
        }
    }
    stages_.solve += lap.next();
    return decision;
}

double EvidenceObjective::heldOutScore(const EvidencePoint& fitted, const Indices& test, const Progress& progress) const
{
    return scoreOf(heldOutDecisions(fitted, test, progress), test);
}

double EvidenceObjective::scoreOf(const Eigen::MatrixXd& decision, const Indices& test) const
{
    if (config_.targetClass >= 0) throw ContractError("EvidenceObjective::scoreOf", "one class's objective scores no classes");
    if (data_.isClassification()) return accuracy(TargetCoding::argmax(decision), select(data_.labels, test));
    return rmse(targetCoding(data_, rows_).decode(decision), select(data_.targets, test));
}

std::vector<Eigen::Index> EvidenceObjective::ownedStarts(const RowBlocks& blocks) const
{
    std::vector<Eigen::Index> starts;
    for (int q = 0; q < ranks_.size(); ++q) starts.push_back(ranks_.firstBlock(blocks.count(), q));
    starts.push_back(blocks.count());
    return starts;
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
                                         std::vector<MatrixXfR>& dPhi, const Indices& rows, const RowBlocks& blocks, bool& dual,
                                         const Progress& progress) const
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
    const Eigen::Index first = ranks_.firstRow(blocks), own = std::max<Eigen::Index>(1, ranks_.lastRow(blocks) - first);
    dual = D > Eigen::Index(rows_.size());  // the dual form gathers every row; the primal keeps its own
    const Eigen::Index held = dual ? blocks.rows : ranks_.lastRow(blocks) - first, offset = dual ? 0 : first;
    data_.requireHeld(Indices(rows.begin() + first, rows.begin() + ranks_.lastRow(blocks)), "learn (features)");
    if (tangents_) {  // this rank's run of blocks in one call: the elements and moved templates made once
        const Indices mine(rows.begin() + first, rows.begin() + ranks_.lastRow(blocks));
        MatrixXfR Pown;
        std::vector<MatrixXfR> dOwn;
        tangents_->compute(dist, data_.X, mine, params, Pown, dOwn, [&](double f, const std::string& what) {
            reportProgress(progress, f, what);
            return false;
        }, blocks.blockRows);
        if (!dual) {
            dPhi = std::move(dOwn);
            return Pown;
        }
        MatrixXfR Phi = MatrixXfR::Zero(held, D);
        Phi.middleRows(first, Pown.rows()) = Pown;
        dPhi.assign(params.size(), MatrixXfR::Zero(held, D));
        for (std::size_t m = 0; m < params.size(); ++m) dPhi[m].middleRows(first, dOwn[m].rows()) = dOwn[m];
        return Phi;
    }
    MatrixXfR Phi = MatrixXfR::Zero(held, D);
    dPhi.assign(params.size(), MatrixXfR::Zero(held, D));
    ranks_.forOwnRows(blocks, 0, [&](Eigen::Index r0, Eigen::Index r1) {
        reportProgress(progress, 0.2 + 0.8 * double(r0 - first) / double(own), "features");
        Phi.middleRows(r0 - offset, r1 - r0) = map->transform(selectRows(data_.X, Indices(rows.begin() + r0, rows.begin() + r1)));
    });
    return Phi;
}

/// The evidence of the features at some values, as evaluateInBlocks and evaluateEachClass build
/// it: this rank's feature rows (and derivatives), and in the primal form the block sums
/// [Phi^T Phi | Phi^T T | Phi^T dPhi_1 .. Phi^T dPhi_M] over the ranks; in the dual form every row.
struct EvidenceObjective::Fitted {
    MatrixXfR Phi;
    std::vector<MatrixXfR> dPhi;
    bool dual = false;
    RowBlocks blocks;
    std::vector<Eigen::Index> starts;
    Eigen::Index first = 0;
    std::optional<LinearEvidence> evidence;
    Eigen::MatrixXd G;              ///< Phi^T Phi, kept for the gradient (primal)
    std::vector<Eigen::MatrixXd> H; ///< Phi^T dPhi_m (primal)
    BlockSumTimes sums;
};

EvidenceObjective::Fitted EvidenceObjective::fitAt(const std::map<std::string, double>& values, bool gradient,
                                                   const Progress& progress) const
{
    Fitted f;
    f.blocks = RowBlocks{Eigen::Index(rows_.size()), Eigen::Index(config_.blockRows)};
    Lap lap;
    f.Phi = ownFeatures(values, gradient ? params_ : std::vector<std::string>{}, f.dPhi, rows_, f.blocks, f.dual, progress);
    stages_.features += lap.next();
    stages_.heldRows = std::max<long long>(stages_.heldRows, f.Phi.rows());
    if (f.dual) {  // the dual form needs every row on every rank
        ranks_.allGatherRows(f.Phi, f.blocks);
        for (MatrixXfR& d : f.dPhi) ranks_.allGatherRows(d, f.blocks);
        stages_.reduction += lap.next();
        f.evidence.emplace(f.Phi, targets_);
        stages_.solve += lap.next();
        return f;
    }
    // Primal: the normal equations, and for the gradient Phi^T dPhi_m, go block by block in the
    // fixed tree of orbit/parallel/BlockSum.hpp, each rank summing the blocks it holds.
    f.starts = ownedStarts(f.blocks);
    f.first = ranks_.firstRow(f.blocks);
    const Eigen::Index D = f.Phi.cols(), C = targets_.cols(), M = Eigen::Index(f.dPhi.size());
    const Eigen::MatrixXd S = sumOverOwnedBlocks(ranks_, f.starts, [&](Eigen::Index b) {
        const Eigen::Index r0 = f.blocks.begin(b), n = f.blocks.end(b) - r0;
        const MatrixXfR Fb = f.Phi.middleRows(r0 - f.first, n);
        Eigen::MatrixXd leaf = gramOfColumns(Fb);
        leaf.conservativeResize(D, D + C + M * D);
        leaf.middleCols(D, C) = transposeTimes(Fb, targets_.middleRows(r0, n));
        // Phi_b^T dPhi_b in float32, the dispatched product of orbit/linalg/Gemm.hpp: a row-major
        // n x D block read column-major is its D x n transpose, so this is A B^T of two such views.
        using ColMap = Eigen::Map<const Eigen::MatrixXf, 0, Eigen::OuterStride<>>;
        Eigen::MatrixXf H(D, D);
        for (Eigen::Index m = 0; m < M; ++m) {
            const MatrixXfR& dPhi = f.dPhi[std::size_t(m)];
            gemmABt(ColMap(Fb.data(), D, n, Eigen::OuterStride<>(D)),
                    ColMap(dPhi.data() + (r0 - f.first) * D, D, n, Eigen::OuterStride<>(D)), H);
            leaf.middleCols(D + C + m * D, D) = H.cast<double>();
        }
        return leaf;
    }, &f.sums);
    stages_.productRows += static_cast<long long>(rows_.size());
    NormalEquations normal;
    normal.samples = Eigen::Index(rows_.size());
    normal.G = S.leftCols(D);
    normal.B = S.middleCols(D, C);
    if (gradient) f.G = normal.G;
    for (Eigen::Index m = 0; m < M; ++m) f.H.push_back(S.middleCols(D + C + m * D, D));
    f.evidence.emplace(std::move(normal), Eigen::VectorXd(targets_.colwise().squaredNorm().transpose()));
    return f;
}

EvidencePoint EvidenceObjective::evaluateInBlocks(const std::map<std::string, double>& values, bool gradient,
                                                  const Progress& progress) const
{
    EvidencePoint point;
    point.params = values;
    Fitted f = fitAt(values, gradient, progress);
    Lap lap;
    if (f.dual) {
        evidenceOfAllRows(*f.evidence, f.Phi, f.dPhi, targets_, point);
        stages_.solve += lap.next();
        return point;
    }
    const LinearEvidence& evidence = *f.evidence;
    const LinearEvidence::Optimum o = evidence.maximise(1.0, 1.0);
    point.logEvidence = o.logEvidence;
    point.alpha = o.alpha;
    point.beta = o.beta;
    const Eigen::MatrixXd W = evidence.posteriorMean(o.alpha, o.beta);
    point.weights = std::make_shared<const Eigen::MatrixXd>(W);
    if (gradient) {
        // r_m = sum_c (t_c - Phi m_c)^T dPhi_m m_c, row block by row block.
        const Eigen::Index M = Eigen::Index(f.dPhi.size());
        const Eigen::MatrixXd residualSums = sumOverOwnedBlocks(ranks_, f.starts, [&](Eigen::Index b) {
            const Eigen::Index r0 = f.blocks.begin(b), n = f.blocks.end(b) - r0;
            const Eigen::MatrixXd R = targets_.middleRows(r0, n) - timesDouble(MatrixXfR(f.Phi.middleRows(r0 - f.first, n)), W);
            Eigen::MatrixXd leaf(1, M);
            for (Eigen::Index m = 0; m < M; ++m)
                leaf(0, m) = (R.array() * timesDouble(MatrixXfR(f.dPhi[std::size_t(m)].middleRows(r0 - f.first, n)), W).array()).sum();
            return leaf;
        }, &f.sums);
        const std::vector<double> residualTerms(residualSums.data(), residualSums.data() + M);
        point.gradient = evidence.gradientFromSums(o.alpha, o.beta, f.G, residualTerms, f.H);
    }
    addSums(stages_, f.sums, lap.next());
    return point;
}

std::vector<EvidencePoint> EvidenceObjective::evaluateEachClass(const std::map<std::string, double>& values, bool gradient,
                                                                const Progress& progress) const
{
    if (!data_.isClassification() || config_.targetClass >= 0)
        throw ContractError("EvidenceObjective::evaluateEachClass", "needs the objective of every class");
    if (config_.doublePrecision) throw ContractError("EvidenceObjective::evaluateEachClass", "float precision only");
    if (gradient && !hasGradient())
        throw SpecError("learn", "no gradient for these features and parameters", config_.features);
    Fitted f = fitAt(values, gradient, progress);
    Lap lap;
    const Eigen::Index C = targets_.cols();
    std::vector<EvidencePoint> points(static_cast<std::size_t>(C));
    std::vector<LinearEvidence> columns;
    for (Eigen::Index c = 0; c < C; ++c) {
        EvidencePoint& p = points[std::size_t(c)];
        p.params = values;
        columns.push_back(f.evidence->column(c));
        if (f.dual) {  // every row here: the class's gradient from its own feature gradient
            evidenceOfAllRows(columns.back(), f.Phi, f.dPhi, Eigen::MatrixXd(targets_.col(c)), p);
            continue;
        }
        const LinearEvidence::Optimum o = columns.back().maximise(1.0, 1.0);
        p.logEvidence = o.logEvidence;
        p.alpha = o.alpha;
        p.beta = o.beta;
        p.weights = std::make_shared<const Eigen::MatrixXd>(columns.back().posteriorMean(o.alpha, o.beta));
    }
    if (gradient && !f.dual) {
        // r_cm = (t_c - Phi m_c)^T dPhi_m m_c for every class at once, row block by row block.
        Eigen::MatrixXd W(f.Phi.cols(), C);
        for (Eigen::Index c = 0; c < C; ++c) W.col(c) = points[std::size_t(c)].weights->col(0);
        const Eigen::Index M = Eigen::Index(f.dPhi.size());
        const Eigen::MatrixXd residualSums = sumOverOwnedBlocks(ranks_, f.starts, [&](Eigen::Index b) {
            const Eigen::Index r0 = f.blocks.begin(b), n = f.blocks.end(b) - r0;
            const Eigen::MatrixXd R = targets_.middleRows(r0, n) - timesDouble(MatrixXfR(f.Phi.middleRows(r0 - f.first, n)), W);
            Eigen::MatrixXd leaf(C, M);
            for (Eigen::Index m = 0; m < M; ++m)
                leaf.col(m) = (R.array() * timesDouble(MatrixXfR(f.dPhi[std::size_t(m)].middleRows(r0 - f.first, n)), W).array())
                                  .colwise().sum().transpose();
            return leaf;
        }, &f.sums);
        for (Eigen::Index c = 0; c < C; ++c) {
            EvidencePoint& p = points[std::size_t(c)];
            const Eigen::VectorXd r = residualSums.row(c).transpose();
            p.gradient = columns[std::size_t(c)].gradientFromSums(p.alpha, p.beta, f.G, std::vector<double>(r.data(), r.data() + M), f.H);
        }
    }
    if (f.dual) stages_.solve += lap.next();
    else addSums(stages_, f.sums, lap.next());
    return points;
}

EvidencePoint EvidenceObjective::evaluateInDouble(const std::map<std::string, double>& values, bool gradient,
                                                  const Progress& progress) const
{
    if (!tangents_) throw SpecError("precision", "double precision needs irf features of a differentiable group", config_.features);
    EvidencePoint point;
    point.params = values;
    std::vector<MatrixXdR> dPhi;
    MatrixXdR Phi;
    Lap lap;
    data_.requireHeld(rows_, "learn (double precision)");
    tangents_->compute(dist_->withParameters(values), data_.X, rows_, gradient ? params_ : std::vector<std::string>{}, Phi,
                       dPhi, progress);
    stages_.features += lap.next();
    stages_.heldRows = std::max<long long>(stages_.heldRows, Phi.rows());
    evidenceOfAllRows(LinearEvidence(Phi, targets_), Phi, dPhi, targets_, point);
    stages_.solve += lap.next();
    return point;
}

} // namespace orbit

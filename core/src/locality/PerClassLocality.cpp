#include "orbit/locality/PerClassLocality.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "util/Deterministic.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

namespace orbit {

namespace {

/// A class's result as one column, for Ranks::deal: log evidence, evaluations, converged + 2 kept
/// global, its evidence at the global theta, the learned values (in `params` order), then its
/// decision on every test row.
constexpr Eigen::Index kPackedHead = 4;
Eigen::MatrixXd packed(const ClassLocality& c, const std::vector<std::string>& params, const Eigen::VectorXd& decisions)
{
    Eigen::MatrixXd m(kPackedHead + Eigen::Index(params.size()) + decisions.size(), 1);
    m(0, 0) = c.logEvidence;
    m(1, 0) = double(c.evaluations);
    m(2, 0) = (c.converged ? 1.0 : 0.0) + (c.keptGlobal ? 2.0 : 0.0);
    m(3, 0) = c.globalLogEvidence;
    for (std::size_t i = 0; i < params.size(); ++i) m(kPackedHead + Eigen::Index(i), 0) = c.learned.at(params[i]);
    m.bottomRows(decisions.size()) = decisions;
    return m;
}

/// What packed() wrote (the trajectory stays with the process that learned the class).
ClassLocality unpacked(const Eigen::MatrixXd& m, int label, const std::vector<std::string>& params, Eigen::VectorXd& decisions)
{
    ClassLocality c;
    c.label = label;
    c.logEvidence = m(0, 0);
    c.evaluations = std::size_t(m(1, 0));
    c.converged = (int(m(2, 0)) & 1) != 0;
    c.keptGlobal = (int(m(2, 0)) & 2) != 0;
    c.globalLogEvidence = m(3, 0);
    for (std::size_t i = 0; i < params.size(); ++i) c.learned[params[i]] = m(kPackedHead + Eigen::Index(i), 0);
    decisions = m.bottomRows(m.rows() - kPackedHead - Eigen::Index(params.size()));
    return c;
}

} // namespace

std::optional<double> rotationWindowDegrees(const Distribution& dist, double mass)
{
    if (dist.densityParameter().rfind("theta", 0) != 0 || !dist.hasDensity() || !dist.isSymmetric()) return std::nullopt;
    constexpr int n = 20000;
    const double pi = 3.14159265358979323846, h = pi / n;
    std::vector<double> outward(n + 1, 0.0);  // the mass of [-t, t] at t = i h (midpoint rule)
    for (int i = 0; i < n; ++i) {
        const double t = (i + 0.5) * h;
        outward[std::size_t(i + 1)] = outward[std::size_t(i)] + h * (dist.density(t) + dist.density(-t));
    }
    const double want = mass * outward.back();
    const auto it = std::lower_bound(outward.begin(), outward.end(), want);
    const auto i = std::size_t(std::max<std::ptrdiff_t>(1, it - outward.begin()));
    const double lo = outward[i - 1], hi = outward[std::min(i, std::size_t(n))];
    const double t = h * (double(i - 1) + (hi > lo ? (want - lo) / (hi - lo) : 0.0));
    return 2.0 * t * 180.0 / pi;
}

ClassDistributions ClassDistributions::parse(const std::string& text, const std::string& fallback, int classes)
{
    ClassDistributions out;
    out.fallback = fallback;
    if (trim(text).empty()) return out;
    for (const std::string& raw : split(text, ';')) {
        const std::string part = trim(raw);
        if (part.empty()) continue;
        const auto eq = part.find('=');
        const std::optional<long long> label = eq == std::string::npos ? std::nullopt : parseInteger(trim(part.substr(0, eq)));
        if (!label) throw SpecError("dist-per-class", "expected CLASS=SPEC (several separated by ';')", part);
        if (*label < 0 || *label >= classes)
            throw SpecError("dist-per-class", "class " + std::to_string(*label) + " is not a class of the data (labels 0 to " +
                                                  std::to_string(classes - 1) + ")",
                            part);
        const std::string spec = trim(part.substr(eq + 1));
        if (spec.empty()) throw SpecError("dist-per-class", "class " + std::to_string(*label) + " has an empty spec", part);
        if (!out.named.emplace(int(*label), spec).second)
            throw SpecError("dist-per-class", "class " + std::to_string(*label) + " is given twice", part);
    }
    return out;
}

void ClassDistributions::check(const Group& group) const
{
    for (const auto& [label, spec] : named) {
        try {
            makeDistribution(spec, group);
        } catch (const SpecError& e) {
            throw SpecError("dist-per-class", "class " + std::to_string(label) + ": " + e.detail(), spec);
        }
    }
}

const std::string& ClassDistributions::of(int label) const
{
    const auto it = named.find(label);
    return it == named.end() ? fallback : it->second;
}

std::string ClassDistributions::text() const
{
    std::string out;
    for (const auto& [label, spec] : named) out += (out.empty() ? "" : ";") + std::to_string(label) + "=" + spec;
    return out;
}

std::vector<std::pair<std::string, std::vector<int>>> ClassDistributions::distinct(int classes) const
{
    std::vector<std::pair<std::string, std::vector<int>>> out{{fallback, {}}};
    for (int c = 0; c < classes; ++c) {
        const std::string& spec = of(c);
        auto it = std::find_if(out.begin(), out.end(), [&](const auto& g) { return g.first == spec; });
        if (it == out.end()) it = out.insert(out.end(), {spec, {}});
        it->second.push_back(c);
    }
    if (out.front().second.empty()) out.erase(out.begin());
    return out;
}

PerClassFit fitPerClass(const Dataset& data, const Indices& train, const Indices& test, const LocalityConfig& config,
                        const ClassDistributions& dists, const Progress& progress)
{
    if (!data.isClassification())
        throw SpecError("per-class", "needs class labels: regression targets have no classes to give distributions to", data.source);
    const int C = data.numClasses;
    const auto groups = dists.distinct(C);
    PerClassFit out;
    out.decisions.resize(Eigen::Index(test.size()), C);
    out.logEvidence.assign(std::size_t(C), 0.0);
    std::string kernel = config.kernel;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto& [spec, classes] = groups[g];
        LocalityConfig one = config;
        one.dist = spec;
        one.learn.clear();
        one.bounds.clear();
        one.targetClass = -1;
        one.kernel = kernel;
        const Progress part = [&, g](double f, const std::string& what) {
            return progress && progress((double(g) + f) / double(groups.size()), spec + ": " + what);
        };
        const EvidenceObjective objective(data, train, one);
        kernel = objective.kernelSpec();  // the median rule resolved once, the same kernel for every spec
        const std::vector<EvidencePoint> points = objective.evaluateEachClass({}, false, [&](double f, const std::string& w) {
            return part(0.5 * f, w);
        });
        EvidencePoint joint = points.front();
        Eigen::MatrixXd W(points.front().weights->rows(), Eigen::Index(classes.size()));
        for (std::size_t k = 0; k < classes.size(); ++k) {
            const EvidencePoint& p = points[std::size_t(classes[k])];
            W.col(Eigen::Index(k)) = p.weights->col(0);
            out.logEvidence[std::size_t(classes[k])] = p.logEvidence;
        }
        out.featureDim = std::size_t(W.rows());
        joint.weights = std::make_shared<const Eigen::MatrixXd>(std::move(W));
        if (!test.empty()) {
            const Eigen::MatrixXd d = objective.heldOutDecisions(joint, test, [&](double f, const std::string& w) {
                return part(0.5 + 0.5 * f, w);
            });
            for (std::size_t k = 0; k < classes.size(); ++k) out.decisions.col(classes[k]) = d.col(Eigen::Index(k));
        }
    }
    if (!test.empty()) out.predicted = TargetCoding::argmax(out.decisions);
    return out;
}

TrainResult trainPerClass(const Dataset& data, const TrainConfig& config, const ClassDistributions& dists, const Progress& progress)
{
    const auto t0 = std::chrono::steady_clock::now();
    config.validate();
    if (!data.isClassification())
        throw SpecError("per-class", "needs class labels: regression targets have no classes to give distributions to", data.source);
    const LearnerDescriptor& learner = parseLearner(config.learner);
    if (learner.oneVsRest) {  // each class on its own features
        std::vector<std::string> classDists;
        for (int c = 0; c < data.numClasses; ++c) classDists.push_back(dists.of(c));
        return trainClassFeatures(data, config, classDists, progress);
    }
    if (!learner.perClassEvidence)
        throw SpecError("learner", "a per-class model is one-vs-rest " +
                                       learnerList([](const LearnerDescriptor& l) { return l.oneVsRest; }) + ", or " +
                                       learnerList([](const LearnerDescriptor& l) { return l.perClassEvidence; }) +
                                       " with each class's own precisions",
                        config.learner);
    if (!config.grid.empty()) throw SpecError("grid", "a per-class model searches no grid (blr maximises its evidence)", config.grid.front().name);
    LocalityConfig local;
    local.features = config.features;
    local.group = config.group;
    local.dist = dists.fallback;
    if (!config.kernel.empty()) local.kernel = config.kernel;
    local.seed = config.seed;
    local.blockRows = config.blockRows;
    local.validate();
    const std::vector<Split> outer = outerSplits(data, config);
    TrainResult r;
    r.metric = "accuracy";
    r.confusion = Eigen::MatrixXi::Zero(data.numClasses, data.numClasses);
    std::vector<double> scores, evidences;
    for (std::size_t f = 0; f < outer.size(); ++f) {
        const auto f0 = std::chrono::steady_clock::now();
        const Split& s = outer[f];
        const PerClassFit fit = fitPerClass(data, s.train, s.test, local, dists, [&](double x, const std::string& what) {
            return progress && progress((double(f) + x) / double(outer.size()), "fold " + std::to_string(f + 1) + ": " + what);
        });
        const std::vector<int> truth = select(data.labels, s.test);
        FoldResult fr;
        fr.score = accuracy(fit.predicted, truth);
        for (double e : fit.logEvidence) fr.logEvidence += e;
        fr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - f0).count();
        r.confusion += confusionMatrix(fit.predicted, truth, data.numClasses);
        for (std::size_t k = 0; k < s.test.size(); ++k) r.predictions.push_back({s.test[k], f, truth[k], fit.predicted[k]});
        r.featureDim = Eigen::Index(fit.featureDim);
        scores.push_back(fr.score);
        evidences.push_back(fr.logEvidence);
        r.folds.push_back(std::move(fr));
    }
    r.mean = mean(scores);
    r.stddev = standardDeviation(scores);
    r.logEvidence = mean(evidences);
    r.featureSpec = config.features;
    reportProgress(progress, 1.0, "done");
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

PerClassResult learnPerClass(const Dataset& data, const LocalityConfig& config, const Progress& progress,
                             const ClassLearned& learned, const Ranks& ranks)
{
    const auto t0 = std::chrono::steady_clock::now();
    config.validate();
    if (!data.isClassification())
        throw SpecError("per-class", "needs class labels: regression targets have no classes to give localities to", data.source);
    if (config.targetClass >= 0) throw ContractError("learnPerClass", "the config names one class already");
    if (config.doublePrecision) throw SpecError("precision", "per-class locality runs in float precision", "double");

    // Progress: the global learn, the shared scan, then the classes; reports arrive from several
    // threads, so they go through one lock, and a cancel stops every class at its next report.
    std::mutex lock;
    std::atomic<bool> cancelled{false};
    auto part = [&](double from, double to, std::string prefix) -> Progress {
        return [&, from, to, prefix](double f, const std::string& what) {
            const std::lock_guard<std::mutex> guard(lock);
            if (progress && progress(from + (to - from) * f, prefix + what)) cancelled = true;
            return cancelled.load();
        };
    };

    PerClassResult out;
    out.params = config.learn;
    out.global = learnLocality(data, config, part(0.0, 0.15, "one locality for every class: "), {}, ranks);
    Indices test;
    const Indices rows = learningRows(data, config, &test);
    out.trainRows = rows.size();
    out.testRows = test;
    const EvidenceObjective all(data, rows, config, ranks);
    const std::vector<SearchRange> ranges = searchRanges(all, config);
    const int C = data.numClasses;
    // Every class at the global theta, with its gradient, from one feature computation: the sum to
    // compare with, and each class's seed (its search climbs from there and never ends below it).
    const std::vector<EvidencePoint> atGlobal =
        all.evaluateEachClass(out.global.learned, all.hasGradient(), part(0.15, 0.2, "every class at the global value: "));
    for (const EvidencePoint& p : atGlobal) out.globalPerClassEvidence += p.logEvidence;
    out.globalWindowDegrees = rotationWindowDegrees(*all.distribution().withParameters(out.global.learned));

    // The shared scan at full size: every class's evidence at each scanned value from one feature
    // computation, so it can be denser than one search's own (scanValues of three times the budget:
    // 15 values for one parameter). A pilot's one-hot column (a quarter of the rows, ~35 of a class
    // in measurement a) is too noisy to tell a class's peaks apart; the full-size scan costs each
    // class nothing of its own.
    const std::vector<std::map<std::string, double>> values = scanValues(ranges, 3 * config.maxEvaluations);
    std::vector<std::vector<EvidencePoint>> scanOf(static_cast<std::size_t>(C));
    for (std::size_t k = 0; k < values.size(); ++k) {
        const Progress at = part(0.2 + 0.25 * double(k) / double(values.size()), 0.2 + 0.25 * double(k + 1) / double(values.size()),
                                 "shared scan " + std::to_string(k + 1) + "/" + std::to_string(values.size()) + ": ");
        const std::vector<EvidencePoint> points = all.evaluateEachClass(values[k], false, [&](double f, const std::string& w) {
            reportProgress(at, f, w);
            return false;
        });
        for (int c = 0; c < C; ++c) scanOf[std::size_t(c)].push_back(points[std::size_t(c)]);
    }

    // Each class on the rank c mod P, this rank's side by side on threads sharing its cores.
    std::vector<int> mine;
    for (int c = 0; c < C; ++c)
        if (c % ranks.size() == ranks.rank()) mine.push_back(c);
    std::vector<ClassLocality> done(static_cast<std::size_t>(C));
    std::vector<Eigen::VectorXd> decisions(static_cast<std::size_t>(C));
    std::vector<double> fraction(static_cast<std::size_t>(C), 0.0);
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    LocalityConfig resolved = config;  // the kernel as `all` resolved it, for every class's objective
    resolved.kernel = all.kernelSpec();
    auto learnOne = [&](int c) {
        const auto k = std::size_t(c);
        const Progress classProgress = [&, c, k](double f, const std::string& what) {
            const std::lock_guard<std::mutex> guard(lock);
            fraction[k] = f;
            double sum = 0.0;
            for (int q : mine) sum += fraction[std::size_t(q)];
            if (progress && progress(0.45 + 0.55 * sum / double(mine.size()), "class " + std::to_string(c) + ": " + what))
                cancelled = true;
            return cancelled.load();
        };
        LocalityConfig one = resolved;
        one.targetClass = c;
        const EvidenceObjective objective(data, rows, one, oneProcess());
        KnownPoints known;
        known.scanned = scanOf[k];
        known.seeds = {atGlobal[k]};
        const SearchOutcome found = maximiseEvidence(objective, {}, {}, ranges, config.maxEvaluations, classProgress, {}, {}, known);
        ClassLocality& r = done[k];
        r.label = c;
        r.globalLogEvidence = atGlobal[k].logEvidence;
        r.keptGlobal = !(found.best.logEvidence > atGlobal[k].logEvidence);  // the seed is the best it found
        r.learned = found.best.params;
        r.dist = objective.distSpec(r.learned);
        r.windowDegrees = rotationWindowDegrees(*objective.distribution().withParameters(r.learned));
        r.logEvidence = found.best.logEvidence;
        r.evaluations = found.trajectory.size() - known.seeds.size() - known.scanned.size();
        r.converged = found.converged;
        r.trajectory = found.trajectory;
        // A class that keeps the global theta is scored below, with the others that keep it, from
        // one computation of the test rows' features there.
        if (!test.empty() && !r.keptGlobal) decisions[k] = objective.heldOutDecisions(found.best, test).col(0);
        const std::lock_guard<std::mutex> guard(lock);
        if (learned) learned(r);
    };
    auto worker = [&] {
        const ComputeShare share;
        for (std::size_t i = next++; i < mine.size() && !cancelled; i = next++) {
            try {
                learnOne(mine[i]);
            } catch (...) {
                const std::lock_guard<std::mutex> guard(lock);
                if (!error) error = std::current_exception();
                cancelled = true;
            }
        }
    };
    // Classes run side by side on threads of their own, outside any OpenMP region: Eigen would start
    // its own team in each product there, of a size that depends on what else runs (two teams at
    // once may get fewer threads), and sum in another order; so the bits of a class depended on the
    // thread that learned it (sameBitsAtAnyThreadCount failed in full suite runs). One product, one
    // thread, as inside the core's parallel loops (util/Deterministic.hpp).
    const detail::SerialEigen serial;
    const std::size_t threads = std::min<std::size_t>(mine.size(), std::size_t(std::max(1, computeBudget())));
    std::vector<std::thread> team;
    for (std::size_t t = 1; t < threads; ++t) team.emplace_back(worker);
    worker();
    for (std::thread& t : team) t.join();
    if (error) std::rethrow_exception(error);
    if (cancelled) throw Cancelled();
    std::vector<int> kept;
    for (int c : mine)
        if (done[std::size_t(c)].keptGlobal) kept.push_back(c);
    if (!test.empty() && !kept.empty()) {
        EvidencePoint joint = atGlobal.front();
        Eigen::MatrixXd W(atGlobal.front().weights->rows(), Eigen::Index(kept.size()));
        for (std::size_t i = 0; i < kept.size(); ++i) W.col(Eigen::Index(i)) = atGlobal[std::size_t(kept[i])].weights->col(0);
        joint.weights = std::make_shared<const Eigen::MatrixXd>(std::move(W));
        const Eigen::MatrixXd d = EvidenceObjective(data, rows, resolved, oneProcess()).heldOutDecisions(joint, test);
        for (std::size_t i = 0; i < kept.size(); ++i) decisions[std::size_t(kept[i])] = d.col(Eigen::Index(i));
    }

    // Every class's result on every rank; then the per-class model's argmax on the test rows.
    const std::vector<Eigen::MatrixXd> results = ranks.deal(0, std::size_t(C), [&](std::size_t k) {
        return packed(done[k], config.learn, decisions[k]);
    });
    for (int c = 0; c < C; ++c) {
        const auto k = std::size_t(c);
        if (c % ranks.size() != ranks.rank()) {
            done[k] = unpacked(results[k], c, config.learn, decisions[k]);
            done[k].dist = all.distSpec(done[k].learned);
            done[k].windowDegrees = rotationWindowDegrees(*all.distribution().withParameters(done[k].learned));
        }
        out.logEvidence += done[k].logEvidence;
    }
    if (!test.empty()) {
        Eigen::MatrixXd decision(Eigen::Index(test.size()), C);
        for (int c = 0; c < C; ++c) decision.col(c) = decisions[std::size_t(c)];
        out.testPredictions = TargetCoding::argmax(decision);
        const std::vector<int> truth = select(data.labels, test);
        out.metric = "accuracy";
        out.test = accuracy(out.testPredictions, truth);
        const Eigen::MatrixXi confusion = confusionMatrix(out.testPredictions, truth, C);
        for (int c = 0; c < C; ++c) {  // each class's recall: its row of the confusion matrix
            ClassLocality& r = done[std::size_t(c)];
            r.testRows = std::size_t(confusion.row(c).sum());
            if (r.testRows > 0) r.test = double(confusion(c, c)) / double(r.testRows);
        }
    }
    out.classes = std::move(done);
    out.ranks = ranks.size();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

} // namespace orbit

#include "orbit/locality/LocalityLearning.hpp"

#include "locality/EvidenceSearch.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ReadableNumber.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <optional>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>

namespace orbit {

using namespace detail;

std::vector<PilotLevel> pilotLevels(std::size_t rows, int templates)
{
    constexpr std::size_t kMinRows = 250;
    constexpr int kMinTemplates = 128;
    std::vector<PilotLevel> levels;
    auto level = [&](std::size_t part) {
        PilotLevel p;
        p.rows = std::max(kMinRows, (rows + part - 1) / part);
        p.templates = std::max(kMinTemplates, int((std::size_t(templates) + part - 1) / part));
        return p;
    };
    const PilotLevel quarter = level(4), eighth = level(8);
    if (quarter.rows >= rows || quarter.templates >= templates ||
        8.0 * double(quarter.rows) * quarter.templates > double(rows) * templates)
        return levels;
    if (eighth.rows < quarter.rows && eighth.templates < quarter.templates) levels.push_back(eighth);
    levels.push_back(quarter);
    return levels;
}

SearchOutcome maximiseEvidence(const EvidenceFunction& full, const std::vector<const EvidenceFunction*>& pilots,
                               const std::vector<double>& scales, const std::vector<SearchRange>& ranges, int maxEvaluations,
                               const Progress& progress, const LearnStep& step, const LearnStep& pilotStep,
                               const KnownPoints& known)
{
    if (ranges.empty()) throw ContractError("maximiseEvidence", "no parameter to learn");
    requireSize("maximiseEvidence", "pilot scales", static_cast<long long>(scales.size()), static_cast<long long>(pilots.size()));
    for (const EvidenceFunction* p : pilots)
        if (!p || !p->hasGradient() || !full.hasGradient())
            throw ContractError("maximiseEvidence", "pilots need gradients of every function");
    for (const EvidencePoint& seed : known.seeds)
        if (full.hasGradient() && seed.gradient.size() != ranges.size())
            throw ContractError("maximiseEvidence", "a seed needs its gradient (the function has one)");
    const Box box(ranges);
    const std::size_t m = box.size(), levels = pilots.size();
    const int points = scanPoints(m, maxEvaluations);
    std::vector<std::unique_ptr<Search>> cheap;
    for (std::size_t k = 0; k < levels; ++k)
        cheap.push_back(std::make_unique<Search>(*pilots[k], box, 3 * maxEvaluations, "pilot " + std::to_string(k + 1) + " evaluation",
                                                 progress, 0.3 * double(k) / double(levels), 0.3 * double(k + 1) / double(levels),
                                                 pilotStep, int(k)));
    // Known full-size points are recorded outside the budget: the seeds, and the scan at full size.
    const int recorded = int(known.seeds.size()) + (levels ? 0 : int(known.scanned.size()));
    Search main(full, box, maxEvaluations + recorded, "evaluation", progress, levels ? 0.3 : 0.0, 1.0, step, -1);
    Search& scanning = levels ? *cheap.front() : main;
    Search& optimised = levels ? *cheap.back() : main;
    // The seeds open the full-size trajectory (indices 0 .. seeds - 1).
    std::vector<std::size_t> seeds;
    for (const EvidencePoint& seed : known.seeds) {
        main.record(seed, box.toU(seed.params), "seed");
        seeds.push_back(main.lastIndex());
    }
    SearchOutcome out;
    auto finish = [&] {
        for (const auto& c : cheap) out.pilots.push_back(c->trajectory());
        out.trajectory = main.trajectory();
        out.best = main.best();
        return out;
    };

    // Scan.
    std::vector<std::size_t> peaks = scan(scanning, box, points, known.scanned);
    if (!levels && !seeds.empty()) {  // at full size the seeds are places to climb from too
        peaks.insert(peaks.end(), seeds.begin(), seeds.end());
        std::stable_sort(peaks.begin(), peaks.end(), [&](std::size_t a, std::size_t b) {
            return main.trajectory()[a].logEvidence > main.trajectory()[b].logEvidence;
        });
        if (full.hasGradient()) {
            // Seeded at full size (per-class locality: the scan and the seed were evaluated for every
            // class at once): climb with the gradient from the best point known, by refineLine in
            // 1-D (its first curvature from the parabola through its recorded neighbours), else
            // L-BFGS.
            std::size_t from = peaks.front();
            if (main.trajectory()[from].gradient.empty()) {
                if (main.remaining() <= 0) return finish();
                std::vector<double> g;
                main.evaluate(main.points()[from], &g, "refine");
                from = main.lastIndex();
            }
            const double range = spread(main), tol = std::max(1e-3, 5e-4 * range);
            if (m == 1) {
                const double c = curvatureAround(main, from, 8.0 * std::max(range, 1e-3) / (box.width(0) * box.width(0)));
                out.converged = refineLine(main, box, from, seeds, c, tol);
            } else {
                std::vector<double> scale(m);
                for (std::size_t i = 0; i < m; ++i) scale[i] = 1.0 / box.width(i);
                out.converged = localSearch(main, box, main.points()[from], scale, main.remaining(), 1e-3, tol).second == Ending::Converged;
            }
            return finish();
        }
    }
    if (!full.hasGradient()) {  // one parameter at full size, piecewise constant
        bracket(main, box, peaks.front());
        out.converged = main.remaining() > 0;
        return finish();
    }
    // The scan's spread, on the optimised level and at full size (the spread grows with the rows).
    const double scanScale = levels ? scales.front() : 1.0, optimisedScale = levels ? scales.back() : 1.0;
    const double optimisedRange = spread(scanning) * scanScale / optimisedScale, fullRange = spread(scanning) * scanScale;

    // Optimise, on the last pilot (or at full size).
    const bool atFullSize = levels == 0;
    const double xtol = atFullSize ? 1e-3 : 3e-3, ftol = atFullSize ? 1e-3 : std::max(1e-3, 3e-4 * optimisedRange);
    std::vector<std::size_t> optima;
    std::vector<double> curvatures;
    bool converged = true;
    const std::vector<std::size_t> climb = worthClimbing(scanning, peaks);
    if (m == 1) {
        for (std::size_t k : climb) {
            const std::array<double, 3> b = bracketOf(scanning, box, scanning.points()[k][0]);
            const LineOptimum o = climbLine(optimised, box, b[0], b[1], b[2], xtol * box.width(0), ftol, "optimise");
            converged = converged && o.converged;
            if (std::find(optima.begin(), optima.end(), o.best) == optima.end()) {
                optima.push_back(o.best);
                curvatures.push_back(o.curvature);
            }
        }
        std::vector<std::size_t> order(optima.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
            return optimised.trajectory()[optima[x]].logEvidence > optimised.trajectory()[optima[y]].logEvidence;
        });
        std::vector<std::size_t> o2;
        std::vector<double> c2;
        for (std::size_t i : order) {
            o2.push_back(optima[i]);
            c2.push_back(curvatures[i]);
        }
        optima = o2;
        curvatures = c2;
    } else {
        std::vector<std::vector<double>> starts;
        for (std::size_t k : climb) starts.push_back(scanning.points()[k]);
        const auto found = climbAll(optimised, box, starts, xtol, ftol);
        optima = found.first;
        converged = found.second;
    }
    if (atFullSize) {
        out.converged = converged;
        return finish();
    }

    // Refine at full size from the pilot's optima near its best.
    std::vector<double> c;
    if (m == 1) {
        c.push_back(curvatures.front() > 0 ? curvatures.front() : 8.0 * std::max(optimisedRange, 1e-3) / (box.width(0) * box.width(0)));
    } else {
        c = pilotCurvature(optimised, box, optima.front(), optimisedRange);
    }
    for (double& ci : c) ci *= optimisedScale;
    std::size_t from = 0;
    double fFrom = kNoValue;
    for (std::size_t k : seeds)
        if (main.trajectory()[k].logEvidence > fFrom) {
            fFrom = main.trajectory()[k].logEvidence;
            from = k;
        }
    for (std::size_t o : optima) {
        if (optimised.trajectory()[o].logEvidence < optimised.trajectory()[optima.front()].logEvidence - 0.05 * optimisedRange) continue;
        if (main.remaining() <= 0) break;
        std::vector<double> g;
        const double f = main.evaluate(optimised.points()[o], &g, "refine");
        if (f > fFrom) {
            fFrom = f;
            from = main.lastIndex();
        }
    }
    const double tol = std::max(1e-3, 5e-4 * fullRange);
    if (main.trajectory().empty()) {
        out.converged = false;
    } else if (m == 1) {
        out.converged = refineLine(main, box, from, seeds, c[0], tol);
    } else {
        // L-BFGS in z = sqrt(c) (u - u0), where the pilot's curvature is about 1: its first step
        // is about Newton's; converged when half the squared gradient in z is below tol.
        std::vector<double> scale(m);
        for (std::size_t i = 0; i < m; ++i) scale[i] = std::sqrt(c[i]);
        const auto predicted = [tol](double, const std::vector<double>& gz) {
            double q = 0.0;
            for (double g : gz) q += 0.5 * g * g;
            return q <= tol;
        };
        out.converged = localSearch(main, box, main.points()[from], scale, main.remaining(), 1e-4, tol, predicted).second ==
                        Ending::Converged;
    }
    return finish();
}

std::vector<std::map<std::string, double>> scanValues(const std::vector<SearchRange>& ranges, int maxEvaluations)
{
    const Box box(ranges);
    std::vector<std::map<std::string, double>> out;
    for (const std::vector<double>& u : scanPointsIn(box, scanPoints(box.size(), maxEvaluations))) out.push_back(box.values(u));
    return out;
}

std::vector<SearchRange> searchRanges(const EvidenceObjective& objective, const LocalityConfig& config)
{
    const Distribution& dist = objective.distribution();
    const std::size_t m = config.learn.size();
    const std::map<std::string, double> start = objective.startValues();
    std::vector<SearchRange> ranges;
    for (const std::string& name : config.learn) {
        const ParamDescriptor& d = dist.parameterDescriptor(name);
        if (!d.learnable && !(m == 1 && d.sweepable))
            throw SpecError("learn", dist.spec() + ": " + name + " has no gradient (its samples are piecewise constant); "
                                     "learn it alone, by a 1-D search",
                            name);
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
        ranges.push_back({name, l, h, v, d.logScale});
    }
    return ranges;
}

Pilots makePilots(const EvidenceObjective& objective, const LocalityConfig& config)
{
    Pilots p;
    if (!objective.hasGradient() || config.doublePrecision) return p;
    for (PilotLevel& level : pilotLevels(objective.rows().size(), objective.templates())) {
        p.objectives.push_back(objective.pilot(level.rows, level.templates));
        p.functions.push_back(p.objectives.back().get());
        p.scales.push_back(double(objective.rows().size()) / double(level.rows));
        p.levels.push_back(std::move(level));
    }
    return p;
}

LearnResult learnLocality(const Dataset& data, const LocalityConfig& config, const Progress& progress, const LearnStep& step,
                          const Ranks& ranks, const LearnStep& pilotStep)
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
    const std::vector<SearchRange> ranges = searchRanges(objective, config);
    for (const SearchRange& r : ranges) result.bounds[r.name] = {r.lo, r.hi};
    const bool gradient = objective.hasGradient();
    if (!gradient && ranges.size() > 1)
        throw SpecError("learn", "several parameters at once need a gradient: irf features of rotation, translation, "
                                 "scale or affine, and learnable parameters",
                        config.features);
    Pilots pilots = makePilots(objective, config);
    result.pilots = pilots.levels;
    const SearchOutcome found = maximiseEvidence(objective, pilots.functions, pilots.scales, ranges, config.maxEvaluations,
                                                 progress, step, pilotStep);
    result.method = !gradient ? "bracket" : ranges.size() == 1 ? "parabolic" : "lbfgs";

    result.trajectory = found.trajectory;
    for (std::size_t k = 0; k < found.pilots.size(); ++k) result.pilots[k].trajectory = found.pilots[k];
    result.converged = found.converged;
    result.learned = found.best.params;
    result.logEvidence = found.best.logEvidence;
    result.dist = objective.distSpec(result.learned);
    reportProgress(progress, 1.0, "scoring");

    if (!test.empty()) {
        const Eigen::MatrixXd decision = objective.heldOutDecisions(found.best, test);
        result.metric = data.isClassification() ? "accuracy" : "rmse";
        result.test = objective.scoreOf(decision, test);
        if (data.isClassification()) {
            result.testPredictions = TargetCoding::argmax(decision);
        } else {
            const TargetCoding coding = TargetCoding::regression(select(data.targets, objective.rows()));
            result.testMae = mae(coding.decode(decision), select(data.targets, test));
        }
    }
    StageCosts stages = objective.stageCosts();
    for (const auto& pilot : pilots.objectives) {
        const StageCosts& p = pilot->stageCosts();
        stages.features += p.features;
        stages.products += p.products;
        stages.reduction += p.reduction;
        stages.solve += p.solve;
        stages.productRows += p.productRows;
    }
    result.stages = stages.slowest(ranks);
    result.ranks = ranks.size();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

std::vector<LandscapePoint> learnLandscape(const LearnResult& result)
{
    std::vector<LandscapePoint> out;
    for (const EvidencePoint& p : result.trajectory) out.push_back({p.params, p.logEvidence, -1});
    // Level by level downwards: the map of level k onto the full scale is (scale, shift) composed
    // with that of level k + 1.
    double nextScale = 1.0, nextShift = 0.0;
    const std::vector<EvidencePoint>* next = &result.trajectory;
    std::size_t nextRows = result.trainRows;
    for (std::size_t k = result.pilots.size(); k-- > 0;) {
        const PilotLevel& level = result.pilots[k];
        double e0 = 0.0, f0 = kNoValue;
        for (const EvidencePoint& f : *next)
            for (const EvidencePoint& e : level.trajectory)
                if (e.params == f.params && f.logEvidence > f0) {
                    f0 = f.logEvidence;
                    e0 = e.logEvidence;
                }
        if (f0 == kNoValue) break;
        const double ratio = double(nextRows) / double(level.rows);
        // e -> f0 + (e - e0) ratio on the next level, then that level's map onto the full scale.
        const double scale = nextScale * ratio, shift = nextScale * (f0 - e0 * ratio) + nextShift;
        for (const EvidencePoint& e : level.trajectory) out.push_back({e.params, shift + scale * e.logEvidence, int(k)});
        nextScale = scale;
        nextShift = shift;
        next = &level.trajectory;
        nextRows = level.rows;
    }
    std::stable_sort(out.begin(), out.end(), [&](const LandscapePoint& a, const LandscapePoint& b) {
        for (const std::string& name : result.params) {
            const double x = a.params.at(name), y = b.params.at(name);
            if (x != y) return x < y;
        }
        return false;
    });
    return out;
}

} // namespace orbit

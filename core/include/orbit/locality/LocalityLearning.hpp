#pragma once
// Learning the locality (van der Wilk et al. 2018 in LGIKA's setting): an optimiser over the log
// evidence of EvidenceObjective.hpp. The engine behind `orbitlab-cli learn` and the Training
// panel's Learn locality; this header also brings the objective and the evidence curves.
#include "orbit/locality/EvidenceCurves.hpp"
#include "orbit/locality/EvidenceObjective.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace orbit {

/// One pilot of a learn: a cheaper copy of its objective on `rows` of the learning rows and the
/// first `templates` irf templates (EvidenceObjective::pilot), and what it evaluated.
struct PilotLevel {
    std::size_t rows = 0;
    int templates = 0;
    std::vector<EvidencePoint> trajectory;  ///< its evaluations in order (their evidence on its own scale)
};

/// The pilots a learn takes for `rows` learning rows and an irf map of `templates` templates,
/// cheapest first: a quarter of each (at least 250 rows and 128 templates) when that costs at most
/// an eighth of a full evaluation, preceded by an eighth of each when that is still above those
/// minima. None for small problems (they search at full size). Trajectories empty.
std::vector<PilotLevel> pilotLevels(std::size_t rows, int templates);

/// The result of learnLocality.
struct LearnResult {
    std::vector<std::string> params;
    std::map<std::string, double> learned;      ///< the best point found
    std::string dist;                           ///< the learned distribution spec
    double logEvidence = 0.0;
    std::vector<EvidencePoint> trajectory;      ///< every full-size evaluation in order
    std::string method;                         ///< "lbfgs" (gradient) or "bracket" (1-D search without gradient)
    std::map<std::string, std::pair<double, double>> bounds;  ///< the search ranges used
    /// The pilots, cheapest first, with their evaluations (see pilotLevels); none for a learn at
    /// full size only.
    std::vector<PilotLevel> pilots;
    /// True when the search stopped because it predicted no gain above its tolerance (see
    /// maximiseEvidence), false when the evaluation budget ran out first.
    bool converged = false;
    std::string metric;                         ///< with an eval split: "accuracy" or "rmse"
    std::optional<double> test;                 ///< the held-out score of the learned model
    std::optional<double> testMae;              ///< regression: its held-out mean absolute error
    std::size_t trainRows = 0, testRows = 0;
    std::vector<int> testPredictions;           ///< classes: the learned model's class for each test row (learningRows' order)
    double seconds = 0.0;
    int ranks = 1;
    StageCosts stages;                          ///< on the slowest rank, pilot included (EvidenceObjective::stageCosts)
};

/// One learned parameter: its name, its search range [lo, hi] in its own units (searched in
/// u = log v when logScale, else u = v) and the start value inside it.
struct SearchRange {
    std::string name;
    double lo = 0.0, hi = 0.0, start = 0.0;
    bool logScale = false;
};

/// Points of a search that were evaluated elsewhere, for maximiseEvidence to record, not evaluate.
struct KnownPoints {
    /// The scan on the cheapest function (at full size without pilots), at any values inside the
    /// ranges (per-class locality scans scanValues(ranges, 3 x maxEvaluations), denser than a
    /// search's own, since one feature computation serves every class); empty: the search scans
    /// scanValues(ranges, maxEvaluations). At full size it is recorded outside the budget.
    std::vector<EvidencePoint> scanned;
    /// Full-size points, each with its gradient when the function has one (per-class locality: the
    /// class at the global optimum). They open the full-size trajectory (stage "seed"), outside the
    /// budget of maxEvaluations, so the search never ends below them. With pilots the refine climbs
    /// from the best of them and the pilot's optima; at full size with a gradient the search climbs
    /// from the best point known (seed or scanned) with the gradient, instead of bracketing.
    std::vector<EvidencePoint> seeds;
};

/// What maximiseEvidence found.
struct SearchOutcome {
    EvidencePoint best;                         ///< the best full-size evaluation
    std::vector<EvidencePoint> trajectory;      ///< every full-size evaluation in order
    std::vector<std::vector<EvidencePoint>> pilots;  ///< every evaluation of each pilot in order
    bool converged = false;                     ///< see LearnResult::converged
};

/// The search of learnLocality, on any objective (EvidenceObjective, or an analytic curve in the
/// tests), in four stages, with `pilots` (cheaper copies of `full`, cheapest first, each with its
/// `scales` entry: the full curve's curvature over the pilot's, about the ratio of their rows):
///  - bounds: the ranges (given);
///  - scan: the start and points spread over the box (1-D: evenly in u, ends included, 12 for a
///    budget of 30; else Halton points), on the cheapest pilot (or at full size without one), so
///    that the higher of two peaks is seen;
///  - optimise: from the scan's peaks within a tenth of its spread of the best (at most three), on
///    the last pilot (or at full size): one parameter by successive parabolas in the scan's bracket
///    (Brent's method without derivatives); several by L-BFGS (NLopt, bound-constrained) with the
///    gradient, each run until it converges. Without a gradient (one parameter, at full size):
///    golden-section search in the best bracket of the scan.
///  - refine (with pilots): the last pilot's optima within 5 % of the best (in its estimated spread)
///    are evaluated at full size with their gradient, and the search climbs from the best: one
///    parameter by successive parabolas (the first from the value, the derivative and the pilot's
///    curvature times its scale), several by L-BFGS in coordinates scaled by that curvature.
/// Every stage stops when its model predicts a gain below its tolerance (at full size max(1e-3,
/// 1e-4 x the estimated spread) nats) or its steps fall below 1e-3 of the range, not when the
/// budget is spent. At most `maxEvaluations` full-size evaluations (each pilot has three times as
/// many of its own). Requires every function to have a gradient when pilots are given. Progress
/// after every evaluation; `step` after every full-size one, `pilotStep` after every pilot one (with
/// EvidencePoint::pilotLevel set), each with the best of its function so far; a cancel throws
/// Cancelled.
/// `known` holds points evaluated elsewhere (per-class locality evaluates every class at once from
/// one feature computation); the search records them instead of evaluating them (see KnownPoints).
SearchOutcome maximiseEvidence(const EvidenceFunction& full, const std::vector<const EvidenceFunction*>& pilots,
                               const std::vector<double>& scales, const std::vector<SearchRange>& ranges, int maxEvaluations,
                               const Progress& progress = {}, const LearnStep& step = {}, const LearnStep& pilotStep = {},
                               const KnownPoints& known = {});

/// The values maximiseEvidence scans, in its order: the start, then the points spread over the ranges.
std::vector<std::map<std::string, double>> scanValues(const std::vector<SearchRange>& ranges, int maxEvaluations);

/// Stage "bounds": each parameter of config.learn with its range (config.bounds, or the
/// descriptor's learning range) and its start value (from config.dist) inside it. Throws SpecError
/// naming `learn` (a parameter without a gradient among several) or `bounds` (outside the valid
/// range, or excluding the start value).
std::vector<SearchRange> searchRanges(const EvidenceObjective& objective, const LocalityConfig& config);

/// The pilots of `objective` (pilotLevels of its learning rows and templates, when it has a
/// gradient and float precision), their functions for maximiseEvidence and their scales (the
/// learning rows over theirs), and the levels with empty trajectories.
struct Pilots {
    std::vector<std::unique_ptr<EvidenceObjective>> objectives;
    std::vector<const EvidenceFunction*> functions;
    std::vector<double> scales;
    std::vector<PilotLevel> levels;
};
Pilots makePilots(const EvidenceObjective& objective, const LocalityConfig& config);

/// Maximises the log evidence over config.learn within their bounds (log space for positive
/// parameters with logScale descriptors), by maximiseEvidence on EvidenceObjective (with the pilots
/// of pilotLevels when the features have a gradient), then scores the learned model on the held-out
/// rows of config.eval with the weights of its own evaluation (only the test rows' features are
/// computed). Progress after every evaluation; `step` after every full-size evaluation and
/// `pilotStep` after every pilot one; a cancel throws Cancelled (the steps reported so far are the
/// caller's to keep).
/// Throws SpecError naming the field: unknown or unlearnable parameters, bounds outside the valid
/// range or excluding the start value.
LearnResult learnLocality(const Dataset& data, const LocalityConfig& config, const Progress& progress = {},
                          const LearnStep& step = {}, const Ranks& ranks = oneProcess(), const LearnStep& pilotStep = {});

/// A point of a learn's evidence landscape (learnLandscape).
struct LandscapePoint {
    std::map<std::string, double> params;
    double logEvidence = 0.0;
    int pilotLevel = -1;  ///< -1: a full-size evaluation; else the pilot it came from, its evidence mapped onto the full scale
};

/// The evidence landscape of a learn from its own evaluations, for a chart (no evaluation of its
/// own): the full-size evaluations, and every pilot's mapped onto the full scale: a pilot value e
/// becomes f0 + (e - e0) x (rows of the next level / rows of this one), where e0 and f0 are this
/// level's and the next level's evidence at a point both evaluated (the next level's best such),
/// level by level up to the full size, so each pilot's curve has the full curve's scale and meets
/// it where the search moved on. Sorted by the first parameter, then the others. A pilot with no
/// point in common with the next level is left out.
std::vector<LandscapePoint> learnLandscape(const LearnResult& result);

} // namespace orbit

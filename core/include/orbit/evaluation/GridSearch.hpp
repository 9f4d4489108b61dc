#pragma once
// Grid search over named hyperparameters, scored on caller-supplied splits.
#include "orbit/evaluation/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"

#include <Eigen/Core>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace orbit {

/// One hyperparameter and the values to try, e.g. {"lambda", {1e-4, 1e-3, 1e-2}} or
/// {"median", {0.5, 1, 2}} (bandwidth multiples of the median distance).
struct ParamAxis {
    std::string name;
    std::vector<double> values;
};

/// A point of the grid: parameter name -> value.
using ParamPoint = std::map<std::string, double>;

/// Scores one grid point on one split (higher or lower is better, see GridSearch::maximise).
using ScoreFunction = std::function<double(const ParamPoint& params, const Split& split)>;

/// Scores a whole axis at once: `params` holds every parameter except the batch axis, and the
/// result has one score per entry of `batchValues` (in that order). This is where a learner with a
/// fast path over one parameter plugs in, e.g. RidgePath: factorise once per (params, split),
/// then score every lambda.
using BatchScoreFunction = std::function<std::vector<double>(const ParamPoint& params,
                                                              const std::vector<double>& batchValues,
                                                              const Split& split)>;

/// Every grid point with its score on every split.
struct GridSearchResult {
    std::vector<ParamPoint> points;  ///< the Cartesian product, first axis varying slowest
    Eigen::MatrixXd scores;          ///< points x splits
    std::vector<double> meanScores;  ///< mean over splits, per point
    std::size_t best = 0;            ///< index of the best mean score (first one on ties)

    const ParamPoint& bestPoint() const { return points.at(best); }
    double bestScore() const { return meanScores.at(best); }
};

/// Exhaustive search over the Cartesian product of `axes`, each point scored on every split and
/// the scores averaged. The evaluation layer knows nothing about features or learners: the caller's
/// function trains on split.train and scores on split.test.
///
/// Requires: at least one axis; unique non-empty names; non-empty, finite value lists; `batchAxis`
/// empty or the name of an axis; at least one split; the functions return finite scores (a NaN
/// score throws SpecError naming the point). Progress is reported before every (point, split) unit
/// (or every (outer point, split) with a batch axis); a true return throws Cancelled.
/// Guarantees: deterministic order of calls, the first best point wins ties.
struct GridSearch {
    std::vector<ParamAxis> axes;
    std::string batchAxis;   ///< optional: axis scored by one BatchScoreFunction call
    bool maximise = true;    ///< accuracy / log evidence: true; RMSE: false

    void validate() const;
    std::size_t size() const;  ///< number of grid points

    GridSearchResult run(const std::vector<Split>& splits, const ScoreFunction& score,
                         const Progress& progress = {}) const;
    GridSearchResult run(const std::vector<Split>& splits, const BatchScoreFunction& score,
                         const Progress& progress = {}) const;
};

/// A readable "name=value, name=value" form of a point (for progress text and reports).
std::string toString(const ParamPoint& point);

} // namespace orbit

#pragma once
// Learning the locality (van der Wilk et al. 2018 in LGIKA's setting): an optimiser over the log
// evidence of EvidenceObjective.hpp. The engine behind `orbitlab-cli learn` and the Training
// panel's Learn locality; this header also brings the objective and the evidence curves.
#include "orbit/experiments/EvidenceCurves.hpp"
#include "orbit/experiments/EvidenceObjective.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace orbit {

/// The result of learnLocality.
struct LearnResult {
    std::vector<std::string> params;
    std::map<std::string, double> learned;      ///< the best point found
    std::string dist;                           ///< the learned distribution spec
    double logEvidence = 0.0;
    std::vector<EvidencePoint> trajectory;      ///< every evaluation in order
    std::string method;                         ///< "lbfgs" (gradient) or "bracket" (1-D search without gradient)
    std::map<std::string, std::pair<double, double>> bounds;  ///< the search ranges used
    std::string metric;                         ///< with an eval split: "accuracy" or "rmse"
    std::optional<double> test;                 ///< the held-out score of the learned model
    std::size_t trainRows = 0, testRows = 0;
    double seconds = 0.0;
    int ranks = 1;
    StageCosts stages;                          ///< on the slowest rank (EvidenceObjective::stageCosts)
};

/// Maximises the log evidence over config.learn within their bounds (log space for positive
/// parameters with logScale descriptors). With a gradient: a scan of a few points spread over the
/// bounds (so the higher of two peaks is found), then L-BFGS (NLopt, bound-constrained) from the
/// best scan points while evaluations remain. Without (noisy sort's sigma, one parameter): the scan,
/// then golden-section search in the best bracket of the piecewise-constant common-random-number
/// curve. At most config.maxEvaluations evaluations. Progress after every evaluation; a cancel
/// throws Cancelled (the steps reported so far are the caller's to keep).
/// Throws SpecError naming the field: unknown or unlearnable parameters, bounds outside the valid
/// range or excluding the start value.
LearnResult learnLocality(const Dataset& data, const LocalityConfig& config, const Progress& progress = {},
                          const LearnStep& step = {}, const Ranks& ranks = oneProcess());

} // namespace orbit

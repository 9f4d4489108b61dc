#pragma once
// Common-random-number evidence over a grid of parameter values: the curve of `orbitlab-cli
// evidence` and the Training panel's Locality pane, the surface of `evidence --y`.
#include "orbit/locality/EvidenceObjective.hpp"

#include <string>
#include <vector>

namespace orbit {

/// The common-random-number evidence curve over one parameter (others as in config.dist).
struct EvidenceCurve {
    std::string param;
    std::vector<double> values, logEvidence;
    /// evidenceCurvePerClass: values x classes, each class's log evidence with its own precisions
    /// (logEvidence holds the row sums); empty otherwise.
    Eigen::MatrixXd classLogEvidence;
    std::size_t trainRows = 0;
    double seconds = 0.0;
    int ranks = 1;
    StageCosts stages;  ///< on the slowest rank (EvidenceObjective::stageCosts)
};

/// Evaluates the evidence at each value (no gradient). Throws SpecError for a bad parameter or value.
EvidenceCurve evidenceCurve(const Dataset& data, const LocalityConfig& config, const std::string& param,
                            const std::vector<double>& values, const Progress& progress = {},
                            const LearnStep& step = {}, const Ranks& ranks = oneProcess());

/// Every class's evidence curve (per-class locality, PerClassLocality.hpp): at each value, every
/// class's log evidence with its own precisions from one feature computation
/// (EvidenceObjective::evaluateEachClass); logEvidence is their sum, the per-class model's evidence
/// with every theta_c at that value. The curves learnPerClass climbs, for one seed. Throws
/// SpecError("per-class") for regression targets, and what evidenceCurve throws.
EvidenceCurve evidenceCurvePerClass(const Dataset& data, const LocalityConfig& config, const std::string& param,
                                    const std::vector<double>& values, const Progress& progress = {},
                                    const Ranks& ranks = oneProcess());

/// The evidence over a grid of two parameters: logEvidence(i, j) at x = xValues[i], y = yValues[j].
struct EvidenceSurface {
    std::string xParam, yParam;
    std::vector<double> xValues, yValues;
    Eigen::MatrixXd logEvidence;
    std::size_t trainRows = 0;
    double seconds = 0.0;
    int ranks = 1;
    StageCosts stages;  ///< on the slowest rank (EvidenceObjective::stageCosts)
};

/// Evaluates the evidence on the grid (no gradient), row by row (x slowest). Throws SpecError for a
/// bad parameter or value, or when both parameters are the same.
EvidenceSurface evidenceSurface(const Dataset& data, const LocalityConfig& config, const std::string& xParam,
                                const std::vector<double>& xValues, const std::string& yParam,
                                const std::vector<double>& yValues, const Progress& progress = {},
                                const LearnStep& step = {}, const Ranks& ranks = oneProcess());

/// `LO:HI:N[:log]` or `V1,V2,...` into values (N evenly spaced, or evenly in log for :log).
/// Throws SpecError("values").
std::vector<double> parseValueList(const std::string& text);

} // namespace orbit

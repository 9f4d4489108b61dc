#pragma once
// Learning the locality (van der Wilk et al. 2018 in LGIKA's setting): the log evidence of Bayesian
// linear regression on invariant features as a smooth function of the distribution's parameters
// (common random numbers), its gradient, and an optimiser over it. The engine behind
// `orbitlab-cli learn`, `orbitlab-cli evidence` and the Training panel's Learn locality.
#include "orbit/data/Dataset.hpp"
#include "orbit/evaluation/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/parallel/Ranks.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace orbit {

class Distribution;
class Group;
class InvariantFourierTangents;

/// What `learn` and `evidence` need besides the data.
struct LocalityConfig {
    std::string features = "irf:s=1000,r=32,mode=data";  ///< a feature map spec (makeFeatureMap); irf for gradients; own samples per input by default
    std::string group;                         ///< group spec
    std::string dist;                          ///< distribution spec: the start values
    std::string kernel = "gaussian:median=1";  ///< base kernel (its bandwidth stays fixed)
    std::string eval;                          ///< empty: all rows train; holdout:FRAC / kfold:K: learn on the first split's training part
    std::vector<std::string> learn;            ///< parameter names (Distribution::parameters(), e.g. "kappa", "rotation.a")
    /// Search ranges that replace the descriptors' learnMinimum..learnMaximum, by parameter name.
    std::map<std::string, std::pair<double, double>> bounds;
    int maxEvaluations = 30;                   ///< evidence evaluations in all (the scan included)
    /// Features, products and evidence in double precision (twice the time): for derivative checks,
    /// where float rounding of the features would drown finite differences. irf features only.
    bool doublePrecision = false;
    std::uint64_t seed = 0;
    /// Rows per block of the learning rows: features, their derivatives, the normal equations and
    /// the gradient's sums go block by block (one process or many give the same bits; see
    /// TrainConfig::blockRows).
    long long blockRows = kDefaultBlockRows;

    /// Throws SpecError naming the field (`learn`, `bounds`, `max-evals`, `eval`, ...) and the value.
    void validate() const;
};

/// One evaluation of the objective: the parameter values, the log evidence maximised over the prior
/// and noise precisions alpha, beta, and (when asked) its gradient in the parameters' own units.
struct EvidencePoint {
    std::map<std::string, double> params;
    double logEvidence = 0.0;
    std::vector<double> gradient;  ///< d log evidence / d param, in LocalityConfig::learn order; empty if not asked
    double alpha = 0.0, beta = 0.0;
    std::string stage;             ///< "scan", "lbfgs" or "bracket" (learn), "curve" (evidence)
};

/// The log evidence of Bayesian linear regression (BayesianLinearRegression's coding: one-hot classes,
/// standardised targets) on the features of `rows`, as a function of the distribution's parameters,
/// with the templates, phases and base noise of the group elements fixed by config.seed
/// (featureSeed(seed), as `train` draws them): the same seed gives the same curve, and the curve is
/// a smooth function of every parameter whose samples are reparameterised.
///
/// Gradient (hasGradient()): irf features of a differentiable group (rotation, translation, scale,
/// affine) and learnable parameters. d log p / d theta_m = sum_ij G_ij dPhi_ij / d theta_m with
/// G = LinearEvidence::featureGradient at the optimal alpha, beta (whose own change drops out) and
/// dPhi from InvariantFourierTangents. Otherwise (noisy sort, other maps) values only.
class EvidenceObjective {
public:
    /// Throws SpecError naming the field for a bad map, group, distribution, parameter or kernel.
    /// Evaluations are collective over `ranks`: each computes the features of its own blocks of
    /// `rows` (float precision; double precision runs whole on every rank).
    EvidenceObjective(const Dataset& data, Indices rows, const LocalityConfig& config, const Ranks& ranks = oneProcess());
    ~EvidenceObjective();

    const std::vector<std::string>& parameters() const { return params_; }
    bool hasGradient() const { return tangents_ != nullptr && gradientOk_; }
    /// The values of the parameters in config.dist.
    std::map<std::string, double> startValues() const;
    /// The distribution spec with these values.
    std::string distSpec(const std::map<std::string, double>& values) const;

    /// Throws SpecError for a value outside the parameter's valid range; Cancelled from progress.
    EvidencePoint evaluate(const std::map<std::string, double>& values, bool gradient, const Progress& progress = {}) const;

    /// The features of other rows of the data at these values (for scoring a held-out part).
    MatrixXfR features(const std::map<std::string, double>& values, const Indices& rows) const;

private:
    /// evaluate() in double precision throughout, whole on every rank (derivative checks).
    EvidencePoint evaluateInDouble(const std::map<std::string, double>& values, bool gradient, const Progress& progress) const;
    /// The features (and derivatives) of this rank's blocks of rows_, one call per block, in a
    /// rows_.size() x D matrix whose other rows are zero.
    MatrixXfR ownFeatures(const std::map<std::string, double>& values, const std::vector<std::string>& params,
                          std::vector<MatrixXfR>& dPhi, const RowBlocks& blocks, const Progress& progress) const;
    /// evaluate() in float precision, block by block over the ranks.
    EvidencePoint evaluateInBlocks(const std::map<std::string, double>& values, bool gradient, const Progress& progress) const;

    const Dataset& data_;
    Indices rows_;
    LocalityConfig config_;
    const Ranks& ranks_;
    std::vector<std::string> params_;
    std::shared_ptr<const Group> group_;
    std::shared_ptr<const Distribution> dist_;
    std::string kernelSpec_;                  ///< the kernel with its bandwidth resolved once
    std::unique_ptr<InvariantFourierTangents> tangents_;
    bool gradientOk_ = false;
    Eigen::MatrixXd targets_;                 ///< the coded targets of rows_
};

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
};

/// Called after every evaluation with the point and the best so far (for live views); may not throw.
using LearnStep = std::function<void(const EvidencePoint& point, const EvidencePoint& best, int evaluation)>;

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

/// The common-random-number evidence curve over one parameter (others as in config.dist).
struct EvidenceCurve {
    std::string param;
    std::vector<double> values, logEvidence;
    std::size_t trainRows = 0;
    double seconds = 0.0;
};

/// Evaluates the evidence at each value (no gradient). Throws SpecError for a bad parameter or value.
EvidenceCurve evidenceCurve(const Dataset& data, const LocalityConfig& config, const std::string& param,
                            const std::vector<double>& values, const Progress& progress = {},
                            const LearnStep& step = {}, const Ranks& ranks = oneProcess());

/// The evidence over a grid of two parameters: logEvidence(i, j) at x = xValues[i], y = yValues[j].
struct EvidenceSurface {
    std::string xParam, yParam;
    std::vector<double> xValues, yValues;
    Eigen::MatrixXd logEvidence;
    std::size_t trainRows = 0;
    double seconds = 0.0;
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

/// The rows learning sees: all rows (eval empty) or the training part of the first outer split of
/// `eval` (seeded like train). `test` gets that split's test rows (empty without eval).
Indices learningRows(const Dataset& data, const LocalityConfig& config, Indices* test = nullptr);

} // namespace orbit

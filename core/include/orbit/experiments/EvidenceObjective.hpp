#pragma once
// The log evidence of Bayesian linear regression on invariant features as a smooth function of the
// distribution's parameters (common random numbers), with its gradient: what learnLocality
// maximises (LocalityLearning.hpp) and evidenceCurve / evidenceSurface sweep (EvidenceCurves.hpp).
#include "orbit/data/Dataset.hpp"
#include "orbit/evaluation/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/parallel/Ranks.hpp"
#include "orbit/parallel/StageCosts.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
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
    /// The exact GP's mean function (learn --learner gp): "constant" (the training targets' mean) or
    /// "composition" (orbit/learn/CompositionMean.hpp, fitted on each fold's training rows).
    std::string mean = "constant";
    std::string eval;                          ///< empty: all rows train; holdout:FRAC / kfold:K: learn on split `fold`'s training part
    /// The outer split of `eval` whose training part learns (and whose test part is scored): 0 is
    /// the first; `learn --eval kfold:K` learns K times, once per fold.
    int fold = 0;
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
    /// -1: the evidence of every target column with shared precisions alpha, beta (the model of
    /// `learn`). c >= 0: the evidence of class c's one-hot column alone, with its own precisions
    /// (per-class locality, PerClassLocality.hpp); classification only.
    int targetClass = -1;

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
    std::string stage;             ///< "scan", "optimise", "lbfgs", "bracket", "refine" (learn), "curve" (evidence)
    int pilotLevel = -1;           ///< learn: -1 at full size, else the pilot it was evaluated on (its own scale)
    /// The posterior mean m_N (D x C) at alpha, beta: the fitted model heldOutScore predicts with.
    std::shared_ptr<const Eigen::MatrixXd> weights;
};

/// The log evidence as a function of named parameter values, with its gradient when it has one:
/// what maximiseEvidence (LocalityLearning.hpp) climbs. EvidenceObjective is the real one.
class EvidenceFunction {
public:
    virtual ~EvidenceFunction() = default;
    virtual bool hasGradient() const = 0;
    /// The point at `values` with, when asked, its gradient in the parameters' own units (in the
    /// order the caller learns them). Throws SpecError for a value outside the valid range;
    /// Cancelled from progress.
    virtual EvidencePoint evaluate(const std::map<std::string, double>& values, bool gradient,
                                   const Progress& progress = {}) const = 0;
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
class EvidenceObjective : public EvidenceFunction {
public:
    /// Throws SpecError naming the field for a bad map, group, distribution, parameter or kernel.
    /// Evaluations are collective over `ranks`: each computes the features of its own blocks of
    /// `rows` (float precision; double precision runs whole on every rank).
    EvidenceObjective(const Dataset& data, Indices rows, const LocalityConfig& config, const Ranks& ranks = oneProcess());
    ~EvidenceObjective() override;

    /// A cheaper copy for a pilot search (hasGradient() only): `rows` of this objective's learning
    /// rows (pilotRows) and the first `templates` templates of its irf map
    /// (InvariantFourierTangents::firstTemplates), with the same seed, base noise, kernel and ranks.
    /// Its evidence is on its own scale (fewer rows and features); its curve has the same shape up to
    /// the noise of the smaller sample.
    std::unique_ptr<EvidenceObjective> pilot(std::size_t rows, int templates) const;
    /// The learning rows, and the irf map's templates s (0 without a gradient).
    const Indices& rows() const { return rows_; }
    int templates() const;

    const std::vector<std::string>& parameters() const { return params_; }
    bool hasGradient() const override { return tangents_ != nullptr && gradientOk_; }
    /// The values of the parameters in config.dist.
    std::map<std::string, double> startValues() const;
    /// The distribution whose parameters are learned (the start values).
    const Distribution& distribution() const { return *dist_; }
    /// The distribution spec with these values.
    std::string distSpec(const std::map<std::string, double>& values) const;

    /// Throws SpecError for a value outside the parameter's valid range; Cancelled from progress.
    EvidencePoint evaluate(const std::map<std::string, double>& values, bool gradient,
                           const Progress& progress = {}) const override;

    /// The decision values (test.size() x outputs: the coded targets' columns) on held-out rows
    /// `test` of Bayesian linear regression fitted on the learning rows at the evidence optimum of
    /// `fitted`: its weights as evaluate() left them (only the features of `test` are computed),
    /// or, without them, a fresh evaluate() at fitted.params. Collective: each rank computes the
    /// features of its own blocks of `test` and predicts them (in the dual form every rank holds
    /// every row).
    Eigen::MatrixXd heldOutDecisions(const EvidencePoint& fitted, const Indices& test, const Progress& progress = {}) const;
    /// Their score (accuracy, or RMSE in the targets' units). ContractError for one class's
    /// objective (targetClass >= 0).
    double heldOutScore(const EvidencePoint& fitted, const Indices& test, const Progress& progress = {}) const;
    /// The score of decision values on `test` (heldOutDecisions' rows): accuracy of their argmax,
    /// or the RMSE of the decoded targets.
    double scoreOf(const Eigen::MatrixXd& decision, const Indices& test) const;

    /// Every class's evidence with its own precisions at the same values (one feature computation,
    /// one factorisation, LinearEvidence::column): point c is class c's, with its weights (D x 1),
    /// and with `gradient` its gradient d log p(y_c) / d theta (the derivative features computed once
    /// for every class; each class then one D x D factorisation). Point c equals the evaluate() of
    /// class c's own objective (targetClass c) to rounding. The sum is the evidence of the per-class
    /// model with every theta_c at these values. Requires classes, targetClass -1 and float
    /// precision (ContractError); a gradient needs hasGradient() (SpecError("learn")).
    std::vector<EvidencePoint> evaluateEachClass(const std::map<std::string, double>& values, bool gradient = false,
                                                 const Progress& progress = {}) const;

    /// The kernel spec with its bandwidth resolved (the median rule applied once), for objectives
    /// that must see the same kernel.
    const std::string& kernelSpec() const { return kernelSpec_; }

    /// This rank's seconds by stage over every evaluation and score so far (features; products and
    /// reduction of the block sums, or the gather of the dual form; the rest as solve), the rows it
    /// summed and the most feature rows it held. StageCosts::slowest gives the job's.
    const StageCosts& stageCosts() const { return stages_; }

private:
    struct Fitted;
    /// The features at `values` and the evidence built from them (see Fitted).
    Fitted fitAt(const std::map<std::string, double>& values, bool gradient, const Progress& progress) const;
    /// The pilot's: `full` on `rows` with `tangents`.
    EvidenceObjective(const EvidenceObjective& full, Indices rows, std::unique_ptr<InvariantFourierTangents> tangents);
    /// evaluate() in double precision throughout, whole on every rank (derivative checks).
    EvidencePoint evaluateInDouble(const std::map<std::string, double>& values, bool gradient, const Progress& progress) const;
    /// The features (and derivatives) of this rank's blocks of `rows` (blocks over rows.size()),
    /// one call per block, maps without tangents fitted on rows_. In the primal form (D <= the
    /// learning rows rows_.size()) only those rows (the first at row 0); in the dual form (*dual
    /// set) a rows.size() x D matrix whose other rows are zero, for the gather.
    MatrixXfR ownFeatures(const std::map<std::string, double>& values, const std::vector<std::string>& params,
                          std::vector<MatrixXfR>& dPhi, const Indices& rows, const RowBlocks& blocks, bool& dual,
                          const Progress& progress) const;
    /// Each rank's first block of `blocks` (Ranks::firstBlock), then the count: who sums what.
    std::vector<Eigen::Index> ownedStarts(const RowBlocks& blocks) const;
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
    mutable StageCosts stages_;
};

/// The rows of `data` the median rule of a learn on `rows` reads: medianSampleRows of the learning
/// rows (never a test row), in that order. With all rows learning, medianSampleRows(n, 1000, seed).
Indices learningMedianRows(const Indices& rows, std::uint64_t seed);

/// Called after every evaluation with the point and the best so far (for live views); may not throw.
using LearnStep = std::function<void(const EvidencePoint& point, const EvidencePoint& best, int evaluation)>;

/// The rows learning sees: all rows (eval empty) or the training part of outer split config.fold of
/// `eval` (seeded like train). `test` gets that split's test rows (empty without eval).
Indices learningRows(const Dataset& data, const LocalityConfig& config, Indices* test = nullptr);

/// The rows of `data` whose inputs rank ranks.rank() of `learn` or `evidence` reads: its blocks of
/// the learning rows, of the test rows and of each pilot's rows (pilotLevels, for irf features),
/// and the median rule's sample when config.kernel takes it. `data` needs only its labels, targets and folds (loaded with no row held is enough). Empty,
/// for every row, with one rank, in double precision (whole on every rank) or with a map that fits
/// on the data.
/// The `n` of the learning rows `rows` a pilot takes: the first n of seededPermutation(rows.size(),
/// seed, 11), in ascending order (all of them when n >= rows.size()).
Indices pilotRows(const Indices& rows, std::size_t n, std::uint64_t seed);

std::vector<char> localityInputRows(const Dataset& data, const LocalityConfig& config, const Ranks& ranks);

} // namespace orbit

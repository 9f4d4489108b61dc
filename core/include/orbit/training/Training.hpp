#pragma once
// Train and evaluate a learner on feature maps of a dataset: the engine behind `orbitlab-cli train`,
// `orbitlab-cli experiment` and the GUI's Training panel.
#include "orbit/data/Dataset.hpp"
#include "orbit/evaluation/ParamGrid.hpp"
#include "orbit/evaluation/LearningCurve.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/parallel/Ranks.hpp"
#include "orbit/parallel/StageCosts.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace orbit {

/// Everything a training run needs besides the data (the CLI `train` options as one value).
///
/// Grid axis names (ParamAxis::name):
///   `lambda`      ridge / kernel-ridge strength (learner level: one factorisation per feature point)
///   `C`           liblinear SVM cost (learner level)
///   `median`      Gaussian bandwidth as a multiple of the median pairwise distance (feature level)
///   `bandwidth`   absolute Gaussian bandwidth (feature level)
///   any parameter key of the distribution spec, e.g. `kappa` (von Mises), `sigma` (noisy sort or
///   Gaussian translation), `a`, `mu`; inside an affine product prefix the factor when the key is
///   ambiguous: `translation.sigma`, `scale.sigma` (feature level: features are recomputed per value)
/// Feature-level points rebuild the feature map; learner-level axes are scored in one batch.
struct TrainConfig {
    std::string features = "rf:s=1000";  ///< the feature map spec (makeFeatureMap); for krr: the inputs of the kernel
    std::string group;                   ///< --group spec, empty for non-invariant features
    std::string dist;                    ///< --dist spec, empty for non-invariant features
    std::string kernel;                  ///< --kernel spec; empty: bandwidth chosen over `median` multiples
    std::string learner = "ridge";       ///< ridge | svm | krr | blr
    /// The exact kernel machines' mean function: "constant" (the training targets' mean) or
    /// "composition" (a linear mean in each element's number of atoms, orbit/learn/CompositionMean.hpp,
    /// fitted on each training part); exact:r=R regression on Coulomb matrices only.
    std::string mean = "constant";
    std::string eval = "holdout:0.2";    ///< holdout:FRAC | kfold:K | folds (the dataset's own folds, e.g. QM7 P)
    std::vector<ParamAxis> grid;         ///< explicit axes; missing ones get defaults (see defaultGrid)
    double validationFraction = 0.2;     ///< inner validation split of each training fold for the grid search
    int innerFolds = 0;                  ///< 0: that one split; K >= 2: K-fold cross-validation inside each training fold
    std::vector<double> learningCurve;   ///< optional training-set fractions in (0, 1] for a learning curve
    std::uint64_t seed = 0;
    /// Rows per block of the fixed partition the features are computed in and the normal equations
    /// (ridge, blr) are summed over (orbit/parallel/BlockSum.hpp): the numbers depend on it, never on
    /// the number of processes the run is spread over. Small enough that P ranks get nearly equal
    /// shares of whole blocks; each block's product is summed as one more D x D matrix.
    long long blockRows = kDefaultBlockRows;
    /// When > 0, rows [testFrom, N) are a given test set (a separate test file after the training
    /// file, Dataset::followedBy): the one outer split trains on the rows before it, and `eval` is
    /// not used.
    std::size_t testFrom = 0;

    /// Throws SpecError naming the field (`--learner`, `--eval`, `--grid`, ...) and the value.
    void validate() const;
};

/// The axes a run searches when the config gives none for them: `lambda` for ridge/krr, `C` for svm,
/// `median` when no --kernel is given; blr needs no learner axis (its precisions maximise the evidence).
/// Returns the complete grid of the run: the config's feature-level axes in their order, then the
/// added `median`, then the learner axis (config values or defaults) last.
std::vector<ParamAxis> defaultGrid(const TrainConfig& config);

/// One grid point summarised over the outer folds: the inner-validation score (mean over folds) and,
/// for blr, the log evidence of the inner training part (mean over folds, NaN otherwise).
struct GridRow {
    ParamPoint params;
    double validation = 0.0;
    double logEvidence = 0.0;
};

/// Scores of one outer fold at the point chosen on its inner validation split.
struct FoldResult {
    double score = 0.0;          ///< accuracy (classes) or RMSE (regression) on the fold's test part
    double mae = 0.0;            ///< regression only
    double logEvidence = 0.0;    ///< blr only (on the fold's training part), NaN otherwise
    ParamPoint chosen;
    double seconds = 0.0;
};

/// One test sample of a classification run: the row of the data it was tested on (train()'s own rows),
/// the outer fold whose test part held it, its class and the class the fold's chosen learner predicted.
struct TestPrediction {
    std::size_t row = 0;
    std::size_t fold = 0;
    int truth = 0, predicted = 0;
    bool operator==(const TestPrediction&) const = default;
};

struct TrainResult {
    std::string metric;                  ///< "accuracy" or "rmse"
    std::vector<FoldResult> folds;
    double mean = 0.0, stddev = 0.0;     ///< of the fold scores
    double mae = 0.0;                    ///< mean over folds (regression)
    std::optional<double> logEvidence;   ///< mean over folds (blr)
    std::vector<GridRow> grid;           ///< every grid point in defaultGrid order, first axis varying slowest
    Eigen::MatrixXi confusion;           ///< classes: summed over the folds' test parts (truth rows, predicted cols)
    /// classes: every test sample of every fold that did not fail, fold by fold in its test order; the
    /// confusion matrix counts exactly these (confusion(a, b) = #{p : p.truth == a, p.predicted == b}).
    std::vector<TestPrediction> predictions;
    std::vector<LearningCurvePoint> learningCurve;  ///< at the first fold's chosen point, if requested
    Eigen::Index featureDim = 0;
    std::string featureSpec;             ///< the spec actually used (after defaults)
    double seconds = 0.0;
    int ranks = 1;                       ///< processes the run was spread over
    StageCosts stages;
    std::vector<StageCosts> rankStages;  ///< every rank's own stage seconds, in rank order
};

/// The seed train() gives the feature maps of a run with config.seed (their context, e.g. the median
/// rule's sample, and their fit): `learn` and `evidence` use it too, so they see the same templates.
std::uint64_t featureSeed(std::uint64_t seed);

/// The outer splits of a run (config.eval: hold-out, k-fold or the dataset's own folds).
std::vector<Split> outerSplits(const Dataset& data, const TrainConfig& config);

/// The inner splits the grid search of outer fold `fold` scores on (`train` = that fold's training
/// rows): one validation split (config.validationFraction, stratified for classes), or an inner
/// config.innerFolds-fold cross-validation. Seeded from config.seed and the fold.
std::vector<Split> innerSplits(const Dataset& data, const TrainConfig& config, const Indices& train, std::size_t fold);

/// Runs the evaluation: for each outer split (eval), a grid search on an inner validation split of the
/// training part (or the mean score over an inner K-fold cross-validation, innerFolds = K) picks the
/// point with the best validation score; the learner is refitted on the whole
/// training part at that point and scored on the test part. Feature maps are fitted on training rows
/// only, with seeds derived from config.seed (maps whose fit only draws random numbers -- raw, sorted,
/// rf, irf, gicdf, +rf2 with a fixed sigma -- are computed once per grid point for all rows and shared
/// by the folds). The `median` rule uses a seeded sample of the whole dataset's inputs (never labels).
///
/// Requires a labelled dataset (classes or targets). Progress goes to `progress` with a fraction in
/// [0, 1]; a true return throws Cancelled. Guarantees: the same config and seed give the same result
/// bit for bit at any thread count. Throws SpecError on bad configuration, naming the field.
///
/// Spread over `ranks` (an MPI job): every rank holds the dataset (or the rows trainingInputRows,
/// orbit/training/InputRows.hpp, names) and runs train() with the same config. Feature rows are computed by the rank owning their block and gathered; ridge and blr in
/// the primal form sum their normal equations over the blocks across ranks; the result is the same
/// bits on every rank and at every number of ranks.
TrainResult train(const Dataset& data, const TrainConfig& config, const Progress& progress = {},
                  const Ranks& ranks = oneProcess());

/// train() one-vs-rest with a distribution per class (`train --dist-per-class ... --learner
/// ridge|svm`): class c's decision f_c(x) = phi_c(x)^T w_c is fitted and scored on the features
/// Phi_c of its own distribution classDists[c] (the same templates and base noise for every class:
/// the same feature seed), and the class is the argmax over c. Everything else is train()'s: the
/// outer and inner splits, the grid (`lambda` or `C`, and `median` or `bandwidth`) with one point
/// chosen for all classes by the inner validation accuracy of the argmax, the refit, the result.
/// With every classDists[c] the same distribution the result is train()'s to the bit (each
/// distinct spec's features are computed once, and every fit trains all C columns on them).
/// Requires class labels (SpecError("per-class") otherwise), config.learner ridge or svm
/// (SpecError("learner")), a group, no distribution axis in the grid (SpecError("grid")) and no
/// learning curve (SpecError("learning-curve")); classDists.size() == numClasses. Runs in this
/// process (the same bits at any thread count).
TrainResult trainClassFeatures(const Dataset& data, const TrainConfig& config, const std::vector<std::string>& classDists,
                               const Progress& progress = {});

} // namespace orbit

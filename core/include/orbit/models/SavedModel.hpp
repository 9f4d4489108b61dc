#pragma once
// Models that outlive the process: a fitted feature map and a learner on its features (linear, or
// krr), kept in a NumPy .npz that `orbitlab-cli train --save-model` and the Python module write, and
// `orbitlab-cli predict` and the Python module read (docs/cli.md, "Saved models" lists the arrays).
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/models/Npz.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace orbit {

struct LearnerDescriptor;

/// Everything that rebuilds a fitted feature map bit for bit: makeFeatureMap(features) in the
/// context of (kind, shape, group, dist, kernel) made with contextSeed, then fit(fitRows, fitSeed).
/// The kernel is stored with its bandwidth resolved ("gaussian:sigma=3.25", never the median rule),
/// so nothing is measured on data again. A map whose fit draws from its seed alone keeps no rows
/// (templates and group samples are drawn again: cheap next to a product, and the same bits); a map
/// whose fit reads its rows (fitReadsRows: Nystrom's landmarks, GICDF's measured span or largest
/// norm, the median rule of a second layer, kif's templates) keeps the rows its fit read.
struct MapRecipe {
    std::string features;
    std::string group, dist;
    std::string kernel;
    std::uint64_t contextSeed = 0;
    std::uint64_t fitSeed = 0;
    DataKind kind = DataKind::Vectors;
    Shape shape;
    MatrixXfR fitRows;

    /// The map, fitted. Throws SpecError naming the field (features, group, distribution, kernel)
    /// for a spec the registry refuses; Cancelled from `progress`.
    std::unique_ptr<FeatureMap> build(const Progress& progress = {}) const;
};

/// Whether the fit of the map `features` reads the values of its rows, so that a saved model must
/// keep them (MapRecipe::fitRows): every map but raw, sorted, rf, irf, GICDF with a fixed span and
/// norm=each, and a second layer with a fixed sigma. SpecError("features") for an unknown map.
bool fitReadsRows(const std::string& features);

/// The recipe of the map `features` fitted as `orbitlab-cli features --seed seed` fits it on n rows
/// of a dataset of `kind` and `shape`: the kernel resolved on the data with `seed` (the median rule
/// reads `medianSample`, the rows medianSampleRows(n, 1000, seed) of the data in that order: the
/// same sigma as on all n rows), context and fit seeded with `seed`, and `rows` (the data) kept when
/// fitReadsRows(features). Throws SpecError naming the field.
MapRecipe fittedMapRecipe(const std::string& features, const std::string& group, const std::string& dist,
                          const std::string& kernel, DataKind kind, const Shape& shape, std::uint64_t seed,
                          const MatrixXfR& medianSample, MatrixXfR rows);

/// The rows every consumer of a map transforms in one call: blocks of kDefaultBlockRows rows from
/// row 0, as `orbitlab-cli features` cuts them. A row's bits may depend on its place in its call, so
/// `features`, `predict` and the Python module's transform cut alike and give the same bits.
inline constexpr Eigen::Index kTransformBlockRows = 512;

/// The features of every row of X, one transform call per block of kTransformBlockRows rows;
/// `progress` after each block (a cancel throws Cancelled).
MatrixXfR transformAll(const FeatureMap& map, const MatrixXfR& X, const Progress& progress = {});

/// Decision values of a linear model on features F: F W + b (N x C, in double), computed one block of
/// kTransformBlockRows rows at a time (timesDouble per block): a caller streaming a larger matrix in
/// runs of whole blocks from its row 0 gets the bits of the call on the whole.
Eigen::MatrixXd linearScores(const MatrixXfR& F, const Eigen::MatrixXd& W, const Eigen::VectorXd& b);

/// Decision values of kernel ridge (krr) on features F: K(F, support) dual (N x C, in double), K the
/// Gaussian of bandwidth `sigma` on the features (BaseKernel::fromInnerProduct of featureInnerProducts
/// and the squared norms; supportNorms = featureSquaredNorms(support)), multiplied by dualScores,
/// kTransformBlockRows rows at a time. A row's bits depend only on the row: those of `train`'s own
/// prediction of that row when its features are the same bits.
Eigen::MatrixXd kernelRidgeScores(const MatrixXfR& F, const MatrixXfR& support, const Eigen::VectorXd& supportNorms,
                                  double sigma, const Eigen::MatrixXd& dual);

/// A fitted model: the recipe of its map and the learner on the map's features.
/// Prediction: scores = linearScores(map features, weights, bias) (ridge, blr, svm), or
/// kernelRidgeScores(map features, support, ..., dual) (krr), or for an exact kernel machine (no
/// map) exactModelScores (ExactModel.hpp); classes argmax over the columns (the lowest index wins
/// ties), regression targets coding.mean + coding.scale * scores(:, 0).
struct SavedModel {
    /// The newest version this build reads. It writes version 1 for the linear learners (what
    /// every reader since the first reads), 2 for krr, whose arrays came with version 2, and 3 for
    /// the exact kernel machines: an older reader refuses a newer file at its format_version, in
    /// one line.
    static constexpr std::int64_t kFormatVersion = 4;
    static constexpr std::int64_t kKernelRidgeVersion = 2;
    /// Exact kernel machines (map.features exact:r=R) came with version 3.
    static constexpr std::int64_t kExactVersion = 3;
    /// The posterior of regression blr and gp (posteriorFactor) came with version 4.
    static constexpr std::int64_t kPosteriorVersion = 4;

    MapRecipe map;
    Eigen::Index dim = 0;              ///< the map's feature dimension D (checked when it is rebuilt)
    std::string learner;               ///< the learner that fitted the weights: ridge, blr, svm or krr
    std::string chosen;                ///< the grid point of the fit, e.g. "lambda=0.01, median=0.5" (for people)
    Eigen::MatrixXd weights;           ///< D x C (empty for krr)
    Eigen::VectorXd bias;              ///< C (zero for ridge and blr; empty for krr)
    /// krr: the features of the N training rows the fit used (N x D; the rows themselves for raw
    /// features), the dual weights (N x C) and the Gaussian kernel on the features with its
    /// bandwidth resolved ("gaussian:sigma=3.25"). Empty for the others.
    MatrixXfR support;
    Eigen::MatrixXd dual;
    std::string kernel;
    TargetCoding coding;
    /// Classes: the label of each column, integers (integerLabels) or text (textLabels): one of
    /// them has C entries. classNames: optional names for people (the dataset's).
    std::vector<std::int64_t> integerLabels;
    std::vector<std::string> textLabels;
    std::vector<std::string> classNames;
    std::string targetUnit;            ///< regression: the targets' unit when the data stated it
    double alpha = std::numeric_limits<double>::quiet_NaN();  ///< blr: the evidence's precisions and
    double beta = std::numeric_limits<double>::quiet_NaN();   ///< log evidence (NaN for the others)
    double logEvidence = std::numeric_limits<double>::quiet_NaN();
    std::string trainedOn;             ///< where the training rows came from, for people
    std::int64_t trainRows = 0;
    /// An exact kernel machine (map.features `exact:r=R`, learner krr or gp; ExactModel.hpp): no
    /// feature map. support holds the training rows themselves (N x map_dim, map_dim the input
    /// dimension), dual the dual weights and kernel the base kernel with its fitted bandwidth
    /// ("laplacian:sigma=812.5", the bits of the fit: formatNumber round-trips). Group samples are
    /// redrawn, not kept: support row i's from
    /// the sub-stream supportStreams[i] of orbitSeed (its index in the training run), row j of new
    /// data from firstStream + j (where the run's test rows began: 0, or the training file's rows
    /// with a separate test file). gp: signal and noise variance (logEvidence its log marginal
    /// likelihood); its mean is signal * K dual.
    std::uint64_t orbitSeed = 0;
    std::vector<std::int64_t> supportStreams;
    std::int64_t firstStream = 0;
    double gpSignal = std::numeric_limits<double>::quiet_NaN();
    double gpNoise = std::numeric_limits<double>::quiet_NaN();
    /// Regression blr and gp: the lower Cholesky factor, in float, of blr's posterior precision
    /// A = alpha I + beta Phi^T Phi (D x D, on the coded targets) or of the gp's C = signal K +
    /// (noise + jitter) I (N x N): what the predictive variance needs (ModelPredictor::hasInterval).
    /// Empty for the others and in files before version 4, whose predictions have no interval.
    MatrixXfR posteriorFactor;

    bool isExact() const;
    /// The registered learner it names, or null for a name the registry does not know.
    const LearnerDescriptor* learnerInfo() const;
    /// Its learner keeps support rows and dual weights (krr, gp; LearnerDescriptor::dualWeights).
    bool hasSupport() const;
    /// A dual model on features (krr's Gaussian kernel on the map's output): not exact, hasSupport().
    bool isKernelRidge() const { return !isExact() && hasSupport(); }
    /// Its learner is a Gaussian process (gp): signal and noise variances, LearnerDescriptor::gaussianProcess.
    bool isGaussianProcess() const;
    bool hasPosterior() const { return posteriorFactor.size() > 0; }
    /// The format_version of its file: kPosteriorVersion with a posterior, else 1,
    /// kKernelRidgeVersion for krr on features, kExactVersion for the exact kernel machines (the
    /// oldest version that reads it).
    std::int64_t formatVersion() const
    {
        return hasPosterior() ? kPosteriorVersion : isExact() ? kExactVersion : isKernelRidge() ? kKernelRidgeVersion : 1;
    }
    bool isClassification() const { return coding.isClassification(); }
    int outputs() const { return coding.outputs(); }
    /// The label of column c as text ("7", "cat").
    std::string labelText(int c) const;
    /// Throws ContractError naming the inconsistent field (weights, bias, support, dual, kernel, labels).
    void checkConsistent() const;
};

/// The arrays of a saved model (docs/cli.md, "Saved models"), and back. fromArchive throws LoadError naming
/// `file` and the member: MissingVariable for an absent one, BadValue for a newer format_version
/// ("written by a newer Orbit Lab") or a value out of its range, BadShape for an array of the wrong
/// type or shape, and it checks that the arrays agree with each other (krr: dual_weights has one row
/// per row of support_rows, and support_rows map_dim columns; exact: support_streams has one entry
/// per row of support_rows, and map_dim is the input dimension).
NpzArchive toArchive(const SavedModel& model);
SavedModel fromArchive(const NpzArchive& arrays, const std::string& file);

void saveModel(const std::string& path, const SavedModel& model);
SavedModel loadModel(const std::string& path);
/// The file's bytes, for a model kept in memory (the Python module's pickles).
std::string encodeModel(const SavedModel& model);
SavedModel decodeModel(const std::string& bytes, const std::string& name);

/// The size of a saved model's file for people: "1.2 MB", and for krr what makes it grow with the
/// data, "1.2 MB: krr keeps the features of its 240 training rows (240 x 784 float32)".
std::string modelFileSize(const SavedModel& model, std::uintmax_t bytes);

/// Throws SpecError("data", ...) naming both shapes when inputs of `kind` and `shape` are not what
/// the model was trained on (`source` names the data in the message).
void checkModelInput(const SavedModel& model, DataKind kind, const Shape& shape, const std::string& source);

/// A saved model with its map rebuilt, ready to predict.
class ModelPredictor {
public:
    /// Rebuilds the map (MapRecipe::build), and for krr the support rows' squared norms; LoadError
    /// naming `file` and member map_dim when the rebuilt map's dimension is not the stored one. An
    /// exact model has no map: its support rows' group samples are redrawn instead.
    ModelPredictor(SavedModel model, const std::string& file, const Progress& progress = {});
    const SavedModel& model() const { return model_; }
    /// The map (ContractError for an exact model, which has none).
    const FeatureMap& map() const;
    /// linearScores (or kernelRidgeScores) of transformAll(X): N x C; exactModelScores for an
    /// exact model.
    Eigen::MatrixXd scores(const MatrixXfR& X, const Progress& progress = {}) const;
    /// The learner's part: linearScores (or kernelRidgeScores) of features F of the map (N x dim).
    Eigen::MatrixXd featureScores(const MatrixXfR& F) const;
    /// An exact model's scores of the rows X whose first sits at data row firstRow (its group
    /// samples from that row's sub-stream: exactModelScores); with `sd` and a posterior, each row's
    /// predictive standard deviation (targetSd of exactModelScores' variance).
    Eigen::MatrixXd exactScoresAt(const MatrixXfR& X, std::int64_t firstRow, const Progress& progress = {},
                                  Eigen::VectorXd* sd = nullptr) const;
    /// Whether its predictions carry an interval: a regression blr or gp saved with its posterior.
    bool hasInterval() const { return model_.hasPosterior() && !model_.isClassification(); }
    /// blr with a posterior: the predictive standard deviation of the target (its unit) of rows with
    /// features F, coding.scale * sqrt(phi^T A^-1 phi + 1 / beta). ContractError without one.
    Eigen::VectorXd featureSd(const MatrixXfR& F) const;
    std::vector<int> classes(const Eigen::MatrixXd& scores) const;
    std::vector<double> targets(const Eigen::MatrixXd& scores) const;

private:
    SavedModel model_;
    std::unique_ptr<FeatureMap> map_;
    Eigen::VectorXd supportNorms_;  ///< krr: featureSquaredNorms(support)
    double sigma_ = 0.0;            ///< krr: the kernel's bandwidth
    MatrixXfR supportOrbits_;       ///< exact: the support rows' group samples, exactR_ per row
    int exactR_ = 1;
    Eigen::MatrixXd factor_;        ///< blr with a posterior: posteriorFactor in double
};

} // namespace orbit

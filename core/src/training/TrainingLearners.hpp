#pragma once
// Private to the core's training/ (and to a test library registering a learner, tests/toy): the learners of
// `train`, each fitting on some dataset rows of a feature matrix and predicting others, for a whole
// list of values of its own hyperparameter at once.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/learn/NormalEquations.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/parallel/Ranks.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace orbit::detail {

/// The seed stream `train` gives liblinear, and TrainedModel's refit of a run's svm model the same.
constexpr std::uint64_t kLearnerStream = 4000;

/// Targets of the training rows in the least-squares coding (one-vs-all +-1 or standardised).
struct Coded {
    TargetCoding coding;
    Eigen::MatrixXd Y;
};
Coded codeTargets(const Dataset& data, const Indices& train);

/// (G + lambda I)^{-1} B, or nullopt when the Cholesky factorisation fails (lambda too small): the
/// solve of every ridge and krr fit of `train` (and of the krr model it saves).
std::optional<Eigen::MatrixXd> solveOrNothing(const Eigen::MatrixXd& G, const Eigen::MatrixXd& B, double lambda,
                                              const Progress& progress);

/// The normal equations (raw targets: orbit/learn/NormalEquations.hpp) of one shared row set. They
/// are summed to one rank (normalEquationsAtRoots: the ranks in turn), G's lower triangle only, and
/// sent on to the ranks whose dealt fits add them (`on`, the same on every rank); raw.G and raw.B
/// are empty on the other ranks.
struct CellEquations {
    Indices rows;
    NormalEquations raw;
    std::vector<char> on;  ///< on[q]: rank q holds raw
};

/// The row sets whose products a learner that sums over rows computes once and shares between fits
/// (TrainLearner::shareCells). `cells` are disjoint; every fit's training set is a union of cells,
/// or a union of cells less one `removable` set lying inside it. One outer fold: the cells of its
/// training rows (cellsOf its inner validation sets), nothing removable. A whole k-fold run: the
/// outer test sets (a fold trains on the others), with the inner validation sets removable.
struct SharedRowSets {
    std::vector<Indices> cells;
    std::vector<Indices> removable;
};

/// The features of one grid point: row i of F belongs to dataset row i. `K` caches the N x N
/// matrix the dual learners need (F F^T, or the Gaussian kernel for krr), computed on first use.
/// `cells` and `removable` hold the equations of the shared row sets in force (TrainLearner::shareCells),
/// if its learner sums over rows.
struct PointFeatures {
    MatrixXfR F;
    /// Spread over the ranks (row-summing learners whose fits are all primal, Trainer::features):
    /// F then holds only this rank's rows, those of blocks [starts[rank], starts[rank + 1]) of
    /// `blocks`, and every prediction is made by the rank holding the row. Empty `starts`: F holds
    /// every row on every rank.
    std::vector<Eigen::Index> starts;
    RowBlocks blocks;
    bool spread() const { return !starts.empty(); }
    /// The dataset rows the features are of (F's rows unless spread).
    Eigen::Index rows() const { return spread() ? blocks.rows : F.rows(); }
    double kernelSigma = 0.0;                 ///< krr only: bandwidth of the Gaussian kernel on F
    mutable std::optional<Eigen::MatrixXd> K;
    mutable std::vector<CellEquations> cells;
    mutable std::vector<CellEquations> removable;
};

/// Predictions for the test rows of one fit, at one value of the learner's parameter.
struct Outcome {
    std::vector<int> classes;      ///< classification
    std::vector<double> targets;   ///< regression
    double logEvidence = 0.0;      ///< blr (of the training rows); NaN otherwise
    bool failed = false;           ///< the fit was impossible at this value (e.g. lambda too small to factorise)
    /// Spread features (PointFeatures::spread): the fit's weights (D x C), dealt instead of the
    /// predictions, which the ranks holding the test rows then make; empty otherwise.
    Eigen::MatrixXd weights;
    /// Ridge and svm made with keepDecisions, classes: the test rows' decision values (one column
    /// per class, `classes` their argmax), for a run that takes each class's column from its own
    /// features (trainClassFeatures); empty otherwise.
    Eigen::MatrixXd decisions;
};

/// Accuracy or RMSE of an outcome on its test rows; a failed fit scores the worst possible value
/// (never chosen when another works).
double scoreOf(const Dataset& data, const Outcome& o, const Indices& test);

/// A per-class run's fits of one spec into `into` (fits[j][l]): the decision columns of its
/// `classes` (Outcome::decisions), each class's from its own features; a fit that failed at one
/// spec fails the whole. The first spec's fits are taken whole, their other columns replaced by
/// the later specs' (every class belongs to exactly one); `classes` is set once all are in.
void takeClassColumns(std::vector<std::vector<Outcome>>& into, std::vector<std::vector<Outcome>>&& from,
                      const std::vector<int>& classes);

/// A learner of the `train` command: `axis()` names its batched hyperparameter ("lambda", "C") or
/// is empty (blr); a fit trains on the rows of split.train and predicts split.test, once per value
/// (one outcome for blr). `poll` is reported to between units of work of at most a few tenths of a
/// second (Gram tiles, Cholesky panels, one value) with the fraction done and a short name of the
/// step ("Gram matrix", "Cholesky λ=0.001"); a cancel throws Cancelled.
class TrainLearner {
public:
    virtual ~TrainLearner() = default;
    virtual std::string axis() const = 0;
    /// Its primal fits only sum over rows and predict x W (ridge, blr): it can work on features
    /// spread over the ranks (PointFeatures::spread) as long as every fit is primal.
    virtual bool sumsOverRows() const { return false; }
    /// The outcomes of several fits (e.g. a fold's inner splits and its outer split), fits[j] of
    /// splits[j]. The parts of every fit that sum over rows come first (collective); the work that
    /// does not split over rows (a Cholesky per lambda, an SVM per C, an evidence maximisation) is
    /// then dealt out over the ranks in one turn for all the fits, the costliest first, so that fits
    /// of different sizes share the ranks evenly. The outcomes do not depend on who computes them.
    /// `poll` gets the fraction of all the fits done.
    virtual std::vector<std::vector<Outcome>> fitAll(const PointFeatures& p, const std::vector<Split>& splits,
                                                     const std::vector<double>& values, const Progress& poll) const = 0;
    /// One fit: fitAll of one split.
    std::vector<Outcome> fit(const PointFeatures& p, const Indices& train, const Indices& test,
                             const std::vector<double>& values, const Progress& poll) const
    {
        return fitAll(p, {Split{train, test}}, values, poll).front();
    }
    /// Before the fits whose training sets are made of `sets` (SharedRowSets): a learner whose fits
    /// are sums over rows (primal ridge, blr) computes every set's normal equations once, into
    /// p.cells and p.removable, and its fits add (and subtract) those instead of recomputing their
    /// products. Others leave both empty. Collective.
    virtual void shareCells(const PointFeatures& p, const SharedRowSets& sets, const Progress& poll) const
    {
        (void)sets;
        (void)poll;
        p.cells.clear();
        p.removable.clear();
    }
};

/// Where the rows of a run live: the processes it is spread over and the fixed row blocks, and the
/// clock its fits add their stages to (products, reduction, solve).
struct RowPartition {
    const Ranks* ranks = &oneProcess();
    Eigen::Index blockRows = kDefaultBlockRows;
    StageCosts* seconds = nullptr;
};

/// The registered learner `name` for `data` (labels or targets), built by its descriptor;
/// SpecError("learner") for an unknown one, one that needs classes on targets, or one that does
/// not run on features. With keepDecisions, one-vs-rest outcomes of classes also hold their
/// decision values (Outcome::decisions).
std::unique_ptr<TrainLearner> makeTrainLearner(const std::string& name, const Dataset& data, std::uint64_t seed,
                                               const RowPartition& rows, bool keepDecisions = false);

/// The built-in learners' classes, for their registrations (RegisteredLearners.cpp): ridge on F,
/// or with gaussianKernel kernel ridge with a Gaussian kernel on F; liblinear's SVM; blr.
std::unique_ptr<TrainLearner> makeRidgeLearner(const Dataset& data, bool gaussianKernel, const RowPartition& rows,
                                               bool keepDecisions);
std::unique_ptr<TrainLearner> makeSvmLearner(const Dataset& data, std::uint64_t seed, const RowPartition& rows,
                                             bool keepDecisions);
std::unique_ptr<TrainLearner> makeBlrLearner(const Dataset& data, const RowPartition& rows);

} // namespace orbit::detail

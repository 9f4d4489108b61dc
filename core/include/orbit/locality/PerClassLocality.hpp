#pragma once
// Per-class locality (issue 31): every class learns its own distribution parameters by the evidence.
// The engine behind `orbitlab-cli learn --per-class` and the Learn locality pane's "per class".
//
// The model. With one-hot targets y_c, class c gets its own parameters theta_c, features
// Phi_c = Phi(theta_c) from the same templates and base noise (common random numbers), and its own
// prior and noise precisions alpha_c, beta_c. The log evidence is sum_c log p(y_c | Phi_c, alpha_c,
// beta_c); each term depends on its own theta_c only, so the classes are learned independently.
// A class scores f_c(x) = phi_theta_c(x)^T m_c; the class is the argmax. A global theta is the
// special case theta_c = theta.
//
// What the comparison means. The per-class evidence maximises over C times as many parameters as
// the global one, and type-II maximum likelihood does not charge for them: with the precisions per
// class in both, the per-class evidence is never below the global one at the same rows. A gain of a
// few nats per class is what extra free parameters buy on any data; tens or hundreds of nats mean
// the classes do want different localities. The held-out accuracy of both models is the plain test.
#include "orbit/locality/LocalityLearning.hpp"
#include "orbit/training/Training.hpp"

#include <Eigen/Core>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace orbit {

class Distribution;
class Group;

/// One class's learned locality.
struct ClassLocality {
    int label = 0;
    std::map<std::string, double> learned;   ///< theta_c
    std::string dist;                        ///< the distribution spec with theta_c
    double logEvidence = 0.0;                ///< log p(y_c | Phi(theta_c)) at its own precisions
    double globalLogEvidence = 0.0;          ///< its log evidence at the global theta (its own precisions)
    std::size_t evaluations = 0;             ///< evaluations of its own search (not the shared scan or seed)
    bool converged = false;
    /// True when nothing the class's search evaluated beat its evidence at the global theta, where
    /// the search started: the class keeps the global theta. Otherwise logEvidence > globalLogEvidence.
    bool keptGlobal = false;
    /// With an eval split: the share of this class's test rows the per-class model gets right
    /// (its recall), and how many there are.
    std::optional<double> test;
    std::size_t testRows = 0;
    /// For a rotation distribution: its 95% window in degrees (rotationWindowDegrees), else empty.
    std::optional<double> windowDegrees;
    /// Its full-size evaluations in order, the seed at the global theta first (the classes this
    /// process learned; empty for the others of a job spread over processes).
    std::vector<EvidencePoint> trajectory;
};

/// The result of learnPerClass.
struct PerClassResult {
    std::vector<std::string> params;
    std::vector<ClassLocality> classes;      ///< in label order
    double logEvidence = 0.0;                ///< sum_c of the classes' log evidence
    /// The single learn (learnLocality: one theta, shared precisions), and the evidence of the
    /// per-class model with every theta_c at its learned theta (precisions per class): the number
    /// to compare logEvidence with.
    LearnResult global;
    double globalPerClassEvidence = 0.0;
    std::optional<double> globalWindowDegrees;  ///< the global theta's 95% window (rotations)
    std::string metric;                      ///< with an eval split: "accuracy"
    std::optional<double> test;              ///< the per-class model's held-out accuracy
    Indices testRows;                        ///< the held-out rows (learningRows' test part)
    std::vector<int> testPredictions;        ///< the per-class model's class for each of them
    std::size_t trainRows = 0;
    double seconds = 0.0;
    int ranks = 1;
};

/// Called once for every class as soon as it is learned (from the thread that learned it, one call
/// at a time), so a view can fill in class by class; may not throw.
using ClassLearned = std::function<void(const ClassLocality&)>;

/// Learns theta_c for every class of a labelled data set, and the global theta beside it.
/// Stages: the global learn (learnLocality); every class at the global theta with its gradient,
/// from one computation of the features and their derivatives (EvidenceObjective::evaluateEachClass);
/// one shared scan at full size (every class's evidence from the same features at each of
/// scanValues(ranges, 3 x maxEvaluations)); then each class's climb (maximiseEvidence on its own
/// objective, LocalityConfig::targetClass, at full size, with the scan and the global theta as
/// known points: KnownPoints) from the best point it knows, with its own gradient, at most
/// maxEvaluations evaluations of its own. So a class ends at or above its evidence at the global
/// theta, and keeps that theta (keptGlobal) only when nothing it evaluated was higher. The classes are dealt out to the ranks in turn (class c on rank c mod P, whole), and on a
/// rank run side by side on threads sharing its cores (ComputeShare); last, each class's held-out
/// decisions with its own features and weights (the classes that keep the global theta from one
/// computation of the test features there), the argmax. logEvidence >= globalPerClassEvidence.
/// Guarantees: the same bits at any number of threads and ranks (each class is computed whole by
/// one process with one-process code). A cancel from `progress` (called under a lock, from any of
/// the threads) stops every class at its next report and throws Cancelled; the classes reported
/// through `learned` before are the caller's to keep.
/// Throws SpecError("per-class") for regression targets (no classes), and what learnLocality throws.
PerClassResult learnPerClass(const Dataset& data, const LocalityConfig& config, const Progress& progress = {},
                             const ClassLearned& learned = {}, const Ranks& ranks = oneProcess());

/// The width in degrees of the central window [-w/2, w/2] that holds `mass` of a symmetric rotation
/// distribution's angle density (uniform:a=A gives mass x 2A in degrees, haar mass x 360), by
/// quadrature of Distribution::density over (-pi, pi]; how the per-class chart and `learn
/// --per-class` show a learned rotation locality. Empty for another group, an asymmetric
/// distribution or one without a density.
std::optional<double> rotationWindowDegrees(const Distribution& dist, double mass = 0.95);

/// Per-class distributions: every class's distribution spec, `fallback` (the `--dist`) for the
/// classes not named. Text form (`--dist-per-class`, sessions, Copy setting): "C=SPEC;C=SPEC" with
/// classes by label, e.g. "6=vonmises:kappa=8;9=vonmises:kappa=8".
struct ClassDistributions {
    std::string fallback;
    std::map<int, std::string> named;

    /// Parses `text` (empty: none named). Throws SpecError("dist-per-class") naming the part for a
    /// part without `C=SPEC`, a label that is not a class in [0, classes), a class given twice, or
    /// an empty spec.
    static ClassDistributions parse(const std::string& text, const std::string& fallback, int classes);
    /// Throws SpecError("dist-per-class") naming the class and its spec when a named spec is not a
    /// distribution on `group` (makeDistribution), with the distribution's own message.
    void check(const Group& group) const;
    /// Class `label`'s spec.
    const std::string& of(int label) const;
    /// The named part in label order ("C=SPEC;C=SPEC"; parse(text()) gives the same named map).
    std::string text() const;
    /// The distinct specs of the classes 0..classes-1, the fallback's first, then in the order of
    /// their first class, each with its classes in order.
    std::vector<std::pair<std::string, std::vector<int>>> distinct(int classes) const;
};

/// The per-class model with fixed distributions: for each class c, Bayesian linear regression of
/// its one-hot column on the features Phi(dist_c) of the `train` rows, with its own precisions at
/// their evidence optimum (EvidenceObjective::evaluateEachClass, one feature computation for the
/// classes sharing a spec), scored f_c(x) = phi_c(x)^T m_c on the `test` rows; the class is the
/// argmax. config gives the features, group, kernel, seed and block rows (its dist and learn are
/// ignored); the templates and base noise are those of `learn` and `train` with the same seed.
struct PerClassFit {
    Eigen::MatrixXd decisions;            ///< test.size() x C: f_c of every test row
    std::vector<int> predicted;           ///< the argmax of every test row
    std::vector<double> logEvidence;      ///< per class, at its own precisions, on the train rows
    std::size_t featureDim = 0;           ///< the dimension of one class's features
};

/// Requires class labels (SpecError("per-class") for regression targets) and at least two train
/// rows. Cancelled from progress.
PerClassFit fitPerClass(const Dataset& data, const Indices& train, const Indices& test, const LocalityConfig& config,
                        const ClassDistributions& dists, const Progress& progress = {});

/// `train` with per-class distributions (`train --dist-per-class`). Learner ridge or svm:
/// trainClassFeatures (one-vs-rest, class c on its own features, lambda or C and the bandwidth
/// chosen as train() chooses them). Learner blr: for every outer split of
/// config.eval (or the given test set, config.testFrom), fitPerClass on its training part, scored
/// on its test part, each class with its own precisions at their evidence optimum
/// (SpecError("learner") for krr, SpecError("grid") for a grid: nothing is searched);
/// the kernel is config.kernel, or gaussian:median=1 when empty. The result as train() gives it:
/// accuracy per fold, the confusion matrix and predictions, logEvidence the mean over the folds of
/// the sum of the classes' evidence (each fold's in FoldResult::logEvidence); no grid.
/// SpecError("per-class") for regression targets.
TrainResult trainPerClass(const Dataset& data, const TrainConfig& config, const ClassDistributions& dists,
                          const Progress& progress = {});

} // namespace orbit

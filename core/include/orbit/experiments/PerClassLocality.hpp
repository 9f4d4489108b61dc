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
#include "orbit/experiments/LocalityLearning.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace orbit {

/// One class's learned locality.
struct ClassLocality {
    int label = 0;
    std::map<std::string, double> learned;   ///< theta_c
    std::string dist;                        ///< the distribution spec with theta_c
    double logEvidence = 0.0;                ///< log p(y_c | Phi(theta_c)) at its own precisions
    std::size_t evaluations = 0;             ///< full-size evaluations of its search
    std::size_t pilotEvaluations = 0;        ///< its pilots' evaluations (the shared scan included)
    bool converged = false;
    /// With an eval split: the share of this class's test rows the per-class model gets right
    /// (its recall), and how many there are.
    std::optional<double> test;
    std::size_t testRows = 0;
    /// Its full-size evaluations in order (the classes this process learned; empty for the others
    /// of a job spread over processes).
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
/// Stages: the global learn (learnLocality); one shared scan on the cheapest pilot (every class's
/// evidence from the same features at each scanned value: EvidenceObjective::evaluateEachClass);
/// then each class's optimise and refine (maximiseEvidence on its own objective,
/// LocalityConfig::targetClass) -- the classes dealt out to the ranks in turn (class c on rank
/// c mod P, whole), and on a rank run side by side on threads sharing its cores (ComputeShare);
/// last, each class's held-out decisions with its own features and weights, the argmax.
/// Guarantees: the same bits at any number of threads and ranks (each class is computed whole by
/// one process with one-process code). A cancel from `progress` (called under a lock, from any of
/// the threads) stops every class at its next report and throws Cancelled; the classes reported
/// through `learned` before are the caller's to keep.
/// Throws SpecError("per-class") for regression targets (no classes), and what learnLocality throws.
PerClassResult learnPerClass(const Dataset& data, const LocalityConfig& config, const Progress& progress = {},
                             const ClassLearned& learned = {}, const Ranks& ranks = oneProcess());

} // namespace orbit

#pragma once
// The Training panel's Learn locality task: orbit::learnLocality, every evaluation (its cheap pilots'
// and the full-size ones) handed to the GUI as a partial result (so the sliders, the density and the orbits follow the optimiser
// live), and the landscape drawn from the learn's own evaluations and pilots (orbit::learnLandscape).
// On request, a common-random-number landscape over a grid is evaluated first (a surface for two
// parameters), at the cost of its evaluations.
#include "state/workers/Worker.hpp"

#include "orbit/data/Dataset.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/locality/LocalityLearning.hpp"
#include "orbit/locality/PerClassLocality.hpp"
#include "orbit/registry/Parameters.hpp"

#include <QMetaType>

#include <memory>
#include <optional>
#include <vector>

namespace orbitui {

struct LocalityRequest {
    std::shared_ptr<const orbit::Dataset> dataset;
    std::size_t subset = 0;             ///< as TrainingRequest::subset (seeded with config.seed)
    orbit::LocalityConfig config;       ///< config.learn: the parameters to learn
    /// The landscape's values per learned parameter (one list: a curve, two: a surface); empty: none.
    std::vector<std::vector<double>> landscape;
    /// Learn every class's parameters (orbit::learnPerClass) instead of one set; no landscape.
    bool perClass = false;
    /// "gp": the exact GP's log marginal likelihood learns the one parameter (orbit::learnExactGp on
    /// config.features exact:r=R, config.kernel the base kernel and the bandwidth's start), fold by
    /// fold of config.eval; no landscape, no per class. Else the BLR evidence (orbit::learnLocality).
    std::string learner = "blr";
};

/// The exact GP learn's marginal-likelihood evaluations per value of the parameter (L-BFGS over the
/// bandwidth, signal and noise) and its scan (`learn --learner gp`'s defaults).
constexpr int kGpInnerEvaluations = 12;
constexpr int kGpScan = 5;

/// One evaluation, as it happens.
struct LocalityStep {
    /// Landscape: the grid asked for; Pilot: the learn on a part of the rows and templates (its
    /// evidence on its own, smaller scale); Learn: a full-size evaluation.
    enum class Stage { Landscape, Pilot, Learn };
    Stage stage = Stage::Learn;
    orbit::EvidencePoint point;
    orbit::EvidencePoint best;  ///< the best of this stage so far
    int index = 0;              ///< 1-based within the stage
    int total = 0;              ///< evaluations the stage may take (0 for Pilot: as few as it needs)
};

struct LocalityResult {
    LocalityRequest request;
    orbit::LearnResult learn;
    std::optional<orbit::EvidenceCurve> curve;
    std::optional<orbit::EvidenceSurface> surface;
    /// The learn's own evaluations as a landscape: full size, and the pilots' mapped onto its scale.
    std::vector<orbit::LandscapePoint> learnedLandscape;
    /// A per-class learn: every class, the single learn beside them (learn is its global part),
    /// and with an eval split both models' confusion matrices (truth rows, predicted columns).
    std::optional<orbit::PerClassResult> perClass;
    Eigen::MatrixXi globalConfusion, perClassConfusion;
    /// A GP learn (request.learner "gp"): its folds, each with its curve; `learn` is then empty.
    std::optional<orbit::ExactLearnResult> exact;
    std::size_t samples = 0;
};

/// The landscape values for a parameter: `points` values spread over its search range (in log
/// space for logScale parameters), or the request's bounds for it when given.
std::vector<double> landscapeValues(const orbit::ParamDescriptor& p, int points,
                                    const std::optional<std::pair<double, double>>& bounds = std::nullopt);

/// Partial results: std::shared_ptr<const LocalityStep> (per class: std::shared_ptr<const
/// orbit::ClassLocality>, one as each class is learned; for the GP one per value its first fold
/// tries, its log marginal likelihood as the point's evidence); the answer: std::shared_ptr<const LocalityResult>.
Task makeLocalityTask(LocalityRequest request);

} // namespace orbitui

Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::LocalityStep>)
Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::LocalityResult>)
Q_DECLARE_METATYPE(std::shared_ptr<const orbit::ClassLocality>)

#pragma once
// The Training panel's choices (features, learner, evaluation, parameter grid, subset, seed) and
// their translation into the core's TrainConfig together with the shared orbit settings.
#include "state/OrbitSettings.hpp"

#include "orbit/training/Training.hpp"
#include "orbit/registry/Registry.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace orbitui {

/// Everything the Training panel lets the user set. Lists are the values a grid axis tries.
struct TrainingSettings {
    std::string preset = "irf";      ///< one of featurePresets()
    int s = 500;                     ///< number of features (templates for kif, s/21 templates for gicdf)
    int r = 16;                      ///< group samples per template for the invariant maps
    std::string spec;                ///< the --features line as edited; empty: presetSpec(preset, s, r)
    std::string learner = "blr";     ///< a registry learner: ridge | svm | krr | blr | gp
    /// The base kernel without its median multiple (state/KernelChoice.hpp). The Gaussian's bandwidth
    /// is searched over `medians`; another kernel is one fixed spec with the first of them.
    std::string kernel = "gaussian";
    std::string eval = "holdout";    ///< a registry evaluation: holdout | kfold | folds (the dataset's own folds)
    double holdoutFraction = 0.2;
    int k = 3;
    std::vector<double> lambdas{1e-4, 1e-2, 1.0};   ///< ridge / krr strength
    std::vector<double> costs{0.1, 1.0, 10.0};      ///< SVM cost C
    std::vector<double> medians{1.0};               ///< bandwidth as multiples of the median distance
    /// A distribution parameter (localityAxes) to sweep, empty: none. The default, κ of von Mises with
    /// blr, shows the log evidence next to the validation accuracy as the invariance gets more local.
    std::string localityAxis = "kappa";
    std::vector<double> locality{0.03, 0.3, 3.0, 30.0};  ///< its values
    /// Learn locality: the distribution parameters to learn (empty: the first one offered), the
    /// evaluation budget and the extra landscape points per parameter evaluated before the learn (0:
    /// none; one parameter then draws the learn's own evaluations, orbit::learnLandscape).
    std::vector<std::string> learn;
    int learnEvaluations = 30;
    int learnLandscape = 0;
    bool learnPerInput = true;       ///< irf: own orbit samples per input while learning (mode=data)
    bool learnPerClass = false;      ///< learn every class's parameters (orbit::learnPerClass)
    /// Learn locality's learner: "blr" (the evidence of Bayesian linear regression on the features,
    /// orbit::learnLocality) or "gp" (the exact GP's log marginal likelihood, orbit::learnExactGp).
    std::string learnLearner = "blr";
    int subset = 1000;               ///< training on this many samples drawn with `seed`; 0: all
    bool learningCurve = true;
    std::uint64_t seed = 0;

    /// The features spec the run uses: `spec` when set, else presetSpec(preset, s, r).
    std::string featureSpec() const;
    /// "holdout:0.2", "kfold:3" or "folds" (orbit::formatEvaluation).
    std::string evalSpec() const;

    /// The rows of the table of training settings (orbit::trainSettings) that this form does not set
    /// (formSetsRow: inner_folds, block_rows, mean, validation, and any row added to the table), as the
    /// CLI's text of their values; a row not here keeps the table's default. The session keeps them
    /// under their keys and makeTrainConfig applies them, so a new row needs no change here.
    std::map<std::string, std::string> more;
    bool operator==(const TrainingSettings&) const = default;
};

/// Whether the Training panel's form sets the table's row `key` (features, group, dist, kernel,
/// learner, eval, grid, learning_curve, seed); the others are TrainingSettings::more.
bool formSetsRow(const std::string& key);

/// The registry's first-layer feature maps (raw, sorted, rf, irf, nystrom, inystrom, gicdf, kif), then
/// the exact invariant kernel (orbit::exactKernelDescriptor: no map, for krr and gp).
const std::vector<std::string>& featurePresets();
/// The descriptor of a preset or of a features spec's first map (the exact kernel's too), or null.
const orbit::FeatureMapDescriptor* presetDescriptor(const std::string& spec);
/// True for the presets (and spec lines) whose features average over the group (the registry's
/// `invariant`: irf, inystrom, gicdf, kif).
bool isInvariantSpec(const std::string& spec);
/// True when the features (or the learner, krr) use the Gaussian base kernel, whose bandwidth the
/// `median` axis sets (the registry's `usesBaseKernel` / `gaussianKernel`).
bool usesGaussianKernel(const std::string& spec, const std::string& learner);
/// The spec of a preset, e.g. presetSpec("irf", 500, 16) = "irf:s=500,r=16", "exact:r=16"; gicdf uses
/// m = max(1, s / 21) templates with 10 bins (m (2 bins + 1) features), kif k = s templates.
std::string presetSpec(const std::string& preset, int s, int r);
/// The distribution parameters a locality sweep can vary for these orbit settings (the registry's
/// sweepable ones), named as orbit::Distribution::parameters() names them: {"kappa"} for von Mises,
/// {"sigma"} for noisy sort, {"rotation.kappa", "translation.sigma", ...} for the affine product.
std::vector<std::string> localityAxes(const OrbitSettings& orbit);
/// Parses "1e-4, 0.01; 1" into numbers. Throws SpecError(field, ..., offending text) on a bad entry
/// or an empty list.
std::vector<double> parseNumberList(const std::string& text, const std::string& field);
/// The inverse of parseNumberList, with the shortest round-tripping form of each number.
std::string formatNumberList(const std::vector<double>& values);

/// The core's config: features, learner, eval, the grid axes the learner uses (lambda for ridge/krr,
/// C for svm, the median multiples when usesGaussianKernel and the kernel is the Gaussian (gp fits
/// its own bandwidth), the locality sweep but on the exact kernel) and the learning-curve fractions;
/// another kernel is config.kernel (baseKernelSpec with the first median multiple). The group and
/// distribution of `orbit` are passed only for invariant features. Then the rows of `more`, applied by
/// the table (a malformed one throws SpecError naming its flag).
orbit::TrainConfig makeTrainConfig(const TrainingSettings& settings, const OrbitSettings& orbit);
/// The per-class model's run (`train --dist-per-class`, orbit::trainPerClass) when the orbit settings
/// carry per-class distributions, the learner is blr, ridge or svm and the features are invariant:
/// the features, group, default distribution, evaluation and seed of makeTrainConfig and no learning
/// curve; for blr no grid (each class maximises its own evidence) and the learn's kernel
/// (learnKernelSpec); for ridge and svm (one-vs-rest, each class on its own features) the grid of
/// makeTrainConfig less the locality sweep (the distributions are fixed per class). Otherwise
/// empty: the one-distribution run.
std::optional<orbit::TrainConfig> perClassTrainConfig(const TrainingSettings& settings, const OrbitSettings& orbit);

/// Learn locality's feature spec: featureSpec(), with ",mode=data" (own group samples per input)
/// added when learnPerInput is set and the spec is a single irf map that does not say its mode.
std::string learnFeatureSpec(const TrainingSettings& settings);
/// Learn locality's base kernel: the kernel with the first median multiple (1 without any), e.g.
/// "gaussian:median=1" (BLR keeps its bandwidth fixed; the GP starts from it).
std::string learnKernelSpec(const TrainingSettings& settings);
/// Whether the registered learner `learner` is a Gaussian process (the registry's gaussianProcess):
/// learned by its marginal likelihood on the exact kernel, one run, no landscape or per-class choice.
bool isGaussianProcess(const std::string& learner);
/// The GP learn's features: the form's when they are exact:r=R, else exact:r=4 (`learn --learner gp`'s default).
std::string learnExactFeatureSpec(const TrainingSettings& settings);
/// Throws SpecError("bandwidths") when the bandwidth list holds several values for a kernel whose
/// bandwidth the grid does not search (any but the Gaussian of the median rule), and the kernel's
/// SpecError when the registry does not take it.
void checkTrainingKernel(const TrainingSettings& settings);

} // namespace orbitui

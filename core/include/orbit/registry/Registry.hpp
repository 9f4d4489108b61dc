#pragma once
// The registry: one descriptor per group, distribution, feature map, kernel, learner and evaluation
// (docs/design.md, "One source of truth"; the model is mlpack's PARAM_* declarations and
// scikit-learn's _parameter_constraints). The spec parsers check names and keys against it,
// `orbitlab-cli --help` lists it, the panels build their combo boxes, sliders and tooltips from it,
// and sessions check the names they read with it.
#include "orbit/data/Dataset.hpp"
#include "orbit/registry/GroupKinds.hpp"
#include "orbit/registry/Parameters.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/util/Spec.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace orbit {

class BaseKernel;
class Distribution;
class Group;
class FeatureMap;
struct FeatureContext;

/// At most one of these keys in a spec (exactly one when `required`): gaussian's sigma | median.
struct KeyAlternatives {
    std::vector<std::string> keys;
    bool required = false;
};

/// What every registered spec has: its name, words for panels and help, its parameters.
struct SpecDescriptor {
    virtual ~SpecDescriptor() = default;
    std::string name;         ///< the spec name: "vonmises", "irf", "ridge"
    std::string displayName;  ///< for panels: "von Mises"
    std::string doc;          ///< one sentence: what it is
    std::vector<ParamDescriptor> parameters;  ///< the spec keys, in spec order
    std::vector<KeyAlternatives> alternatives;

    /// The parameter with this key, or null.
    const ParamDescriptor* parameter(const std::string& key) const;
    std::vector<std::string> keys() const;
    /// The smallest valid spec, "cyclic:n=N" (required parameters only), or with withOptional
    /// every parameter: "rf:s=S[,form=cos|complex]", "gaussian:sigma=S|median=M".
    virtual std::string synopsis(bool withOptional = false) const;
};

/// A transformation group: what it is and how to build it (makeGroup calls `make`).
struct GroupDescriptor : SpecDescriptor {
    /// Builds it from a spec whose keys checkSpecKeys accepted, for samples of `shape` (0 x 0 x 0
    /// when unknown) with `seed` for what it draws (the orthogonal set's matrices).
    using Factory = std::function<std::shared_ptr<const Group>(const Spec&, const GroupDescriptor&, const Shape& shape,
                                                               std::uint64_t seed)>;
    GroupKind kind = GroupKind::Rotation;
    std::vector<DataKind> dataKinds;   ///< the kinds of samples it acts on
    /// A product of factor groups, each with its own distribution (affine: rotation, translation,
    /// scale, in spec order); empty for a group with one distribution.
    std::vector<GroupKind> factors;
    int maxDimension = 0;              ///< > 0: samples of at most this many values (orthogonal set)
    /// It has a Haar probability measure (Group::hasHaarProbability): a registered group is then
    /// among the groups of every distribution with onEveryHaarGroup (haar).
    bool haarProbability = false;
    Factory make;

    bool isProduct() const { return !factors.empty(); }
    /// The parameters a user sets beside the group's name (the required ones: cyclic's n,
    /// orthogonal's k), in spec order; the editor shows one row each with its label and range.
    std::vector<const ParamDescriptor*> editorParameters() const;

    bool appliesTo(DataKind kind) const;
    /// appliesTo(kind), a positive sample dimension within maxDimension. (Whether n divides d for
    /// a cyclic group on vectors depends on n: makeGroup and checkShape decide.)
    bool appliesTo(DataKind kind, const Shape& shape) const;
};

struct DistributionDescriptor;

/// What a distribution's factory is given: a spec whose keys checkSpecKeys accepted, the kind of
/// (factor) group it is for and the descriptor it was found under.
struct DistributionArguments {
    const Spec& spec;
    GroupKind group;
    const DistributionDescriptor& descriptor;
    /// The number under `key`: the spec's value, or the parameter's default when it is optional and
    /// left out. Its range is the constructor's to check (requireDistributionParameter).
    double number(const std::string& key) const;
};

/// A distribution over a group: what it is and how to build it (makeDistribution calls `make`).
/// `parameters` are those on its first group; parametersOn(kind) those on another (uniform's window
/// is in radians on rotations, pixels on translations; the keys are the same).
struct DistributionDescriptor : SpecDescriptor {
    using Factory = std::function<std::shared_ptr<const Distribution>(const DistributionArguments&)>;
    std::vector<GroupKind> groups;  ///< the (factor) groups it applies to
    /// It applies to every group with a Haar probability measure: registerGroup adds such a group
    /// to `groups` (haar).
    bool onEveryHaarGroup = false;
    /// It applies to every group: registerGroup adds each to `groups` (delta).
    bool onEveryGroup = false;
    bool dependsOnInput = false;    ///< q depends on the sample x (noisy sort)
    /// Where its parameters on a group differ from `parameters` (same keys, other units or ranges).
    std::vector<std::pair<GroupKind, std::vector<ParamDescriptor>>> parametersByGroup;
    Factory make;                   ///< builds it from a checked spec

    bool appliesTo(GroupKind kind) const;
    const std::vector<ParamDescriptor>& parametersOn(GroupKind kind) const;
};

/// Adds a distribution to distributionDescriptors(), after the built-in ones: one class and this
/// one call make it known to the spec parser, --help, the panels and Python. Throws ContractError
/// when the name is taken or empty, `groups` is empty or `make` is unset. Call it before anything
/// reads the registry (a DistributionRegistration at static initialisation does): it may move the
/// table, so earlier pointers to descriptors do not survive it.
void registerDistribution(DistributionDescriptor descriptor);

/// Adds a group to groupDescriptors(), after the built-in ones: its class and this one call make it
/// known to makeGroup, --help, the panels and Python. It gets a kind of its own (GroupKind names only
/// the built-in ones; its class's kind() returns registeredGroupKind(name)); it joins the groups of
/// every distribution with onEveryGroup, and with haarProbability of those with onEveryHaarGroup. Throws
/// ContractError when the name is taken or empty, `dataKinds` is empty or `make` is unset; call it
/// before anything reads the registry (a GroupRegistration at static initialisation does).
void registerGroup(GroupDescriptor descriptor);
/// Registers a group at static initialisation (DistributionRegistration's pattern).
struct GroupRegistration {
    explicit GroupRegistration(GroupDescriptor descriptor) { registerGroup(std::move(descriptor)); }
};
/// The kind registerGroup gave the group of that name; ContractError when there is none.
GroupKind registeredGroupKind(const std::string& name);

/// Registers a distribution when the library that holds it is loaded:
/// `const orbit::DistributionRegistration toy{toyDescriptor()};` at namespace scope. The
/// registry's table is a function-local static, so the order of static initialisation does not matter.
struct DistributionRegistration {
    explicit DistributionRegistration(DistributionDescriptor descriptor) { registerDistribution(std::move(descriptor)); }
};

/// A feature map: what it is and how to build it (makeFeatureMap calls `make`).
struct FeatureMapDescriptor : SpecDescriptor {
    /// Builds a first-layer map from a spec whose keys checkSpecKeys accepted, for a context that
    /// holds a group and a distribution when `invariant`; the descriptor is the one it was found under.
    using Factory = std::function<std::unique_ptr<FeatureMap>(const Spec&, const FeatureContext&,
                                                              const FeatureMapDescriptor&)>;
    Factory make;                 ///< unset for a second layer (makeFeatureMap stacks it on a first map)
    bool invariant = false;       ///< averages over the group: needs --group and --dist
    bool usesBaseKernel = false;  ///< uses the base kernel of the context (the `median` axis sets its width)
    bool seedOnlyFit = false;     ///< its fit draws from the seed only, never from the rows' values...
    /// ...except with one of these parameter values (gicdf's span=auto and norm=max measure the rows).
    std::vector<std::pair<std::string, std::string>> fitReadsRowsWith;
    bool foldsCoulomb = true;     ///< folds symmetric Coulomb inputs onto one triangle (Nystrom and GICDF keep them whole)
    bool secondLayer = false;     ///< rf2: appended to a first map as `...+rf2:s=S2`
    std::string plainMap;         ///< an invariant map's counterpart without the group (irf: rf), for the invariance probe
    /// The panels' presets (a size S and r): its size parameter is S / presetFeaturesPerSize (gicdf's
    /// m (2 bins + 1) features: 21 at the presets' 10 bins), and presetValues set its other
    /// parameters ({"bins", "10"}, {"span", "auto"}; kif: {"eta", "mean"}).
    int presetFeaturesPerSize = 1;
    std::vector<std::pair<std::string, std::string>> presetValues;

    /// Whether fitting the map of `spec` (this map's spec) reads the rows' values: not seedOnlyFit,
    /// or a value of fitReadsRowsWith. Then a run fits it on each split's training rows only.
    bool fitReadsRows(const Spec& spec) const;
};

/// Adds a feature map to featureMapDescriptors(), after the built-in ones (registerDistribution's
/// rules: a new name and a factory, unless it is a second layer; call it before the registry is read).
void registerFeatureMap(FeatureMapDescriptor descriptor);
/// Registers a feature map at static initialisation (DistributionRegistration's pattern).
struct FeatureMapRegistration {
    explicit FeatureMapRegistration(FeatureMapDescriptor descriptor) { registerFeatureMap(std::move(descriptor)); }
};

/// A base kernel: what it is and how to build it (makeKernel calls `make`).
struct KernelDescriptor : SpecDescriptor {
    /// Builds it from a spec whose keys checkSpecKeys accepted, with bandwidth `sigma` where it has
    /// one (makeKernel resolves sigma=S or median=F first; the polynomial kernel ignores it).
    using Factory = std::function<BaseKernel(const Spec&, const KernelDescriptor&, double sigma)>;
    Factory make;
};

/// Adds a base kernel to kernelDescriptors(), after the built-in ones (registerDistribution's rules).
void registerKernel(KernelDescriptor descriptor);
/// Registers a base kernel at static initialisation (DistributionRegistration's pattern); a kernel
/// the core does not know is a KernelProfile (orbit/kernels/KernelProfile.hpp) built by `make`.
struct KernelRegistration {
    explicit KernelRegistration(KernelDescriptor descriptor) { registerKernel(std::move(descriptor)); }
};

/// The score of a fold: accuracy for classes, RMSE for regression targets.
enum class Metric { Accuracy, Rmse };
/// The outer evaluation of `train`: one hold-out split, K seeded folds, or the dataset's own folds.
enum class EvaluationKind { HoldOut, KFold, Folds };

namespace detail {
class TrainLearner;
struct RowPartition;
} // namespace detail
struct SavedModel;
struct LearnerDescriptor;

/// What a learner's fold factory is given (training/TrainingLearners.hpp holds the interface).
struct LearnerArguments {
    const Dataset& data;
    std::uint64_t seed;                   ///< the run's learner stream (liblinear's seed)
    const detail::RowPartition& rows;
    bool keepDecisions;                   ///< keep the test rows' decision values (one-vs-rest per-class runs)
    const LearnerDescriptor& descriptor;  ///< the descriptor it was found under
};

/// What a learner's model factory is given: the features of the first split's training rows
/// (row i of F is dataset row train[i]), the chosen value of its axis (0 without one) and the
/// model to fill: weights and bias (or, for a dual learner, support rows, dual weights and
/// kernel), coding, and what else it keeps (blr's precisions and posterior).
struct LearnerModelArguments {
    const Dataset& data;
    const MatrixXfR& F;
    const std::vector<std::size_t>& train;
    double value;
    std::uint64_t seed;
    const Progress& progress;
};

/// A learner of `train`: what it is, what it needs and how to build it; `parameters` holds its
/// grid axis (`lambda`, `C`; none for blr). What code needs to know about a learner is asked here,
/// never read off its name.
struct LearnerDescriptor : SpecDescriptor {
    using Factory = std::function<std::unique_ptr<detail::TrainLearner>(const LearnerArguments&)>;
    using ModelFactory = std::function<void(const LearnerModelArguments&, SavedModel&)>;
    std::vector<double> defaultAxis;  ///< the axis values a run tries when the grid gives none
    bool classesOnly = false;         ///< needs class labels (svm)
    bool logEvidence = false;         ///< reports the log evidence (blr, gp): `learn` and `evidence` take it
    bool gaussianKernel = false;      ///< a Gaussian kernel on its inputs (krr): the `median` axis applies
    bool gaussianProcess = false;     ///< a Gaussian process (gp): its bandwidth, signal and noise maximise the
                                      ///< marginal likelihood (no grid), one-hot class codes, the exact n x n solve
    bool onFeatures = true;           ///< runs on the output of a feature map (all but gp)
    bool onExactKernel = false;       ///< runs on the exact invariant kernel, `--features exact:r=R` (krr, gp)
    bool dualWeights = false;         ///< its model keeps support rows and dual weights (krr, gp), not weights
    bool oneVsRest = false;           ///< each class a ±1 problem of its own columns (ridge, svm): per-class features apply
    bool perClassEvidence = false;    ///< with per-class distributions, each class its own precisions (blr)
    bool posterior = false;           ///< regression: its model keeps a posterior for predictive intervals (blr, gp)
    Factory make;                     ///< the fold learner on features; unset when !onFeatures
    ModelFactory fitModel;            ///< fits the saved model on features; unset: its models are not saved
    /// The grid axis name, or empty.
    std::string axis() const { return parameters.empty() ? std::string() : parameters.front().key; }
};

/// Adds a learner to learnerDescriptors(), after the built-in ones (registerDistribution's rules:
/// a new name, and a factory when it runs on features; call it before the registry is read).
void registerLearner(LearnerDescriptor descriptor);
/// Registers a learner at static initialisation (DistributionRegistration's pattern).
struct LearnerRegistration {
    explicit LearnerRegistration(LearnerDescriptor descriptor) { registerLearner(std::move(descriptor)); }
};
/// "a, b or c": the names of the learners `keep` accepts, in registry order.
std::string learnerList(const std::function<bool(const LearnerDescriptor&)>& keep);

/// An evaluation. Its spec is positional: `holdout:FRAC`, `kfold:K`, `folds`; `parameters` holds
/// the one value it takes, if any.
struct EvaluationDescriptor : SpecDescriptor {
    EvaluationKind id = EvaluationKind::HoldOut;
    /// "holdout:FRAC", "kfold:K", "folds".
    std::string synopsis(bool withOptional = false) const override;
};

const std::vector<GroupDescriptor>& groupDescriptors();
const std::vector<DistributionDescriptor>& distributionDescriptors();
const std::vector<FeatureMapDescriptor>& featureMapDescriptors();
const std::vector<KernelDescriptor>& kernelDescriptors();
const std::vector<LearnerDescriptor>& learnerDescriptors();
const std::vector<EvaluationDescriptor>& evaluationDescriptors();

/// The descriptor of that name, or null.
const GroupDescriptor* findGroup(const std::string& name);
const DistributionDescriptor* findDistribution(const std::string& name);
const FeatureMapDescriptor* findFeatureMap(const std::string& name);
const KernelDescriptor* findKernel(const std::string& name);
const LearnerDescriptor* findLearner(const std::string& name);
const EvaluationDescriptor* findEvaluation(const std::string& name);

const GroupDescriptor& groupDescriptor(GroupKind kind);
const EvaluationDescriptor& evaluationDescriptor(EvaluationKind kind);
/// The distributions that apply to a (factor) group of this kind, in registry order.
std::vector<const DistributionDescriptor*> distributionsFor(GroupKind kind);
/// The groups that act on samples of this kind and shape (GroupDescriptor::appliesTo), in registry order.
std::vector<const GroupDescriptor*> groupsFor(DataKind kind, const Shape& shape);

/// "a, b, c": the synopses of the descriptors (for "unknown ... (expected ...)" messages).
std::string synopsisList(const std::vector<const SpecDescriptor*>& descriptors);
template <class D>
std::string synopsisList(const std::vector<D>& descriptors)
{
    std::vector<const SpecDescriptor*> all;
    for (const D& d : descriptors) all.push_back(&d);
    return synopsisList(all);
}

const char* toString(Metric metric);
const char* toString(EvaluationKind kind);
/// The learner named `name`; SpecError(field, "must be ridge, svm, krr, blr or gp", name) otherwise.
const LearnerDescriptor& parseLearner(const std::string& name, const std::string& field = "learner");
/// The metric named `name` ("accuracy", "rmse"); SpecError(field) otherwise.
Metric parseMetric(const std::string& name, const std::string& field = "metric");
/// Accuracy for labelled classes, RMSE for regression targets.
Metric metricFor(const Dataset& data);

/// A parsed evaluation spec.
struct Evaluation {
    EvaluationKind kind = EvaluationKind::HoldOut;
    double fraction = 0.2;  ///< holdout: the test fraction, 0 < FRAC < 1
    int folds = 3;          ///< kfold: K in [2, 1000]
    bool operator==(const Evaluation&) const = default;
};
/// Parses `holdout:FRAC`, `kfold:K` or `folds`, checking the value against the descriptor;
/// SpecError(field, ..., text) on anything else.
Evaluation parseEvaluation(const std::string& text, const std::string& field = "eval");
/// The spec of an evaluation: parseEvaluation(formatEvaluation(e)) == e when the fields e.kind
/// does not use hold their defaults.
std::string formatEvaluation(const Evaluation& e);

/// The registry's one check of a parsed spec's keys (scikit-learn's validate_parameter_constraints):
/// every key is a parameter of `parameters` (else SpecError(field + " " + name, "unknown parameter
/// (allowed: ...)", key)), every required one is there (SpecError(field, "NAME needs KEY=")), each
/// alternative set holds at most one key (exactly one when required) and a Choice value is one of
/// its words. Values are range-checked where they are read (readReal, readInteger) or by the
/// constructor of the object (distributions).
void checkSpecKeys(const Spec& spec, const std::vector<ParamDescriptor>& parameters,
                   const std::vector<KeyAlternatives>& alternatives = {});
void checkSpecKeys(const Spec& spec, const SpecDescriptor& descriptor);

/// The value of p in spec: absent, p.defaultValue; present, a finite number p accepts, else
/// SpecError(field + " " + name + "." + key, why, the text).
double readReal(const Spec& spec, const ParamDescriptor& p);
/// The same for an Integer parameter (Spec::integer with p's bounds).
long long readInteger(const Spec& spec, const ParamDescriptor& p);
/// A Choice or Text value: absent, p.defaultText.
std::string readText(const Spec& spec, const ParamDescriptor& p);

/// Lines for `--help`, wrapped at 110 columns: "  SYNOPSIS  doc" (the doc followed by `extra`, e.g.
/// the groups a distribution applies to) and, with withParameters, one indented entry per parameter with its doc, valid range, default and unit. A descriptor with an
/// empty name gives the parameter entries only.
std::string helpLines(const SpecDescriptor& d, bool withParameters, const std::string& extra = {});

} // namespace orbit

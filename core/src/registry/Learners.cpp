// The learners, metrics and evaluations of `train` in the registry.
#include "orbit/registry/Registry.hpp"

#include "orbit/util/Error.hpp"
#include "registry/Builders.hpp"

#include <limits>
#include <stdexcept>

namespace orbit {

namespace {

/// A positive grid axis of a learner, searched in log space.
ParamDescriptor axis(std::string key, std::string label, std::string doc)
{
    return {.key = std::move(key), .label = std::move(label), .minimum = 0.0, .minimumOpen = true,
            .maximum = std::numeric_limits<double>::max(), .defaultValue = 1.0, .learnMinimum = 1e-8, .learnMaximum = 1e4,
            .logScale = true, .doc = std::move(doc), .decimals = 8};
}

/// A learner's or an evaluation's descriptor: its spec name is toString(id); `parameters` its grid
/// axis or the one value it takes, if any.
template <class Descriptor, class Kind>
Descriptor describe(Kind id, std::string display, std::string doc, std::vector<ParamDescriptor> parameters = {})
{
    Descriptor d;
    d.id = id;
    d.name = toString(id);
    d.displayName = std::move(display);
    d.doc = std::move(doc);
    d.parameters = std::move(parameters);
    return d;
}

std::vector<LearnerDescriptor> makeLearners()
{
    const ParamDescriptor lambda = axis("lambda", "λ", "The ridge strength; the best of the grid on the validation split is kept.");
    LearnerDescriptor ridge = describe<LearnerDescriptor>(
        Learner::Ridge, "ridge regression", "Ridge regression on the features (one-vs-all ±1 targets for classes).", {lambda});
    ridge.defaultAxis = {1e-6, 1e-4, 1e-2, 1.0};
    LearnerDescriptor svm = describe<LearnerDescriptor>(
        Learner::Svm, "linear SVM", "A linear SVM (liblinear, one-vs-rest); classes only.",
        {axis("C", "C", "The SVM cost: a large C fits the training data harder.")});
    svm.defaultAxis = {0.01, 0.1, 1.0, 10.0};
    svm.classesOnly = true;
    LearnerDescriptor krr = describe<LearnerDescriptor>(
        Learner::Krr, "kernel ridge (krr)", "Exact kernel ridge regression: on the exact invariant kernel with --features exact:r=R, else a Gaussian kernel on the output of the feature map.", {lambda});
    krr.defaultAxis = ridge.defaultAxis;
    krr.gaussianKernel = true;
    LearnerDescriptor blr = describe<LearnerDescriptor>(
        Learner::Blr, "Bayesian linear regression (blr)",
        "Bayesian linear regression: its precisions maximise the evidence, which it reports "
        "(so it can choose κ without a validation split).");
    blr.logEvidence = true;
    LearnerDescriptor gp = describe<LearnerDescriptor>(
        Learner::Gp, "Gaussian process (gp)",
        "Gaussian-process regression on the exact invariant kernel (--features exact:r=R): the bandwidth, signal and "
        "noise variance maximise the log marginal likelihood, which it reports; classes are regression on their codes.");
    gp.logEvidence = true;
    gp.exactKernel = true;
    return {ridge, svm, krr, blr, gp};
}

std::vector<EvaluationDescriptor> makeEvaluations()
{
    const ParamDescriptor fraction{.key = "fraction", .label = "test fraction", .minimum = 0.0, .minimumOpen = true,
                                   .maximum = 1.0, .defaultValue = 0.2, .learnMinimum = 0.05, .learnMaximum = 0.95,
                                   .sweepable = false, .doc = "The fraction of the samples kept aside for testing.",
                                   .maximumOpen = true, .placeholder = "FRAC", .decimals = 2};
    const ParamDescriptor k{.key = "K", .label = "folds K", .minimum = 2, .maximum = 1000, .defaultValue = 3,
                            .learnMinimum = 2, .learnMaximum = 1000, .sweepable = false, .doc = "The number of folds.",
                            .type = ParamType::Integer, .placeholder = "K", .decimals = 0};
    return {describe<EvaluationDescriptor>(EvaluationKind::HoldOut, "hold-out",
                                           "One seeded split: the fraction FRAC of the samples is kept aside for testing.",
                                           {fraction}),
            describe<EvaluationDescriptor>(EvaluationKind::KFold, "k-fold",
                                           "K seeded random folds; each is tested once by a model trained on the others.", {k}),
            describe<EvaluationDescriptor>(EvaluationKind::Folds, "the dataset's folds",
                                           "The folds stored in the data (e.g. the five of QM7's .mat file).")};
}

std::string evaluationChoices()
{
    const auto& all = evaluationDescriptors();
    std::string out;
    for (std::size_t i = 0; i < all.size(); ++i)
        out += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].synopsis();
    return out;
}

} // namespace

const std::vector<LearnerDescriptor>& learnerDescriptors()
{
    static const std::vector<LearnerDescriptor> all = makeLearners();
    return all;
}

const std::vector<EvaluationDescriptor>& evaluationDescriptors()
{
    static const std::vector<EvaluationDescriptor> all = makeEvaluations();
    return all;
}

const LearnerDescriptor* findLearner(const std::string& name) { return registry::findIn(learnerDescriptors(), name); }
const EvaluationDescriptor* findEvaluation(const std::string& name) { return registry::findIn(evaluationDescriptors(), name); }

const LearnerDescriptor& learnerDescriptor(Learner id)
{
    for (const LearnerDescriptor& l : learnerDescriptors())
        if (l.id == id) return l;
    throw ContractError("learnerDescriptor", "no descriptor for a learner");
}

const EvaluationDescriptor& evaluationDescriptor(EvaluationKind id)
{
    for (const EvaluationDescriptor& e : evaluationDescriptors())
        if (e.id == id) return e;
    throw ContractError("evaluationDescriptor", "no descriptor for an evaluation");
}

const char* toString(Learner learner)
{
    switch (learner) {
    case Learner::Ridge: return "ridge";
    case Learner::Svm: return "svm";
    case Learner::Krr: return "krr";
    case Learner::Blr: return "blr";
    case Learner::Gp: return "gp";
    }
    return "learner";
}

const char* toString(Metric metric) { return metric == Metric::Rmse ? "rmse" : "accuracy"; }

const char* toString(EvaluationKind kind)
{
    switch (kind) {
    case EvaluationKind::HoldOut: return "holdout";
    case EvaluationKind::KFold: return "kfold";
    case EvaluationKind::Folds: return "folds";
    }
    return "evaluation";
}

Learner parseLearner(const std::string& name, const std::string& field)
{
    if (const LearnerDescriptor* l = findLearner(name)) return l->id;
    const auto& all = learnerDescriptors();
    std::string list;
    for (std::size_t i = 0; i < all.size(); ++i)
        list += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].name;
    throw SpecError(field, "must be " + list, name);
}

Metric parseMetric(const std::string& name, const std::string& field)
{
    for (Metric m : {Metric::Accuracy, Metric::Rmse})
        if (name == toString(m)) return m;
    throw SpecError(field, "must be accuracy or rmse", name);
}

Metric metricFor(const Dataset& data) { return data.isClassification() ? Metric::Accuracy : Metric::Rmse; }

Evaluation parseEvaluation(const std::string& text, const std::string& field)
{
    const auto colon = text.find(':');
    const std::string name = text.substr(0, colon);
    const EvaluationDescriptor* d = findEvaluation(name);
    const bool hasValue = colon != std::string::npos;
    if (!d || hasValue != !d->parameters.empty()) throw SpecError(field, "must be " + evaluationChoices(), text);
    Evaluation e;
    e.kind = d->id;
    if (!hasValue) return e;
    const ParamDescriptor& p = d->parameters.front();
    const std::string value = text.substr(colon + 1);
    const auto v = p.type == ParamType::Integer ? (parseInteger(value) ? std::optional<double>(double(*parseInteger(value)))
                                                                        : std::nullopt)
                                                : parseDouble(value);
    if (!v || !p.accepts(*v))
        throw SpecError(field, d->synopsis() + " needs " + p.placeholder + " " +
                                   (p.type == ParamType::Integer ? "in [" + std::to_string(static_cast<long long>(p.minimum)) +
                                                                       ", " + std::to_string(static_cast<long long>(p.maximum)) + "]"
                                                                 : p.rangeText()),
                        text);
    if (e.kind == EvaluationKind::HoldOut) e.fraction = *v;
    if (e.kind == EvaluationKind::KFold) e.folds = static_cast<int>(*v);
    return e;
}

std::string formatEvaluation(const Evaluation& e)
{
    switch (e.kind) {
    case EvaluationKind::HoldOut: return std::string(toString(e.kind)) + ":" + formatNumber(e.fraction);
    case EvaluationKind::KFold: return std::string(toString(e.kind)) + ":" + std::to_string(e.folds);
    case EvaluationKind::Folds: break;
    }
    return toString(e.kind);
}

} // namespace orbit

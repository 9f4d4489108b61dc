// The learners, metrics and evaluations of `train` in the registry: the learners' table (the
// built-in ones are registered beside their classes, training/RegisteredLearners.cpp), the evaluations.
#include "orbit/registry/Registry.hpp"

#include "orbit/util/Error.hpp"
#include "registry/Builders.hpp"

#include <limits>
#include <stdexcept>

namespace orbit {

ParamDescriptor registry::learnerAxis(std::string key, std::string label, std::string doc)
{
    return {.key = std::move(key), .label = std::move(label), .minimum = 0.0, .minimumOpen = true,
            .maximum = std::numeric_limits<double>::max(), .defaultValue = 1.0, .learnMinimum = 1e-8, .learnMaximum = 1e4,
            .logScale = true, .doc = std::move(doc), .decimals = 8};
}

namespace {

/// An evaluation's descriptor: its spec name is toString(id); `parameters` the one value it takes, if any.
EvaluationDescriptor describe(EvaluationKind id, std::string display, std::string doc, std::vector<ParamDescriptor> parameters = {})
{
    EvaluationDescriptor d;
    d.id = id;
    d.name = toString(id);
    d.displayName = std::move(display);
    d.doc = std::move(doc);
    d.parameters = std::move(parameters);
    return d;
}

/// The one table of learners: the built-in ones (training/RegisteredLearners.cpp) first, built on
/// first use (static initialisation may reach it first), then appended to.
std::vector<LearnerDescriptor>& learnerTable()
{
    static std::vector<LearnerDescriptor> all = registry::builtinLearners();
    return all;
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
    return {describe(EvaluationKind::HoldOut, "hold-out",
                                           "One seeded split: the fraction FRAC of the samples is kept aside for testing.",
                                           {fraction}),
            describe(EvaluationKind::KFold, "k-fold",
                                           "K seeded random folds; each is tested once by a model trained on the others.", {k}),
            describe(EvaluationKind::Folds, "the dataset's folds",
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

void registerLearner(LearnerDescriptor descriptor)
{
    if (descriptor.name.empty() || (descriptor.onFeatures && !descriptor.make))
        throw ContractError("registerLearner", "a learner needs a name, and a factory when it runs on features: " + descriptor.name);
    std::vector<LearnerDescriptor>& all = learnerTable();
    if (registry::findIn(all, descriptor.name))
        throw ContractError("registerLearner", "the learner " + descriptor.name + " is already registered");
    all.push_back(std::move(descriptor));
}

const std::vector<LearnerDescriptor>& learnerDescriptors() { return learnerTable(); }

std::string learnerList(const std::function<bool(const LearnerDescriptor&)>& keep)
{
    std::vector<std::string> names;
    for (const LearnerDescriptor& l : learnerDescriptors())
        if (keep(l)) names.push_back(l.name);
    return registry::joined(names, ", ", " or ");
}

const std::vector<EvaluationDescriptor>& evaluationDescriptors()
{
    static const std::vector<EvaluationDescriptor> all = makeEvaluations();
    return all;
}

const LearnerDescriptor* findLearner(const std::string& name) { return registry::findIn(learnerDescriptors(), name); }
const EvaluationDescriptor* findEvaluation(const std::string& name) { return registry::findIn(evaluationDescriptors(), name); }

const EvaluationDescriptor& evaluationDescriptor(EvaluationKind id)
{
    for (const EvaluationDescriptor& e : evaluationDescriptors())
        if (e.id == id) return e;
    throw ContractError("evaluationDescriptor", "no descriptor for an evaluation");
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

const LearnerDescriptor& parseLearner(const std::string& name, const std::string& field)
{
    if (const LearnerDescriptor* l = findLearner(name)) return *l;
    throw SpecError(field, "must be " + learnerList([](const LearnerDescriptor&) { return true; }), name);
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

#include "orbit/experiments/TrainedModel.hpp"

#include "experiments/TrainingGrid.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/learn/BayesianLinearRegression.hpp"
#include "orbit/learn/LinearSvm.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"

#include <optional>

namespace orbit {

namespace {

/// The seed stream train() gives liblinear (Training.cpp's kLearnerStream).
constexpr std::uint64_t kLearnerStream = 4000;

Progress part(const Progress& progress, double lo, double hi)
{
    if (!progress) return {};
    return [&progress, lo, hi](double f, const std::string& what) { return progress(lo + (hi - lo) * f, what); };
}

} // namespace

void checkSavable(const TrainConfig& config)
{
    if (parseLearner(config.learner) == Learner::Krr)
        throw SpecError("learner", "a krr model keeps every training row and is not saved (save ridge, blr or svm)", config.learner);
}

SavedModel trainedModel(const Dataset& data, const TrainConfig& config, const TrainResult& result, const Progress& progress)
{
    checkSavable(config);
    const Learner learner = parseLearner(config.learner);
    if (result.folds.empty()) throw ContractError("trainedModel", "a result without folds");
    if (!data.holdsAll()) throw ContractError("trainedModel", "the model is fitted on every training row; only some were read");
    const Split split = outerSplits(data, config).front();

    // The map of the chosen point, as Trainer::features makes it.
    ParamPoint point;
    for (const auto& [name, v] : result.folds.front().chosen)
        if (!detail::isLearnerAxis(name)) point[name] = v;
    std::string kernelSpec = config.kernel;
    std::optional<double> sigma;
    if (point.count("bandwidth")) sigma = point.at("bandwidth");
    else if (point.count("median")) sigma = point.at("median") * medianPairwiseDistance(data.X, 1000, config.seed);
    if (sigma) kernelSpec = formatSpec("gaussian", {{"sigma", detail::roundedBandwidth(*sigma)}});
    const std::string features = detail::featuresWith(config.features, point);
    const std::string dist = detail::distWith(config, data.shape, point);
    const FeatureContext context = makeFeatureContext(data, config.group, dist, kernelSpec, featureSeed(config.seed));

    SavedModel m;
    m.map.features = features;
    m.map.group = config.group;
    m.map.dist = dist;
    m.map.kernel = context.kernel ? context.kernel->spec() : std::string();
    m.map.contextSeed = m.map.fitSeed = featureSeed(config.seed);
    m.map.kind = data.kind;
    m.map.shape = data.shape;
    // train() fits a map that draws from its seed alone on every row, another on the training rows.
    if (fitReadsRows(features))
        m.map.fitRows = detail::isDataIndependent(features) ? data.X : selectRows(data.X, split.train);
    const auto map = m.map.build(part(progress, 0.0, 0.3));
    m.dim = map->dim();
    const MatrixXfR F = selectRows(transformAll(*map, data.X, part(progress, 0.3, 0.8)), split.train);
    reportProgress(progress, 0.8, "fitting " + config.learner);

    m.learner = config.learner;
    m.chosen = toString(result.folds.front().chosen);
    m.trainRows = static_cast<std::int64_t>(split.train.size());
    m.trainedOn = data.source;
    m.targetUnit = data.targetUnit;
    const double value = learnerDescriptor(learner).axis().empty() ? 0.0 : result.folds.front().chosen.at(learnerDescriptor(learner).axis());
    if (learner == Learner::Svm) {
        LinearSvm svm(value, 0.1, deriveSeed(config.seed, kLearnerStream));
        svm.fit(F, select(data.labels, split.train), data.numClasses, part(progress, 0.8, 1.0));
        m.weights = svm.weights();
        m.bias = svm.bias();
        m.coding = TargetCoding::classes(data.numClasses);
    } else if (learner == Learner::Ridge) {
        RidgeRegression ridge(value);
        if (data.isClassification()) ridge.fit(F, select(data.labels, split.train), data.numClasses);
        else ridge.fit(F, select(data.targets, split.train));
        m.weights = ridge.weights();
        m.coding = ridge.coding();
    } else {
        BayesianLinearRegression blr;
        if (data.isClassification()) blr.fit(F, select(data.labels, split.train), data.numClasses);
        else blr.fit(F, select(data.targets, split.train));
        m.weights = blr.weights();
        m.coding = blr.coding();
        m.alpha = blr.alpha();
        m.beta = blr.beta();
        m.logEvidence = blr.logEvidence();
    }
    if (m.bias.size() == 0) m.bias = Eigen::VectorXd::Zero(m.weights.cols());
    if (data.isClassification()) {
        for (int c = 0; c < data.numClasses; ++c) m.integerLabels.push_back(c);
        if (std::size_t(data.numClasses) == data.classNames.size()) m.classNames = data.classNames;
    }
    reportProgress(progress, 1.0, "model");
    return m;
}

} // namespace orbit

#include "orbit/training/TrainedModel.hpp"

#include "training/TrainingGrid.hpp"
#include "training/TrainingLearners.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/linalg/Gram.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/FeatureKernel.hpp"
#include "orbit/learn/GaussianProcess.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/models/ExactModel.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"

#include <optional>

namespace orbit {

namespace {

Progress part(const Progress& progress, double lo, double hi)
{
    if (!progress) return {};
    return [&progress, lo, hi](double f, const std::string& what) { return progress(lo + (hi - lo) * f, what); };
}

void setClassLabels(const Dataset& data, SavedModel& m)
{
    if (!data.isClassification()) return;
    for (int c = 0; c < data.numClasses; ++c) m.integerLabels.push_back(c);
    if (std::size_t(data.numClasses) == data.classNames.size()) m.classNames = data.classNames;
}

/// The exact kernel machine of the first split, refitted at its chosen point as trainExact fits it:
/// the base kernel at the chosen bandwidth, the group samples of the training rows from their own
/// sub-streams, the Gram of the split's training rows (OrbitDistances: an entry's bits depend on its
/// two rows only, so the run's Gram), and the same solve (krr: K + lambda I; gp: factoriseGp at the
/// chosen signal and noise), so the run's dual weights to the bit.
SavedModel trainedExactModel(const Dataset& data, const TrainConfig& config, const TrainResult& result, const Progress& progress)
{
    const int r = exactSamplesOf(config.features);
    const LearnerDescriptor& learner = parseLearner(config.learner);
    if (!learner.onExactKernel)
        throw SpecError("learner", "exact:r=R is the kernel itself: its learners are " +
                                       learnerList([](const LearnerDescriptor& l) { return l.onExactKernel; }), config.learner);
    const Split split = outerSplits(data, config).front();
    const ParamPoint& chosen = result.folds.front().chosen;
    if (!chosen.count("bandwidth")) throw ContractError("trainedModel", "an exact run's fold without its bandwidth");
    const MatrixXfR trainX = selectRows(data.X, split.train);
    const std::string family = trim(config.kernel).empty() ? "gaussian:median=1" : config.kernel;
    const BaseKernel k = makeKernel(family, trainX, config.seed).withSigma(chosen.at("bandwidth"));

    SavedModel m;
    m.map.features = "exact:r=" + std::to_string(r);
    m.map.group = config.group;
    m.map.dist = config.dist;
    m.map.kind = data.kind;
    m.map.shape = data.shape;
    m.map.contextSeed = m.map.fitSeed = m.orbitSeed = exactOrbitSeed(config.seed);
    m.dim = data.shape.dim();
    m.learner = learner.name;
    m.chosen = toString(chosen);
    m.kernel = k.spec();
    m.support = trainX;
    for (std::size_t i : split.train) m.supportStreams.push_back(std::int64_t(i));
    m.firstStream = std::int64_t(config.testFrom);  // a test file's rows followed the training file's
    m.trainRows = static_cast<std::int64_t>(split.train.size());
    m.trainedOn = data.source;
    m.targetUnit = data.targetUnit;

    reportProgress(progress, 0.0, "group samples");
    int rr = 0;
    const MatrixXfR orbits = exactOrbitRows(trainX, m.supportStreams, data.kind, data.shape, config.group, config.dist, r,
                                            m.orbitSeed, &rr);
    const OrbitDistances D(orbits, rr, k.distance(), part(progress, 0.0, 0.5));
    Indices all(split.train.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    Eigen::MatrixXd K;
    D.gram(k, all, all, K);
    reportProgress(progress, 0.6, "fitting " + m.learner);
    const auto kind = learner.gaussianProcess ? TargetCoding::Kind::OneHot : TargetCoding::Kind::PlusMinusOne;
    m.coding = data.isClassification() ? TargetCoding::classes(data.numClasses, kind)
                                       : TargetCoding::regression(select(data.targets, split.train));
    const Eigen::MatrixXd Y = data.isClassification() ? m.coding.encode(select(data.labels, split.train))
                                                      : m.coding.encode(select(data.targets, split.train));
    if (learner.gaussianProcess) {
        m.gpSignal = chosen.at("signal");
        m.gpNoise = chosen.at("noise");
        const GpFactor factor = factoriseGp(K, Y, m.gpSignal, m.gpNoise, k.spec() + " on " + config.features);
        m.dual = factor.alpha;
        m.logEvidence = factor.logLikelihood;
        // Regression keeps C's factor for the predictive intervals (a classifier's bars have none).
        if (!data.isClassification()) m.posteriorFactor = factor.L.triangularView<Eigen::Lower>().toDenseMatrix().cast<float>();
    } else {
        const double lambda = chosen.at("lambda");
        K.diagonal().array() += lambda;
        if (!choleskyInPlace(K))
            throw SpecError("kernel", "the Gram matrix plus lambda " + formatNumber(lambda) + " is not positive definite",
                            k.spec() + " on " + config.features);
        m.dual = choleskySolve(K, Y);
    }
    setClassLabels(data, m);
    reportProgress(progress, 1.0, "model");
    return m;
}

} // namespace

SavedModel trainedModel(const Dataset& data, const TrainConfig& config, const TrainResult& result, const Progress& progress)
{
    if (result.folds.empty()) throw ContractError("trainedModel", "a result without folds");
    if (!data.holdsAll()) throw ContractError("trainedModel", "the model is fitted on every training row; only some were read");
    if (config.mean != "constant")  // the file keeps the coding's mean and scale, not a mean function
        throw SpecError("mean", "a model with the composition mean is not saved yet: save one with the constant mean",
                        config.mean);
    if (isExactFeatures(config.features)) return trainedExactModel(data, config, result, progress);
    const LearnerDescriptor& learner = parseLearner(config.learner);
    const bool krr = learner.gaussianKernel;  // its bandwidth is on the features
    if (!krr && !learner.fitModel)
        throw SpecError("learner", config.learner + "'s models are not saved", config.learner);
    const Split split = outerSplits(data, config).front();

    // The map of the chosen point, as Trainer::features makes it.
    ParamPoint point;
    for (const auto& [name, v] : result.folds.front().chosen)
        if (!detail::isLearnerAxis(name)) point[name] = v;
    std::string kernelSpec = config.kernel;
    std::optional<double> sigma;
    if (point.count("bandwidth")) sigma = point.at("bandwidth");
    else if (point.count("median") && !krr) sigma = point.at("median") * medianPairwiseDistance(data.X, 1000, config.seed);
    if (sigma && !krr) kernelSpec = formatSpec("gaussian", {{"sigma", detail::roundedBandwidth(*sigma)}});
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
    const MatrixXfR all = transformAll(*map, data.X, part(progress, 0.3, 0.8));
    const MatrixXfR F = selectRows(all, split.train);
    reportProgress(progress, 0.8, "fitting " + config.learner);

    m.learner = config.learner;
    m.chosen = toString(result.folds.front().chosen);
    m.trainRows = static_cast<std::int64_t>(split.train.size());
    m.trainedOn = data.source;
    m.targetUnit = data.targetUnit;
    const double value = learner.axis().empty() ? 0.0 : result.folds.front().chosen.at(learner.axis());
    if (krr) {
        // As train() fits it: the bandwidth on the features of every row, the Gaussian Gram of the
        // training rows' features, and the same solve (so the same dual weights).
        if (!sigma && point.count("median")) sigma = point.at("median") * medianPairwiseDistance(all, 1000, config.seed);
        if (!sigma) {
            const BaseKernel k = makeKernel(config.kernel.empty() ? "gaussian:median=1" : config.kernel, all, config.seed);
            if (k.kind() != BaseKernel::Kind::Gaussian) throw SpecError("kernel", "krr uses a Gaussian kernel", config.kernel);
            sigma = k.sigma();
        }
        m.kernel = BaseKernel::gaussian(*sigma).spec();
        m.support = F;
        const detail::Coded c = detail::codeTargets(data, split.train);
        const Eigen::MatrixXd K = gaussianGram(F, *sigma, oneProcess(), nullptr, part(progress, 0.8, 0.9));
        const auto dual = detail::solveOrNothing(K, c.Y, value, part(progress, 0.9, 1.0));
        if (!dual)
            throw SpecError("grid lambda", "K + lambda I is not positive definite at the chosen lambda (use larger values)",
                            formatNumber(value));
        m.dual = *dual;
        m.coding = c.coding;
    } else {
        learner.fitModel({data, F, split.train, value, deriveSeed(config.seed, detail::kLearnerStream), part(progress, 0.8, 1.0)}, m);
    }
    if (!krr && m.bias.size() == 0) m.bias = Eigen::VectorXd::Zero(m.weights.cols());
    setClassLabels(data, m);
    reportProgress(progress, 1.0, "model");
    return m;
}

} // namespace orbit

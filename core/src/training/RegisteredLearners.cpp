// The built-in learners of `train`: one registration each, with its words, its grid axis, what it
// needs and keeps, and its factories (the registry's table starts with these; registerLearner adds
// others). krr's saved model is fitted by trainedModel itself (its bandwidth is resolved there, as
// train() resolves it), and gp's by trainedExactModel.
#include "training/TrainingLearners.hpp"

#include "orbit/learn/BayesianLinearRegression.hpp"
#include "orbit/learn/LinearSvm.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/linalg/Gram.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/models/SavedModel.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "registry/Builders.hpp"

namespace orbit::registry {

namespace {

LearnerDescriptor learner(std::string name, std::string display, std::string doc, std::vector<ParamDescriptor> axis = {})
{
    LearnerDescriptor d;
    d.name = std::move(name);
    d.displayName = std::move(display);
    d.doc = std::move(doc);
    d.parameters = std::move(axis);
    return d;
}

void fitRidge(const LearnerModelArguments& a, SavedModel& m)
{
    RidgeRegression ridge(a.value);
    if (a.data.isClassification()) ridge.fit(a.F, select(a.data.labels, a.train), a.data.numClasses);
    else ridge.fit(a.F, select(a.data.targets, a.train));
    m.weights = ridge.weights();
    m.coding = ridge.coding();
}

void fitSvm(const LearnerModelArguments& a, SavedModel& m)
{
    LinearSvm svm(a.value, 0.1, a.seed);
    svm.fit(a.F, select(a.data.labels, a.train), a.data.numClasses, a.progress);
    m.weights = svm.weights();
    m.bias = svm.bias();
    m.coding = TargetCoding::classes(a.data.numClasses);
}

void fitBlr(const LearnerModelArguments& a, SavedModel& m)
{
    BayesianLinearRegression blr;
    if (a.data.isClassification()) blr.fit(a.F, select(a.data.labels, a.train), a.data.numClasses);
    else blr.fit(a.F, select(a.data.targets, a.train));
    m.weights = blr.weights();
    m.coding = blr.coding();
    m.alpha = blr.alpha();
    m.beta = blr.beta();
    m.logEvidence = blr.logEvidence();
    if (a.data.isClassification()) return;
    // The posterior precision A = alpha I + beta F^T F of the coded targets, kept as its Cholesky
    // factor: the predictive intervals of `predict` and the sweeps.
    Eigen::MatrixXd A = m.beta * gramOfColumns(a.F);
    A.diagonal().array() += m.alpha;
    if (!choleskyInPlace(A))
        throw SpecError("learner", "blr's posterior precision is not positive definite at alpha " + formatNumber(m.alpha),
                        m.map.features);
    m.posteriorFactor = A.triangularView<Eigen::Lower>().toDenseMatrix().cast<float>();
}

} // namespace

std::vector<LearnerDescriptor> builtinLearners()
{
    const ParamDescriptor lambda =
        learnerAxis("lambda", "λ", "The ridge strength; the best of the grid on the validation split is kept.");
    LearnerDescriptor ridge = learner("ridge", "ridge regression",
                                      "Ridge regression on the features (one-vs-all ±1 targets for classes).", {lambda});
    ridge.defaultAxis = {1e-6, 1e-4, 1e-2, 1.0};
    ridge.oneVsRest = true;
    ridge.make = [](const LearnerArguments& a) { return detail::makeRidgeLearner(a.data, false, a.rows, a.keepDecisions); };
    ridge.fitModel = fitRidge;

    LearnerDescriptor svm = learner("svm", "linear SVM", "A linear SVM (liblinear, one-vs-rest); classes only.",
                                    {learnerAxis("C", "C", "The SVM cost: a large C fits the training data harder.")});
    svm.defaultAxis = {0.01, 0.1, 1.0, 10.0};
    svm.classesOnly = true;
    svm.oneVsRest = true;
    svm.make = [](const LearnerArguments& a) { return detail::makeSvmLearner(a.data, a.seed, a.rows, a.keepDecisions); };
    svm.fitModel = fitSvm;

    LearnerDescriptor krr = learner(
        "krr", "kernel ridge (krr)",
        "Exact kernel ridge regression: on the exact invariant kernel with --features exact:r=R, else a Gaussian kernel "
        "on the output of the feature map.",
        {lambda});
    krr.defaultAxis = ridge.defaultAxis;
    krr.gaussianKernel = true;
    krr.onExactKernel = true;
    krr.dualWeights = true;
    krr.make = [](const LearnerArguments& a) { return detail::makeRidgeLearner(a.data, true, a.rows, false); };

    LearnerDescriptor blr = learner("blr", "Bayesian linear regression (blr)",
                                    "Bayesian linear regression: its precisions maximise the evidence, which it reports "
                                    "(so it can choose κ without a validation split).");
    blr.logEvidence = true;
    blr.perClassEvidence = true;
    blr.posterior = true;
    blr.make = [](const LearnerArguments& a) { return detail::makeBlrLearner(a.data, a.rows); };
    blr.fitModel = fitBlr;

    LearnerDescriptor gp = learner(
        "gp", "Gaussian process (gp)",
        "Gaussian-process regression on the exact invariant kernel (--features exact:r=R): the bandwidth, signal and "
        "noise variance maximise the log marginal likelihood, which it reports; classes are regression on their codes.");
    gp.logEvidence = true;
    gp.gaussianProcess = true;
    gp.onFeatures = false;
    gp.onExactKernel = true;
    gp.dualWeights = true;
    gp.posterior = true;
    return {ridge, svm, krr, blr, gp};
}

} // namespace orbit::registry

// Private: the parts the exact invariant kernel machines share with their m-centre FALKON path
// (ExactKernelParts.hpp).
#include "training/ExactKernelParts.hpp"

#include "training/TrainingGrid.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/learn/GaussianProcess.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>

namespace orbit::detail {

/// The base kernel of an exact machine with its bandwidth from the training rows (median rule).
BaseKernel exactBaseKernel(const std::string& spec, const MatrixXfR& trainingInputs, std::uint64_t seed)
{
    const BaseKernel k = makeKernel(trim(spec).empty() ? "gaussian:median=1" : spec, trainingInputs, seed);
    if (!k.stationary())
        throw SpecError("kernel", "exact invariant kernel machines need a shift-invariant kernel (gaussian, laplacian or matern)",
                        spec);
    return k;
}

/// The distance a kernel family's spec is a function of (SpecError for the polynomial kernel).
BaseKernel::Distance exactDistance(const std::string& spec)
{
    const BaseKernel::Distance d = kernelFamily(spec).distance();
    if (d != BaseKernel::Distance::None) return d;
    throw SpecError("kernel", "exact invariant kernel machines need a shift-invariant kernel (gaussian, laplacian or matern)",
                    spec);
}

/// "the laplacian kernel (sigma 3.2) on exact:r=4": what a failed Cholesky names.
std::string exactWhat(const BaseKernel& k, const std::string& features)
{
    return k.spec() + " on " + features;
}

/// The median distance of a kernel's family on the training rows: sigma of `spec` with median=1.
double exactMedian(const std::string& spec, const MatrixXfR& trainingInputs, std::uint64_t seed)
{
    return medianDistanceOf(kernelFamily(trim(spec).empty() ? "gaussian" : spec), trainingInputs, 1000, seed);
}

double exactScore(const Dataset& data, const TargetCoding& coding, const Eigen::MatrixXd& F, const Indices& test, double* maeOut,
                  const CompositionMean* mean)
{
    if (coding.isClassification()) {
        const std::vector<int> predicted = TargetCoding::argmax(F);
        return accuracy(predicted, select(data.labels, test));
    }
    std::vector<double> predicted = coding.decode(F);
    if (mean) {
        const std::vector<double> base = mean->at(data, test);
        for (std::size_t i = 0; i < predicted.size(); ++i) predicted[i] += base[i];
    }
    const std::vector<double> truth = select(data.targets, test);
    if (maeOut) *maeOut = mae(predicted, truth);
    return rmse(predicted, truth);
}

namespace {

/// The targets of `rows`, less the mean function's values when there is one.
std::vector<double> residualTargets(const Dataset& data, const Indices& rows, const CompositionMean* mean)
{
    std::vector<double> y = select(data.targets, rows);
    if (mean) {
        const std::vector<double> base = mean->at(data, rows);
        for (std::size_t i = 0; i < y.size(); ++i) y[i] -= base[i];
    }
    return y;
}

} // namespace

TargetCoding exactCoding(const Dataset& data, const Indices& train, TargetCoding::Kind classKind, const CompositionMean* mean)
{
    if (data.isClassification()) return TargetCoding::classes(data.numClasses, classKind);
    return TargetCoding::regression(residualTargets(data, train, mean));
}

Eigen::MatrixXd exactTargets(const Dataset& data, const TargetCoding& coding, const Indices& rows, const CompositionMean* mean)
{
    return data.isClassification() ? coding.encode(select(data.labels, rows)) : coding.encode(residualTargets(data, rows, mean));
}

std::optional<CompositionMean> exactMean(const Dataset& data, const std::string& mean, const Indices& train)
{
    checkMeanFunction(mean);
    if (mean == "constant") return std::nullopt;
    return CompositionMean::fit(data, train);
}

void exactKrrAxes(const TrainConfig& config, std::vector<double>& multiples, std::vector<double>& lambdas)
{
    // The kernel's own median=F is the one multiple when no grid gives others.
    multiples = {usesMedianRule(config.kernel) ? parseSpec(config.kernel, "kernel").number("median") : 1.0};
    lambdas = {1e-6, 1e-4, 1e-2, 1.0};
    for (const ParamAxis& a : config.grid) {
        if (a.name == "median") multiples = a.values;
        if (a.name == "lambda") lambdas = a.values;
    }
    if (trim(config.kernel).empty() && !parseLearner(config.learner).gaussianProcess) {
        bool given = false;
        for (const ParamAxis& a : config.grid) given = given || a.name == "median";
        if (!given) multiples = {0.25, 0.5, 1.0, 2.0, 4.0};
    }
}

const ParamDescriptor* exactParamDescriptor(const Distribution& dist, const std::string& name)
{
    try {
        return &dist.parameterDescriptor(name);
    } catch (const SpecError&) {
        return nullptr;
    }
}

void exactGpTestScore(const Dataset& data, const LocalityConfig& config, const std::string& dist, int r,
                      const BaseKernel& start, const GpHyper& hyper, const TargetCoding& coding, const Eigen::MatrixXd& Y,
                      const Split& s, ExactLearnFold& out)
{
    // The training rows' distances and the test rows' against them, from the orbits of every row
    // (each row's own per-input seed: the same draws whichever rows are taken).
    const ExactOrbits o = exactOrbits(data, config.group, dist, r, exactOrbitSeed(config.seed));
    auto rowsOf = [&](const Indices& rows) {
        MatrixXfR sub(Eigen::Index(rows.size()) * o.r, o.orbits.cols());
        for (std::size_t i = 0; i < rows.size(); ++i)
            sub.middleRows(Eigen::Index(i) * o.r, o.r) = o.orbits.middleRows(Eigen::Index(rows[i]) * o.r, o.r);
        return sub;
    };
    const MatrixXfR trainOrbits = rowsOf(s.train), testOrbits = rowsOf(s.test);
    const OrbitDistances Dtt(trainOrbits, o.r, start.distance());
    const OrbitDistances Dst(testOrbits, trainOrbits, o.r, start.distance());
    Indices tr(s.train.size()), te(s.test.size());
    for (std::size_t i = 0; i < tr.size(); ++i) tr[i] = i;
    for (std::size_t i = 0; i < te.size(); ++i) te[i] = i;
    const BaseKernel k = start.withSigma(hyper.sigma);
    Eigen::MatrixXd Kmat, Ks, F;
    Dtt.gram(k, tr, tr, Kmat);
    const GpFactor factor = factoriseGp(Kmat, Y, hyper.signal, hyper.noise, exactWhat(k, config.features));
    Dst.gram(k, te, tr, Ks);
    predictGp(factor, hyper, Ks, Eigen::VectorXd::Zero(Eigen::Index(te.size())), F);
    double m = 0.0;
    const auto mean = exactMean(data, config.mean, s.train);  // the caller's coding and Y left it out
    out.test = exactScore(data, coding, F, s.test, &m, meanOf(mean));
    if (!data.isClassification()) out.mae = m;
}

std::vector<Split> exactLearnSplits(const Dataset& data, const LocalityConfig& config, TrainConfig& tc)
{
    tc.group = config.group;
    tc.dist = config.dist;
    tc.seed = config.seed;
    if (!trim(config.eval).empty()) {
        tc.eval = config.eval;
        return outerSplits(data, tc);
    }
    Split all;
    for (std::size_t i = 0; i < data.count(); ++i) all.train.push_back(i);
    return {all};
}

void summariseExactLearnFolds(std::vector<ExactLearnFold> folds, double evalSeconds, ExactClock::time_point t0,
                              const Progress& progress, ExactLearnResult& result)
{
    std::vector<double> scores, maes;
    for (ExactLearnFold& out : folds) {
        result.evaluations += out.innerEvaluations;
        if (out.test) scores.push_back(*out.test);
        if (out.mae) maes.push_back(*out.mae);
        result.folds.push_back(std::move(out));
    }
    if (!scores.empty()) {
        result.mean = mean(scores);
        result.stddev = standardDeviation(scores);
    }
    if (!maes.empty()) result.mae = mean(maes);
    result.seconds = exactSeconds(t0);
    result.secondsPerEvaluation = evalSeconds / double(std::max(1, result.evaluations));
    reportProgress(progress, 1.0, "done");
}

} // namespace orbit::detail

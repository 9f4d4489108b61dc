#pragma once
// Private: the parts the exact invariant kernel machines (ExactKernelMachines.cpp) share with their
// m-centre FALKON path (ExactFalkon.cpp).
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/parallel/Ranks.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/learn/CompositionMean.hpp"
#include "orbit/learn/TargetCoding.hpp"

#include <Eigen/Core>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace orbit::detail {

using ExactClock = std::chrono::steady_clock;
double exactSeconds(ExactClock::time_point t0);
/// Kernel ridge on a Gram: (K + lambda I)^-1 Y, or nullopt when not positive definite.
std::optional<Eigen::MatrixXd> exactRidgeSolve(const Eigen::MatrixXd& K, const Eigen::MatrixXd& Y, double lambda);
/// Which rank computes outer fold f: whole folds are dealt out, fold f to rank f mod P.
inline int exactFoldOwner(std::size_t f, int ranks) { return int(f % std::size_t(ranks)); }

/// The base kernel of an exact machine with its bandwidth from the training rows (median rule);
/// SpecError("kernel") unless shift-invariant.
BaseKernel exactBaseKernel(const std::string& spec, const MatrixXfR& trainingInputs, std::uint64_t seed);
/// The distance a kernel family's spec is a function of (SpecError for the polynomial kernel).
BaseKernel::Distance exactDistance(const std::string& spec);
/// "the laplacian kernel (sigma 3.2) on exact:r=4": what a failed Cholesky names.
std::string exactWhat(const BaseKernel& k, const std::string& features);
/// The median distance of a kernel's family on the training rows: sigma of `spec` with median=1.
double exactMedian(const std::string& spec, const MatrixXfR& trainingInputs, std::uint64_t seed);
/// Accuracy (classes) or RMSE (with the MAE in maeOut) of the decision values F of the rows `test`;
/// with `mean`, the prediction is the mean function plus the decoded values.
double exactScore(const Dataset& data, const TargetCoding& coding, const Eigen::MatrixXd& F, const Indices& test,
                  double* maeOut, const CompositionMean* mean = nullptr);
/// The coding of the training rows' targets (with `mean`: of what the mean leaves).
TargetCoding exactCoding(const Dataset& data, const Indices& train, TargetCoding::Kind classKind,
                         const CompositionMean* mean = nullptr);
Eigen::MatrixXd exactTargets(const Dataset& data, const TargetCoding& coding, const Indices& rows,
                             const CompositionMean* mean = nullptr);
/// The mean function of `mean` ("constant": none; "composition": fitted on the rows `train`).
std::optional<CompositionMean> exactMean(const Dataset& data, const std::string& mean, const Indices& train);
/// The pointer the functions above take (null for the constant mean).
inline const CompositionMean* meanOf(const std::optional<CompositionMean>& m) { return m ? &*m : nullptr; }
/// krr's grid on the exact kernel: the bandwidth's multiples of the median (config's `median` axis,
/// or 0.25 .. 4 without a kernel spec, else the spec's own median=F, or 1 for a fixed sigma) and
/// lambda (config's `lambda` axis or 1e-6 .. 1).
void exactKrrAxes(const TrainConfig& config, std::vector<double>& multiples, std::vector<double>& lambdas);

/// learnExactGp with several parameters (ExactGpJoint.cpp).
ExactLearnResult learnExactGpJoint(const Dataset& data, const LocalityConfig& config, int innerEvaluations,
                                   const Progress& progress, const Ranks& ranks);
/// The descriptor of the parameter `name` of the run's distribution (affine factors as
/// factor.key), or null when it has none of that name.
const ParamDescriptor* exactParamDescriptor(const Distribution& dist, const std::string& name);
/// A learnExactGp fold's test part: the GP of the training rows of `s` at the distribution `dist`
/// and hyperparameters `hyper` (base kernel `start` at hyper.sigma), scored on the test rows into
/// out.test (and out.mae for regression).
void exactGpTestScore(const Dataset& data, const LocalityConfig& config, const std::string& dist, int r,
                      const BaseKernel& start, const GpHyper& hyper, const TargetCoding& coding, const Eigen::MatrixXd& Y,
                      const Split& s, ExactLearnFold& out);

/// The outer splits of a locality-learning run: one split training on every row when config.eval
/// is empty, else config.eval's splits (as outerSplits). `tc` gets the run's group, distribution,
/// seed and eval, as the folds' distributions are built from it.
std::vector<Split> exactLearnSplits(const Dataset& data, const LocalityConfig& config, TrainConfig& tc);

/// Appends the folds to result.folds (in order) and sums them up: the mean and spread of the test
/// scores, the mean MAE, the inner evaluations, the wall time since t0 and the seconds per
/// evaluation given the folds' evaluation time `evalSeconds`. Ends the progress at "done".
void summariseExactLearnFolds(std::vector<ExactLearnFold> folds, double evalSeconds, ExactClock::time_point t0,
                              const Progress& progress, ExactLearnResult& result);

/// trainExact's krr with `centres=M` (ExactKernelMachines.hpp), in ExactFalkon.cpp.
TrainResult trainExactFalkon(const Dataset& data, const TrainConfig& config, const ExactKernelSpec& spec,
                             const Progress& progress);

} // namespace orbit::detail

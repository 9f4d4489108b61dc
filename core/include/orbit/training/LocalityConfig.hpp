#pragma once
// The settings of `learn` and `evidence` (LocalityConfig): what the locality learners (orbit/locality/)
// take, and learnExactGp, which learns the locality beside the exact kernel machines of training/
// (ExactKernelMachines.hpp). So it is here, in training/, which locality/ builds on.
#include "orbit/parallel/Ranks.hpp"
#include "orbit/training/Training.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace orbit {

/// What `learn` and `evidence` need besides the data.
struct LocalityConfig {
    std::string features = "irf:s=1000,r=32,mode=data";  ///< a feature map spec (makeFeatureMap); irf for gradients; own samples per input by default
    std::string group;                         ///< group spec
    std::string dist;                          ///< distribution spec: the start values
    std::string kernel = "gaussian:median=1";  ///< base kernel (its bandwidth stays fixed)
    /// The exact GP's mean function (learn --learner gp): "constant" (the training targets' mean) or
    /// "composition" (orbit/learn/CompositionMean.hpp, fitted on each fold's training rows).
    std::string mean = "constant";
    std::string eval;                          ///< empty: all rows train; holdout:FRAC / kfold:K: learn on split `fold`'s training part
    /// The outer split of `eval` whose training part learns (and whose test part is scored): 0 is
    /// the first; `learn --eval kfold:K` learns K times, once per fold.
    int fold = 0;
    std::vector<std::string> learn;            ///< parameter names (Distribution::parameters(), e.g. "kappa", "rotation.a")
    /// Search ranges that replace the descriptors' learnMinimum..learnMaximum, by parameter name.
    std::map<std::string, std::pair<double, double>> bounds;
    int maxEvaluations = 30;                   ///< evidence evaluations in all (the scan included)
    /// Features, products and evidence in double precision (twice the time): for derivative checks,
    /// where float rounding of the features would drown finite differences. irf features only.
    bool doublePrecision = false;
    std::uint64_t seed = 0;
    /// Rows per block of the learning rows: features, their derivatives, the normal equations and
    /// the gradient's sums go block by block (one process or many give the same bits; see
    /// TrainConfig::blockRows).
    long long blockRows = kDefaultBlockRows;
    /// -1: the evidence of every target column with shared precisions alpha, beta (the model of
    /// `learn`). c >= 0: the evidence of class c's one-hot column alone, with its own precisions
    /// (per-class locality, PerClassLocality.hpp); classification only.
    int targetClass = -1;

    /// Throws SpecError naming the field (`learn`, `bounds`, `max-evals`, `eval`, ...) and the value.
    void validate() const;
};

/// The TrainConfig of config's outer splits (its eval and seed): `learn` and `evidence` split the
/// rows as `train` does.
TrainConfig splitConfig(const LocalityConfig& config);

} // namespace orbit

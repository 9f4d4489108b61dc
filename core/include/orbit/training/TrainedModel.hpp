#pragma once
// The model a `train` run saves (`orbitlab-cli train ... --save-model M.npz`, and the Training
// panel's Save model…): one call on the run's data, config and result, outside the trainer.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/models/SavedModel.hpp"

namespace orbit {

/// The model of the first outer split of train(data, config): the feature map of the grid point that
/// split's inner validation chose (result.folds[0].chosen), fitted as train() fits it (the same
/// spec, bandwidth, seeds and fit rows, so the same map), and the learner refitted at that point on
/// the split's training rows. With `--test-data` (config.testFrom) that is every row of the training
/// file, and predicting the test file gives the run's test score; with holdout:FRAC the model whose
/// test score the run reports (up to the last bits of the weights: the trainer sums its normal
/// equations in another order); with kfold:K or folds, the first fold's model.
///
/// Learners: ridge, blr (weights of the evidence optimum), svm (liblinear, the run's seed), krr
/// (the features of the split's training rows, its dual weights at the chosen lambda and the
/// Gaussian's bandwidth at the chosen point: train()'s own fit, so with the same features its
/// predictions are the run's to the bit). Requires a result of train() on the same data and config
/// (ContractError otherwise). Progress covers the map's fit and features and the learner's fit; a
/// cancel throws Cancelled.
SavedModel trainedModel(const Dataset& data, const TrainConfig& config, const TrainResult& result,
                        const Progress& progress = {});

} // namespace orbit

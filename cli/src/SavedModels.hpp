#pragma once
// Private to the CLI: `train --save-model` (the option and the saving, in Predict.cpp beside `predict`).
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/data/Dataset.hpp"
#include "orbit/experiments/Training.hpp"

namespace orbit::cli {

/// --save-model M.npz.
Option saveModelOptionSpec();
/// With --save-model, before any work: SpecError under mpirun (the model is fitted on every training
/// row) and for a learner whose model is not saved (checkSavable).
void checkSaveModel(const Args& args, const TrainConfig& config, const Io& io);
/// Saves trainedModel(data, config, result) to --save-model; returns train's JSON `saved_model`
/// {path, features, learner, chosen, train_rows, dims}.
Json saveTrainedModel(const Args& args, const Dataset& data, const TrainConfig& config, const TrainResult& result, Io& io);

} // namespace orbit::cli

#pragma once
// Private to the CLI: `train --save-model` (the option and the saving, in Predict.cpp beside `predict`).
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/data/Dataset.hpp"
#include "orbit/training/Training.hpp"

#include <ostream>

namespace orbit::cli {

/// --save-model M.npz.
Option saveModelOptionSpec();
/// With --save-model, before any work: SpecError under mpirun (the model is fitted on every training
/// row).
void checkSaveModel(const Args& args, const Io& io);
/// Saves trainedModel(data, config, result) to --save-model; returns train's JSON `saved_model`
/// {path, features, learner, chosen, train_rows, dims, bytes (the file's size), size (modelFileSize's
/// text), support_rows (krr)}.
Json saveTrainedModel(const Args& args, const Dataset& data, const TrainConfig& config, const TrainResult& result, Io& io);
/// predict with --index I, --input IMAGE or --sweep: one input, or its sweep (PredictSweep.cpp).
int runPredictOne(const Args& args, Io& io);
/// train's text line for a saved model: its split, point, path and size.
void printSavedModel(std::ostream& out, const Json& saved);

} // namespace orbit::cli

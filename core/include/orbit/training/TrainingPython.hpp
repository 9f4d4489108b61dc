#pragma once
// Copy as Python (the Training panel, beside Copy as command): the lines that redo a training run
// with the Python module `orbitlab`, which calls the same core, so they print the panel's numbers.
#include "orbit/training/Experiment.hpp"
#include "orbit/training/Training.hpp"

#include <string>

namespace orbit {

/// A short Python script: `orbitlab.load` with the data recipe (file, n, rotate, pad, rotate_max,
/// transform_group/dist, seed), `orbitlab.train` with every field of `config` that is not its
/// default (features, group, dist, kernel, learner, eval, grid in its axis order, validation,
/// inner_folds, learning_curve, seed), a print of the metric, the mean and the first fold's chosen
/// point, and `run.model()`: the fitted pipeline of the first outer split. Strings are Python
/// literals (quotes, backslashes and non-printable characters escaped), numbers formatNumber's
/// shortest round-trip text; the lines end in '\n'. The GUI puts it on the clipboard as it is.
std::string trainingAsPython(const TrainConfig& config, const DataRecipe& data);

/// `text` as a Python string literal in double quotes.
std::string pythonString(const std::string& text);

} // namespace orbit

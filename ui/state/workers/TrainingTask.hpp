#pragma once
// The Training panel's long task: orbit::train on a seeded subset of the dataset, with progress
// and cancellation through the TaskContext, and the curves the panel draws prepared on the worker.
#include "state/workers/Worker.hpp"

#include "orbit/data/Dataset.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/figures/TrainingSummary.hpp"

#include <QMetaType>

#include <memory>
#include <string>
#include <vector>

namespace orbitui {

struct TrainingRequest {
    std::shared_ptr<const orbit::Dataset> dataset;
    orbit::TrainConfig config;
    /// Train and evaluate on this many samples, drawn by a permutation seeded with config.seed
    /// (kept in dataset order); 0 or >= count: the whole dataset.
    std::size_t subset = 0;
    /// The axis preferred for the score-versus-parameter curve (e.g. the locality sweep); empty: the
    /// first axis with several values among lambda, C, median.
    std::string mainAxis;
    /// Per-class distributions ("C=SPEC;..."): the per-class model (orbit::trainPerClass, config from
    /// perClassTrainConfig) instead of orbit::train; empty: none.
    std::string distPerClass;
};

/// The score curve and the axis choice are the core's (orbit/figures/TrainingSummary.hpp).
using orbit::AxisCurve;
using orbit::chooseMainAxis;
using orbit::curveAlong;

struct TrainingResult {
    TrainingRequest request;
    orbit::TrainResult result;
    std::size_t samples = 0;              ///< rows trained and evaluated on
    std::vector<std::string> classNames;  ///< numClasses entries (class numbers when the data have no names)
    AxisCurve curve;
};

/// The n rows of `all` a run uses (n = 0 or n >= count: all of them, returned as they are): the
/// rows of orbit::subsetRows (the subset `orbitlab-cli train --n N --seed S` takes), in dataset
/// order. `kept` receives the copy when one is made.
const orbit::Dataset& seededSubset(const orbit::Dataset& all, std::size_t n, std::uint64_t seed, orbit::Dataset& kept);

/// Runs orbit::train; progress fractions and step texts come from the core, a cancelled request
/// throws orbit::Cancelled at the core's next progress report.
Task makeTrainingTask(TrainingRequest request);

} // namespace orbitui

Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::TrainingResult>)

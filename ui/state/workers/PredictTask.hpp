#pragma once
// The Predict view's work on the worker (issue 44): a model made ready (a saved file read, or the
// model of a training run refitted as Save model… does), the input made ready (a row of the data, or
// the drawn canvas or an image file read as `orbitlab-cli predict --input` reads an image), the
// models' answers at the slider's value and their sweep over the whole range
// (orbit::predictSweep, the numbers of `orbitlab-cli predict --sweep`).
#include "state/workers/TrainingTask.hpp"
#include "state/workers/Worker.hpp"

#include "orbit/data/Dataset.hpp"
#include "orbit/figures/PredictSweep.hpp"
#include "orbit/models/SavedModel.hpp"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include <array>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace orbitui {

/// Where a model comes from: a file, or the fitted model of a training run.
struct PredictModelRequest {
    QString path;                                ///< a saved model (.npz); empty: `run`
    std::shared_ptr<const TrainingResult> run;   ///< its first outer split refitted (orbit::trainedModel)
    orbit::DataKind kind = orbit::DataKind::Images;  ///< the loaded data's kind and shape: the model
    orbit::Shape shape;                              ///< must take them (orbit::checkModelInput)
    bool checkData = false;
};

/// A model ready to predict.
struct PredictModel {
    std::shared_ptr<const orbit::ModelPredictor> predictor;
    QString name;  ///< for people: "digits-local.npz (irf, ridge)" or "last run (irf, ridge)"
};

/// Reads or refits the model and rebuilds its map. Fails with the core's one-line message (a cut
/// file, a model of another input shape).
Task makePredictModelTask(PredictModelRequest request);

/// What the input is made of.
struct PredictInputRequest {
    std::shared_ptr<const orbit::Dataset> dataset;  ///< the loaded data (kind and shape; the row)
    QString input;         ///< "row", "drawn" or "file" (PredictSettings::input)
    int row = 0;
    QByteArray drawn;      ///< the canvas as an 8-bit grey PNG
    QString imageFile;
    /// A molecule row: two atoms to swap (empty: none) and the jitter of its positions (Angstrom),
    /// drawn from `seed` (orbit::swappedAtoms, orbit::jitteredMolecule).
    QList<int> swap;
    double jitter = 0.0;
    std::uint64_t seed = 0;
};

/// An input ready for the models.
struct PredictInput {
    std::vector<float> x;     ///< the data's shape.dim() values
    std::size_t index = 0;    ///< the row whose group-sample stream it uses (0 for drawn and files)
    QString what;             ///< "row 3000", "the drawing", "six.png"
    QString note;             ///< what was changed to fit the data's shape (empty when nothing)
    /// A molecule whose atoms were swapped or jittered: the row as in the file (else empty).
    std::vector<float> row;
};

/// The row's values (a molecule's with its positions jittered, then two atoms swapped), or the PNG / file through orbit::loadImageAsInput with the data's shape (the
/// canvas's pixels reach the models as a data row's do). Fails with one line for a file that is not
/// an image.
Task makePredictInputTask(PredictInputRequest request);

/// The models' answers to the input moved to `t`, or their sweep over `range`.
struct PredictRequest {
    std::array<std::shared_ptr<const orbit::ModelPredictor>, 2> models;  ///< A and B (either may be null)
    std::shared_ptr<const PredictInput> input;
    orbit::SweepRange range;   ///< one value: the answer at the slider; many: the chart's sweep
    std::uint64_t seed = 0;
};

struct PredictAnswer {
    PredictRequest request;
    std::array<std::optional<orbit::SweepResult>, 2> results;  ///< per model, when it has one
    /// Per model: the central 90 % of its rotation distribution, in degrees (a rotation sweep of a
    /// model whose map averages over rotations), else empty.
    std::array<std::optional<std::pair<double, double>>, 2> window;
    /// Per regression model, for a molecule whose atoms were moved (PredictInput::row) and one value:
    /// the row's own prediction and the model's Monte Carlo error there (32 draws of its group
    /// samples, orbit::monteCarloError, in the target's unit; NaN where it cannot be estimated).
    std::array<std::optional<std::pair<double, double>>, 2> asInFile;
    double seconds = 0.0;
};

/// orbit::predictSweep for each model (progress and cancel through the context).
Task makePredictTask(PredictRequest request);

} // namespace orbitui

Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::PredictModel>)
Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::PredictInput>)
Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::PredictAnswer>)

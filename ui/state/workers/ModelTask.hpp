#pragma once
// The Training panel's Save model…: the fitted model of a finished run (orbit::trainedModel, the
// model `orbitlab-cli train --save-model` writes for the same setting) saved as a NumPy .npz that
// `orbitlab-cli predict`, Python's orbitlab.load_model and this window read.
#include "state/workers/TrainingTask.hpp"

#include <QMetaType>
#include <QString>

#include <memory>

namespace orbitui {

/// What a save wrote, for the status line.
struct SavedModelInfo {
    QString path;
    QString learner;   ///< ridge, blr, svm, krr
    QString chosen;    ///< the grid point the model was fitted at ("lambda=0.01, median=0.5")
    qint64 dims = 0;   ///< the map's feature dimension
    qint64 trainRows = 0;
    QString size;      ///< the file's size, and for krr the support rows it keeps (orbit::modelFileSize)
};

/// Refits the model of `result`'s first outer split on the run's own rows (the seeded subset of
/// the run's dataset) and writes it to `path` atomically (a save that fails or is cancelled leaves
/// an existing file as it was). Progress and cancel through the TaskContext; answers a
/// SavedModelInfo. Failures throw the core's errors.
Task makeSaveModelTask(std::shared_ptr<const TrainingResult> result, QString path);

} // namespace orbitui

Q_DECLARE_METATYPE(orbitui::SavedModelInfo)

#include "state/workers/ModelTask.hpp"

#include "orbit/training/TrainedModel.hpp"
#include "orbit/models/SavedModel.hpp"

#include <filesystem>

namespace orbitui {

Task makeSaveModelTask(std::shared_ptr<const TrainingResult> result, QString path)
{
    return [result, path](const TaskContext& ctx) -> QVariant {
        ctx.progress(0.0, QStringLiteral("Preparing the data…"));
        const TrainingRequest& request = result->request;
        orbit::Dataset chosen;
        const orbit::Dataset& data = seededSubset(*request.dataset, request.subset, request.config.seed, chosen);
        ctx.throwIfCancelled();
        const orbit::Progress progress = ctx.coreProgress(0.0, 0.95);
        const orbit::SavedModel model = orbit::trainedModel(data, request.config, result->result, progress);
        ctx.throwIfCancelled();
        ctx.progress(0.95, QStringLiteral("Writing the model…"));
        // writeNpz writes PATH.part and renames it over PATH: an existing file stays whole on failure.
        orbit::saveModel(path.toStdString(), model);
        SavedModelInfo info;
        info.path = path;
        info.learner = QString::fromStdString(model.learner);
        info.chosen = QString::fromStdString(model.chosen);
        info.dims = qint64(model.dim);
        info.trainRows = qint64(model.trainRows);
        info.size = QString::fromStdString(orbit::modelFileSize(model, std::filesystem::file_size(path.toStdString())));
        return QVariant::fromValue(info);
    };
}

} // namespace orbitui

#include "state/workers/PredictTask.hpp"

#include "orbit/data/Loaders.hpp"
#include "orbit/data/MoleculeMoves.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/figures/DensitySummary.hpp"
#include "orbit/locality/PerClassLocality.hpp"
#include "orbit/training/TrainedModel.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/util/Error.hpp"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <fstream>

namespace orbitui {

namespace {

/// The central 90 % of the rotation factor of the model's distribution, in degrees, centred on 0.
std::optional<std::pair<double, double>> rotationWindowOf(const orbit::SavedModel& model)
{
    if (model.map.group.empty() || model.map.dist.empty())
        return std::nullopt;
    try {
        const auto group = orbit::makeGroup(model.map.group, model.map.shape, model.map.contextSeed);
        const auto dist = orbit::makeDistribution(model.map.dist, *group);
        for (const orbit::DensityFactor& f : orbit::densityFactors(group, dist, model.map.shape, model.map.contextSeed)) {
            // Only a factor whose density is over the angle theta has a window (rotationWindowDegrees).
            if (const auto w = orbit::rotationWindowDegrees(*f.dist, 0.90))
                return std::make_pair(-*w / 2.0, *w / 2.0);
        }
    } catch (const std::exception&) {
        // A distribution without a density (or an input-dependent one): no window to shade.
    }
    return std::nullopt;
}

} // namespace

Task makePredictModelTask(PredictModelRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        ctx.progress(0.0, request.path.isEmpty() ? QStringLiteral("Refitting the run's model…")
                                                 : QStringLiteral("Reading the model…"));
        orbit::SavedModel model;
        QString name;
        std::string file = request.path.toStdString();
        if (!request.path.isEmpty()) {
            model = orbit::loadModel(file);
            name = QFileInfo(request.path).fileName();
        } else {
            if (!request.run)
                throw orbit::SpecError("model", "no training run yet: run the Training panel, or open a model file");
            const TrainingRequest& run = request.run->request;
            orbit::Dataset kept;
            const orbit::Dataset& data = seededSubset(*run.dataset, run.subset, run.config.seed, kept);
            model = orbit::trainedModel(data, run.config, request.run->result, ctx.coreProgress(0.0, 0.8));
            name = QStringLiteral("last run");
            file = "the training run";
        }
        ctx.throwIfCancelled();
        if (request.checkData)
            orbit::checkModelInput(model, request.kind, request.shape, "the loaded data");
        auto out = std::make_shared<PredictModel>();
        name += QStringLiteral(" (%1, %2)").arg(QString::fromStdString(model.map.features), QString::fromStdString(model.learner));
        out->name = name;
        out->predictor = std::make_shared<const orbit::ModelPredictor>(std::move(model), file, ctx.coreProgress(0.8, 1.0));
        return QVariant::fromValue(std::shared_ptr<const PredictModel>(std::move(out)));
    };
}

Task makePredictInputTask(PredictInputRequest request)
{
    return [request](const TaskContext&) -> QVariant {
        if (!request.dataset)
            throw orbit::SpecError("data", "no data loaded: the input's shape is the data's");
        const orbit::Dataset& data = *request.dataset;
        auto out = std::make_shared<PredictInput>();
        if (request.input == "row") {
            if (request.row < 0 || std::size_t(request.row) >= data.count())
                throw orbit::SpecError("index", "no such row", std::to_string(request.row));
            const float* row = data.sample(std::size_t(request.row));
            out->x.assign(row, row + data.shape.dim());
            out->index = std::size_t(request.row);
            out->what = QStringLiteral("row %1").arg(request.row);
            if (data.kind == orbit::DataKind::Coulomb && (request.swap.size() == 2 || request.jitter > 0.0)) {
                out->row = out->x;
                if (request.jitter > 0.0) {
                    out->x = orbit::jitteredMolecule(data, out->index, request.jitter, request.seed);
                    out->what += QStringLiteral(", atoms jittered by %1 Å").arg(request.jitter);
                }
                if (request.swap.size() == 2) {
                    out->x = orbit::swappedAtoms(out->x.data(), data.shape, request.swap[0], request.swap[1]);
                    out->what += QStringLiteral(", atoms %1 and %2 swapped").arg(request.swap[0]).arg(request.swap[1]);
                }
            }
        } else {
            if (data.kind != orbit::DataKind::Images)
                throw orbit::SpecError("data", "a drawn or dropped image needs image data",
                                       orbit::toString(data.kind));
            std::string note;
            if (request.input == "drawn") {
                // The canvas goes through the image reader itself: the bits of a data row's pixels.
                QTemporaryDir dir;
                const QString path = dir.filePath("drawn.png");
                {
                    std::ofstream f(path.toStdString(), std::ios::binary);
                    f.write(request.drawn.constData(), request.drawn.size());
                }
                out->x = orbit::loadImageAsInput(path.toStdString(), data.shape, &note);
                out->what = QStringLiteral("the drawing");
                if (!note.empty())
                    note = "the drawing was " + note.substr(note.find(") ") + 2);
            } else {
                out->x = orbit::loadImageAsInput(request.imageFile.toStdString(), data.shape, &note);
                out->what = QFileInfo(request.imageFile).fileName();
            }
            out->note = QString::fromStdString(note);
        }
        return QVariant::fromValue(std::shared_ptr<const PredictInput>(std::move(out)));
    };
}

Task makePredictTask(PredictRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        QElapsedTimer clock;
        clock.start();
        auto out = std::make_shared<PredictAnswer>();
        out->request = request;
        const PredictInput& in = *request.input;
        for (std::size_t m = 0; m < 2; ++m) {
            const auto& model = request.models[m];
            if (!model)
                continue;
            const double lo = double(m) / 2.0, hi = double(m + 1) / 2.0;
            out->results[m] = orbit::predictSweep(*model, in.x.data(), in.index, request.range, request.seed,
                                                  ctx.coreProgress(lo, hi));
            if (request.range.values.size() > 1 && request.range.parameter == orbit::SweepParameter::Rotation)
                out->window[m] = rotationWindowOf(model->model());
            if (request.range.values.size() == 1 && !in.row.empty() && !model->model().isClassification()) {
                // What the row as in the file gets, and how far the model's own group samples move it.
                const Eigen::MatrixXd row = orbit::scoresOfRow(*model, in.row.data(), in.index);
                constexpr int kDraws = 32;
                const orbit::MonteCarloError e = orbit::monteCarloError(*model, in.row.data(), in.index, kDraws, request.seed);
                out->asInFile[m] = std::make_pair(model->targets(row).front(), e.sd[0] * model->model().coding.scale);
            }
        }
        out->seconds = double(clock.nsecsElapsed()) * 1e-9;
        return QVariant::fromValue(std::shared_ptr<const PredictAnswer>(std::move(out)));
    };
}

} // namespace orbitui

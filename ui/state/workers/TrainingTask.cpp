#include "state/workers/TrainingTask.hpp"

#include "orbit/training/Experiment.hpp"
#include "orbit/locality/PerClassLocality.hpp"

namespace orbitui {

const orbit::Dataset& seededSubset(const orbit::Dataset& all, std::size_t n, std::uint64_t seed, orbit::Dataset& kept)
{
    if (n == 0 || n >= all.count())
        return all;
    kept = all.subset(orbit::subsetRows(all.count(), n, seed));
    return kept;
}

Task makeTrainingTask(TrainingRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        ctx.progress(0.0, QStringLiteral("Preparing the data…"));
        const orbit::Dataset& all = *request.dataset;
        orbit::Dataset chosen;
        const orbit::Dataset* data = &seededSubset(all, request.subset, request.config.seed, chosen);
        ctx.throwIfCancelled();

        auto result = std::make_shared<TrainingResult>();
        result->request = request;
        result->samples = data->count();
        const orbit::Progress progress = ctx.coreProgress();
        result->result = request.distPerClass.empty()
                             ? orbit::train(*data, request.config, progress)
                             : orbit::trainPerClass(*data, request.config,
                                                    orbit::ClassDistributions::parse(request.distPerClass, request.config.dist,
                                                                                     data->numClasses),
                                                    progress);
        for (int c = 0; c < all.numClasses; ++c)
            result->classNames.push_back(static_cast<std::size_t>(c) < all.classNames.size()
                                             ? all.classNames[static_cast<std::size_t>(c)]
                                             : std::to_string(c));
        result->curve = curveAlong(result->result, chooseMainAxis(result->result, request.mainAxis));
        return QVariant::fromValue(std::shared_ptr<const TrainingResult>(std::move(result)));
    };
}

} // namespace orbitui

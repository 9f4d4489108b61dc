#include "state/workers/LocalityTask.hpp"

#include "state/TrainingSettings.hpp"
#include "state/workers/TrainingTask.hpp"

#include "orbit/evaluation/Metrics.hpp"
#include "orbit/util/Spacing.hpp"

#include <QRegularExpression>

namespace orbitui {

namespace {

/// The GP learn's progress, with each value the first fold tried handed over as a step: learnExactGp
/// reports one as "fold 1, NAME = V: log marginal likelihood L" (V and L in formatNumber's round-trip
/// form), so the sliders and the chart follow the GP as they follow BLR, and Cancel keeps its best.
orbit::Progress gpSteps(const TaskContext& ctx, const LocalityRequest& request, orbit::EvidencePoint& best, int& index)
{
    const orbit::Progress core = ctx.coreProgress(0.0, 1.0);
    const std::string param = request.config.learn.empty() ? std::string() : request.config.learn.front();
    return [&ctx, &best, &index, core, param, total = request.config.maxEvaluations](double f, const std::string& what) {
        static const QRegularExpression value(QStringLiteral("^fold 1, (\\S+) = (\\S+): log marginal likelihood (\\S+)$"));
        const QRegularExpressionMatch m = value.match(QString::fromStdString(what));
        bool okValue = false, okLikelihood = false;
        const double v = m.hasMatch() ? m.captured(2).toDouble(&okValue) : 0.0;
        const double l = m.hasMatch() ? m.captured(3).toDouble(&okLikelihood) : 0.0;
        if (okValue && okLikelihood && m.captured(1).toStdString() == param) {
            auto step = std::make_shared<LocalityStep>();
            step->point.params = {{param, v}};
            step->point.logEvidence = l;
            step->point.stage = ++index <= kGpScan ? "scan" : "bracket step";
            if (index == 1 || l > best.logEvidence)
                best = step->point;
            step->best = best;
            step->index = index;
            step->total = total;
            ctx.partial(QVariant::fromValue(std::shared_ptr<const LocalityStep>(std::move(step))));
        }
        return core(f, what);
    };
}

} // namespace

std::vector<double> landscapeValues(const orbit::ParamDescriptor& p, int points,
                                    const std::optional<std::pair<double, double>>& bounds)
{
    const double lo = bounds ? bounds->first : p.learnMinimum, hi = bounds ? bounds->second : p.learnMaximum;
    return orbit::spacedValues(lo, hi, points, p.logScale && lo > 0);
}

Task makeLocalityTask(LocalityRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        ctx.progress(0.0, QStringLiteral("Preparing the data…"));
        orbit::Dataset kept;
        const orbit::Dataset& data = seededSubset(*request.dataset, request.subset, request.config.seed, kept);
        ctx.throwIfCancelled();
        auto result = std::make_shared<LocalityResult>();
        result->request = request;
        result->samples = data.count();
        if (isGaussianProcess(request.learner)) {
            orbit::EvidencePoint best;
            int index = 0;
            result->exact = orbit::learnExactGp(data, request.config, kGpInnerEvaluations, kGpScan,
                                                gpSteps(ctx, request, best, index));
            return QVariant::fromValue(std::shared_ptr<const LocalityResult>(std::move(result)));
        }

        // The landscape takes the first part of the progress, in proportion to its evaluations.
        const std::vector<std::vector<double>>& land = request.landscape;
        const int landscapeEvaluations =
            land.empty() ? 0 : int(land.size() == 2 ? land[0].size() * land[1].size() : land[0].size());
        const int learnEvaluations = request.config.maxEvaluations;
        const double landShare = double(landscapeEvaluations) / double(landscapeEvaluations + learnEvaluations);
        auto stepsOf = [&ctx](LocalityStep::Stage stage, int total) -> orbit::LearnStep {
            return [&ctx, stage, total](const orbit::EvidencePoint& p, const orbit::EvidencePoint& best, int index) {
                auto step = std::make_shared<LocalityStep>();
                step->stage = stage;
                step->point = p;
                step->best = best;
                step->index = index;
                step->total = total;
                ctx.partial(QVariant::fromValue(std::shared_ptr<const LocalityStep>(std::move(step))));
            };
        };
        if (request.perClass) {
            result->perClass = orbit::learnPerClass(data, request.config, ctx.coreProgress(0.0, 1.0), [&ctx](const orbit::ClassLocality& c) {
                ctx.partial(QVariant::fromValue(std::make_shared<const orbit::ClassLocality>(c)));
            });
            result->learn = result->perClass->global;
            if (!result->perClass->testRows.empty()) {
                const std::vector<int> truth = orbit::select(data.labels, result->perClass->testRows);
                result->perClassConfusion = orbit::confusionMatrix(result->perClass->testPredictions, truth, data.numClasses);
                result->globalConfusion = orbit::confusionMatrix(result->learn.testPredictions, truth, data.numClasses);
            }
            return QVariant::fromValue(std::shared_ptr<const LocalityResult>(std::move(result)));
        }
        const std::vector<std::string>& params = request.config.learn;
        if (land.size() == 1)
            result->curve = orbit::evidenceCurve(data, request.config, params.at(0), land[0], ctx.coreProgress(0.0, landShare),
                                                 stepsOf(LocalityStep::Stage::Landscape, landscapeEvaluations));
        else if (land.size() == 2)
            result->surface = orbit::evidenceSurface(data, request.config, params.at(0), land[0], params.at(1), land[1],
                                                     ctx.coreProgress(0.0, landShare),
                                                     stepsOf(LocalityStep::Stage::Landscape, landscapeEvaluations));
        result->learn = orbit::learnLocality(data, request.config, ctx.coreProgress(landShare, 1.0),
                                             stepsOf(LocalityStep::Stage::Learn, learnEvaluations), orbit::oneProcess(),
                                             stepsOf(LocalityStep::Stage::Pilot, 0));
        result->learnedLandscape = orbit::learnLandscape(result->learn);
        return QVariant::fromValue(std::shared_ptr<const LocalityResult>(std::move(result)));
    };
}

} // namespace orbitui

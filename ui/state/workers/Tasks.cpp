#include "state/workers/Tasks.hpp"

#include "render/SafeText.hpp"
#include "render/SampleImage.hpp"

#include "orbit/figures/DensitySummary.hpp"
#include "orbit/figures/OrbitEmbedding.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"

#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace orbitui {

Task makeLoadTask(LoadRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        QElapsedTimer timer;
        timer.start();
        const QString name = safeText(QFileInfo(request.path).fileName());
        ctx.progress(0.0, QStringLiteral("Loading %1…").arg(name));
        // A long load shows how far it got and stops when superseded (another file opened).
        orbit::LoadOptions options = request.options;
        options.progress = [&ctx, name](double fraction, const std::string&) {
            ctx.progress(fraction, QStringLiteral("Loading %1… %2%").arg(name).arg(qRound(100 * fraction)));
            return ctx.cancelled();
        };
        auto dataset = std::make_shared<orbit::Dataset>(orbit::loadDataset(request.path.toStdString(), options));
        ctx.throwIfCancelled();
        if (dataset->count() == 0)
            throw orbit::LoadError(orbit::LoadErrorKind::Empty, request.path.toStdString(), "file",
                                   "no samples");
        ctx.progress(1.0, QStringLiteral("Loaded %1").arg(QFileInfo(request.path).fileName()));
        LoadResult result{std::move(dataset), request.path, timer.nsecsElapsed() * 1e-9};
        return QVariant::fromValue(result);
    };
}

Task makeOrbitTask(OrbitRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        QElapsedTimer timer;
        timer.start();
        const orbit::Dataset& ds = *request.dataset;
        const int n = static_cast<int>(ds.count());
        if (request.index < 0 || request.index >= n)
            throw orbit::SpecError("input", "no such sample", std::to_string(request.index));
        const BuiltOrbit built = buildOrbit(request.settings, ds.kind, ds.shape);
        built.group->prepare(ctx.coreProgress(0.0, 0.2));  // an orthogonal set draws its matrices
        const orbit::OrbitSampler sampler(built.group, built.dist, ds.shape, request.settings.r,
                                          request.settings.seed);
        auto result = std::make_shared<OrbitResult>();
        result->request = request;

        const auto index = static_cast<std::size_t>(request.index);
        const auto elements = sampler.elementsFor(index, ds.sample(index));
        sampler.orbit(ds.sample(index), elements, result->gallery);
        result->elementText.reserve(elements.size());
        for (const auto& g : elements)
            result->elementText.push_back(built.group->describe(g));
        // The pictures too: r renders would hold the GUI thread for tens of milliseconds.
        const int atoms = atomCount(ds, index);
        result->images.reserve(static_cast<std::size_t>(result->gallery.rows()));
        for (Eigen::Index k = 0; k < result->gallery.rows(); ++k) {
            if (k % 64 == 0)
                ctx.throwIfCancelled();
            result->images.push_back(renderSample(result->gallery.row(k).data(), ds.shape, ds.kind, atoms));
        }
        ctx.progress(0.3, QStringLiteral("orbit sampled"));

        std::vector<int> inputs;
        for (int i : request.embeddingInputs)
            if (i >= 0 && i < n)
                inputs.push_back(i);
        const int r = request.settings.r;
        const int m = static_cast<int>(inputs.size());
        if (m == 0) {
            result->embeddingError = QStringLiteral("Choose inputs for the orbit embedding.");
        } else if (m * r < 2) {
            result->embeddingError = QStringLiteral("The embedding needs at least two orbit samples (raise r).");
        } else {
            const std::vector<std::size_t> rows(inputs.begin(), inputs.end());
            const orbit::OrbitEmbedding embedding =
                orbit::orbitEmbedding(ds, rows, sampler, ctx.coreProgress(0.3, 1.0));
            result->scores = embedding.scores;
            result->inputScores = embedding.inputScores;
            result->explained[0] = embedding.explained[0];
            result->explained[1] = embedding.explained[1];
            result->request.embeddingInputs = inputs;
        }
        result->seconds = timer.nsecsElapsed() * 1e-9;
        return QVariant::fromValue(std::shared_ptr<const OrbitResult>(std::move(result)));
    };
}

Task makeDensityTask(DensityRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        auto result = std::make_shared<DensityResult>();
        result->request = request;
        const OrbitSettings& s = request.settings;
        const bool affine = s.isProduct();
        const std::string groupSpec = affine ? request.factor : s.groupSpec();
        const orbit::Shape shape = request.dataset ? request.dataset->shape : orbit::Shape{28, 28, 1};
        const auto group = orbit::makeGroup(groupSpec, shape, s.seed);
        const auto dist = orbit::makeDistribution(s.factor(request.factor).spec(), *group);
        {
            const orbit::ParameterAxis axis = group->parameterAxis();  // the group's own words for its axis
            result->parameter = QString::fromStdString(axis.title.empty() ? axis.name : axis.title);
        }
        if (orbit::densityParameterName(*group).empty()) {
            result->note = QStringLiteral("%1 has no one-dimensional parameter to plot: the orbit gallery shows "
                                          "the sampled elements.")
                               .arg(QString::fromStdString(groupSpec));
            return QVariant::fromValue(std::shared_ptr<const DensityResult>(std::move(result)));
        }
        orbit::DensityConfig config;
        config.samples = std::max(1, request.samples);
        config.minBins = request.bins;
        config.seed = s.seed;
        const auto index = static_cast<std::size_t>(std::max(0, request.index));
        result->summary = orbit::densitySummary(*group, *dist, shape, request.dataset.get(), index, config,
                                                [&ctx](double, const std::string&) { return ctx.cancelled(); });
        // The chart draws the histogram as a step outline and the density as a line.
        const orbit::DensitySummary& d = result->summary;
        result->hasDensity = d.hasDensity;
        result->xMin = d.lo;
        result->xMax = d.hi;
        result->binWidth = d.binWidth;
        const int bins = static_cast<int>(d.histogram.size());
        result->histogram.reserve(2 * bins + 2);
        result->histogram.append(QPointF(d.lo, 0.0));
        for (int b = 0; b < bins; ++b) {
            const double h = d.histogram[static_cast<std::size_t>(b)];
            result->histogram.append(QPointF(d.lo + b * d.binWidth, h));
            result->histogram.append(QPointF(d.lo + (b + 1) * d.binWidth, h));
        }
        result->histogram.append(QPointF(d.hi, 0.0));
        result->curve.reserve(static_cast<qsizetype>(d.t.size()));
        for (std::size_t i = 0; i < d.t.size(); ++i)
            result->curve.append(QPointF(d.t[i], d.density[i]));
        const double peak = d.peak();
        result->yMax = peak > 0.0 ? peak * 1.08 : 1.0;
        return QVariant::fromValue(std::shared_ptr<const DensityResult>(std::move(result)));
    };
}

} // namespace orbitui

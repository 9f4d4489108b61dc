#include "state/workers/KernelTasks.hpp"

#include "render/ParameterLabels.hpp"
#include "render/SampleImage.hpp"
#include "state/KernelChoice.hpp"

#include "orbit/figures/InvarianceProbe.hpp"
#include "orbit/figures/KernelComparison.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/registry/Figures.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <QElapsedTimer>

#include <algorithm>

namespace orbitui {

namespace {

std::string kernelSpecOf(double bandwidth) { return "gaussian:median=" + orbit::formatNumber(bandwidth); }

/// N as the panels use it: capped at the dataset's samples when known.
int capped(int n, std::size_t samples)
{
    return samples > 0 ? std::min(n, static_cast<int>(std::min<std::size_t>(samples, 1u << 30))) : n;
}

/// SpecError(field, "must be in [lo, hi]") for a whole number outside the figure setting's valid range.
void checkCount(const orbit::ParamDescriptor& p, const std::string& field, int v)
{
    if (!p.accepts(v))
        throw orbit::SpecError(field, p.violation(v), std::to_string(v));
}

/// n points of the dataset (ordered by label), their captions, and the feature context of the
/// settings on them (group, distribution, the base kernel with its bandwidth resolved on them).
struct PlotPoints {
    std::vector<std::size_t> indices;
    orbit::Dataset subset;
    orbit::FeatureContext context;
    QStringList labels;
};

PlotPoints plotPoints(const orbit::Dataset& ds, int n, const OrbitSettings& settings, const std::string& kernelSpec,
                      const std::vector<std::size_t>& points)
{
    PlotPoints p;
    p.indices = !points.empty() ? points  // given (an A/B comparison's shared points)
                                : orbit::kernelPlotIndices(ds, static_cast<std::size_t>(n), settings.seed);  // by label, or by target
    p.subset = ds.subset(p.indices);
    p.context = orbit::makeFeatureContext(p.subset, settings.groupSpec(), settings.distSpec(), kernelSpec, settings.seed);
    for (std::size_t i : p.indices)
        p.labels << sampleCaption(ds, i);
    return p;
}

} // namespace

std::string KernelRequest::featureSpec() const
{
    const orbit::ApproximationDescriptor* a = orbit::findApproximation(method);
    return a ? a->featureSpec(s, r) : method;  // validate() names an unknown method
}

std::string KernelRequest::kernelSpec() const { return baseKernelSpec(kernel, bandwidth); }

std::string ApproxRequest::kernelSpec() const { return kernelSpecOf(bandwidth); }

void KernelRequest::validate(std::size_t count) const
{
    const orbit::FigureDescriptor& figure = orbit::kernelsFigure();
    const orbit::ParamDescriptor& size = figure.setting("n");
    if (n < size.minimum || static_cast<std::size_t>(n) > count)
        throw orbit::SpecError("N", "must be between " + orbit::formatNumber(size.minimum) + " and the number of samples (" +
                                        std::to_string(count) + ")",
                               std::to_string(n));
    if (!points.empty() && points.size() != static_cast<std::size_t>(n))
        throw orbit::SpecError("N", "must equal the number of given points (" + std::to_string(points.size()) + ")",
                               std::to_string(n));
    for (std::size_t i : points)
        if (i >= count)
            throw orbit::SpecError("index", "no such sample (" + std::to_string(count) + " samples)", std::to_string(i));
    checkCount(size, "N", n);
    checkCount(figure.setting("r"), "r", r);
    checkCount(figure.setting("s"), "s", s);
    const orbit::ParamDescriptor& methods = figure.setting("method");
    if (std::find(methods.choices.begin(), methods.choices.end(), method) == methods.choices.end())
        throw orbit::SpecError("approximation", "must be " + methods.rangeText(), method);
    const orbit::ApproximationDescriptor& a = *orbit::findApproximation(method);
    if (a.sAtMostPoints && s > n)
        throw orbit::SpecError("s", a.displayName + " needs s <= N (" + std::to_string(n) + " landmarks at most)",
                               std::to_string(s));
    if (const std::string why = figure.setting("bandwidth").violation(bandwidth); !why.empty())
        throw orbit::SpecError("bandwidth", why, orbit::formatNumber(bandwidth));
    checkKernelChoice(kernel);
}

KernelRequest kernelRequest(const KernelsSettings& k, const OrbitSettings& orbit, std::size_t samples)
{
    KernelRequest req;
    req.settings = orbit;
    req.n = capped(k.n, samples);
    req.r = k.r > 0 ? k.r : orbit.r;
    req.method = k.method.toStdString();
    req.s = k.s;
    req.kernel = k.kernel.toStdString();
    req.bandwidth = k.bandwidth;
    return req;
}

ApproxRequest approxRequest(const ApproximationSettings& a, const OrbitSettings& orbit, std::size_t samples)
{
    ApproxRequest req;
    req.settings = orbit;
    req.n = capped(a.n, samples);
    req.bandwidth = a.bandwidth;
    req.config.method = a.method.toStdString();
    req.config.rList = a.rList;
    req.config.refR = a.refR;
    req.config.repeats = a.repeats;
    req.config.seed = orbit.seed;
    const orbit::ApproximationDescriptor* m = orbit::findApproximation(req.config.method);
    for (int s : a.sList)
        (m && m->sAtMostPoints && s > req.n ? req.sDropped : req.config.sList).push_back(s);
    return req;
}

Task makeKernelTask(KernelRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        QElapsedTimer timer;
        timer.start();
        const orbit::Dataset& ds = *request.dataset;
        request.validate(ds.count());
        auto result = std::make_shared<KernelResult>();
        result->request = request;
        ctx.progress(0.02, QStringLiteral("choosing %1 points").arg(request.n));
        PlotPoints p = plotPoints(ds, request.n, request.settings, request.kernelSpec(), request.points);
        result->indices = p.indices;
        result->labels = p.labels;
        orbit::KernelComparisonConfig config;
        config.r = request.r;
        config.features = request.featureSpec();
        config.seed = request.settings.seed;
        const orbit::Progress progress = ctx.coreProgress();
        orbit::KernelComparison k = orbit::compareKernels(p.subset.X, p.context, config, progress);
        result->kernelSpec = k.kernelSpec;
        result->mapKernel = k.mapKernel;
        result->base = std::move(k.base);
        result->invariant = std::move(k.invariant);
        result->approx = std::move(k.approx);
        result->difference = std::move(k.difference);
        result->features = std::move(k.features);
        result->frobenius = k.error.frobenius;
        result->spectral = k.error.spectral;
        result->seconds = timer.nsecsElapsed() * 1e-9;
        ctx.progress(1.0, QStringLiteral("done"));
        return QVariant::fromValue(std::shared_ptr<const KernelResult>(std::move(result)));
    };
}

QString describeKernel(const std::string& spec)
{
    orbit::Spec parsed;
    try {
        parsed = orbit::parseSpec(spec, "kernel");
    } catch (const orbit::SpecError&) {
        return QString::fromStdString(spec);
    }
    const orbit::KernelDescriptor* d = orbit::findKernel(parsed.name);
    if (!d)
        return QString::fromStdString(spec);
    QStringList values;
    for (const orbit::ParamDescriptor& p : d->parameters)
        if (parsed.has(p.key)) {
            const std::string& v = parsed.params.at(p.key);
            const auto number = orbit::parseDouble(v);
            const QString shown = number ? QString::number(*number, 'g', 3) : QString::fromStdString(v);
            values << (p.key == "median" ? QStringLiteral("%1 × median").arg(shown)
                                         : QStringLiteral("%1 = %2").arg(symbolOf(p), shown));
        }
    // "Laplacian (L1)" reads "Laplacian" before its numbers.
    const QString name = QString::fromStdString(d->displayName).section(" (", 0, 0);
    return values.isEmpty() ? name : name + " " + values.join(", ");
}

Task makeApproxTask(ApproxRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        QElapsedTimer timer;
        timer.start();
        const orbit::Dataset& ds = *request.dataset;
        request.config.validate();
        if (request.n < 2 || static_cast<std::size_t>(request.n) > ds.count())
            throw orbit::SpecError("n", "must be between 2 and the number of samples (" + std::to_string(ds.count()) + ")",
                                   std::to_string(request.n));
        auto result = std::make_shared<ApproxResult>();
        result->request = request;
        ctx.progress(0.0, QStringLiteral("reference kernel (ref-r = %1)").arg(request.config.refR));
        PlotPoints p = plotPoints(ds, request.n, request.settings, request.kernelSpec(), {});
        result->kernelSpec = p.context.kernel->spec();
        const auto onRow = [&](const orbit::ApproxErrorRow& row) { ctx.partial(QVariant::fromValue(row)); };
        const orbit::Progress progress = ctx.coreProgress();
        result->rows = orbit::approximationError(p.subset.X, p.context, request.config, onRow, progress);
        result->seconds = timer.nsecsElapsed() * 1e-9;
        return QVariant::fromValue(std::shared_ptr<const ApproxResult>(std::move(result)));
    };
}

Task makeProbeTask(ProbeRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        QElapsedTimer timer;
        timer.start();
        const orbit::Dataset& ds = *request.dataset;
        if (request.index < 0 || static_cast<std::size_t>(request.index) >= ds.count())
            throw orbit::SpecError("input", "no such sample", std::to_string(request.index));
        auto result = std::make_shared<ProbeResult>();
        result->request = request;
        orbit::ProbeConfig config;
        config.group = request.settings.groupSpec();
        config.dist = request.settings.distSpec();
        config.kernel = kernelSpecOf(1.0);
        config.features = "irf:s=" + std::to_string(request.s) + ",r=" + std::to_string(request.settings.r);
        config.fitCount = static_cast<std::size_t>(std::max(0, request.fitCount));
        config.points = request.points;
        config.seed = request.settings.seed;
        const orbit::ProbeResult probe =
            orbit::probeInvariance(ds, static_cast<std::size_t>(request.index), config, ctx.coreProgress());
        result->invariantSpec = probe.invariantSpec;
        result->plainSpec = probe.plainSpec;
        result->parameter = QString::fromStdString(probe.parameter);
        result->values = probe.values;
        result->invariantSimilarity = probe.invariant;
        result->plainSimilarity = probe.plain;
        result->seconds = timer.nsecsElapsed() * 1e-9;
        return QVariant::fromValue(std::shared_ptr<const ProbeResult>(std::move(result)));
    };
}

} // namespace orbitui

#include "workers/KernelTasks.hpp"

#include "widgets/SampleImage.hpp"

#include "orbit/experiments/InvarianceProbe.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/kernels/MatrixNorms.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"

#include <QElapsedTimer>

#include <algorithm>

namespace orbitui {

namespace {

std::string kernelSpecOf(double bandwidth) { return "gaussian:median=" + std::to_string(bandwidth); }

/// n points of the dataset (ordered by label), their captions, and the feature context of the
/// settings on them (group, distribution, the base kernel with its bandwidth resolved on them).
struct PlotPoints {
    std::vector<std::size_t> indices;
    orbit::Dataset subset;
    orbit::FeatureContext context;
    QStringList labels;
};

PlotPoints plotPoints(const orbit::Dataset& ds, int n, const OrbitSettings& settings, double bandwidth)
{
    PlotPoints p;
    p.indices = orbit::kernelPlotIndices(ds, static_cast<std::size_t>(n), settings.seed);
    if (ds.isRegression())  // no classes: order by target so similar energies sit together
        std::stable_sort(p.indices.begin(), p.indices.end(),
                         [&ds](std::size_t a, std::size_t b) { return ds.targets[a] < ds.targets[b]; });
    p.subset = ds.subset(p.indices);
    p.context = orbit::makeFeatureContext(p.subset, settings.groupSpec(), settings.distSpec(), kernelSpecOf(bandwidth),
                                          settings.seed);
    for (std::size_t i : p.indices)
        p.labels << sampleCaption(ds, i);
    return p;
}

} // namespace

std::string KernelRequest::featureSpec() const
{
    const std::string sText = std::to_string(s), rText = std::to_string(r);
    if (method == "nystrom")
        return "inystrom:s=" + sText + ",r=" + rText;
    if (method == "gicdf")
        return "gicdf:m=" + sText + ",bins=25,r=" + rText;
    return "irf:s=" + sText + ",r=" + rText;
}

void KernelRequest::validate(std::size_t count) const
{
    if (n < 2 || static_cast<std::size_t>(n) > count)
        throw orbit::SpecError("N", "must be between 2 and the number of samples (" + std::to_string(count) + ")",
                               std::to_string(n));
    if (r < 1)
        throw orbit::SpecError("r", "must be >= 1", std::to_string(r));
    if (s < 1)
        throw orbit::SpecError("s", "must be >= 1", std::to_string(s));
    if (method != "rf" && method != "nystrom" && method != "gicdf")
        throw orbit::SpecError("approximation", "must be rf, nystrom or gicdf", method);
    if (method == "nystrom" && s > n)
        throw orbit::SpecError("s", "Nyström needs s <= N (" + std::to_string(n) + " landmarks at most)",
                               std::to_string(s));
    if (!(bandwidth > 0))
        throw orbit::SpecError("bandwidth", "must be > 0", std::to_string(bandwidth));
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
        PlotPoints p = plotPoints(ds, request.n, request.settings, request.bandwidth);
        result->indices = p.indices;
        result->labels = p.labels;
        const orbit::BaseKernel& kernel = *p.context.kernel;
        result->kernelSpec = kernel.spec();
        const orbit::MatrixXfR& X = p.subset.X;

        ctx.progress(0.05, QStringLiteral("base kernel"));
        result->base = kernel.matrix(X, X).cast<double>();
        ctx.throwIfCancelled();

        ctx.progress(0.1, QStringLiteral("Monte Carlo invariant kernel (r = %1)").arg(request.r));
        const orbit::OrbitSampler sampler(p.context.group, p.context.dist, p.context.shape, request.r,
                                          request.settings.seed);
        result->invariant = orbit::invariantKernelMatrix(X, sampler, kernel);
        ctx.throwIfCancelled();

        ctx.progress(0.6, QStringLiteral("fitting %1").arg(QString::fromStdString(request.featureSpec())));
        const auto map = orbit::makeFeatureMap(request.featureSpec(), p.context);
        // The map's randomness is independent of the Monte Carlo kernel's group samples. Its fit
        // (moving r s templates) reports every few tens of milliseconds and stops on a cancel.
        const QString fitting = QStringLiteral("fitting %1: ").arg(QString::fromStdString(request.featureSpec()));
        map->fit(X, request.settings.seed ^ 0x6b65726e656c73ULL, [&](double f, const std::string& what) {
            ctx.progress(0.6 + 0.2 * f, fitting + QString::fromStdString(what));
            return ctx.cancelled();
        });
        result->mapKernel = map->kernel();
        ctx.throwIfCancelled();
        ctx.progress(0.8, QStringLiteral("features"));
        result->features = map->transform(X);
        const Eigen::MatrixXd F = result->features.cast<double>();
        result->approx = F * F.transpose();
        result->difference = result->approx - result->invariant;
        result->frobenius = result->difference.norm() / std::max(result->invariant.norm(), 1e-300);
        result->spectral = orbit::spectralNorm(result->difference) /
                           std::max(orbit::spectralNorm(result->invariant), 1e-300);
        result->seconds = timer.nsecsElapsed() * 1e-9;
        ctx.progress(1.0, QStringLiteral("done"));
        return QVariant::fromValue(std::shared_ptr<const KernelResult>(std::move(result)));
    };
}

QString describeKernel(const std::string& spec)
{
    const QString text = QString::fromStdString(spec);
    if (text.startsWith("gaussian:sigma="))
        return QStringLiteral("Gaussian σ = %1").arg(text.section('=', 1).toDouble(), 0, 'g', 3);
    return text;
}

void ApproxInbox::append(const orbit::ApproxErrorRow& row)
{
    const std::lock_guard lock(mutex_);
    rows_.push_back(row);
}

std::vector<orbit::ApproxErrorRow> ApproxInbox::rows() const
{
    const std::lock_guard lock(mutex_);
    return rows_;
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
        PlotPoints p = plotPoints(ds, request.n, request.settings, request.bandwidth);
        result->kernelSpec = p.context.kernel->spec();
        const auto onRow = [&](const orbit::ApproxErrorRow& row) {
            if (request.inbox)
                request.inbox->append(row);
        };
        const orbit::Progress progress = [&](double fraction, const std::string& what) {
            ctx.progress(fraction, QString::fromStdString(what));
            return ctx.cancelled();
        };
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
        const int fit = static_cast<int>(std::min<std::size_t>(ds.count(), static_cast<std::size_t>(request.fitCount)));
        if (fit < 2)
            throw orbit::SpecError("data", "the probe needs at least two samples", std::to_string(ds.count()));
        PlotPoints p = plotPoints(ds, fit, request.settings, 1.0);
        ctx.throwIfCancelled();
        auto result = std::make_shared<ProbeResult>();
        result->request = request;
        result->invariantSpec = "irf:s=" + std::to_string(request.s) + ",r=" + std::to_string(request.settings.r);
        result->plainSpec = "rf:s=" + std::to_string(request.s);
        const auto invariant = orbit::makeFeatureMap(result->invariantSpec, p.context);
        const auto plain = orbit::makeFeatureMap(result->plainSpec, p.context);
        const orbit::Progress fitProgress = [&](double, const std::string&) { return ctx.cancelled(); };
        invariant->fit(p.subset.X, request.settings.seed, fitProgress);
        plain->fit(p.subset.X, request.settings.seed, fitProgress);
        ctx.throwIfCancelled();
        const float* x = ds.sample(static_cast<std::size_t>(request.index));
        const orbit::InvarianceCurve a =
            orbit::invarianceProbe(*invariant, *p.context.group, p.context.shape, x, request.points, request.settings.seed);
        ctx.progress(0.6, QStringLiteral("invariant map probed"));
        ctx.throwIfCancelled();
        const orbit::InvarianceCurve b =
            orbit::invarianceProbe(*plain, *p.context.group, p.context.shape, x, request.points, request.settings.seed);
        result->parameter = QString::fromStdString(a.parameter);
        result->values = a.values;
        result->invariantSimilarity = a.similarity;
        result->plainSimilarity = b.similarity;
        result->seconds = timer.nsecsElapsed() * 1e-9;
        return QVariant::fromValue(std::shared_ptr<const ProbeResult>(std::move(result)));
    };
}

} // namespace orbitui

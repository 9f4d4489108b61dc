#include "workers/Tasks.hpp"

#include "SafeText.hpp"
#include "widgets/SampleImage.hpp"

#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

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
        options.progress = [&ctx, name](double fraction) {
            ctx.throwIfCancelled();
            ctx.progress(fraction, QStringLiteral("Loading %1… %2%").arg(name).arg(qRound(100 * fraction)));
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
        for (Eigen::Index k = 0; k < result->gallery.rows(); ++k)
            result->images.push_back(renderSample(result->gallery.row(k).data(), ds.shape, ds.kind, atoms));
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
            const int dim = ds.shape.dim();
            orbit::MatrixXfR stack(static_cast<Eigen::Index>(m) * r, dim);
            orbit::MatrixXfR block;
            for (int j = 0; j < m; ++j) {
                ctx.throwIfCancelled();
                const auto i = static_cast<std::size_t>(inputs[static_cast<std::size_t>(j)]);
                sampler.orbit(ds.sample(i), sampler.elementsFor(i, ds.sample(i)), block);
                stack.middleRows(static_cast<Eigen::Index>(j) * r, r) = block;
            }
            const orbit::PcaResult pca = orbit::principalComponents(stack, 2);
            result->scores = pca.scores;
            orbit::MatrixXfR originals(m, dim);
            for (int j = 0; j < m; ++j)
                originals.row(j) = Eigen::Map<const Eigen::RowVectorXf>(
                    ds.sample(static_cast<std::size_t>(inputs[static_cast<std::size_t>(j)])), dim);
            result->inputScores = (originals.rowwise() - pca.mean) * pca.axes.transpose();
            result->explained[0] = pca.explained(0);
            result->explained[1] = pca.explained(1);
            result->request.embeddingInputs = inputs;
        }
        result->seconds = timer.nsecsElapsed() * 1e-9;
        return QVariant::fromValue(std::shared_ptr<const OrbitResult>(std::move(result)));
    };
}

namespace {

/// The plotted parameter of a group element, by the kind of the (factor) group.
double parameterOf(orbit::GroupKind kind, const orbit::GroupElement& g)
{
    switch (kind) {
    case orbit::GroupKind::Rotation: return g.theta;
    case orbit::GroupKind::Translation: return g.dx;
    case orbit::GroupKind::Scale: return g.scale;
    case orbit::GroupKind::Cyclic: return g.k;
    default: return 0.0;
    }
}

QString parameterName(orbit::GroupKind kind)
{
    switch (kind) {
    case orbit::GroupKind::Rotation: return QStringLiteral("rotation angle θ (rad)");
    case orbit::GroupKind::Translation: return QStringLiteral("shift dx (px), same law for dy");
    case orbit::GroupKind::Scale: return QStringLiteral("zoom factor s");
    case orbit::GroupKind::Cyclic: return QStringLiteral("rotation index k (× 2π/n)");
    case orbit::GroupKind::Permutation: return QStringLiteral("atoms moved from the reference order");
    default: return {};
    }
}

} // namespace

Task makeDensityTask(DensityRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        auto result = std::make_shared<DensityResult>();
        result->request = request;
        const OrbitSettings& s = request.settings;
        const bool affine = s.group == "affine";
        const std::string groupSpec = affine ? request.factor : s.groupSpec();
        const orbit::Shape shape = request.dataset ? request.dataset->shape : orbit::Shape{28, 28, 1};
        const auto group = orbit::makeGroup(groupSpec, shape, s.seed);
        const auto dist = orbit::makeDistribution(s.factor(request.factor).spec(), *group);
        const orbit::GroupKind kind = group->kind();
        result->parameter = parameterName(kind);
        if (result->parameter.isEmpty()) {
            result->note = QStringLiteral("%1 has no one-dimensional parameter to plot: the orbit gallery shows "
                                          "the sampled elements.")
                               .arg(QString::fromStdString(groupSpec));
            return QVariant::fromValue(std::shared_ptr<const DensityResult>(std::move(result)));
        }
        const float* x = nullptr;
        if (dist->dependsOnInput()) {
            if (!request.dataset)
                throw orbit::SpecError("--dist", "this distribution depends on the input: load data first");
            x = request.dataset->sample(static_cast<std::size_t>(request.index));
        }
        orbit::Rng rng = orbit::makeRng(s.seed, 0x64656e73);  // "dens": a stream of its own
        // Permutations are summarised by how many atoms leave the reference order: the plain
        // sorted order for noisy sort (its sigma = 0 limit), the identity otherwise.
        std::vector<int> reference;
        if (kind == orbit::GroupKind::Permutation) {
            if (!x)
                x = request.dataset ? request.dataset->sample(static_cast<std::size_t>(request.index)) : nullptr;
            if (!x)
                throw orbit::SpecError("--group", "load molecules to see how permutations are drawn");
            orbit::Rng fixed = orbit::makeRng(0);
            reference = dist->dependsOnInput()
                            ? orbit::makeDistribution("noisysort:sigma=0", *group)->sample(fixed, *group, shape, x).perm
                            : group->identity(shape).perm;
        }
        const std::size_t atoms = request.dataset && request.dataset->kind == orbit::DataKind::Coulomb &&
                                          static_cast<std::size_t>(request.index) < request.dataset->charges.size()
                                      ? request.dataset->charges[static_cast<std::size_t>(request.index)].size()
                                      : reference.size();
        auto moved = [&](const orbit::GroupElement& g) {
            int count = 0;
            for (std::size_t i = 0; i < g.perm.size() && i < reference.size(); ++i)
                count += g.perm[i] != reference[i] && (g.perm[i] < static_cast<int>(atoms) || reference[i] < static_cast<int>(atoms));
            return static_cast<double>(count);
        };
        std::vector<double> values(static_cast<std::size_t>(std::max(1, request.samples)));
        for (std::size_t i = 0; i < values.size(); ++i) {
            if ((i & 1023) == 0)
                ctx.throwIfCancelled();
            const orbit::GroupElement g = dist->sample(rng, *group, shape, x);
            values[i] = kind == orbit::GroupKind::Permutation ? moved(g) : parameterOf(kind, g);
        }
        result->hasDensity = dist->hasDensity();
        double lo = *std::min_element(values.begin(), values.end());
        double hi = *std::max_element(values.begin(), values.end());
        if (result->hasDensity) {
            const auto range = dist->densityRange();  // holds nearly all of the mass
            lo = range.first;
            hi = range.second;
        }
        if (kind == orbit::GroupKind::Rotation) {
            lo = std::max(lo, -M_PI);
            hi = std::min(hi, M_PI);
        }
        int bins = request.bins;
        if (result->hasDensity) {
            // Narrow densities (large kappa) get finer bins: about three per standard deviation.
            double mass = 0.0, mean = 0.0, second = 0.0;
            const int grid = 4000;
            for (int i = 0; i <= grid; ++i) {
                const double t = lo + (hi - lo) * i / grid;
                const double q = dist->density(t);
                if (std::isfinite(q)) {
                    mass += q;
                    mean += q * t;
                    second += q * t * t;
                }
            }
            if (mass > 0.0) {
                mean /= mass;
                const double sd = std::sqrt(std::max(second / mass - mean * mean, 0.0));
                if (sd > 0.0)
                    bins = std::clamp(static_cast<int>(std::ceil(3.0 * (hi - lo) / sd)), request.bins, 300);
            }
        }
        if (kind == orbit::GroupKind::Permutation) {  // counts 0..atoms
            lo = 0.0;
            hi = std::max(hi, 1.0);
        }
        if (kind == orbit::GroupKind::Cyclic || kind == orbit::GroupKind::Permutation) {  // one bar per value
            lo -= 0.5;
            hi += 0.5;
            bins = static_cast<int>(std::lround(hi - lo));
        }
        if (!(hi - lo > 1e-9)) {  // a delta: a narrow bar around its value
            lo -= 1.0;
            hi += 1.0;
        }
        result->xMin = lo;
        result->xMax = hi;
        const double width = (hi - lo) / bins;
        result->binWidth = width;
        std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
        for (double v : values) {
            const int b = std::clamp(static_cast<int>((v - lo) / width), 0, bins - 1);
            counts[static_cast<std::size_t>(b)] += 1.0;
        }
        double yMax = 0.0;
        result->histogram.reserve(2 * bins + 2);
        result->histogram.append(QPointF(lo, 0.0));
        for (int b = 0; b < bins; ++b) {
            const double h = counts[static_cast<std::size_t>(b)] / (values.size() * width);
            yMax = std::max(yMax, h);
            result->histogram.append(QPointF(lo + b * width, h));
            result->histogram.append(QPointF(lo + (b + 1) * width, h));
        }
        result->histogram.append(QPointF(hi, 0.0));
        if (result->hasDensity) {
            const int points = 2000;
            result->curve.reserve(points + 1);
            for (int i = 0; i <= points; ++i) {
                const double t = lo + (hi - lo) * i / points;
                const double q = dist->density(t);
                if (std::isfinite(q)) {
                    result->curve.append(QPointF(t, q));
                    yMax = std::max(yMax, q);
                }
            }
        }
        result->yMax = yMax > 0.0 ? yMax * 1.08 : 1.0;
        return QVariant::fromValue(std::shared_ptr<const DensityResult>(std::move(result)));
    };
}

} // namespace orbitui

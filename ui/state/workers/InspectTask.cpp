#include "state/workers/InspectTask.hpp"

#include "render/SampleImage.hpp"

#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"

#include <QPainter>

#include <algorithm>

namespace orbitui {

QImage orbitStrip(const orbit::Dataset& ds, const OrbitSettings& settings, int index, int copies, int cell)
{
    const auto i = static_cast<std::size_t>(index);
    std::vector<QImage> pictures{renderSample(ds, i)};
    try {
        const BuiltOrbit built = buildOrbit(settings, ds.kind, ds.shape);
        const orbit::OrbitSampler sampler(built.group, built.dist, ds.shape, std::max(settings.r, copies), settings.seed);
        std::vector<orbit::GroupElement> elements = sampler.elementsFor(i, ds.sample(i));
        elements.resize(std::min<std::size_t>(elements.size(), std::size_t(copies)));
        orbit::MatrixXfR moved;
        sampler.orbit(ds.sample(i), elements, moved);
        const int atoms = atomCount(ds, i);
        for (Eigen::Index k = 0; k < moved.rows(); ++k)
            pictures.push_back(renderSample(moved.row(k).data(), ds.shape, ds.kind, atoms));
    } catch (const orbit::SpecError&) {
        // Settings that cannot act on these data: the input alone.
    }
    const QSize natural = pictures.front().size();
    const int factor = std::max(1, cell / std::max(1, std::max(natural.width(), natural.height())));
    const int w = natural.width() * factor, h = natural.height() * factor, gap = 3, inputGap = 10;
    QImage strip(static_cast<int>(pictures.size()) * (w + gap) + inputGap, h, QImage::Format_RGB32);
    strip.fill(Qt::white);
    QPainter p(&strip);
    int x = 0;
    for (std::size_t k = 0; k < pictures.size(); ++k) {
        p.drawImage(QRect(x, 0, w, h), pictures[k]);
        x += w + (k == 0 ? inputGap : gap);
    }
    return strip;
}

Task makeInspectTask(InspectRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        const orbit::Dataset& ds = *request.dataset;
        auto result = std::make_shared<InspectResult>();
        result->request = request;
        // An orthogonal set draws its matrices here, where a cancel is seen; the strips' and the
        // curve's groups share the drawing while `prepared` holds it.
        std::shared_ptr<const orbit::Group> prepared;
        try {
            prepared = buildOrbit(request.settings, ds.kind, ds.shape).group;
            prepared->prepare(ctx.coreProgress(0.0, 0.5));
        } catch (const orbit::SpecError&) {
            // Settings that cannot act on these data: the strips show the inputs alone.
        }
        for (int index : request.indices) {
            ctx.throwIfCancelled();
            result->strips.push_back(orbitStrip(ds, request.settings, index, request.copies, request.cell));
        }
        if (!request.kernelSpec.empty() && request.indices.size() == 2) {
            try {
                const BuiltOrbit built = buildOrbit(request.settings, ds.kind, ds.shape);
                const std::string why = orbit::kernelCurveUnavailable(*built.group);
                if (!why.empty()) {
                    result->noCurve = QString::fromStdString(why);
                } else {
                    const orbit::BaseKernel kernel = orbit::makeKernel(request.kernelSpec, orbit::MatrixXfR());
                    orbit::KernelCurveConfig config;
                    config.points = request.curvePoints;
                    config.seed = request.settings.seed;
                    const auto i = static_cast<std::size_t>(request.indices[0]), j = static_cast<std::size_t>(request.indices[1]);
                    result->curve = orbit::kernelCurve(*built.group, *built.dist, kernel, ds.shape, ds.sample(i), ds.sample(j), config);
                }
            } catch (const orbit::SpecError& e) {
                result->noCurve = QString::fromUtf8(e.what());
            }
        }
        return QVariant::fromValue(std::shared_ptr<const InspectResult>(std::move(result)));
    };
}

} // namespace orbitui

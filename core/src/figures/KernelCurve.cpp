#include "orbit/figures/KernelCurve.hpp"

#include "orbit/figures/DensitySummary.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace orbit {

void KernelCurveConfig::validate() const
{
    if (points < 2) throw SpecError("points", "the kernel curve needs at least 2 points", std::to_string(points));
    if (qSamples < 1) throw SpecError("samples", "must be >= 1", std::to_string(qSamples));
}

std::string kernelCurveUnavailable(const Group& group) { return group.curveUnavailable(); }

KernelCurve kernelCurve(const Group& group, const Distribution& dist, const BaseKernel& kernel, const Shape& shape,
                        const float* xi, const float* xj, const KernelCurveConfig& config)
{
    config.validate();
    if (const std::string why = kernelCurveUnavailable(group); !why.empty())
        throw SpecError("group", why, group.spec());
    KernelCurve curve;
    const ParameterAxis axis = group.parameterAxis();
    const std::pair<double, double> range = dist.hasDensity() ? dist.densityRange() : std::pair<double, double>{};
    ElementPath path = group.curvePath(shape, config.points, dist.hasDensity() ? &range : nullptr);
    curve.parameter = axis.name;
    curve.t = std::move(path.t);
    const std::vector<GroupElement>& g = path.elements;

    const int d = shape.dim();
    std::vector<float> moved(static_cast<std::size_t>(d));
    for (const GroupElement& e : g) {
        group.apply(e, xi, moved.data(), shape);
        curve.c.push_back(kernel(moved.data(), xj, d));
    }
    curve.best = static_cast<std::size_t>(std::max_element(curve.c.begin(), curve.c.end()) - curve.c.begin());

    if (axis.discrete) {
        // The frequencies of k among the draws: q of a finite group.
        std::vector<double> count(g.size(), 0.0);
        Rng rng = makeRng(config.seed, 0x6375727665ULL);  // "curve"
        for (int s = 0; s < config.qSamples; ++s) {
            const GroupElement e = dist.sample(rng, group, shape, xi);
            if (e.k >= 0 && std::size_t(e.k) < count.size()) count[std::size_t(e.k)] += 1.0;
        }
        for (double n : count) curve.q.push_back(n / config.qSamples);
    } else if (dist.hasDensity()) {
        for (double t : curve.t) curve.q.push_back(dist.density(t));
    }
    curve.weightedMean = std::numeric_limits<double>::quiet_NaN();
    if (!curve.q.empty()) {
        std::size_t bw = 0;
        double num = 0.0, den = 0.0;
        for (std::size_t k = 0; k < curve.t.size(); ++k) {
            if (curve.c[k] * curve.q[k] > curve.c[bw] * curve.q[bw]) bw = k;
            // Trapezoid weights on the (possibly log-spaced) grid; unit weights for the elements of C_n.
            double w = 1.0;
            if (!axis.discrete) {
                const double left = k > 0 ? curve.t[k] - curve.t[k - 1] : 0.0;
                const double right = k + 1 < curve.t.size() ? curve.t[k + 1] - curve.t[k] : 0.0;
                w = 0.5 * (left + right);
                if (axis.periodic) w = 2.0 * std::numbers::pi / double(curve.t.size());  // periodic
            }
            num += w * curve.c[k] * curve.q[k];
            den += w * curve.q[k];
        }
        curve.bestWeighted = bw;
        if (den > 0) curve.weightedMean = num / den;
    }
    return curve;
}

} // namespace orbit

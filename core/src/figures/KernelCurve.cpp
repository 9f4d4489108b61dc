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

std::string kernelCurveUnavailable(const Group& group)
{
    switch (group.kind()) {
    case GroupKind::Rotation:
    case GroupKind::Scale:
    case GroupKind::Translation:
    case GroupKind::Cyclic: return {};
    case GroupKind::Permutation:
        return "permutations have no one-parameter path through them: there is no curve over t, only the kernel "
               "values and the orbits";
    case GroupKind::Orthogonal: return "an orthogonal set has no ordered parameter: there is no curve over t";
    case GroupKind::Affine:
        return "the affine group has four parameters (angle, two shifts, scale): the curve needs a one-parameter group";
    }
    return "no curve for this group";
}

namespace {

/// The grid of t and the elements g_t.
void grid(const Group& group, const Distribution& dist, const Shape& shape, int points, std::vector<double>& t,
          std::vector<GroupElement>& g)
{
    const bool density = dist.hasDensity();
    switch (group.kind()) {
    case GroupKind::Rotation:
        for (int k = 0; k < points; ++k) {
            GroupElement e = group.identity(shape);
            e.theta = 2.0 * std::numbers::pi * double(k - points / 2) / double(points);
            g.push_back(e);
            t.push_back(e.theta);
        }
        break;
    case GroupKind::Scale: {
        double lo = 0.5, hi = 2.0;
        if (density) {
            auto [a, b] = dist.densityRange();
            if (b > 0) {
                if (a <= 0) a = 1.0 / b;
                lo = std::min(lo, a);
                hi = std::max(hi, b);
            }
        }
        const double l0 = std::log(lo), l1 = std::log(hi);
        for (int k = 0; k < points; ++k) {
            GroupElement e = group.identity(shape);
            e.scale = std::exp(l0 + (l1 - l0) * double(k) / double(points - 1));
            g.push_back(e);
            t.push_back(e.scale);
        }
        break;
    }
    case GroupKind::Translation: {
        double lo = -0.5 * shape.width, hi = 0.5 * shape.width;
        if (density) {
            const auto [a, b] = dist.densityRange();
            lo = std::min(lo, a);
            hi = std::max(hi, b);
        }
        for (int k = 0; k < points; ++k) {
            GroupElement e = group.identity(shape);
            e.dx = lo + (hi - lo) * double(k) / double(points - 1);
            g.push_back(e);
            t.push_back(e.dx);
        }
        break;
    }
    case GroupKind::Cyclic:
        g = group.elements(shape);
        for (const GroupElement& e : g) t.push_back(double(e.k));
        break;
    default: throw SpecError("group", kernelCurveUnavailable(group), group.spec());
    }
}

} // namespace

KernelCurve kernelCurve(const Group& group, const Distribution& dist, const BaseKernel& kernel, const Shape& shape,
                        const float* xi, const float* xj, const KernelCurveConfig& config)
{
    config.validate();
    if (const std::string why = kernelCurveUnavailable(group); !why.empty())
        throw SpecError("group", why, group.spec());
    KernelCurve curve;
    curve.parameter = densityParameterName(group.kind());
    std::vector<GroupElement> g;
    grid(group, dist, shape, config.points, curve.t, g);

    const int d = shape.dim();
    std::vector<float> moved(static_cast<std::size_t>(d));
    for (const GroupElement& e : g) {
        group.apply(e, xi, moved.data(), shape);
        curve.c.push_back(kernel(moved.data(), xj, d));
    }
    curve.best = static_cast<std::size_t>(std::max_element(curve.c.begin(), curve.c.end()) - curve.c.begin());

    if (group.kind() == GroupKind::Cyclic) {
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
            if (group.kind() != GroupKind::Cyclic) {
                const double left = k > 0 ? curve.t[k] - curve.t[k - 1] : 0.0;
                const double right = k + 1 < curve.t.size() ? curve.t[k + 1] - curve.t[k] : 0.0;
                w = 0.5 * (left + right);
                if (group.kind() == GroupKind::Rotation) w = 2.0 * std::numbers::pi / double(curve.t.size());  // periodic
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

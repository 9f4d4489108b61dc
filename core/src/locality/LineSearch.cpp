// The evidence search in one parameter (EvidenceSearch.hpp): successive parabolas with golden-section
// steps (Brent), golden-section steps alone on a piecewise-constant curve, and the cubic Hermite
// refinement with gradients.
#include "locality/EvidenceSearch.hpp"

#include "orbit/util/Error.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace orbit::detail {

namespace {

/// The parabola through three points: its vertex and value there; nullopt when it is not concave.
std::optional<std::pair<double, double>> parabolaTop(double x0, double f0, double x1, double f1, double x2, double f2)
{
    const double d01 = (f1 - f0) / (x1 - x0), d12 = (f2 - f1) / (x2 - x1);
    const double a = (d12 - d01) / (x2 - x0);  // f = ... + a x^2
    if (!(a < 0)) return std::nullopt;
    const double b = d01 - a * (x0 + x1);
    const double x = -b / (2 * a);
    return std::pair{x, f0 + (x - x0) * (d01 + a * (x - x1))};
}

/// -f'' of the parabola through three points (0 when it is not concave).
double parabolaCurvature(double x0, double f0, double x1, double f1, double x2, double f2)
{
    const double a = ((f2 - f1) / (x2 - x1) - (f1 - f0) / (x1 - x0)) / (x2 - x0);
    return a < 0 ? -2.0 * a : 0.0;
}

/// The highest point of the cubic Hermite interpolant on [x0, x1] with values f and derivatives g
/// at both ends: (x, value) inside the interval, nullopt when it has no interior maximum.
std::optional<std::pair<double, double>> hermiteTop(double x0, double f0, double g0, double x1, double f1, double g1)
{
    const double h = x1 - x0;
    auto value = [&](double t) {
        const double t2 = t * t, t3 = t2 * t;
        return (2 * t3 - 3 * t2 + 1) * f0 + (t3 - 2 * t2 + t) * h * g0 + (-2 * t3 + 3 * t2) * f1 + (t3 - t2) * h * g1;
    };
    // p'(t) = a t^2 + b t + c.
    const double a = 6 * f0 + 3 * h * g0 - 6 * f1 + 3 * h * g1, b = -6 * f0 - 4 * h * g0 + 6 * f1 - 2 * h * g1, c = h * g0;
    std::vector<double> roots;
    if (std::abs(a) < 1e-12 * (std::abs(b) + std::abs(c))) {
        if (b != 0) roots.push_back(-c / b);
    } else {
        const double disc = b * b - 4 * a * c;
        if (disc >= 0) {
            roots.push_back((-b - std::sqrt(disc)) / (2 * a));
            roots.push_back((-b + std::sqrt(disc)) / (2 * a));
        }
    }
    std::optional<std::pair<double, double>> best;
    for (double t : roots)
        if (t > 0 && t < 1 && 2 * a * t + b < 0 && (!best || value(t) > best->second)) best = std::pair{x0 + t * h, value(t)};
    return best;
}

} // namespace

LineOptimum climbLine(Search& search, const Box& box, double a, double b, double c, double xtol, double ftol,
                      const std::string& stage)
{
    constexpr double kGolden = 0.381966011250105;
    LineOptimum out;
    auto eval = [&](double u) {
        const double f = search.evaluate({u}, nullptr, stage);
        return f;
    };
    auto indexOf = [&](double u) {
        search.evaluate({u}, nullptr, stage);  // answered from the record
        return search.lastIndex();
    };
    if (search.remaining() < 3) {
        // No budget for a bracket: the best point already evaluated in [a, c] (b itself need not
        // have been: a peak on a bound brackets with a midpoint), else b if one evaluation is left.
        const auto& points = search.points();
        const auto& t = search.trajectory();
        std::optional<std::size_t> inside, any;
        for (std::size_t k = 0; k < points.size(); ++k) {
            if (!any || t[k].logEvidence > t[*any].logEvidence) any = k;
            if (points[k][0] >= a && points[k][0] <= c && (!inside || t[k].logEvidence > t[*inside].logEvidence))
                inside = k;
        }
        out.best = inside ? *inside : (search.remaining() > 0 || !any) ? indexOf(b) : *any;
        return out;
    }
    double fa = eval(a), fb = eval(b), fc = eval(c);
    while (fa > fb && a > box.lo[0] && search.remaining() > 0) {  // rising to the left
        c = b, fc = fb, b = a, fb = fa;
        a = std::max(box.lo[0], b - 1.618 * (c - b));
        fa = eval(a);
    }
    while (fc > fb && c < box.hi[0] && search.remaining() > 0) {  // rising to the right
        a = b, fa = fb, b = c, fb = fc;
        c = std::min(box.hi[0], b + 1.618 * (b - a));
        fc = eval(c);
    }
    if (fa > fb || fc > fb) {  // the highest point is at an end of the box
        out.best = indexOf(fa > fc ? a : c);
        out.converged = true;
        return out;
    }
    while (c - a > 2 * xtol && search.remaining() > 0) {
        const auto top = parabolaTop(a, fa, b, fb, c, fc);
        double x;
        if (top && top->first > a && top->first < c && std::abs(top->first - b) >= 0.5 * xtol) {
            if (top->second - fb <= ftol) {
                out.converged = true;
                break;
            }
            x = top->first;
        } else {
            x = (c - b > b - a) ? b + kGolden * (c - b) : b - kGolden * (b - a);
        }
        const double fx = eval(x);
        if (fx > fb) {
            if (x < b) c = b, fc = fb;
            else a = b, fa = fb;
            b = x, fb = fx;
        } else if (x < b) {
            a = x, fa = fx;
        } else {
            c = x, fc = fx;
        }
    }
    if (c - a <= 2 * xtol) out.converged = true;
    out.best = indexOf(b);
    out.curvature = parabolaCurvature(a, fa, b, fb, c, fc);
    return out;
}

std::array<double, 3> bracketOf(const Search& search, const Box& box, double u)
{
    double left = box.lo[0], right = box.hi[0];
    for (const auto& p : search.points()) {
        if (p[0] < u) left = std::max(left, p[0]);
        if (p[0] > u) right = std::min(right, p[0]);
    }
    if (u <= box.lo[0]) return {u, 0.5 * (u + right), right};
    if (u >= box.hi[0]) return {left, 0.5 * (left + u), u};
    return {left, u, right};
}

double curvatureAround(const Search& search, std::size_t k, double fallback)
{
    const auto& u = search.points();
    const auto& t = search.trajectory();
    std::optional<std::size_t> left, right;
    for (std::size_t q = 0; q < u.size(); ++q) {
        if (u[q][0] < u[k][0] && (!left || u[q][0] > u[*left][0])) left = q;
        if (u[q][0] > u[k][0] && (!right || u[q][0] < u[*right][0])) right = q;
    }
    if (!left || !right) return fallback;
    const double concave = parabolaCurvature(u[*left][0], t[*left].logEvidence, u[k][0], t[k].logEvidence, u[*right][0],
                                             t[*right].logEvidence);
    return concave > 0 ? concave : fallback;
}

void bracket(Search& search, const Box& box, std::size_t peak)
{
    const double u = search.points()[peak][0];
    double a = box.lo[0], b = box.hi[0];
    for (const auto& p : search.points()) {
        if (p[0] < u) a = std::max(a, p[0]);
        if (p[0] > u) b = std::min(b, p[0]);
    }
    const double phi = 0.5 * (std::sqrt(5.0) - 1.0);
    double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
    double f1 = search.remaining() > 0 ? search.evaluate({x1}, nullptr, "bracket") : kNoValue;
    double f2 = search.remaining() > 0 ? search.evaluate({x2}, nullptr, "bracket") : kNoValue;
    while (search.remaining() > 0 && b - a > 1e-6) {
        if (f1 >= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - phi * (b - a);
            f1 = search.evaluate({x1}, nullptr, "bracket");
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + phi * (b - a);
            f2 = search.evaluate({x2}, nullptr, "bracket");
        }
    }
}

std::vector<double> pilotCurvature(Search& pilot, const Box& box, std::size_t optimum, double range)
{
    const std::vector<double> u = pilot.points()[optimum];
    std::vector<double> g0;
    pilot.evaluate(u, &g0, "curvature");
    std::vector<double> c(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) {
        const double fallback = 8.0 * std::max(range, 1e-3) / (box.width(i) * box.width(i));
        double h = 0.02 * box.width(i);
        if (u[i] + h > box.hi[i]) h = -h;
        std::vector<double> v = u, g1;
        v[i] += h;
        if (pilot.remaining() <= 0) {
            c[i] = fallback;
            continue;
        }
        pilot.evaluate(v, &g1, "curvature");
        const double d = -(g1[i] - g0[i]) / h;
        c[i] = d > 0 ? d : fallback;
    }
    return c;
}

bool refineLine(Search& full, const Box& box, std::size_t start, const std::vector<std::size_t>& also, double c, double tol)
{
    struct Known {
        double u, f, g;
    };
    std::vector<Known> seen{{full.points()[start][0], full.trajectory()[start].logEvidence, full.gradientAt(start)[0]}};
    for (std::size_t k : also)
        if (k != start) seen.push_back({full.points()[k][0], full.trajectory()[k].logEvidence, full.gradientAt(k)[0]});
    const double xtol = 1e-4 * box.width(0);
    for (;;) {
        std::sort(seen.begin(), seen.end(), [](const Known& a, const Known& b) { return a.u < b.u; });
        const std::size_t b = std::size_t(std::max_element(seen.begin(), seen.end(), [](const Known& x, const Known& y) {
                                              return x.f < y.f;
                                          }) - seen.begin());
        const Known& top = seen[b];
        const bool right = top.g > 0;
        double next = top.u, predicted = top.f;
        const bool hasNeighbour = right ? b + 1 < seen.size() : b > 0;
        if (hasNeighbour) {
            const Known& n = seen[right ? b + 1 : b - 1];
            const Known& lo = right ? top : n;
            const Known& hi = right ? n : top;
            if (const auto t = hermiteTop(lo.u, lo.f, lo.g, hi.u, hi.f, hi.g)) {
                next = t->first;
                predicted = t->second;
            } else {  // no interior top: halfway, with the linear model's gain as the prediction
                next = 0.5 * (top.u + n.u);
                predicted = top.f + std::abs(top.g * (next - top.u));
            }
        } else {
            double curvature = c;
            if (seen.size() > 1) {  // the secant of the derivatives towards the nearest other point
                const Known& o = seen[b == 0 ? 1 : b - 1];
                const double secant = -(top.g - o.g) / (top.u - o.u);
                if (secant > 0) curvature = secant;
                else curvature = 0.25 * c;  // still rising as fast: a longer step
            }
            next = top.u + top.g / curvature;
            predicted = top.f + 0.5 * top.g * top.g / curvature;
        }
        next = std::clamp(next, box.lo[0], box.hi[0]);
        double nearest = std::numeric_limits<double>::infinity();
        for (const Known& k : seen) nearest = std::min(nearest, std::abs(k.u - next));
        if (predicted - top.f <= tol || nearest <= xtol) return true;
        if (full.remaining() <= 0) return false;
        std::vector<double> g;
        const double f = full.evaluate({next}, &g, "refine");
        seen.push_back({next, f, g[0]});
    }
}

} // namespace orbit::detail

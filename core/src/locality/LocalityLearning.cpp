#include "orbit/locality/LocalityLearning.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ReadableNumber.hpp"
#include "orbit/util/Spec.hpp"

#include <nlopt.hpp>

#include <algorithm>
#include <optional>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>

namespace orbit {

namespace {

constexpr double kNoValue = -std::numeric_limits<double>::infinity();

/// The search's coordinates: u = log v for log-scale ranges, u = v otherwise, and the box in u.
class Box {
public:
    explicit Box(const std::vector<SearchRange>& ranges) : ranges_(ranges)
    {
        for (std::size_t i = 0; i < ranges.size(); ++i) {
            lo.push_back(toU(i, ranges[i].lo));
            hi.push_back(toU(i, ranges[i].hi));
            start.push_back(toU(i, ranges[i].start));
        }
    }
    std::size_t size() const { return ranges_.size(); }
    double toU(std::size_t i, double v) const { return ranges_[i].logScale ? std::log(v) : v; }
    /// The value at u, inside the range (exp(log(1000)) is 999.9999999999989: a bound is the bound).
    double toV(std::size_t i, double u) const
    {
        double v = std::clamp(ranges_[i].logScale ? std::exp(u) : u, ranges_[i].lo, ranges_[i].hi);
        for (double b : {ranges_[i].lo, ranges_[i].hi})
            if (std::abs(v - b) <= 1e-12 * std::abs(b)) v = b;
        return v;
    }
    /// d v / d u at u: the factor from a gradient in the parameter's units to one in u.
    double dvdu(std::size_t i, double u) const { return ranges_[i].logScale ? toV(i, u) : 1.0; }
    std::vector<double> toU(const std::map<std::string, double>& values) const
    {
        std::vector<double> u;
        for (std::size_t i = 0; i < ranges_.size(); ++i) u.push_back(toU(i, values.at(ranges_[i].name)));
        return u;
    }
    std::map<std::string, double> values(const std::vector<double>& u) const
    {
        std::map<std::string, double> out;
        for (std::size_t i = 0; i < u.size(); ++i) out[ranges_[i].name] = toV(i, u[i]);
        return out;
    }
    double width(std::size_t i) const { return hi[i] - lo[i]; }
    std::vector<double> clamp(std::vector<double> u) const
    {
        for (std::size_t i = 0; i < u.size(); ++i) u[i] = std::clamp(u[i], lo[i], hi[i]);
        return u;
    }

    std::vector<double> lo, hi, start;

private:
    const std::vector<SearchRange>& ranges_;
};

/// The evaluations of one function (the full objective or its pilot) in box coordinates: the
/// budget, the record in order and the best point (the only one that keeps its fitted weights).
class Search {
public:
    Search(const EvidenceFunction& function, const Box& box, int budget, std::string label, const Progress& progress,
           double from, double to, const LearnStep& step, int level)
        : function_(function), box_(box), budget_(budget), label_(std::move(label)), progress_(progress), from_(from),
          to_(to), step_(step), level_(level)
    {
        best_.logEvidence = kNoValue;
    }

    int remaining() const { return budget_ - int(trajectory_.size()); }
    bool hasGradient() const { return function_.hasGradient(); }
    const std::vector<EvidencePoint>& trajectory() const { return trajectory_; }
    const std::vector<std::vector<double>>& points() const { return points_; }
    const EvidencePoint& best() const { return best_; }
    /// The recorded index of the point the last evaluate() answered.
    std::size_t lastIndex() const { return last_; }

    /// The evidence at u (and its gradient in u when gradU is given); records the point. A point
    /// evaluated before (to 1e-8 in u: NLopt's line search re-probes in the last digits) is answered
    /// from the record without spending the budget, unless a gradient is asked that it lacks.
    double evaluate(const std::vector<double>& u, std::vector<double>* gradU, const std::string& stage)
    {
        for (std::size_t k = 0; k < points_.size(); ++k)
            if (same(points_[k], u) && (!gradU || !trajectory_[k].gradient.empty())) {
                if (gradU) *gradU = inU(trajectory_[k].gradient, u);
                last_ = k;
                return trajectory_[k].logEvidence;
            }
        const int n = int(trajectory_.size());
        const std::map<std::string, double> values = box_.values(u);
        const std::string at = label_ + " " + std::to_string(n + 1) + " (" + readableParameters(values) + "): ";
        const Progress sub = [&](double f, const std::string& w) {
            reportProgress(progress_, from_ + (to_ - from_) * std::min(1.0, (double(n) + f) / double(budget_)), at + w);
            return false;
        };
        EvidencePoint p = function_.evaluate(values, gradU != nullptr, sub);
        p.stage = stage;
        p.pilotLevel = level_;
        if (gradU) *gradU = inU(p.gradient, u);
        const double f = p.logEvidence;
        if (f > best_.logEvidence) best_ = p;
        p.weights.reset();  // only the best keeps its model
        last_ = trajectory_.size();
        trajectory_.push_back(std::move(p));
        points_.push_back(u);
        if (step_) step_(trajectory_.back(), best_, int(trajectory_.size()));
        return f;
    }

    /// Records a point evaluated elsewhere (on this search's function, at u), as evaluate() would.
    void record(EvidencePoint p, const std::vector<double>& u, const std::string& stage)
    {
        p.stage = stage;
        p.pilotLevel = level_;
        if (p.logEvidence > best_.logEvidence) best_ = p;
        p.weights.reset();
        last_ = trajectory_.size();
        trajectory_.push_back(std::move(p));
        points_.push_back(u);
        if (step_) step_(trajectory_.back(), best_, int(trajectory_.size()));
    }

    /// The gradient of the recorded point k in u (it must have one).
    std::vector<double> gradientAt(std::size_t k) const { return inU(trajectory_[k].gradient, points_[k]); }

private:
    static bool same(const std::vector<double>& a, const std::vector<double>& b)
    {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (std::abs(a[i] - b[i]) > 1e-8) return false;
        return true;
    }
    std::vector<double> inU(const std::vector<double>& gradient, const std::vector<double>& u) const
    {
        std::vector<double> g(u.size(), 0.0);
        for (std::size_t i = 0; i < u.size() && i < gradient.size(); ++i) g[i] = gradient[i] * box_.dvdu(i, u[i]);
        return g;
    }

    const EvidenceFunction& function_;
    const Box& box_;
    int budget_;
    std::string label_;
    const Progress& progress_;
    double from_, to_;
    const LearnStep& step_;
    int level_;
    std::vector<EvidencePoint> trajectory_;
    std::vector<std::vector<double>> points_;
    EvidencePoint best_;
    std::size_t last_ = 0;
};

/// The radical-inverse (Halton) sequence in base b: well spread points of [0, 1).
double halton(int index, int base)
{
    double f = 1.0, r = 0.0;
    for (int i = index; i > 0; i /= base) {
        f /= base;
        r += f * (i % base);
    }
    return r;
}

/// Points the scan spreads over the box besides the start, for a budget of `budget` evaluations:
/// 1-D two fifths of it (12 of 30, so that peaks a factor of two apart are told apart), else a
/// quarter.
int scanPoints(std::size_t m, int budget)
{
    return std::clamp(m == 1 ? 2 * budget / 5 : budget / 4, std::min(3, budget - 1), m == 1 ? 15 : int(4 * m + 2));
}

/// The scan's points in u: the start, then `points` points spread over the box (1-D: evenly, ends
/// included; else Halton points).
std::vector<std::vector<double>> scanPointsIn(const Box& box, int points)
{
    const std::size_t m = box.size();
    std::vector<std::vector<double>> out{box.start};
    for (int k = 0; k < points; ++k) {
        std::vector<double> u(m);
        for (std::size_t i = 0; i < m; ++i) {
            static const int primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
            const double f = m == 1 ? (points == 1 ? 0.5 : double(k) / double(points - 1)) : halton(k + 1, primes[i % 10]);
            u[i] = box.lo[i] + f * box.width(i);
        }
        out.push_back(u);
    }
    return out;
}

/// Stage "scan": scanPointsIn evaluated, or the points of `scanned` (evaluated elsewhere, anywhere
/// in the box) recorded. Returns the recorded indices of the scan's peaks, best first: in 1-D the
/// local maxima of the scanned curve, else every scanned point.
std::vector<std::size_t> scan(Search& search, const Box& box, int points, const std::vector<EvidencePoint>& scanned)
{
    const std::size_t m = box.size();
    const std::size_t first = search.trajectory().size();
    if (scanned.empty()) {
        for (const std::vector<double>& u : scanPointsIn(box, points))
            if (search.remaining() > 0) search.evaluate(u, nullptr, "scan");
    } else {
        for (const EvidencePoint& p : scanned)
            if (search.remaining() > 0) search.record(p, box.toU(p.params), "scan");
    }
    const auto& t = search.trajectory();
    const auto& p = search.points();
    std::vector<std::size_t> byU, peaks;
    for (std::size_t i = first; i < t.size(); ++i) byU.push_back(i);
    std::sort(byU.begin(), byU.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    for (std::size_t k = 0; k < byU.size(); ++k) {
        const double f = t[byU[k]].logEvidence;
        const bool peak = m > 1 || ((k == 0 || t[byU[k - 1]].logEvidence <= f) && (k + 1 == byU.size() || t[byU[k + 1]].logEvidence <= f));
        if (peak) peaks.push_back(byU[k]);
    }
    std::stable_sort(peaks.begin(), peaks.end(), [&](std::size_t a, std::size_t b) { return t[a].logEvidence > t[b].logEvidence; });
    return peaks;
}

/// The spread of the evidence over the recorded points [first, ...): max - min (0 for fewer than two).
double spread(const Search& search, std::size_t first = 0)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t k = first; k < search.trajectory().size(); ++k) {
        lo = std::min(lo, search.trajectory()[k].logEvidence);
        hi = std::max(hi, search.trajectory()[k].logEvidence);
    }
    return hi > lo ? hi - lo : 0.0;
}

/// How a local search ended.
enum class Ending { Converged, Budget };

/// L-BFGS (NLopt's bound-constrained LD_LBFGS) from u0, in coordinates z = scale (u - u0) (scale 1:
/// u itself), with at most `evals` evaluations. It stops when a step is below xtol (in z) or a gain
/// below ftol nats, or when `converged` says so at an evaluated point (its value and gradient in z).
/// Returns the recorded index of the run's best point and how it ended.
std::pair<std::size_t, Ending> localSearch(Search& search, const Box& box, const std::vector<double>& u0,
                                           const std::vector<double>& scale, int evals, double xtol, double ftol,
                                           const std::function<bool(double, const std::vector<double>&)>& converged = {})
{
    const std::size_t m = u0.size();
    std::vector<double> lo(m), hi(m), z0(m, 0.0);
    for (std::size_t i = 0; i < m; ++i) {
        // A start on a bound may lie an ulp outside it after the log map; NLopt would throw
        // std::invalid_argument ("bounds 0 fail"), so the start z = 0 is always inside.
        lo[i] = std::min((box.lo[i] - u0[i]) * scale[i], 0.0);
        hi[i] = std::max((box.hi[i] - u0[i]) * scale[i], 0.0);
    }
    nlopt::opt opt(nlopt::LD_LBFGS, unsigned(m));
    opt.set_lower_bounds(lo);
    opt.set_upper_bounds(hi);
    opt.set_maxeval(evals);
    opt.set_xtol_abs(std::vector<double>(m, xtol));
    opt.set_ftol_abs(ftol);
    struct Data {
        Search* search;
        const std::vector<double>* u0;
        const std::vector<double>* scale;
        const std::function<bool(double, const std::vector<double>&)>* converged;
        std::exception_ptr error;
        std::size_t best = 0;
        double bestF = kNoValue;
        bool stoppedConverged = false;
        int left = 0;
    } data{&search, &u0, &scale, &converged, nullptr, 0, kNoValue, false, evals};
    opt.set_max_objective(
        [](unsigned n, const double* z, double* grad, void* p) -> double {
            auto* d = static_cast<Data*>(p);
            if (d->search->remaining() <= 0 || d->left <= 0)  // NLopt's own count restarts with every local search
                throw nlopt::forced_stop();
            try {
                std::vector<double> u(n), g;
                for (unsigned i = 0; i < n; ++i) u[i] = (*d->u0)[i] + z[i] / (*d->scale)[i];
                const std::size_t before = d->search->trajectory().size();
                const double f = d->search->evaluate(u, &g, "lbfgs");
                if (d->search->trajectory().size() > before) --d->left;
                for (unsigned i = 0; i < n; ++i) g[i] /= (*d->scale)[i];
                if (grad) std::copy(g.begin(), g.end(), grad);
                if (f > d->bestF) {
                    d->bestF = f;
                    d->best = d->search->lastIndex();
                }
                if (*d->converged && (*d->converged)(f, g)) {
                    d->stoppedConverged = true;
                    throw nlopt::forced_stop();
                }
                return f;
            } catch (const nlopt::forced_stop&) {
                throw;
            } catch (...) {
                d->error = std::current_exception();
                throw nlopt::forced_stop();
            }
        },
        &data);
    double f = 0.0;
    nlopt::result result = nlopt::FAILURE;
    try {
        result = opt.optimize(z0, f);
    } catch (const nlopt::roundoff_limited&) {  // converged as far as rounding allows
        result = nlopt::FTOL_REACHED;
    } catch (const nlopt::forced_stop&) {
        result = nlopt::FORCED_STOP;
    } catch (const std::runtime_error&) {       // NLopt's own failure: keep the best point so far
        if (data.error) std::rethrow_exception(data.error);
    }
    if (data.error) std::rethrow_exception(data.error);
    const bool done =
        data.stoppedConverged || result == nlopt::FTOL_REACHED || result == nlopt::XTOL_REACHED || result == nlopt::SUCCESS;
    return {data.best, done ? Ending::Converged : Ending::Budget};
}

/// The scan's peaks worth climbing: within a tenth of the scan's spread of the best, at most three.
std::vector<std::size_t> worthClimbing(const Search& search, const std::vector<std::size_t>& peaks)
{
    const double range = spread(search);
    std::vector<std::size_t> out;
    for (std::size_t c : peaks)
        if (out.size() < 3 && search.trajectory()[c].logEvidence >= search.trajectory()[peaks.front()].logEvidence - 0.1 * range)
            out.push_back(c);
    return out;
}

/// Stage "optimise", several parameters: L-BFGS on `search` from each start in turn, until it
/// converges (steps below `xtol` of the range, gains below `ftol` nats). Returns the recorded
/// indices of the optima reached, best first, without repeats, and whether every run converged.
std::pair<std::vector<std::size_t>, bool> climbAll(Search& search, const Box& box, const std::vector<std::vector<double>>& starts,
                                                   double xtol, double ftol)
{
    const std::size_t m = box.size();
    std::vector<std::size_t> optima;
    bool converged = true;
    for (const std::vector<double>& u0 : starts) {
        if (search.remaining() < 2) {
            converged = false;
            break;
        }
        std::vector<double> scale(m);  // z = u / width: xtol relative to each range
        for (std::size_t i = 0; i < m; ++i) scale[i] = 1.0 / box.width(i);
        const auto [best, ending] = localSearch(search, box, u0, scale, search.remaining(), xtol, ftol);
        converged = converged && ending == Ending::Converged;
        if (std::find(optima.begin(), optima.end(), best) == optima.end()) optima.push_back(best);
    }
    const auto& t = search.trajectory();
    std::sort(optima.begin(), optima.end(), [&](std::size_t a, std::size_t b) { return t[a].logEvidence > t[b].logEvidence; });
    return {optima, converged};
}

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

/// What a one-parameter search found: the recorded index of its best point, the curvature -f'' of
/// its last parabola around it (0 when none was concave) and whether it converged.
struct LineOptimum {
    std::size_t best = 0;
    double curvature = 0.0;
    bool converged = false;
};

/// Stage "optimise", one parameter: successive parabolas with golden-section steps (Brent's method
/// without derivatives) in the bracket a < b < c, first widened (by the golden ratio, within the
/// box) until b is its highest point, until the bracket is narrower than 2 xtol or the parabola
/// predicts a gain below ftol.
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

/// The bracket around recorded point k among the points of `search`: its nearest recorded
/// neighbours on each side (or, at an end of the box, the two nearest inside it).
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

/// One parameter: the curvature at recorded point k of the parabola through it and its nearest
/// recorded neighbours on either side, or `fallback` without a neighbour on each side or when that
/// parabola is not concave.
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

/// Golden-section search inside the scan's bracket around `peak` (a piecewise-constant curve).
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

/// The pilot's curvature -d2f/du_i2 at its optimum u (one more pilot gradient per parameter, a step
/// of 2 % of the range towards the box's interior); where the difference is not concave, that of a
/// parabola falling by `range` over the box.
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

/// Stage "refine", one parameter: from the full-size point `start` (evaluated with its gradient;
/// `also`: other recorded points with gradients the climb knows from the start, e.g. seeds),
/// Newton's step with the curvature `c` (the pilot's, scaled), then, between the best point and its
/// neighbour in the direction of its slope, the top of the cubic through both values and
/// derivatives (beyond the last point: Newton's step with the secant's curvature), each evaluated
/// with its gradient, until the predicted gain over the best is at most `tol`. Returns whether it
/// converged (rather than running out of budget).
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

} // namespace

std::vector<PilotLevel> pilotLevels(std::size_t rows, int templates)
{
    constexpr std::size_t kMinRows = 250;
    constexpr int kMinTemplates = 128;
    std::vector<PilotLevel> levels;
    auto level = [&](std::size_t part) {
        PilotLevel p;
        p.rows = std::max(kMinRows, (rows + part - 1) / part);
        p.templates = std::max(kMinTemplates, int((std::size_t(templates) + part - 1) / part));
        return p;
    };
    const PilotLevel quarter = level(4), eighth = level(8);
    if (quarter.rows >= rows || quarter.templates >= templates ||
        8.0 * double(quarter.rows) * quarter.templates > double(rows) * templates)
        return levels;
    if (eighth.rows < quarter.rows && eighth.templates < quarter.templates) levels.push_back(eighth);
    levels.push_back(quarter);
    return levels;
}

SearchOutcome maximiseEvidence(const EvidenceFunction& full, const std::vector<const EvidenceFunction*>& pilots,
                               const std::vector<double>& scales, const std::vector<SearchRange>& ranges, int maxEvaluations,
                               const Progress& progress, const LearnStep& step, const LearnStep& pilotStep,
                               const KnownPoints& known)
{
    if (ranges.empty()) throw ContractError("maximiseEvidence", "no parameter to learn");
    requireSize("maximiseEvidence", "pilot scales", static_cast<long long>(scales.size()), static_cast<long long>(pilots.size()));
    for (const EvidenceFunction* p : pilots)
        if (!p || !p->hasGradient() || !full.hasGradient())
            throw ContractError("maximiseEvidence", "pilots need gradients of every function");
    for (const EvidencePoint& seed : known.seeds)
        if (full.hasGradient() && seed.gradient.size() != ranges.size())
            throw ContractError("maximiseEvidence", "a seed needs its gradient (the function has one)");
    const Box box(ranges);
    const std::size_t m = box.size(), levels = pilots.size();
    const int points = scanPoints(m, maxEvaluations);
    std::vector<std::unique_ptr<Search>> cheap;
    for (std::size_t k = 0; k < levels; ++k)
        cheap.push_back(std::make_unique<Search>(*pilots[k], box, 3 * maxEvaluations, "pilot " + std::to_string(k + 1) + " evaluation",
                                                 progress, 0.3 * double(k) / double(levels), 0.3 * double(k + 1) / double(levels),
                                                 pilotStep, int(k)));
    // Known full-size points are recorded outside the budget: the seeds, and the scan at full size.
    const int recorded = int(known.seeds.size()) + (levels ? 0 : int(known.scanned.size()));
    Search main(full, box, maxEvaluations + recorded, "evaluation", progress, levels ? 0.3 : 0.0, 1.0, step, -1);
    Search& scanning = levels ? *cheap.front() : main;
    Search& optimised = levels ? *cheap.back() : main;
    // The seeds open the full-size trajectory (indices 0 .. seeds - 1).
    std::vector<std::size_t> seeds;
    for (const EvidencePoint& seed : known.seeds) {
        main.record(seed, box.toU(seed.params), "seed");
        seeds.push_back(main.lastIndex());
    }
    SearchOutcome out;
    auto finish = [&] {
        for (const auto& c : cheap) out.pilots.push_back(c->trajectory());
        out.trajectory = main.trajectory();
        out.best = main.best();
        return out;
    };

    // Scan.
    std::vector<std::size_t> peaks = scan(scanning, box, points, known.scanned);
    if (!levels && !seeds.empty()) {  // at full size the seeds are places to climb from too
        peaks.insert(peaks.end(), seeds.begin(), seeds.end());
        std::stable_sort(peaks.begin(), peaks.end(), [&](std::size_t a, std::size_t b) {
            return main.trajectory()[a].logEvidence > main.trajectory()[b].logEvidence;
        });
        if (full.hasGradient()) {
            // Seeded at full size (per-class locality: the scan and the seed were evaluated for every
            // class at once): climb with the gradient from the best point known, by refineLine in
            // 1-D (its first curvature from the parabola through its recorded neighbours), else
            // L-BFGS.
            std::size_t from = peaks.front();
            if (main.trajectory()[from].gradient.empty()) {
                if (main.remaining() <= 0) return finish();
                std::vector<double> g;
                main.evaluate(main.points()[from], &g, "refine");
                from = main.lastIndex();
            }
            const double range = spread(main), tol = std::max(1e-3, 5e-4 * range);
            if (m == 1) {
                const double c = curvatureAround(main, from, 8.0 * std::max(range, 1e-3) / (box.width(0) * box.width(0)));
                out.converged = refineLine(main, box, from, seeds, c, tol);
            } else {
                std::vector<double> scale(m);
                for (std::size_t i = 0; i < m; ++i) scale[i] = 1.0 / box.width(i);
                out.converged = localSearch(main, box, main.points()[from], scale, main.remaining(), 1e-3, tol).second == Ending::Converged;
            }
            return finish();
        }
    }
    if (!full.hasGradient()) {  // one parameter at full size, piecewise constant
        bracket(main, box, peaks.front());
        out.converged = main.remaining() > 0;
        return finish();
    }
    // The scan's spread, on the optimised level and at full size (the spread grows with the rows).
    const double scanScale = levels ? scales.front() : 1.0, optimisedScale = levels ? scales.back() : 1.0;
    const double optimisedRange = spread(scanning) * scanScale / optimisedScale, fullRange = spread(scanning) * scanScale;

    // Optimise, on the last pilot (or at full size).
    const bool atFullSize = levels == 0;
    const double xtol = atFullSize ? 1e-3 : 3e-3, ftol = atFullSize ? 1e-3 : std::max(1e-3, 3e-4 * optimisedRange);
    std::vector<std::size_t> optima;
    std::vector<double> curvatures;
    bool converged = true;
    const std::vector<std::size_t> climb = worthClimbing(scanning, peaks);
    if (m == 1) {
        for (std::size_t k : climb) {
            const std::array<double, 3> b = bracketOf(scanning, box, scanning.points()[k][0]);
            const LineOptimum o = climbLine(optimised, box, b[0], b[1], b[2], xtol * box.width(0), ftol, "optimise");
            converged = converged && o.converged;
            if (std::find(optima.begin(), optima.end(), o.best) == optima.end()) {
                optima.push_back(o.best);
                curvatures.push_back(o.curvature);
            }
        }
        std::vector<std::size_t> order(optima.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
            return optimised.trajectory()[optima[x]].logEvidence > optimised.trajectory()[optima[y]].logEvidence;
        });
        std::vector<std::size_t> o2;
        std::vector<double> c2;
        for (std::size_t i : order) {
            o2.push_back(optima[i]);
            c2.push_back(curvatures[i]);
        }
        optima = o2;
        curvatures = c2;
    } else {
        std::vector<std::vector<double>> starts;
        for (std::size_t k : climb) starts.push_back(scanning.points()[k]);
        const auto found = climbAll(optimised, box, starts, xtol, ftol);
        optima = found.first;
        converged = found.second;
    }
    if (atFullSize) {
        out.converged = converged;
        return finish();
    }

    // Refine at full size from the pilot's optima near its best.
    std::vector<double> c;
    if (m == 1) {
        c.push_back(curvatures.front() > 0 ? curvatures.front() : 8.0 * std::max(optimisedRange, 1e-3) / (box.width(0) * box.width(0)));
    } else {
        c = pilotCurvature(optimised, box, optima.front(), optimisedRange);
    }
    for (double& ci : c) ci *= optimisedScale;
    std::size_t from = 0;
    double fFrom = kNoValue;
    for (std::size_t k : seeds)
        if (main.trajectory()[k].logEvidence > fFrom) {
            fFrom = main.trajectory()[k].logEvidence;
            from = k;
        }
    for (std::size_t o : optima) {
        if (optimised.trajectory()[o].logEvidence < optimised.trajectory()[optima.front()].logEvidence - 0.05 * optimisedRange) continue;
        if (main.remaining() <= 0) break;
        std::vector<double> g;
        const double f = main.evaluate(optimised.points()[o], &g, "refine");
        if (f > fFrom) {
            fFrom = f;
            from = main.lastIndex();
        }
    }
    const double tol = std::max(1e-3, 5e-4 * fullRange);
    if (main.trajectory().empty()) {
        out.converged = false;
    } else if (m == 1) {
        out.converged = refineLine(main, box, from, seeds, c[0], tol);
    } else {
        // L-BFGS in z = sqrt(c) (u - u0), where the pilot's curvature is about 1: its first step
        // is about Newton's; converged when half the squared gradient in z is below tol.
        std::vector<double> scale(m);
        for (std::size_t i = 0; i < m; ++i) scale[i] = std::sqrt(c[i]);
        const auto predicted = [tol](double, const std::vector<double>& gz) {
            double q = 0.0;
            for (double g : gz) q += 0.5 * g * g;
            return q <= tol;
        };
        out.converged = localSearch(main, box, main.points()[from], scale, main.remaining(), 1e-4, tol, predicted).second ==
                        Ending::Converged;
    }
    return finish();
}

std::vector<std::map<std::string, double>> scanValues(const std::vector<SearchRange>& ranges, int maxEvaluations)
{
    const Box box(ranges);
    std::vector<std::map<std::string, double>> out;
    for (const std::vector<double>& u : scanPointsIn(box, scanPoints(box.size(), maxEvaluations))) out.push_back(box.values(u));
    return out;
}

std::vector<SearchRange> searchRanges(const EvidenceObjective& objective, const LocalityConfig& config)
{
    const Distribution& dist = objective.distribution();
    const std::size_t m = config.learn.size();
    const std::map<std::string, double> start = objective.startValues();
    std::vector<SearchRange> ranges;
    for (const std::string& name : config.learn) {
        const ParamDescriptor& d = dist.parameterDescriptor(name);
        if (!d.learnable && !(m == 1 && d.sweepable))
            throw SpecError("learn", dist.spec() + ": " + name + " has no gradient (its samples are piecewise constant); "
                                     "learn it alone, by a 1-D search",
                            name);
        const auto given = config.bounds.find(name);
        double l = d.learnMinimum, h = d.learnMaximum;
        if (given != config.bounds.end()) {
            l = given->second.first;
            h = given->second.second;
            for (double v : {l, h})
                if (!d.accepts(v) || (d.logScale && !(v > 0)))
                    throw SpecError("bounds", name + " " + (d.violation(v).empty() ? "must be > 0 (searched in log space)" : d.violation(v)),
                                    formatNumber(v));
        }
        double v = start.at(name);
        if (v < l || v > h) {
            if (given != config.bounds.end())
                throw SpecError("bounds", "exclude the start value " + name + "=" + formatNumber(v) + " of the distribution",
                                formatNumber(l) + ":" + formatNumber(h));
            v = std::clamp(v, l, h);  // the default range: start from its nearest end
        }
        ranges.push_back({name, l, h, v, d.logScale});
    }
    return ranges;
}

Pilots makePilots(const EvidenceObjective& objective, const LocalityConfig& config)
{
    Pilots p;
    if (!objective.hasGradient() || config.doublePrecision) return p;
    for (PilotLevel& level : pilotLevels(objective.rows().size(), objective.templates())) {
        p.objectives.push_back(objective.pilot(level.rows, level.templates));
        p.functions.push_back(p.objectives.back().get());
        p.scales.push_back(double(objective.rows().size()) / double(level.rows));
        p.levels.push_back(std::move(level));
    }
    return p;
}

LearnResult learnLocality(const Dataset& data, const LocalityConfig& config, const Progress& progress, const LearnStep& step,
                          const Ranks& ranks, const LearnStep& pilotStep)
{
    const auto t0 = std::chrono::steady_clock::now();
    config.validate();
    if (config.learn.empty()) throw SpecError("learn", "name at least one parameter of the distribution", config.dist);
    Indices test;
    const Indices rows = learningRows(data, config, &test);
    const EvidenceObjective objective(data, rows, config, ranks);
    const std::shared_ptr<const Group> group = makeGroup(config.group, data.shape, featureSeed(config.seed));
    const std::shared_ptr<const Distribution> dist = makeDistribution(config.dist, *group);

    LearnResult result;
    result.params = config.learn;
    result.trainRows = rows.size();
    result.testRows = test.size();
    const std::vector<SearchRange> ranges = searchRanges(objective, config);
    for (const SearchRange& r : ranges) result.bounds[r.name] = {r.lo, r.hi};
    const bool gradient = objective.hasGradient();
    if (!gradient && ranges.size() > 1)
        throw SpecError("learn", "several parameters at once need a gradient: irf features of rotation, translation, "
                                 "scale or affine, and learnable parameters",
                        config.features);
    Pilots pilots = makePilots(objective, config);
    result.pilots = pilots.levels;
    const SearchOutcome found = maximiseEvidence(objective, pilots.functions, pilots.scales, ranges, config.maxEvaluations,
                                                 progress, step, pilotStep);
    result.method = !gradient ? "bracket" : ranges.size() == 1 ? "parabolic" : "lbfgs";

    result.trajectory = found.trajectory;
    for (std::size_t k = 0; k < found.pilots.size(); ++k) result.pilots[k].trajectory = found.pilots[k];
    result.converged = found.converged;
    result.learned = found.best.params;
    result.logEvidence = found.best.logEvidence;
    result.dist = objective.distSpec(result.learned);
    reportProgress(progress, 1.0, "scoring");

    if (!test.empty()) {
        const Eigen::MatrixXd decision = objective.heldOutDecisions(found.best, test);
        result.metric = data.isClassification() ? "accuracy" : "rmse";
        result.test = objective.scoreOf(decision, test);
        if (data.isClassification()) {
            result.testPredictions = TargetCoding::argmax(decision);
        } else {
            const TargetCoding coding = TargetCoding::regression(select(data.targets, objective.rows()));
            result.testMae = mae(coding.decode(decision), select(data.targets, test));
        }
    }
    StageCosts stages = objective.stageCosts();
    for (const auto& pilot : pilots.objectives) {
        const StageCosts& p = pilot->stageCosts();
        stages.features += p.features;
        stages.products += p.products;
        stages.reduction += p.reduction;
        stages.solve += p.solve;
        stages.productRows += p.productRows;
    }
    result.stages = stages.slowest(ranks);
    result.ranks = ranks.size();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

std::vector<LandscapePoint> learnLandscape(const LearnResult& result)
{
    std::vector<LandscapePoint> out;
    for (const EvidencePoint& p : result.trajectory) out.push_back({p.params, p.logEvidence, -1});
    // Level by level downwards: the map of level k onto the full scale is (scale, shift) composed
    // with that of level k + 1.
    double nextScale = 1.0, nextShift = 0.0;
    const std::vector<EvidencePoint>* next = &result.trajectory;
    std::size_t nextRows = result.trainRows;
    for (std::size_t k = result.pilots.size(); k-- > 0;) {
        const PilotLevel& level = result.pilots[k];
        double e0 = 0.0, f0 = kNoValue;
        for (const EvidencePoint& f : *next)
            for (const EvidencePoint& e : level.trajectory)
                if (e.params == f.params && f.logEvidence > f0) {
                    f0 = f.logEvidence;
                    e0 = e.logEvidence;
                }
        if (f0 == kNoValue) break;
        const double ratio = double(nextRows) / double(level.rows);
        // e -> f0 + (e - e0) ratio on the next level, then that level's map onto the full scale.
        const double scale = nextScale * ratio, shift = nextScale * (f0 - e0 * ratio) + nextShift;
        for (const EvidencePoint& e : level.trajectory) out.push_back({e.params, shift + scale * e.logEvidence, int(k)});
        nextScale = scale;
        nextShift = shift;
        next = &level.trajectory;
        nextRows = level.rows;
    }
    std::stable_sort(out.begin(), out.end(), [&](const LandscapePoint& a, const LandscapePoint& b) {
        for (const std::string& name : result.params) {
            const double x = a.params.at(name), y = b.params.at(name);
            if (x != y) return x < y;
        }
        return false;
    });
    return out;
}

} // namespace orbit

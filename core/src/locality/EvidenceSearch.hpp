#pragma once
// Private to learnLocality and maximiseEvidence (LocalityLearning.cpp): the search over the box of the
// learned parameters. A Box maps each parameter to its search coordinate u (log v on log-scale
// ranges); a Search evaluates one function (the full objective or a pilot) at points of u within a
// budget and keeps the record. The stages: in several parameters the scan and L-BFGS
// (EvidenceSearch.cpp), in one parameter parabolas, golden sections and cubic Hermite steps
// (LineSearch.cpp).
#include "orbit/locality/LocalityLearning.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/util/ReadableNumber.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace orbit::detail {

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

/// Points the scan spreads over the box besides the start, for a budget of `budget` evaluations:
/// 1-D two fifths of it (12 of 30, so that peaks a factor of two apart are told apart), else a
/// quarter.
int scanPoints(std::size_t m, int budget);

/// The scan's points in u: the start, then `points` points spread over the box (1-D: evenly, ends
/// included; else Halton points).
std::vector<std::vector<double>> scanPointsIn(const Box& box, int points);

/// Stage "scan": scanPointsIn evaluated, or the points of `scanned` (evaluated elsewhere, anywhere
/// in the box) recorded. Returns the recorded indices of the scan's peaks, best first: in 1-D the
/// local maxima of the scanned curve, else every scanned point.
std::vector<std::size_t> scan(Search& search, const Box& box, int points, const std::vector<EvidencePoint>& scanned);

/// The spread of the evidence over the recorded points [first, ...): max - min (0 for fewer than two).
double spread(const Search& search, std::size_t first = 0);

/// How a local search ended.
enum class Ending { Converged, Budget };

/// L-BFGS (NLopt's bound-constrained LD_LBFGS) from u0, in coordinates z = scale (u - u0) (scale 1:
/// u itself), with at most `evals` evaluations. It stops when a step is below xtol (in z) or a gain
/// below ftol nats, or when `converged` says so at an evaluated point (its value and gradient in z).
/// Returns the recorded index of the run's best point and how it ended.
std::pair<std::size_t, Ending> localSearch(Search& search, const Box& box, const std::vector<double>& u0,
                                           const std::vector<double>& scale, int evals, double xtol, double ftol,
                                           const std::function<bool(double, const std::vector<double>&)>& converged = {});

/// The scan's peaks worth climbing: within a tenth of the scan's spread of the best, at most three.
std::vector<std::size_t> worthClimbing(const Search& search, const std::vector<std::size_t>& peaks);

/// Stage "optimise", several parameters: L-BFGS on `search` from each start in turn, until it
/// converges (steps below `xtol` of the range, gains below `ftol` nats). Returns the recorded
/// indices of the optima reached, best first, without repeats, and whether every run converged.
std::pair<std::vector<std::size_t>, bool> climbAll(Search& search, const Box& box, const std::vector<std::vector<double>>& starts,
                                                   double xtol, double ftol);

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
                      const std::string& stage);

/// The bracket around recorded point k among the points of `search`: its nearest recorded
/// neighbours on each side (or, at an end of the box, the two nearest inside it).
std::array<double, 3> bracketOf(const Search& search, const Box& box, double u);

/// One parameter: the curvature at recorded point k of the parabola through it and its nearest
/// recorded neighbours on either side, or `fallback` without a neighbour on each side or when that
/// parabola is not concave.
double curvatureAround(const Search& search, std::size_t k, double fallback);

/// Golden-section search inside the scan's bracket around `peak` (a piecewise-constant curve).
void bracket(Search& search, const Box& box, std::size_t peak);

/// The pilot's curvature -d2f/du_i2 at its optimum u (one more pilot gradient per parameter, a step
/// of 2 % of the range towards the box's interior); where the difference is not concave, that of a
/// parabola falling by `range` over the box.
std::vector<double> pilotCurvature(Search& pilot, const Box& box, std::size_t optimum, double range);

/// Stage "refine", one parameter: from the full-size point `start` (evaluated with its gradient;
/// `also`: other recorded points with gradients the climb knows from the start, e.g. seeds),
/// Newton's step with the curvature `c` (the pilot's, scaled), then, between the best point and its
/// neighbour in the direction of its slope, the top of the cubic through both values and
/// derivatives (beyond the last point: Newton's step with the secant's curvature), each evaluated
/// with its gradient, until the predicted gain over the best is at most `tol`. Returns whether it
/// converged (rather than running out of budget).
bool refineLine(Search& full, const Box& box, std::size_t start, const std::vector<std::size_t>& also, double c, double tol);

} // namespace orbit::detail

#include "orbit/experiments/LocalityLearning.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/experiments/Training.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <nlopt.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>

namespace orbit {

namespace {

/// The search: evaluations in transformed coordinates u (log v for logScale parameters), the
/// budget, the trajectory and the best point.
class Search {
public:
    Search(const EvidenceObjective& objective, const std::vector<const ParamDescriptor*>& descriptors,
           int budget, bool gradient, const Progress& progress, const LearnStep& step)
        : objective_(objective), descriptors_(descriptors), budget_(budget), gradient_(gradient), progress_(progress),
          step_(step)
    {
        best_.logEvidence = -std::numeric_limits<double>::infinity();
    }

    double toU(std::size_t i, double v) const { return descriptors_[i]->logScale ? std::log(v) : v; }
    double toV(std::size_t i, double u) const { return descriptors_[i]->logScale ? std::exp(u) : u; }
    int remaining() const { return budget_ - int(trajectory_.size()); }

    /// The evidence at u (and its gradient in u when the search has one); records the point. A point
    /// evaluated before (L-BFGS probes its end point again, restarts may land on a scanned point)
    /// is answered from the record without spending the budget.
    double evaluate(const std::vector<double>& u, std::vector<double>* gradU, const std::string& stage)
    {
        auto same = [&u](const std::vector<double>& p) {  // to 1e-8 in u: NLopt's line search re-probes in the last digits
            for (std::size_t i = 0; i < u.size(); ++i)
                if (std::abs(p[i] - u[i]) > 1e-8) return false;
            return true;
        };
        for (std::size_t k = 0; k < points_.size(); ++k)
            if (same(points_[k]) && (!gradU || !trajectory_[k].gradient.empty())) {
                if (gradU) {
                    gradU->assign(u.size(), 0.0);
                    for (std::size_t i = 0; i < u.size(); ++i)
                        (*gradU)[i] = trajectory_[k].gradient[i] * (descriptors_[i]->logScale ? toV(i, u[i]) : 1.0);
                }
                return trajectory_[k].logEvidence;
            }
        std::map<std::string, double> values;
        for (std::size_t i = 0; i < u.size(); ++i) {
            double v = toV(i, u[i]);
            if (i < loV_.size()) {  // exp(log(1000)) is 999.9999999999989: a bound is the bound
                v = std::clamp(v, loV_[i], hiV_[i]);
                for (double b : {loV_[i], hiV_[i]})
                    if (std::abs(v - b) <= 1e-12 * std::abs(b)) v = b;
            }
            values[names_[i]] = v;
        }
        const int n = int(trajectory_.size());
        const Progress sub = [&](double f, const std::string& w) {
            reportProgress(progress_, (double(n) + f) / double(budget_),
                           "evaluation " + std::to_string(n + 1) + "/" + std::to_string(budget_) + ": " + w);
            return false;
        };
        // The gradient only where L-BFGS asks for it (it costs about two more evaluations); a scanned
        // point it starts from is evaluated again with its gradient.
        EvidencePoint p = objective_.evaluate(values, gradient_ && gradU, sub);
        p.stage = stage;
        if (gradU) {
            gradU->assign(u.size(), 0.0);
            for (std::size_t i = 0; i < u.size(); ++i)
                (*gradU)[i] = p.gradient[i] * (descriptors_[i]->logScale ? toV(i, u[i]) : 1.0);
        }
        if (p.logEvidence > best_.logEvidence) {
            best_ = p;
            bestU_ = u;
        }
        trajectory_.push_back(p);
        points_.push_back(u);
        if (step_) step_(p, best_, int(trajectory_.size()));
        return p.logEvidence;
    }

    std::vector<std::string> names_;
    std::vector<double> loV_, hiV_;  ///< the bounds in the parameters' units
    const EvidenceObjective& objective_;
    std::vector<const ParamDescriptor*> descriptors_;
    int budget_;
    bool gradient_;
    const Progress& progress_;
    const LearnStep& step_;
    std::vector<EvidencePoint> trajectory_;
    std::vector<std::vector<double>> points_;
    EvidencePoint best_;
    std::vector<double> bestU_;
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

/// L-BFGS (NLopt's bound-constrained LD_LBFGS) from u0 with at most `evals` evaluations.
void localSearch(Search& search, std::vector<double> u0, const std::vector<double>& lo, const std::vector<double>& hi,
                 int evals)
{
    // A start on a bound may lie an ulp outside it after the log map (NLopt then throws
    // std::invalid_argument "bounds 0 fail", which nothing caught): start inside.
    for (std::size_t i = 0; i < u0.size(); ++i) u0[i] = std::clamp(u0[i], lo[i], hi[i]);
    nlopt::opt opt(nlopt::LD_LBFGS, unsigned(u0.size()));
    opt.set_lower_bounds(lo);
    opt.set_upper_bounds(hi);
    opt.set_maxeval(evals);
    // Steps below a thousandth of the range, or gains below a thousandth of a nat, are not worth an
    // evaluation: the evidence is flat at that scale and L-BFGS's line search would keep re-probing.
    std::vector<double> xtol(u0.size());
    for (std::size_t i = 0; i < xtol.size(); ++i) xtol[i] = 1e-3 * (hi[i] - lo[i]);
    opt.set_xtol_abs(xtol);
    opt.set_ftol_abs(1e-3);
    std::exception_ptr error;
    struct Data {
        Search* search;
        std::exception_ptr* error;
    } data{&search, &error};
    opt.set_max_objective(
        [](unsigned n, const double* u, double* grad, void* p) -> double {
            auto* d = static_cast<Data*>(p);
            if (d->search->remaining() <= 0)  // NLopt's own count restarts with every local search
                throw nlopt::forced_stop();
            try {
                std::vector<double> g;
                const double f = d->search->evaluate(std::vector<double>(u, u + n), &g, "lbfgs");
                if (grad) std::copy(g.begin(), g.end(), grad);
                return f;
            } catch (...) {
                *d->error = std::current_exception();
                throw nlopt::forced_stop();
            }
        },
        &data);
    double f = 0.0;
    try {
        opt.optimize(u0, f);
    } catch (const nlopt::roundoff_limited&) {  // converged as far as rounding allows
    } catch (const nlopt::forced_stop&) {
    } catch (const std::runtime_error&) {       // NLopt's own failure: keep the best point so far
        if (error) std::rethrow_exception(error);
    }
    if (error) std::rethrow_exception(error);
}

} // namespace

LearnResult learnLocality(const Dataset& data, const LocalityConfig& config, const Progress& progress, const LearnStep& step,
                          const Ranks& ranks)
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
    const std::size_t m = config.learn.size();
    std::vector<const ParamDescriptor*> descriptors;
    for (const std::string& name : config.learn) {
        const ParamDescriptor& d = dist->parameterDescriptor(name);
        if (!d.learnable && !(m == 1 && d.sweepable))
            throw SpecError("learn", dist->spec() + ": " + name + " has no gradient (its samples are piecewise constant); "
                                     "learn it alone, by a 1-D search",
                            name);
        descriptors.push_back(&d);
    }
    const bool gradient = objective.hasGradient();
    result.method = gradient ? "lbfgs" : "bracket";
    if (!gradient && m > 1)
        throw SpecError("learn", "several parameters at once need a gradient: irf features of rotation, translation, "
                                 "scale or affine, and learnable parameters",
                        config.features);

    // Bounds in the parameters' units, then transformed; the start value inside them.
    const std::map<std::string, double> start = objective.startValues();
    std::vector<double> lo(m), hi(m), u0(m);
    Search search(objective, descriptors, config.maxEvaluations, gradient, progress, step);
    search.names_ = config.learn;
    for (std::size_t i = 0; i < m; ++i) {
        const ParamDescriptor& d = *descriptors[i];
        const std::string& name = config.learn[i];
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
        result.bounds[name] = {l, h};
        search.loV_.push_back(l);
        search.hiV_.push_back(h);
        lo[i] = search.toU(i, l);
        hi[i] = search.toU(i, h);
        u0[i] = search.toU(i, v);
    }

    // The start, then a scan spread over the box (1-D: evenly, ends included; else Halton points).
    search.evaluate(u0, nullptr, "scan");
    // 1-D: two fifths of the budget (12 of 30), so that peaks a factor of two apart are told apart.
    const int scan = std::clamp(m == 1 ? 2 * config.maxEvaluations / 5 : config.maxEvaluations / 4,
                                std::min(3, config.maxEvaluations - 1), m == 1 ? 15 : int(4 * m + 2));
    for (int k = 0; k < scan && search.remaining() > 0; ++k) {
        std::vector<double> u(m);
        for (std::size_t i = 0; i < m; ++i) {
            static const int primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
            const double f = m == 1 ? (scan == 1 ? 0.5 : double(k) / double(scan - 1)) : halton(k + 1, primes[i % 10]);
            u[i] = lo[i] + f * (hi[i] - lo[i]);
        }
        search.evaluate(u, nullptr, "scan");
    }
    // Candidates: the scanned points by evidence; in 1-D only the local maxima of the scan curve.
    const std::vector<EvidencePoint>& scanned = search.trajectory_;
    std::vector<std::size_t> byU(scanned.size()), candidates;
    for (std::size_t i = 0; i < byU.size(); ++i) byU[i] = i;
    std::sort(byU.begin(), byU.end(), [&](std::size_t a, std::size_t b) { return search.points_[a] < search.points_[b]; });
    for (std::size_t k = 0; k < byU.size(); ++k) {
        const double f = scanned[byU[k]].logEvidence;
        const bool peak = m > 1 || ((k == 0 || scanned[byU[k - 1]].logEvidence <= f) &&
                                    (k + 1 == byU.size() || scanned[byU[k + 1]].logEvidence <= f));
        if (peak) candidates.push_back(byU[k]);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](std::size_t a, std::size_t b) { return scanned[a].logEvidence > scanned[b].logEvidence; });

    if (gradient) {
        for (std::size_t c : candidates) {
            if (search.remaining() < 2) break;
            localSearch(search, search.points_[c], lo, hi, search.remaining());
        }
        // 1-D, budget left after every peak converged: look into the widest gap next to a good
        // point (its upper end in the better half), and climb from the midpoint when it is a new peak.
        while (m == 1 && search.remaining() >= 3) {
            std::vector<std::pair<double, double>> seen;  // (u, evidence), sorted by u
            for (std::size_t k = 0; k < search.points_.size(); ++k)
                seen.emplace_back(search.points_[k][0], search.trajectory_[k].logEvidence);
            std::sort(seen.begin(), seen.end());
            std::vector<double> values;
            for (const auto& s : seen) values.push_back(s.second);
            std::nth_element(values.begin(), values.begin() + long(values.size() / 2), values.end());
            const double median = values[values.size() / 2];
            std::size_t widest = 0;
            double width = 0.0;
            for (std::size_t k = 1; k < seen.size(); ++k)
                if (std::max(seen[k - 1].second, seen[k].second) >= median && seen[k].first - seen[k - 1].first > width) {
                    width = seen[k].first - seen[k - 1].first;
                    widest = k;
                }
            if (width < 1e-3 * (hi[0] - lo[0])) break;  // explored finely enough
            const double mid = 0.5 * (seen[widest - 1].first + seen[widest].first);
            const double f = search.evaluate({mid}, nullptr, "scan");
            if (f > seen[widest - 1].second && f > seen[widest].second && search.remaining() >= 2)
                localSearch(search, {mid}, lo, hi, search.remaining());
        }
    } else {
        // Golden-section search inside the best scan bracket (the curve is piecewise constant).
        const std::size_t c = candidates.front();
        const double u = search.points_[c][0];
        double a = lo[0], b = hi[0];
        for (const auto& p : search.points_) {
            if (p[0] < u) a = std::max(a, p[0]);
            if (p[0] > u) b = std::min(b, p[0]);
        }
        const double phi = 0.5 * (std::sqrt(5.0) - 1.0);
        double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
        double f1 = search.remaining() > 0 ? search.evaluate({x1}, nullptr, "bracket") : -std::numeric_limits<double>::infinity();
        double f2 = search.remaining() > 0 ? search.evaluate({x2}, nullptr, "bracket") : -std::numeric_limits<double>::infinity();
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

    result.trajectory = search.trajectory_;
    result.learned = search.best_.params;
    result.logEvidence = search.best_.logEvidence;
    result.dist = objective.distSpec(result.learned);
    reportProgress(progress, 1.0, "scoring");

    if (!test.empty()) {
        result.metric = data.isClassification() ? "accuracy" : "rmse";
        result.test = objective.heldOutScore(result.learned, test);
    }
    result.stages = objective.stageCosts().slowest(ranks);
    result.ranks = ranks.size();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

} // namespace orbit


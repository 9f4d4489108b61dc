// The evidence search in several parameters (EvidenceSearch.hpp): the scan over Halton points and the
// L-BFGS climbs from its peaks.
#include "locality/EvidenceSearch.hpp"

#include "orbit/util/Error.hpp"

#include <nlopt.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace orbit::detail {

namespace {

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

} // namespace

int scanPoints(std::size_t m, int budget)
{
    return std::clamp(m == 1 ? 2 * budget / 5 : budget / 4, std::min(3, budget - 1), m == 1 ? 15 : int(4 * m + 2));
}

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

double spread(const Search& search, std::size_t first)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t k = first; k < search.trajectory().size(); ++k) {
        lo = std::min(lo, search.trajectory()[k].logEvidence);
        hi = std::max(hi, search.trajectory()[k].logEvidence);
    }
    return hi > lo ? hi - lo : 0.0;
}

std::pair<std::size_t, Ending> localSearch(Search& search, const Box& box, const std::vector<double>& u0,
                                           const std::vector<double>& scale, int evals, double xtol, double ftol,
                                           const std::function<bool(double, const std::vector<double>&)>& converged)
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

std::vector<std::size_t> worthClimbing(const Search& search, const std::vector<std::size_t>& peaks)
{
    const double range = spread(search);
    std::vector<std::size_t> out;
    for (std::size_t c : peaks)
        if (out.size() < 3 && search.trajectory()[c].logEvidence >= search.trajectory()[peaks.front()].logEvidence - 0.1 * range)
            out.push_back(c);
    return out;
}

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

} // namespace orbit::detail

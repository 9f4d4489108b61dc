#include "render/AxisTicks.hpp"

#include <algorithm>
#include <cmath>

namespace orbitui {

std::vector<AxisTick> numericTicks(const std::vector<double>& v, int count)
{
    std::vector<AxisTick> ticks;
    if (v.empty() || count < 1 || !std::is_sorted(v.begin(), v.end()) ||
        !std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }))
        return ticks;
    const double lo = v.front(), hi = v.back();
    const auto n = static_cast<double>(v.size());
    if (!(hi > lo)) {  // one value throughout: one tick in the middle
        ticks.push_back({n / 2, lo, QString::number(lo, 'g', 4)});
        return ticks;
    }
    // Geometric values (a log-spaced grid over decades): ticks at 1, 2 and 5 times powers of ten,
    // placed in log space; only the powers of ten when there are enough of them.
    bool geometric = lo > 0 && hi / lo >= 20 && v.size() >= 3;
    for (std::size_t k = 2; geometric && k < v.size(); ++k)
        geometric = std::abs(std::log(v[k] / v[k - 1]) - std::log(v[1] / v[0])) < 0.02 * std::abs(std::log(v[1] / v[0]));
    if (geometric) {
        const double step = std::log(v[1] / v[0]);
        const int first = static_cast<int>(std::floor(std::log10(lo))), last = static_cast<int>(std::ceil(std::log10(hi)));
        const bool decadesOnly = last - first >= count - 1;
        for (int e = first; e <= last; ++e)
            for (double m : {1.0, 2.0, 5.0}) {
                if (decadesOnly && m != 1.0)
                    continue;
                const double u = m * std::pow(10.0, e);
                if (u < lo * (1 - 1e-9) || u > hi * (1 + 1e-9))
                    continue;
                ticks.push_back({0.5 + std::log(u / lo) / step, u, QString::number(u, 'g', 3)});
            }
        return ticks;
    }
    // Round to a power of ten below the spacing of `count` even steps: 1–2 significant digits.
    const double step = std::pow(10.0, std::floor(std::log10((hi - lo) / std::max(1, count - 1))));
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step))));
    // Where u falls: between the centres of the cells k - 1 and k with v[k - 1] < u <= v[k].
    auto positionOf = [&v, n](double u) {
        const auto k = static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), u) - v.begin());
        if (k == 0)
            return 0.5;
        if (k == v.size())
            return n - 0.5;
        return static_cast<double>(k) - 0.5 + (u - v[k - 1]) / (v[k] - v[k - 1]);
    };
    // Candidates at evenly spaced cells (the values there, rounded inside [lo, hi]).
    for (int j = 0; j < count; ++j) {
        const double f = count == 1 ? 0.5 : static_cast<double>(j) / (count - 1);
        const double at = v[static_cast<std::size_t>(std::lround(f * (n - 1)))];
        double u = std::round(at / step) * step;
        if (u < lo)
            u += step;
        if (u > hi)
            u -= step;
        if (u < lo || (!ticks.empty() && u <= ticks.back().value))
            continue;
        u += 0.0;  // no "-0"
        ticks.push_back({positionOf(u), u, QString::number(u, 'f', decimals)});
    }
    return ticks;
}

std::pair<double, double> decadeRange(double lo, double hi)
{
    lo = std::max(lo, 1e-12);
    hi = std::max(hi, lo);
    double a = std::pow(10.0, std::floor(std::log10(lo)));
    double b = std::pow(10.0, std::ceil(std::log10(hi)));
    if (b <= a * 1.0001)
        b = a * 10.0;
    return {a * 0.999, b * 1.001};  // a hair wider: the end decades keep their tick labels
}

} // namespace orbitui

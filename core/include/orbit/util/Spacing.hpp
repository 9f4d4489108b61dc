#pragma once
// Values spread over a range evenly, or evenly in log (the same ratio from one value to the next,
// for scale parameters such as κ): a sweep's frames, a grid or landscape of parameter values, a
// slider's positions. Header only.
#include <cmath>
#include <vector>

namespace orbit {

/// The value at fraction f of the way from lo to hi (lo and hi themselves at f = 0 and 1): lo + f (hi - lo), or with `log`
/// exp(log lo + f (log hi - log lo)). Requires lo > 0 and hi > 0 for `log`.
inline double spacedValue(double lo, double hi, double f, bool log)
{
    if (f == 0.0) return lo;  // the ends exactly (exp(log hi) may differ from hi in the last bit)
    if (f == 1.0) return hi;
    return log ? std::exp(std::log(lo) + f * (std::log(hi) - std::log(lo))) : lo + f * (hi - lo);
}

/// The inverse of spacedValue: the fraction of the way from lo to hi at which v lies (below 0 or
/// above 1 outside the range; with `log`, -1 for v <= 0). Requires lo != hi.
inline double spacedFraction(double lo, double hi, double v, bool log)
{
    if (log)
        return v > 0.0 ? std::log(v / lo) / std::log(hi / lo) : -1.0;
    return (v - lo) / (hi - lo);
}

/// n values from lo to hi, both ends included: spacedValue at f = i / (n - 1); n = 1 gives the one
/// at f = 1/2, n <= 0 none.
inline std::vector<double> spacedValues(double lo, double hi, int n, bool log)
{
    std::vector<double> out;
    for (int i = 0; i < n; ++i)
        out.push_back(spacedValue(lo, hi, n == 1 ? 0.5 : double(i) / double(n - 1), log));
    return out;
}

} // namespace orbit

#include "orbit/util/Spacing.hpp"

#include <algorithm>
#include <cmath>

namespace orbit {

double Spacing::value(int i) const
{
    if (count <= 1) return scale == Scale::Log ? std::sqrt(from * to) : 0.5 * (from + to);
    i = std::clamp(i, 0, count - 1);
    if (i == 0) return from;
    if (i == count - 1) return to;
    const double f = double(i) / double(count - 1);
    if (scale == Scale::Log) return std::exp(std::log(from) + f * (std::log(to) - std::log(from)));
    return from + f * (to - from);
}

std::vector<double> Spacing::values() const
{
    std::vector<double> v;
    for (int i = 0; i < std::max(count, 1); ++i) v.push_back(value(i));
    return v;
}

double Spacing::step() const
{
    if (count <= 1) return scale == Scale::Log ? 1.0 : 0.0;
    if (scale == Scale::Log) return std::pow(to / from, 1.0 / double(count - 1));
    return (to - from) / double(count - 1);
}

double Spacing::position(double v) const
{
    if (count <= 1) return 0.0;
    double u;
    if (scale == Scale::Log)
        u = v > 0.0 ? std::log(v / from) / std::log(to / from) : -1.0;
    else
        u = (v - from) / (to - from);
    return u * double(count - 1);
}

} // namespace orbit

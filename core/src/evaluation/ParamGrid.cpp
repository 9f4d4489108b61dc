#include "orbit/evaluation/ParamGrid.hpp"

#include <sstream>

namespace orbit {

std::vector<ParamPoint> gridPoints(const std::vector<ParamAxis>& axes)
{
    std::vector<ParamPoint> points(1);
    for (const ParamAxis& a : axes) {
        std::vector<ParamPoint> next;
        next.reserve(points.size() * a.values.size());
        for (const ParamPoint& p : points)
            for (double v : a.values) {
                ParamPoint q = p;
                q[a.name] = v;
                next.push_back(std::move(q));
            }
        points = std::move(next);
    }
    return points;
}

std::string toString(const ParamPoint& point)
{
    std::ostringstream s;
    s.precision(6);
    bool first = true;
    for (const auto& [name, value] : point) {
        s << (first ? "" : ", ") << name << '=' << value;
        first = false;
    }
    return s.str();
}

} // namespace orbit

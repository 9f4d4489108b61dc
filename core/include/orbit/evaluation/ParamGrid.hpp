#pragma once
// Named hyperparameters and the grid of their combinations.
#include <map>
#include <string>
#include <vector>

namespace orbit {

/// One hyperparameter and the values to try, e.g. {"lambda", {1e-4, 1e-3, 1e-2}} or
/// {"median", {0.5, 1, 2}} (bandwidth multiples of the median distance).
struct ParamAxis {
    std::string name;
    std::vector<double> values;
};

/// A point of the grid: parameter name -> value.
using ParamPoint = std::map<std::string, double>;

/// The Cartesian product of the axes, first axis varying slowest: prod_a |values_a| points (one
/// empty point for no axes). Names are assumed distinct (a repeated name keeps its last value).
std::vector<ParamPoint> gridPoints(const std::vector<ParamAxis>& axes);

/// A readable "name=value, name=value" form of a point (for progress text and reports).
std::string toString(const ParamPoint& point);

} // namespace orbit

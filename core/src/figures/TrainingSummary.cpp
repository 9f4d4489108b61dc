#include "orbit/figures/TrainingSummary.hpp"

#include "orbit/registry/Registry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace orbit {

bool AxisCurve::hasEvidence() const
{
    return std::any_of(logEvidence.begin(), logEvidence.end(), [](double v) { return std::isfinite(v); });
}

AxisCurve curveAlong(const TrainResult& result, const std::string& axis)
{
    AxisCurve curve;
    curve.axis = axis;
    const bool maximise = parseMetric(result.metric) == Metric::Accuracy;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::map<double, std::pair<double, double>> best;  // x -> (validation, evidence)
    for (const GridRow& row : result.grid) {
        const auto it = row.params.find(axis);
        if (it == row.params.end()) continue;
        auto [entry, fresh] = best.try_emplace(it->second, row.validation, row.logEvidence);
        if (fresh) continue;
        auto& [validation, evidence] = entry->second;
        if (maximise ? row.validation > validation : row.validation < validation) validation = row.validation;
        if (std::isfinite(row.logEvidence) && !(evidence >= row.logEvidence)) evidence = row.logEvidence;
    }
    for (const auto& [x, values] : best) {
        curve.x.push_back(x);
        curve.validation.push_back(values.first);
        curve.logEvidence.push_back(std::isfinite(values.second) ? values.second : nan);
    }
    return curve;
}

std::string chooseMainAxis(const TrainResult& result, const std::string& preferred)
{
    std::map<std::string, std::set<double>> values;
    std::vector<std::string> order;
    for (const GridRow& row : result.grid)
        for (const auto& [name, v] : row.params) {
            if (!values.count(name)) order.push_back(name);
            values[name].insert(v);
        }
    if (values.empty()) return {};
    if (!preferred.empty() && values.count(preferred)) return preferred;
    for (const char* name : {"lambda", "C", "median"})
        if (values.count(name) && values[name].size() > 1) return name;
    for (const std::string& name : order)
        if (values[name].size() > 1) return name;
    return order.front();
}

FoldSummary summarizeFolds(const TrainResult& result)
{
    FoldSummary s;
    s.folds = static_cast<int>(result.folds.size());
    s.score = {result.mean, result.stddev};
    s.hasMae = parseMetric(result.metric) == Metric::Rmse;
    s.hasEvidence = result.logEvidence.has_value();
    s.mae.mean = result.mae;
    if (s.hasEvidence) s.logEvidence.mean = *result.logEvidence;
    double seconds = 0.0, maeSq = 0.0, evSq = 0.0;
    for (const FoldResult& f : result.folds) {
        seconds += f.seconds;
        maeSq += (f.mae - s.mae.mean) * (f.mae - s.mae.mean);
        if (s.hasEvidence) evSq += (f.logEvidence - s.logEvidence.mean) * (f.logEvidence - s.logEvidence.mean);
    }
    if (s.folds > 0) {
        const double k = static_cast<double>(s.folds);
        s.seconds = seconds / k;
        if (s.hasMae) s.mae.sd = std::sqrt(maeSq / k);
        if (s.hasEvidence) s.logEvidence.sd = std::sqrt(evSq / k);
    }
    return s;
}

} // namespace orbit

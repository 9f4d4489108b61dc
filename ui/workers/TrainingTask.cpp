#include "workers/TrainingTask.hpp"

#include "orbit/evaluation/Splits.hpp"
#include "orbit/registry/Registry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace orbitui {

bool AxisCurve::hasEvidence() const
{
    return std::any_of(logEvidence.begin(), logEvidence.end(), [](double v) { return std::isfinite(v); });
}

AxisCurve curveAlong(const orbit::TrainResult& result, const std::string& axis)
{
    AxisCurve curve;
    curve.axis = axis;
    const bool maximise = orbit::parseMetric(result.metric) == orbit::Metric::Accuracy;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::map<double, std::pair<double, double>> best;  // x -> (validation, evidence)
    for (const orbit::GridRow& row : result.grid) {
        const auto it = row.params.find(axis);
        if (it == row.params.end())
            continue;
        auto [entry, fresh] = best.try_emplace(it->second, row.validation, row.logEvidence);
        if (fresh)
            continue;
        auto& [validation, evidence] = entry->second;
        if (maximise ? row.validation > validation : row.validation < validation)
            validation = row.validation;
        if (std::isfinite(row.logEvidence) && !(evidence >= row.logEvidence))
            evidence = row.logEvidence;
    }
    for (const auto& [x, values] : best) {
        curve.x.push_back(x);
        curve.validation.push_back(values.first);
        curve.logEvidence.push_back(std::isfinite(values.second) ? values.second : nan);
    }
    return curve;
}

std::string chooseMainAxis(const orbit::TrainResult& result, const std::string& preferred)
{
    std::map<std::string, std::set<double>> values;
    std::vector<std::string> order;
    for (const orbit::GridRow& row : result.grid)
        for (const auto& [name, v] : row.params) {
            if (!values.count(name))
                order.push_back(name);
            values[name].insert(v);
        }
    if (values.empty())
        return {};
    if (!preferred.empty() && values.count(preferred))
        return preferred;
    for (const char* name : {"lambda", "C", "median"})
        if (values.count(name) && values[name].size() > 1)
            return name;
    for (const std::string& name : order)
        if (values[name].size() > 1)
            return name;
    return order.front();
}

const orbit::Dataset& seededSubset(const orbit::Dataset& all, std::size_t n, std::uint64_t seed, orbit::Dataset& kept)
{
    if (n == 0 || n >= all.count())
        return all;
    orbit::Indices idx = orbit::seededPermutation(all.count(), seed, 0x73756273);  // "subs"
    idx.resize(n);
    std::sort(idx.begin(), idx.end());
    kept = all.subset(idx);
    return kept;
}

Task makeTrainingTask(TrainingRequest request)
{
    return [request](const TaskContext& ctx) -> QVariant {
        ctx.progress(0.0, QStringLiteral("Preparing the data…"));
        const orbit::Dataset& all = *request.dataset;
        orbit::Dataset chosen;
        const orbit::Dataset* data = &seededSubset(all, request.subset, request.config.seed, chosen);
        ctx.throwIfCancelled();

        auto result = std::make_shared<TrainingResult>();
        result->request = request;
        result->samples = data->count();
        const orbit::Progress progress = [&ctx](double fraction, const std::string& what) {
            ctx.progress(fraction, QString::fromStdString(what));
            return ctx.cancelled();
        };
        result->result = orbit::train(*data, request.config, progress);
        for (int c = 0; c < all.numClasses; ++c)
            result->classNames.push_back(static_cast<std::size_t>(c) < all.classNames.size()
                                             ? all.classNames[static_cast<std::size_t>(c)]
                                             : std::to_string(c));
        result->curve = curveAlong(result->result, chooseMainAxis(result->result, request.mainAxis));
        return QVariant::fromValue(std::shared_ptr<const TrainingResult>(std::move(result)));
    };
}

} // namespace orbitui

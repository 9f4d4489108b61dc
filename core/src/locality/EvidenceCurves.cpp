#include "orbit/locality/EvidenceCurves.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/ReadableNumber.hpp"
#include "orbit/util/Spacing.hpp"
#include "orbit/util/Spec.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>

namespace orbit {

std::vector<double> parseValueList(const std::string& text)
{
    std::vector<double> values;
    const std::string t = trim(text);
    if (t.find(':') != std::string::npos) {
        const auto parts = split(t, ':');
        const bool log = parts.size() == 4 && trim(parts[3]) == "log";
        if (parts.size() < 3 || parts.size() > 4 || (parts.size() == 4 && !log))
            throw SpecError("values", "expected LO:HI:N or LO:HI:N:log", text);
        const std::optional<double> loText = parseDouble(parts[0]), hiText = parseDouble(parts[1]);
        const std::optional<long long> nText = parseInteger(parts[2]);
        if (!loText || !hiText || !nText) throw SpecError("values", "expected LO:HI:N or LO:HI:N:log", text);
        // Plain copies: GCC 12 reports the optionals' payloads as maybe-uninitialized in the loop.
        const double lo = *loText, hi = *hiText;
        const long long n = *nText;
        if (n < 2 || n > 100000) throw SpecError("values", "N must be between 2 and 100000", parts[2]);
        if (!(lo < hi)) throw SpecError("values", "needs LO < HI", text);
        if (log && !(lo > 0)) throw SpecError("values", "a log range needs LO > 0", text);
        return spacedValues(lo, hi, int(n), log);
    }
    for (const std::string& part : split(t, ',')) {
        const auto v = parseDouble(part);
        if (!v) throw SpecError("values", "not a finite number", part);
        values.push_back(*v);
    }
    if (values.empty()) throw SpecError("values", "is empty", text);
    return values;
}

namespace {

/// The log evidence (no gradient) at each point in order, each with its share of `progress` and
/// `step` after it. A point is a list of (parameter, value) in the order the caller names them.
std::vector<double> evaluateEach(const EvidenceObjective& objective,
                                 const std::vector<std::vector<std::pair<std::string, double>>>& points,
                                 const Progress& progress, const LearnStep& step)
{
    std::vector<double> logEvidence;
    EvidencePoint best;
    best.logEvidence = -std::numeric_limits<double>::infinity();
    const double total = double(points.size());
    for (std::size_t n = 0; n < points.size(); ++n) {
        std::string what;
        std::map<std::string, double> values;
        for (const auto& [name, value] : points[n]) {
            what += (what.empty() ? "" : ", ") + readableParameter(name, value);
            values[name] = value;
        }
        const Progress sub = [&](double f, const std::string& w) {
            reportProgress(progress, (double(n) + f) / total, what + ": " + w);
            return false;
        };
        EvidencePoint p = objective.evaluate(values, false, sub);
        p.stage = "curve";
        logEvidence.push_back(p.logEvidence);
        if (p.logEvidence > best.logEvidence) best = p;
        if (step) step(p, best, int(n) + 1);
    }
    reportProgress(progress, 1.0, "done");
    return logEvidence;
}

/// config learning exactly `params` (validated), and the rows it learns from.
LocalityConfig sweepConfig(const LocalityConfig& config, std::vector<std::string> params)
{
    LocalityConfig c = config;
    c.learn = std::move(params);
    c.bounds.clear();
    c.validate();
    return c;
}

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

EvidenceCurve evidenceCurve(const Dataset& data, const LocalityConfig& config, const std::string& param,
                            const std::vector<double>& values, const Progress& progress, const LearnStep& step,
                            const Ranks& ranks)
{
    const auto t0 = std::chrono::steady_clock::now();
    const LocalityConfig c = sweepConfig(config, {param});
    if (values.empty()) throw SpecError("values", "is empty");
    const Indices rows = learningRows(data, c);
    const EvidenceObjective objective(data, rows, c, ranks);
    std::vector<std::vector<std::pair<std::string, double>>> points;
    for (double v : values) points.push_back({{param, v}});
    EvidenceCurve curve;
    curve.param = param;
    curve.trainRows = rows.size();
    curve.values = values;
    curve.logEvidence = evaluateEach(objective, points, progress, step);
    curve.stages = objective.stageCosts().slowest(ranks);
    curve.ranks = ranks.size();
    curve.seconds = secondsSince(t0);
    return curve;
}

EvidenceCurve evidenceCurvePerClass(const Dataset& data, const LocalityConfig& config, const std::string& param,
                                    const std::vector<double>& values, const Progress& progress, const Ranks& ranks)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (!data.isClassification())
        throw SpecError("per-class", "needs class labels: regression targets have no classes to give localities to", data.source);
    const LocalityConfig c = sweepConfig(config, {param});
    if (values.empty()) throw SpecError("values", "is empty");
    const Indices rows = learningRows(data, c);
    const EvidenceObjective objective(data, rows, c, ranks);
    EvidenceCurve curve;
    curve.param = param;
    curve.trainRows = rows.size();
    curve.values = values;
    curve.classLogEvidence.resize(Eigen::Index(values.size()), data.numClasses);
    for (std::size_t n = 0; n < values.size(); ++n) {
        const std::string what = readableParameter(param, values[n]);
        const std::vector<EvidencePoint> each = objective.evaluateEachClass({{param, values[n]}}, false, [&](double f, const std::string& w) {
            reportProgress(progress, (double(n) + f) / double(values.size()), what + ": " + w);
            return false;
        });
        double sum = 0.0;
        for (std::size_t k = 0; k < each.size(); ++k) {
            curve.classLogEvidence(Eigen::Index(n), Eigen::Index(k)) = each[k].logEvidence;
            sum += each[k].logEvidence;
        }
        curve.logEvidence.push_back(sum);
    }
    reportProgress(progress, 1.0, "done");
    curve.stages = objective.stageCosts().slowest(ranks);
    curve.ranks = ranks.size();
    curve.seconds = secondsSince(t0);
    return curve;
}

EvidenceSurface evidenceSurface(const Dataset& data, const LocalityConfig& config, const std::string& xParam,
                                const std::vector<double>& xValues, const std::string& yParam,
                                const std::vector<double>& yValues, const Progress& progress, const LearnStep& step,
                                const Ranks& ranks)
{
    const auto t0 = std::chrono::steady_clock::now();
    const LocalityConfig c = sweepConfig(config, {xParam, yParam});
    if (xValues.empty() || yValues.empty()) throw SpecError("values", "is empty");
    const Indices rows = learningRows(data, c);
    const EvidenceObjective objective(data, rows, c, ranks);
    std::vector<std::vector<std::pair<std::string, double>>> points;
    for (double x : xValues)
        for (double y : yValues) points.push_back({{xParam, x}, {yParam, y}});
    const std::vector<double> logEvidence = evaluateEach(objective, points, progress, step);
    EvidenceSurface surface;
    surface.xParam = xParam;
    surface.yParam = yParam;
    surface.xValues = xValues;
    surface.yValues = yValues;
    surface.trainRows = rows.size();
    // Row by row, x slowest: the row-major order of the points.
    surface.logEvidence = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        logEvidence.data(), Eigen::Index(xValues.size()), Eigen::Index(yValues.size()));
    surface.stages = objective.stageCosts().slowest(ranks);
    surface.ranks = ranks.size();
    surface.seconds = secondsSince(t0);
    return surface;
}

} // namespace orbit

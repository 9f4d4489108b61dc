#include "orbit/evaluation/GridSearch.hpp"

#include "orbit/util/Error.hpp"

#include <cmath>
#include <set>
#include <sstream>

namespace orbit {
namespace {

/// Mixed-radix digits of `index` over `sizes` (first digit slowest).
std::vector<std::size_t> digits(std::size_t index, const std::vector<std::size_t>& sizes)
{
    std::vector<std::size_t> d(sizes.size());
    for (std::size_t a = sizes.size(); a-- > 0;) {
        d[a] = index % sizes[a];
        index /= sizes[a];
    }
    return d;
}

std::size_t flatten(const std::vector<std::size_t>& d, const std::vector<std::size_t>& sizes)
{
    std::size_t index = 0;
    for (std::size_t a = 0; a < sizes.size(); ++a)
        index = index * sizes[a] + d[a];
    return index;
}

} // namespace

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

void GridSearch::validate() const
{
    if (axes.empty())
        throw SpecError("grid", "no parameters to search");
    std::set<std::string> names;
    for (const ParamAxis& a : axes) {
        if (a.name.empty())
            throw SpecError("grid", "a parameter has no name");
        if (!names.insert(a.name).second)
            throw SpecError("grid", "parameter given twice", a.name);
        if (a.values.empty())
            throw SpecError("grid." + a.name, "no values to try");
        for (double v : a.values)
            if (!std::isfinite(v))
                throw SpecError("grid." + a.name, "non-finite value", std::to_string(v));
    }
    if (!batchAxis.empty() && !names.count(batchAxis))
        throw SpecError("grid", "batch axis is not one of the parameters", batchAxis);
}

std::size_t GridSearch::size() const
{
    std::size_t n = 1;
    for (const ParamAxis& a : axes)
        n *= a.values.size();
    return n;
}

GridSearchResult GridSearch::run(const std::vector<Split>& splits, const ScoreFunction& score,
                                 const Progress& progress) const
{
    validate();
    if (!score)
        throw SpecError("grid", "no score function");
    std::string batchName;
    for (const ParamAxis& a : axes)
        if (a.name == batchAxis)
            batchName = a.name;
    // Score the batch axis (if any) value by value with the plain function.
    return run(splits,
               BatchScoreFunction([&](const ParamPoint& outer, const std::vector<double>& values, const Split& split) {
                   std::vector<double> out;
                   if (batchName.empty())
                       return std::vector<double>{score(outer, split)};
                   for (double v : values) {
                       ParamPoint p = outer;
                       p[batchName] = v;
                       out.push_back(score(p, split));
                   }
                   return out;
               }),
               progress);
}

GridSearchResult GridSearch::run(const std::vector<Split>& splits, const BatchScoreFunction& score,
                                 const Progress& progress) const
{
    validate();
    if (!score)
        throw SpecError("grid", "no score function");
    if (splits.empty())
        throw SpecError("grid", "no splits to score on");

    std::vector<std::size_t> sizes;
    std::size_t batchIndex = axes.size();
    for (std::size_t a = 0; a < axes.size(); ++a) {
        sizes.push_back(axes[a].values.size());
        if (axes[a].name == batchAxis)
            batchIndex = a;
    }
    std::vector<std::size_t> outerSizes = sizes;
    if (batchIndex < axes.size())
        outerSizes[batchIndex] = 1;
    const std::vector<double> batchValues = batchIndex < axes.size() ? axes[batchIndex].values : std::vector<double>{};
    const std::size_t batchCount = batchIndex < axes.size() ? batchValues.size() : 1;

    GridSearchResult r;
    const std::size_t total = size();
    for (std::size_t i = 0; i < total; ++i) {
        const std::vector<std::size_t> d = digits(i, sizes);
        ParamPoint p;
        for (std::size_t a = 0; a < axes.size(); ++a)
            p[axes[a].name] = axes[a].values[d[a]];
        r.points.push_back(std::move(p));
    }
    r.scores = Eigen::MatrixXd::Constant(static_cast<Eigen::Index>(total), static_cast<Eigen::Index>(splits.size()),
                                         std::nan(""));

    const std::size_t outerTotal = total / batchCount;
    const std::size_t units = outerTotal * splits.size();
    std::size_t done = 0;
    for (std::size_t o = 0; o < outerTotal; ++o) {
        std::vector<std::size_t> d = digits(o, outerSizes);
        ParamPoint outer = r.points[flatten(d, sizes)];
        if (batchIndex < axes.size())
            outer.erase(batchAxis);
        for (std::size_t s = 0; s < splits.size(); ++s) {
            reportProgress(progress, static_cast<double>(done) / static_cast<double>(units),
                           "grid " + toString(outer) + " split " + std::to_string(s + 1) + "/"
                               + std::to_string(splits.size()));
            const std::vector<double> got = score(outer, batchValues, splits[s]);
            if (got.size() != batchCount)
                throw SpecError("grid", "score function returned " + std::to_string(got.size()) + " scores for "
                                            + std::to_string(batchCount) + " values");
            for (std::size_t b = 0; b < batchCount; ++b) {
                if (batchIndex < axes.size())
                    d[batchIndex] = b;
                const std::size_t idx = flatten(d, sizes);
                if (!std::isfinite(got[b]))
                    throw SpecError("grid", "non-finite score at " + toString(r.points[idx]), std::to_string(got[b]));
                r.scores(static_cast<Eigen::Index>(idx), static_cast<Eigen::Index>(s)) = got[b];
            }
            ++done;
        }
    }
    reportProgress(progress, 1.0, "grid search done");

    for (std::size_t i = 0; i < total; ++i) {
        r.meanScores.push_back(r.scores.row(static_cast<Eigen::Index>(i)).mean());
        const double cur = r.meanScores[i], best = r.meanScores[r.best];
        if (maximise ? cur > best : cur < best)
            r.best = i;
    }
    return r;
}

} // namespace orbit

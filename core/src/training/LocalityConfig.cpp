// LocalityConfig's checks (LocalityConfig.hpp).
#include "orbit/training/LocalityConfig.hpp"

#include "orbit/learn/CompositionMean.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace orbit {

TrainConfig splitConfig(const LocalityConfig& c)
{
    TrainConfig t;
    t.eval = c.eval;
    t.seed = c.seed;
    return t;
}

void LocalityConfig::validate() const
{
    checkMeanFunction(mean);
    if (trim(features).empty()) throw SpecError("features", "is empty");
    if (trim(group).empty() || trim(dist).empty()) throw SpecError(trim(group).empty() ? "group" : "distribution", "is needed to learn a locality");
    if (targetClass < -1) throw SpecError("class", "must be a class label (>= 0)", std::to_string(targetClass));
    if (maxEvaluations < 1 || maxEvaluations > 100000)
        throw SpecError("max-evals", "must be between 1 and 100000", std::to_string(maxEvaluations));
    checkBlockRows(blockRows);
    if (!eval.empty()) splitConfig(*this).validate();
    for (std::size_t i = 0; i < learn.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (learn[i] == learn[j]) throw SpecError("learn", "parameter named twice", learn[i]);
    for (const auto& [name, range] : bounds) {
        if (!std::isfinite(range.first) || !std::isfinite(range.second) || !(range.first < range.second))
            throw SpecError("bounds", "needs finite LO < HI for " + name, formatNumber(range.first) + ":" + formatNumber(range.second));
        if (std::find(learn.begin(), learn.end(), name) == learn.end())
            throw SpecError("bounds", "names a parameter that is not learned", name);
    }
}

} // namespace orbit

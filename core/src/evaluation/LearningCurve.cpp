#include "orbit/evaluation/LearningCurve.hpp"

#include "orbit/util/Error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace orbit {

std::vector<LearningCurvePoint> learningCurve(const Split& split, const std::vector<std::size_t>& sizes,
                                              std::uint64_t seed,
                                              const std::function<double(const Split&)>& score,
                                              const Progress& progress)
{
    if (!score)
        throw ContractError("learningCurve", "no score function");
    if (sizes.empty())
        throw ContractError("learningCurve", "no training-set sizes");
    for (std::size_t n : sizes)
        if (n < 1 || n > split.train.size())
            throw SpecError("learning-curve", "training-set size must lie in [1, " + std::to_string(split.train.size()) + "]",
                            std::to_string(n));
    const Indices perm = seededPermutation(split.train.size(), seed);
    std::vector<LearningCurvePoint> out;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        reportProgress(progress, static_cast<double>(k) / static_cast<double>(sizes.size()),
                       "learning curve n=" + std::to_string(sizes[k]));
        Split sub;
        sub.test = split.test;
        for (std::size_t i = 0; i < sizes[k]; ++i)
            sub.train.push_back(split.train[perm[i]]);
        std::sort(sub.train.begin(), sub.train.end());
        const double s = score(sub);
        if (!std::isfinite(s))
            throw SpecError("learning-curve", "non-finite score at n=" + std::to_string(sizes[k]), std::to_string(s));
        out.push_back({sizes[k], s});
    }
    reportProgress(progress, 1.0, "learning curve done");
    return out;
}

} // namespace orbit

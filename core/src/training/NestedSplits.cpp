// The nested splits of a `train` run: the outer folds (hold-out, k-fold, the dataset's own folds or
// the given test rows), each fold's inner splits, and the row sets the folds can share.
#include "training/NestedSplits.hpp"

#include "orbit/training/Training.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace orbit {

std::vector<Split> outerSplits(const Dataset& data, const TrainConfig& c)
{
    if (c.testFrom > 0) {
        if (c.testFrom + 1 > data.count())
            throw SpecError("test-data", "no test rows after the " + std::to_string(c.testFrom) + " training rows",
                            std::to_string(data.count()));
        Split given;
        for (std::size_t i = 0; i < data.count(); ++i) (i < c.testFrom ? given.train : given.test).push_back(i);
        return {given};
    }
    const Evaluation e = parseEvaluation(c.eval);
    if (e.kind == EvaluationKind::HoldOut) return {holdOutFor(data, e.fraction, c.seed)};
    if (e.kind == EvaluationKind::KFold) {
        if (std::size_t(e.folds) > data.count())
            throw SpecError("eval", "more folds than samples (" + std::to_string(data.count()) + ")", c.eval);
        return kFold(data.count(), e.folds, c.seed);
    }
    if (data.folds.empty()) throw SpecError("eval", "the dataset has no folds of its own (use kfold:K)", c.eval);
    return kFoldFor(data, 0, c.seed);
}

std::vector<Split> innerSplits(const Dataset& data, const TrainConfig& c, const Indices& train, std::size_t fold)
{
    const std::uint64_t seed = deriveSeed(c.seed, detail::kInnerStream + fold);
    if (c.innerFolds >= 2) return innerKFold(train, c.innerFolds, seed);
    return {innerValidation(train, c.validationFraction, seed, data.labels)};
}

namespace detail {

std::optional<SharedRowSets> runCells(const std::vector<Split>& outer, const std::vector<std::vector<Split>>& inner,
                                      std::size_t n)
{
    if (outer.size() < 2) return std::nullopt;
    std::vector<int> testOf(n, -1);  // the outer fold whose test set holds the row
    std::size_t assigned = 0;
    for (std::size_t f = 0; f < outer.size(); ++f)
        for (std::size_t r : outer[f].test) {
            if (testOf[r] != -1) return std::nullopt;
            testOf[r] = int(f);
            ++assigned;
        }
    std::size_t perFold = 0;
    for (std::size_t f = 0; f < outer.size(); ++f) {
        perFold += outer[f].train.size();
        if (outer[f].train.size() != assigned - outer[f].test.size()) return std::nullopt;
        for (std::size_t r : outer[f].train)
            if (testOf[r] == -1 || testOf[r] == int(f)) return std::nullopt;
    }
    SharedRowSets sets;
    std::size_t rows = assigned;
    for (std::size_t f = 0; f < outer.size(); ++f) {
        sets.cells.push_back(outer[f].test);
        for (const Split& in : inner[f]) {
            sets.removable.push_back(in.test);
            rows += in.test.size();
        }
    }
    if (rows >= perFold) return std::nullopt;
    return sets;
}

std::size_t smallestTraining(const std::vector<Split>& outer, const std::vector<std::vector<Split>>& inner)
{
    std::size_t least = std::numeric_limits<std::size_t>::max();
    for (std::size_t f = 0; f < outer.size(); ++f) {
        least = std::min(least, outer[f].train.size());
        for (const Split& in : inner[f]) least = std::min(least, in.train.size());
    }
    return least;
}

} // namespace detail

} // namespace orbit

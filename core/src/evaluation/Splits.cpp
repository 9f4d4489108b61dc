#include "orbit/evaluation/Splits.hpp"

#include "orbit/linalg/Gram.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace orbit {
namespace {

void requireFraction(double f)
{
    if (!std::isfinite(f) || !(f > 0.0) || !(f < 1.0))
        throw SpecError("holdout", "fraction must lie strictly between 0 and 1", std::to_string(f));
}

void requireNonEmpty(const Split& s, double f)
{
    if (s.train.empty() || s.test.empty())
        throw SpecError("holdout", "fraction leaves an empty training or test set ("
                                       + std::to_string(s.train.size()) + " train, " + std::to_string(s.test.size())
                                       + " test)",
                        std::to_string(f));
}

std::size_t roundedCount(double fraction, std::size_t n)
{
    return static_cast<std::size_t>(std::llround(fraction * static_cast<double>(n)));
}

/// Hold-out over `pool` (rows), stratified by `labels` when non-empty. Stream 0 shuffles a pool
/// without classes; class c uses stream c + 1.
Split holdOutOf(const Indices& pool, double fraction, std::uint64_t seed, const std::vector<int>& labels)
{
    requireFraction(fraction);
    Split s;
    std::map<int, Indices> groups;
    if (labels.empty())
        groups[-1] = pool;
    else
        for (std::size_t i : pool) {
            const int y = labels.at(i);
            if (y < 0)
                throw SpecError("labels", "negative class label at " + std::to_string(i), std::to_string(y));
            groups[y].push_back(i);
        }
    for (const auto& [label, members] : groups) {
        const Indices perm = seededPermutation(members.size(), seed, static_cast<std::uint64_t>(label + 1));
        const std::size_t nTest = roundedCount(fraction, members.size());
        for (std::size_t k = 0; k < perm.size(); ++k)
            (k < nTest ? s.test : s.train).push_back(members[perm[k]]);
    }
    std::sort(s.train.begin(), s.train.end());
    std::sort(s.test.begin(), s.test.end());
    requireNonEmpty(s, fraction);
    return s;
}

Indices iota(std::size_t n)
{
    Indices v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = i;
    return v;
}

} // namespace

Indices seededPermutation(std::size_t n, std::uint64_t seed, std::uint64_t stream)
{
    Indices p = iota(n);
    Rng rng = makeRng(seed, stream);
    for (std::size_t i = n; i > 1; --i)
        std::swap(p[i - 1], p[uniformIndex(rng, i)]);
    return p;
}

Split holdOut(std::size_t n, double testFraction, std::uint64_t seed)
{
    return holdOutOf(iota(n), testFraction, seed, {});
}

Split stratifiedHoldOut(const std::vector<int>& labels, double testFraction, std::uint64_t seed)
{
    return holdOutOf(iota(labels.size()), testFraction, seed, labels);
}

std::vector<Split> kFold(std::size_t n, int k, std::uint64_t seed)
{
    if (k < 2 || static_cast<std::size_t>(k) > n)
        throw SpecError("kfold", "number of folds must lie in [2, " + std::to_string(n) + "]", std::to_string(k));
    const Indices perm = seededPermutation(n, seed);
    std::vector<int> fold(n);
    for (std::size_t p = 0; p < n; ++p)  // fold sizes differ by at most one
        fold[perm[p]] = static_cast<int>(p * static_cast<std::size_t>(k) / n);
    return predefinedFolds(fold);
}

std::vector<Split> predefinedFolds(const std::vector<int>& folds)
{
    std::vector<int> ids(folds);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    if (ids.size() < 2)
        throw SpecError("folds", "need at least two distinct fold ids", std::to_string(ids.size()));
    std::vector<Split> splits(ids.size());
    for (std::size_t i = 0; i < folds.size(); ++i) {
        const std::size_t f = static_cast<std::size_t>(std::lower_bound(ids.begin(), ids.end(), folds[i]) - ids.begin());
        for (std::size_t s = 0; s < splits.size(); ++s)
            (s == f ? splits[s].test : splits[s].train).push_back(i);
    }
    return splits;
}

std::vector<Split> kFoldFor(const Dataset& ds, int k, std::uint64_t seed)
{
    if (!ds.folds.empty()) {
        requireSize("kFoldFor", "number of fold ids", static_cast<long long>(ds.folds.size()), static_cast<long long>(ds.count()));
        std::vector<Split> splits = predefinedFolds(ds.folds);
        if (k != 0 && static_cast<std::size_t>(k) != splits.size())
            throw SpecError("kfold", "the dataset has " + std::to_string(splits.size()) + " predefined folds",
                            std::to_string(k));
        return splits;
    }
    return kFold(ds.count(), k, seed);
}

Split holdOutFor(const Dataset& ds, double testFraction, std::uint64_t seed)
{
    return ds.isClassification() ? stratifiedHoldOut(ds.labels, testFraction, seed)
                                 : holdOut(ds.count(), testFraction, seed);
}

Split innerValidation(const Indices& train, double validationFraction, std::uint64_t seed, const std::vector<int>& labels)
{
    return holdOutOf(train, validationFraction, seed, labels);
}

std::vector<Split> innerKFold(const Indices& train, int k, std::uint64_t seed)
{
    std::vector<Split> splits = kFold(train.size(), k, seed);
    for (Split& s : splits) {  // positions in `train` -> dataset rows (train is sorted, so they stay sorted)
        for (std::size_t& i : s.train) i = train[i];
        for (std::size_t& i : s.test) i = train[i];
    }
    return splits;
}

std::vector<Indices> cellsOf(const Indices& rows, const std::vector<Indices>& sets)
{
    Indices sorted = rows;
    std::sort(sorted.begin(), sorted.end());
    std::map<std::size_t, std::vector<bool>> in;  // row -> membership in each set
    for (std::size_t r : sorted) in[r].assign(sets.size(), false);
    for (std::size_t j = 0; j < sets.size(); ++j)
        for (std::size_t r : sets[j]) {
            const auto it = in.find(r);
            if (it != in.end()) it->second[j] = true;
        }
    std::map<std::vector<bool>, std::size_t> cellOf;  // membership -> cell
    std::vector<Indices> cells;
    for (std::size_t r : sorted) {
        const auto [it, added] = cellOf.emplace(in[r], cells.size());
        if (added) cells.emplace_back();
        cells[it->second].push_back(r);
    }
    return cells;
}

MatrixXfR selectRows(const MatrixXfR& X, const Indices& idx)
{
    MatrixXfR out(static_cast<Eigen::Index>(idx.size()), X.cols());
    for (std::size_t r = 0; r < idx.size(); ++r) {
        if (idx[r] >= static_cast<std::size_t>(X.rows()))
            throw ContractError("selectRows", "row index " + std::to_string(idx[r]) + " out of range (" +
                                                  std::to_string(X.rows()) + " rows)");
        out.row(static_cast<Eigen::Index>(r)) = X.row(static_cast<Eigen::Index>(idx[r]));
    }
    return out;
}

} // namespace orbit

#pragma once
// Train/test splits: hold-out, k-fold (random or predefined), inner validation splits.
#include "orbit/data/Dataset.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace orbit {

using Indices = std::vector<std::size_t>;

/// A partition of (a subset of) the samples into training and test indices. Indices refer to the
/// rows of the dataset the split was made for; both lists are sorted ascending.
struct Split {
    Indices train;
    Indices test;
};

/// Fisher-Yates shuffle of 0..n-1 driven by makeRng(seed, stream) and uniformIndex, so the order
/// is the same on every platform and standard library.
Indices seededPermutation(std::size_t n, std::uint64_t seed, std::uint64_t stream = 0);

/// Hold-out: a seeded shuffle puts round(testFraction * n) samples into `test`, the rest into
/// `train`. Requires 0 < testFraction < 1 and both parts non-empty.
Split holdOut(std::size_t n, double testFraction, std::uint64_t seed);

/// Stratified hold-out: in every class c with n_c samples, round(testFraction * n_c) go to test
/// (so class proportions are kept up to rounding). Requires labels >= 0.
Split stratifiedHoldOut(const std::vector<int>& labels, double testFraction, std::uint64_t seed);

/// k-fold: a seeded permutation cut into k folds of sizes differing by at most one; fold f is the
/// test set of split f. The test sets are disjoint and cover 0..n-1. Requires 2 <= k <= n.
std::vector<Split> kFold(std::size_t n, int k, std::uint64_t seed);

/// Predefined folds: split f tests every sample whose fold id is the f-th smallest distinct id
/// (e.g. the QM7 .mat P matrix). Requires at least two distinct ids.
std::vector<Split> predefinedFolds(const std::vector<int>& folds);

/// The splits for a dataset: predefined folds when ds.folds is non-empty (k must then match their
/// number, or be 0 = "use them as they are"), else kFold(ds.count(), k, seed).
std::vector<Split> kFoldFor(const Dataset& ds, int k, std::uint64_t seed);

/// Hold-out for a dataset: stratified for classification, plain otherwise.
Split holdOutFor(const Dataset& ds, double testFraction, std::uint64_t seed);

/// Inner validation split of a training set: the indices of `train` (dataset rows) divided into
/// train/test with `validationFraction` held out, stratified when `labels` (indexed by dataset row)
/// is non-empty. Used to tune hyperparameters inside each outer fold.
Split innerValidation(const Indices& train, double validationFraction, std::uint64_t seed,
                      const std::vector<int>& labels = {});

/// Inner k-fold cross-validation of a training set: k splits of the indices of `train` (dataset
/// rows), fold f of a seeded permutation of `train` held out in split f. The held-out parts are
/// disjoint and cover `train`. Requires 2 <= k <= train.size().
std::vector<Split> innerKFold(const Indices& train, int k, std::uint64_t seed);

/// The cells of `rows` told apart by membership in each of `sets`: rows in the same cell lie in
/// exactly the same sets. Cells are sorted ascending and ordered by their first row; together
/// they are `rows`. Every union of cells that is a training set of an inner split (the rest of its
/// validation set) is then a sum of per-cell statistics.
std::vector<Indices> cellsOf(const Indices& rows, const std::vector<Indices>& sets);

/// Rows `idx` of X, in that order.
MatrixXfR selectRows(const MatrixXfR& X, const Indices& idx);

/// Elements `idx` of v, in that order.
template <class T>
std::vector<T> select(const std::vector<T>& v, const Indices& idx)
{
    std::vector<T> out;
    out.reserve(idx.size());
    for (std::size_t i : idx)
        out.push_back(v.at(i));
    return out;
}

} // namespace orbit

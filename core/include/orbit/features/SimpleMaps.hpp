#pragma once
// Baselines: the raw input and the sorted Coulomb matrix. (The second layer `+rf2` is in
// SecondLayer.hpp.)
#include "orbit/features/FeatureMap.hpp"

namespace orbit {

/// A map psi: R^d -> R^d of samples of `shape` with nothing to fit (the baselines below).
class InputSpaceMap : public FeatureMap {
public:
    explicit InputSpaceMap(Shape shape) : shape_(shape) {}
    void fit(const MatrixXfR&, std::uint64_t, const Progress&) override {}
    using FeatureMap::fit;
    Eigen::Index dim() const override { return shape_.dim(); }

protected:
    Shape shape_;
};

/// psi(x) = x (linear kernel <x, y>).
class RawMap : public InputSpaceMap {
public:
    using InputSpaceMap::InputSpaceMap;
    std::string spec() const override { return "raw"; }
    std::string kernel() const override { return "linear <x, y>"; }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;
};

/// Sorted Coulomb matrix (Montavon et al. 2012): P C P^T with P ordering the rows by decreasing
/// norm ||C_i|| (ties by index), flattened. Invariant to simultaneous row/column permutations
/// (up to ties). Requires square n x n x 1 samples.
class SortedCoulombMap : public InputSpaceMap {
public:
    explicit SortedCoulombMap(Shape shape);
    std::string spec() const override { return "sorted"; }
    std::string kernel() const override { return "linear on row-norm-sorted Coulomb matrices"; }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;
};

} // namespace orbit

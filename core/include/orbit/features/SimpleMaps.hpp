#pragma once
// Baselines and composition: raw input, sorted Coulomb matrix, a second Gaussian RF layer.
#include "orbit/features/FeatureMap.hpp"

#include <memory>

namespace orbit {

/// psi(x) = x (linear kernel <x, y>).
class RawMap : public FeatureMap {
public:
    explicit RawMap(Shape shape) : shape_(shape) {}
    std::string spec() const override { return "raw"; }
    std::string kernel() const override { return "linear <x, y>"; }
    void fit(const MatrixXfR&, std::uint64_t, const Progress&) override {}
    using FeatureMap::fit;
    Eigen::Index dim() const override { return shape_.dim(); }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;

private:
    Shape shape_;
};

/// Sorted Coulomb matrix (Montavon et al. 2012): P C P^T with P ordering the rows by decreasing
/// norm ||C_i|| (ties by index), flattened. Invariant to simultaneous row/column permutations
/// (up to ties). Requires square n x n x 1 samples.
class SortedCoulombMap : public FeatureMap {
public:
    explicit SortedCoulombMap(Shape shape);
    std::string spec() const override { return "sorted"; }
    std::string kernel() const override { return "linear on row-norm-sorted Coulomb matrices"; }
    void fit(const MatrixXfR&, std::uint64_t, const Progress&) override {}
    using FeatureMap::fit;
    Eigen::Index dim() const override { return shape_.dim(); }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;

private:
    Shape shape_;
};

/// Second layer: psi2(x) = z(psi1(x)), z the plain Gaussian random Fourier features on the first
/// layer's output (a Gaussian hyperkernel on orbit embeddings, LGIKA remark 3). The bandwidth is
/// absolute (sigma=X) or a multiple of the median pairwise distance of the first-layer features of
/// the training data (median=F, default 1). fit() fits the first layer, then the second on its output
/// (progress: the first layer's fit, then one report before the first-layer features of all rows).
class StackedMap : public FeatureMap {
public:
    StackedMap(std::unique_ptr<FeatureMap> first, int s2, std::optional<double> sigma, double medianFactor);
    ~StackedMap() override;
    std::string spec() const override;
    std::string kernel() const override;
    void fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress) override;
    using FeatureMap::fit;
    Eigen::Index dim() const override { return s2_; }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;

private:
    std::unique_ptr<FeatureMap> first_;
    std::unique_ptr<FeatureMap> second_;
    int s2_;
    std::optional<double> sigma_;
    double medianFactor_;
};

} // namespace orbit

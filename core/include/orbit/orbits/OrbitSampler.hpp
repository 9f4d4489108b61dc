#pragma once
// Orbit sampling: r group elements per input and the transformed copies, in blocks.
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace orbit {

/// Draws r elements g_1..g_r ~ q for each input and applies them.
///
/// Determinism: the elements for input i come from the sub-stream deriveSeed(seed, i) (and the
/// shared set from a fixed stream of its own), so results are bit-identical at any thread count
/// and for any blocking of the inputs.
class OrbitSampler {
public:
    OrbitSampler(std::shared_ptr<const Group> group, std::shared_ptr<const Distribution> dist,
                 Shape shape, int r, std::uint64_t seed);

    const Group& group() const { return *group_; }
    const Distribution& distribution() const { return *dist_; }
    const Shape& shape() const { return shape_; }
    int r() const { return r_; }
    std::uint64_t seed() const { return seed_; }

    /// The r elements for the input with dataset index `index` (x is used by data-dependent q).
    std::vector<GroupElement> elementsFor(std::size_t index, const float* x) const;
    /// One set of r elements shared by all inputs (the template trick). Requires !dependsOnInput().
    std::vector<GroupElement> sharedElements() const;

    /// The same elements as elementsFor / sharedElements (the same draws), with tangents[k][m] =
    /// d g_k / d params[m] (Distribution::sampleWithTangents). Throws SpecError for a parameter
    /// without a reparameterised derivative.
    std::vector<GroupElement> elementsFor(std::size_t index, const float* x, const std::vector<std::string>& params,
                                          std::vector<std::vector<GroupTangent>>& tangents) const;
    std::vector<GroupElement> sharedElements(const std::vector<std::string>& params,
                                             std::vector<std::vector<GroupTangent>>& tangents) const;

    /// Writes the r transformed copies of x into rows [0, r) of out (resized to r x dim).
    void orbit(const float* x, const std::vector<GroupElement>& elements, MatrixXfR& out) const;

    /// Transformed copies of rows [begin, end) of X (whose row i has dataset index i): row
    /// (i - begin) * r + k of `out` is g_{i,k} x_i. Parallel over inputs (OpenMP).
    void transformBlock(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const;

private:
    std::vector<GroupElement> draw(std::uint64_t stream, const float* x, const std::vector<std::string>* params,
                                   std::vector<std::vector<GroupTangent>>* tangents) const;

    std::shared_ptr<const Group> group_;
    std::shared_ptr<const Distribution> dist_;
    Shape shape_;
    int r_;
    std::uint64_t seed_;
};

} // namespace orbit

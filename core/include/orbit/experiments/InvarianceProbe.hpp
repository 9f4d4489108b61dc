#pragma once
// The invariance probe: how similar psi(g x) stays to psi(x) as g sweeps the group.
#include "orbit/features/FeatureMap.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace orbit {

/// One curve: similarity[i] = <psi(x), psi(g_i x)> / (||psi(x)|| ||psi(g_i x)||) at parameter values[i].
struct InvarianceCurve {
    std::string parameter;         ///< axis label: "theta (rad)", "dx (px)", "scale", "k", "transpositions"
    std::vector<double> values;
    std::vector<double> similarity;
};

/// Sweeps g over the group: rotation (and affine) theta on a grid of `points` angles in [-pi, pi];
/// translation dx in [-w/2, w/2] (dy = 0); scale s log-spaced in [1/2, 2]; cyclic and orthogonal
/// sets all their elements; permutations the composition of 0, 1, .. points-1 random transpositions
/// (drawn with `seed`). Each copy is transformed as dataset index 0, so a data-dependent q draws
/// from the same sub-stream for every copy. Requires a fitted map with map.dim() > 0.
InvarianceCurve invarianceProbe(const FeatureMap& map, const Group& group, const Shape& shape, const float* x,
                                int points = 73, std::uint64_t seed = 0);

} // namespace orbit

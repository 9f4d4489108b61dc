#pragma once
// The invariance probe: how similar psi(g x) stays to psi(x) as g sweeps the group.
#include "orbit/util/Progress.hpp"
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
/// (drawn with `seed`). x and its copies go through the map in batches of 256 rows; a map whose
/// rows depend on their index (usesRowIndex: a data-dependent q) transforms each copy alone as
/// dataset index 0, so that q draws from the same sub-stream for every copy. Requires a fitted map
/// with map.dim() > 0.
InvarianceCurve invarianceProbe(const FeatureMap& map, const Group& group, const Shape& shape, const float* x,
                                int points = 73, std::uint64_t seed = 0);

/// The plain counterpart of an invariant map spec, with the same templates (the same seed draws
/// the same W, b or landmarks): irf:s=S,r=R -> rf:s=S, inystrom:s=S,r=R -> nystrom:s=S (other
/// keys kept, r and mode dropped); a second layer (+rf2:...) stays. Throws SpecError("features")
/// for a map that has no plain counterpart.
std::string plainFeatureSpec(const std::string& invariantSpec);

/// The probe of one input as the Orbits panel draws it.
struct ProbeConfig {
    std::string group, dist;                   ///< specs (makeGroup, makeDistribution)
    std::string kernel = "gaussian:median=1";  ///< base kernel, resolved on the fit points
    std::string features = "irf:s=200,r=20";   ///< the invariant map (irf or inystrom, optionally +rf2)
    std::size_t fitCount = 200;                ///< the maps are fitted on kernelPlotIndices(data, fitCount, seed)
    int points = 73;
    std::uint64_t seed = 0;
};

struct ProbeResult {
    std::string parameter;                ///< as InvarianceCurve::parameter
    std::vector<double> values;
    std::vector<double> invariant, plain; ///< the two similarity curves at `values`
    std::string invariantSpec, plainSpec; ///< the maps' specs after their fit
};

/// Builds the context of config on min(fitCount, count) points of `data` (kernelPlotIndices with
/// config.seed), fits the invariant map and plainFeatureSpec of it with config.seed, and probes
/// both on sample `index` (invarianceProbe with config.points and config.seed).
/// Throws SpecError("index") for an index outside the data, SpecError("data") for fewer than two
/// samples, SpecError("features") for a map without a plain counterpart. `progress` may cancel.
ProbeResult probeInvariance(const Dataset& data, std::size_t index, const ProbeConfig& config,
                            const Progress& progress = {});

} // namespace orbit

#pragma once
// The density of a distribution over a one-parameter group and the histogram of draws from it
// (the Group panel's chart and `orbitlab-cli density`).
#include "orbit/data/Dataset.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/groups/Group.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace orbit {

/// How many draws and bins.
struct DensityConfig {
    int samples = 20000;     ///< draws in the histogram (>= 1)
    int minBins = 40;        ///< at least this many bins (>= 1); narrow densities get more
    int maxBins = 300;       ///< at most this many bins for a density (>= minBins)
    int curvePoints = 2000;  ///< the density is evaluated at curvePoints + 1 equally spaced t (>= 1)
    std::uint64_t seed = 0;
    /// Throws SpecError naming the field (samples, bins, points) when a value is out of range.
    void validate() const;
};

/// The summary of one factor: the density q(t) of its parameter t and a normalised histogram of
/// `samples` draws t_i (the parameter of g_i ~ q).
///
/// The parameter t: rotation theta (rad), translation dx (px; dy follows the same law), scale s,
/// cyclic k (one bar per k), permutations the number of atoms moved from the reference order (the
/// noisy sort's sorted order for an input-dependent q, else the identity; one bar per count).
/// Range [lo, hi]: densityRange() for a density (rotation clipped to [-pi, pi]), else the range of
/// the draws; discrete parameters get [min - 1/2, max + 1/2] with one bin per value; a delta gets
/// [v - 1, v + 1].
/// Bins: for a density with standard deviation sd (its moments on a 4001-point grid), about three
/// bins per sd: clamp(ceil(3 (hi - lo) / sd), minBins, maxBins); otherwise minBins.
/// Guarantees: draw i falls in bin clamp(floor((t_i - lo) / binWidth), 0, bins - 1), so
/// sum_b histogram[b] binWidth = 1; density holds q at t (only finite values, t ascending);
/// the same seed gives the same bits (the draws use the stream makeRng(seed, "dens")).
struct DensitySummary {
    GroupKind kind = GroupKind::Rotation;
    std::string group;      ///< spec of the (factor) group
    std::string dist;       ///< spec of the distribution
    std::string parameter;  ///< densityParameterName(group)
    int samples = 0;
    bool hasDensity = false;
    double lo = 0.0, hi = 1.0, binWidth = 1.0;
    std::vector<double> histogram;  ///< per bin: count / (samples binWidth)
    std::vector<double> t, density; ///< the curve (empty without a density)
    /// The largest value of the histogram and the density (0 when both are empty).
    double peak() const;
    /// The histogram's height at x: the bin a draw at x would fall into.
    double histogramAt(double x) const;
    /// The centre of bin b.
    double binCentre(int b) const { return lo + (b + 0.5) * binWidth; }
};

/// The parameter plotted for a group (Group::parameterAxis): "theta (rad)", "dx (px)", "s", "k",
/// "atoms moved"; empty for groups with no one-dimensional parameter (affine as a whole, orthogonal sets).
std::string densityParameterName(const Group& group);

/// One factor of a group with its distribution: the group itself, or for the affine group its
/// rotation, translation and scale factors with theirs.
struct DensityFactor {
    std::string name;  ///< "rotation", "translation", "scale", or the group's spec
    std::shared_ptr<const Group> group;
    std::shared_ptr<const Distribution> dist;
};

/// The factors of (group, dist). `seed` and `shape` build the factor groups (makeGroup).
std::vector<DensityFactor> densityFactors(const std::shared_ptr<const Group>& group,
                                          const std::shared_ptr<const Distribution>& dist, const Shape& shape,
                                          std::uint64_t seed);

/// Draws config.samples elements of `dist` on `group` (one factor) and summarises them as above.
/// `data` and `index` give the input of an input-dependent q and the molecule of permutation
/// counts (its atoms); `data` may be null otherwise. `shape` is the samples' shape.
/// Throws SpecError("group") when the kind has no one-dimensional parameter, SpecError("data")
/// when q depends on the input or the group permutes atoms and there is no data, SpecError("index")
/// for an index outside the data. `progress` is asked every 1024 draws (it may cancel).
DensitySummary densitySummary(const Group& group, const Distribution& dist, const Shape& shape, const Dataset* data,
                              std::size_t index, const DensityConfig& config, const Progress& progress = {});

} // namespace orbit

#pragma once
// The kernel curve of a pair of inputs along a one-parameter group: c(t) = k(g_t x_i, x_j) over a
// grid of t, with the density q(t) of the distribution on the same grid and the t that aligns the
// two best (the inspector's chart and `orbitlab-cli kernel --pair I,J`).
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace orbit {

struct KernelCurveConfig {
    int points = 360;         ///< grid points of a continuous parameter (>= 2); cyclic groups use their n elements
    int qSamples = 20000;     ///< draws behind q(k) of a cyclic group (its frequencies)
    std::uint64_t seed = 0;   ///< the stream of those draws
    /// Throws SpecError("points") / SpecError("samples") for values below the minimum.
    void validate() const;
};

/// c(t) = k(g_t x_i, x_j) on a grid of the group's one parameter t:
///   rotation     theta = 2 pi (k - floor(P/2)) / P, k = 0 .. P-1: [-pi, pi) with 0 on the grid;
///   scale        s log-spaced over [min(lo, 1/2), max(hi, 2)], [lo, hi] the density's range (lo <= 0
///                replaced by 1/hi), so the identity s = 1 and the distribution's support are both in it;
///   translation  the x shift dx (dy = 0) over [min(lo, -w/2), max(hi, w/2)]: the group has two
///                parameters, the curve follows the first;
///   cyclic C_n   the n elements k = 0 .. n-1.
/// q holds the density q(t) of the distribution at t (Distribution::density), for a cyclic group the
/// frequency of k among qSamples draws (densitySummary with `seed`); it is empty when the
/// distribution has no density (the delta).
///
/// best = argmax_t c(t) (the first of equal maxima): the transformation that aligns g_t x_i with
/// x_j best, whatever q says -- what makes a 6 and a rotated 6 close once q reaches that far.
/// bestWeighted = argmax_t c(t) q(t): the alignment q weighs most (empty without q).
/// weightedMean = sum c q dt / sum q dt: E_{g ~ q} k(g x_i, x_j) on the grid (the one-sided
/// invariant kernel of the pair; k_qG averages over both sides). NaN without q.
struct KernelCurve {
    std::string parameter;  ///< densityParameterName of the kind: "theta (rad)", "s", "dx (px)", "k"
    std::vector<double> t, c, q;
    std::size_t best = 0;
    std::optional<std::size_t> bestWeighted;
    double weightedMean = 0.0;
    double tStar() const { return t[best]; }
    double cStar() const { return c[best]; }
};

/// Empty when kernelCurve() applies to the group; else why not, in one sentence (permutations and
/// orthogonal sets have no ordered parameter; the affine group has four).
std::string kernelCurveUnavailable(const Group& group);

/// The curve of the pair (x_i, x_j), each shape.dim() floats. Throws SpecError("group") with
/// kernelCurveUnavailable's reason for a group it does not apply to, and the config's errors.
KernelCurve kernelCurve(const Group& group, const Distribution& dist, const BaseKernel& kernel, const Shape& shape,
                        const float* xi, const float* xj, const KernelCurveConfig& config = {});

} // namespace orbit

#pragma once
// Transformation groups and their actions T_g on samples (docs/design.md, "Groups and actions").
#include "orbit/data/Dataset.hpp"
#include "orbit/registry/GroupKinds.hpp"
#include "orbit/util/Progress.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace orbit {

/// One group element, in the parameters of its group. Unused fields keep their identity values.
/// Affine elements act as rotation(theta) * translation(dx, dy) * scale(s): scale first.
struct GroupElement {
    double theta = 0.0;        ///< rotation angle in radians, in (-pi, pi]
    double dx = 0.0, dy = 0.0; ///< translation in pixels (x to the right, y down)
    double scale = 1.0;        ///< isotropic zoom factor s > 0
    int k = 0;                 ///< cyclic C_n: rotation by 2 pi k / n; orthogonal set: matrix index
    std::vector<int> perm;     ///< permutation: row/column i of the result is row/column perm[i] of the input
    bool operator==(const GroupElement&) const = default;
};

/// A tangent of the continuous parameters of an element: d(theta, dx, dy, scale) / d epsilon.
struct GroupTangent {
    double theta = 0.0, dx = 0.0, dy = 0.0, scale = 0.0;
    bool operator==(const GroupTangent&) const = default;
};

class Rng;

/// An element's coordinates as `orbitlab-cli sample --json` prints them: one number or a list,
/// of reals (theta, dx dy, s) or integers (cyclic k, permutation indices).
struct ElementCoordinates {
    std::vector<double> values;
    bool list = false;      ///< a list [a, b, ...] rather than one number
    bool integers = false;  ///< printed as integers
};

/// The group's one-dimensional parameter as the figures plot it: the density summary's axis and
/// the kernel curve's t. A group without one (affine, the orthogonal set) has an empty name.
struct ParameterAxis {
    std::string name;  ///< "theta (rad)", "dx (px)", "s", "k", "atoms moved"
    /// The same in a person's words, for the density's axis in the window ("rotation angle θ (rad)");
    /// empty: the name.
    std::string title{};
    double lo = -std::numeric_limits<double>::infinity();  ///< values are clipped to [lo, hi]
    double hi = std::numeric_limits<double>::infinity();
    bool discrete = false;     ///< integers: one histogram bar per value, unit curve weights (cyclic k)
    bool periodic = false;     ///< wraps around: uniform curve weights (the rotation angle)
    bool movedAtoms = false;   ///< counts the atoms a permutation moves from a reference order
};

/// A path of elements g_t through a group over its parameter t (the invariance probe's and the
/// kernel curve's horizontal axis).
struct ElementPath {
    std::string parameter;  ///< the axis title: "theta (rad)", "dx (px)", "scale", "k", ...
    std::vector<double> t;
    std::vector<GroupElement> elements;
};

/// A group acting on samples of a given Shape.
///
/// Contract: apply(g, x) writes T_g x; apply(compose(a, b), x) == apply(a, apply(b, x)) (exactly
/// for finite groups, up to interpolation otherwise); apply(inverse(g), apply(g, x)) ~ x.
/// isUnitary(): ||T_g x|| == ||x|| (up to interpolation and the border), which with a symmetric
/// distribution allows the template trick <w, g x> = <g^-1 w, x>.
class Group {
public:
    virtual ~Group() = default;
    virtual GroupKind kind() const = 0;
    /// The spec string that recreates it, e.g. "cyclic:n=4".
    virtual std::string spec() const = 0;
    /// Throws SpecError if the group cannot act on samples of this kind/shape.
    virtual void checkShape(DataKind kind, const Shape& shape) const = 0;
    virtual GroupElement identity(const Shape& shape) const = 0;
    virtual GroupElement inverse(const GroupElement& g) const = 0;
    /// a * b (apply b first, then a).
    virtual GroupElement compose(const GroupElement& a, const GroupElement& b) const = 0;
    /// out = T_g in; both hold shape.dim() floats and must not alias.
    virtual void apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const = 0;
    virtual bool isUnitary() const = 0;
    /// Whether every T_g on samples of `shape` only permutes their coordinates (exact index copies,
    /// no interpolation, no zero fill). Then every distance that is a sum over coordinates keeps
    /// ||T_g x - T_g y||_1 = ||x - y||_1, so the template trick holds for the L1 (Laplacian) kernel
    /// too: k(g x, z) = k(x, g^-1 z). Unitary actions keep only the Euclidean distance.
    virtual bool permutesCoordinates(const Shape& shape) const
    {
        (void)shape;
        return false;
    }
    virtual bool isFinite() const { return false; }
    /// Whether an average over the Haar measure is taken as the exact sum over every element
    /// (elements()) rather than sampled: the finite groups of few elements (cyclic, the orthogonal
    /// set). The permutations are finite but have n! elements.
    virtual bool sumsHaarOverElements() const { return isFinite(); }
    /// All elements of a finite group (for exact Haar sums). Throws SpecError for infinite groups
    /// or when there are more than `limit` elements.
    virtual std::vector<GroupElement> elements(const Shape& shape, std::size_t limit = 1u << 20) const;
    /// One line as `orbitlab-cli sample` prints it: theta / dx dy / s / theta dx dy s / k / indices.
    virtual std::string describe(const GroupElement& g) const = 0;
    /// Does now, reporting to `progress`, the work the group would otherwise do at its first
    /// apply(): the orthogonal set draws its matrices. Throws Cancelled when `progress` asks; what
    /// was done is kept, and the next call (or apply()) does the rest. Most groups have nothing to do.
    virtual void prepare(const Progress& progress) const { (void)progress; }
    /// The element's coordinates for `sample --json` (the numbers describe() prints).
    virtual ElementCoordinates coordinates(const GroupElement& g) const = 0;

    /// Whether the group has a Haar (uniform) probability measure: compact groups (rotation, the
    /// finite ones). Translations and scales do not.
    virtual bool hasHaarProbability() const { return false; }
    /// Whether compose() stays in the set: true for groups; the orthogonal set is a set of matrices,
    /// not a group, so moving the input by one of them does not redraw from its Haar measure.
    virtual bool isClosed() const { return true; }
    /// One element drawn from the Haar probability measure. Throws SpecError ("group") when
    /// !hasHaarProbability().
    virtual GroupElement sampleHaar(Rng& rng, const Shape& shape) const;

    /// The one-dimensional parameter the figures plot (empty name: none).
    virtual ParameterAxis parameterAxis() const { return {}; }
    /// The element's value on parameterAxis() (0 without one).
    virtual double parameterOf(const GroupElement& g) const
    {
        (void)g;
        return 0.0;
    }
    /// The invariance probe's path of `points` elements (a finite group: all its elements, over k);
    /// `seed` for a path that is drawn (the permutations' transpositions).
    virtual ElementPath probePath(const Shape& shape, int points, std::uint64_t seed) const;
    /// Why the kernel curve has no path over t through this group; empty when it has one.
    virtual std::string curveUnavailable() const { return "no curve for this group"; }
    /// The kernel curve's grid of `points` elements over parameterAxis(); `range` is the interval
    /// that holds nearly all of the distribution's mass (or null without a density), which the grid
    /// covers. Throws SpecError ("group") with curveUnavailable() when there is none.
    virtual ElementPath curvePath(const Shape& shape, int points, const std::pair<double, double>* range) const;

    /// Whether the action is differentiable in the element's continuous parameters (applyTangent).
    virtual bool isDifferentiable() const { return false; }
    /// out = d/de T_{g(e)} in at e = 0 for g(e) = g + e dg (parameters theta, dx, dy, scale): the
    /// derivative of the interpolated image with respect to where each output pixel samples the
    /// input, times the generator of the action, plus the intensity factor's own derivative.
    /// Exact for the implemented (bilinear) warp away from the pixel grid's kinks. Throws SpecError
    /// ("group") when !isDifferentiable().
    virtual void applyTangent(const GroupElement& g, const GroupTangent& dg, const float* in, float* out,
                              const Shape& shape) const;
    /// apply() and applyTangent() in double precision (interpolation weights, values and output), for
    /// derivative checks that float rounding would drown. Throws SpecError when !isDifferentiable().
    virtual void apply(const GroupElement& g, const double* in, double* out, const Shape& shape) const;
    virtual void applyTangent(const GroupElement& g, const GroupTangent& dg, const double* in, double* out,
                              const Shape& shape) const;
    /// d/de inverse(g(e)) at e = 0 for g(e) = g + e dg. Throws SpecError when !isDifferentiable().
    virtual GroupTangent inverseTangent(const GroupElement& g, const GroupTangent& dg) const;
};

/// Builds a group from its spec string (`rotation`, `translation`, `scale`, `affine`,
/// `cyclic:n=N`, `permutation`, `orthogonal:k=K`). The orthogonal set needs the sample shape and a
/// seed to draw its K Haar-random matrices; other groups ignore them. Throws SpecError("group").
std::shared_ptr<const Group> makeGroup(const std::string& spec, const Shape& shape = {},
                                       std::uint64_t seed = 0);

} // namespace orbit

// What each built-in group tells the figures, `sample` and the Haar measure about itself: its
// coordinates, its Haar sampler, its plotted parameter and the paths the probe and the kernel curve
// walk (so none of them branches on the kind of group).
#include "orbit/groups/AffineGroup.hpp"
#include "orbit/groups/CyclicGroup.hpp"
#include "orbit/groups/OrthogonalSetGroup.hpp"
#include "orbit/groups/PermutationGroup.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace orbit {

namespace {

/// `points` elements from the identity with one parameter set by `at(e, i)`, which returns t.
template <class At>
ElementPath pathOf(const Group& group, const Shape& shape, int points, std::string parameter, At at)
{
    ElementPath p;
    p.parameter = std::move(parameter);
    for (int i = 0; i < points; ++i) {
        GroupElement e = group.identity(shape);
        p.t.push_back(at(e, i));
        p.elements.push_back(std::move(e));
    }
    return p;
}

/// The rotation angle from -pi to pi (the probe's path of rotations and of affine maps).
ElementPath anglePath(const Group& group, const Shape& shape, int points)
{
    return pathOf(group, shape, points, "theta (rad)", [&](GroupElement& e, int i) {
        return e.theta = -std::numbers::pi + 2 * std::numbers::pi * i / (points - 1);
    });
}

} // namespace

GroupElement Group::sampleHaar(Rng&, const Shape&) const
{
    throw SpecError("group", "has no Haar probability measure", spec());
}

ElementPath Group::probePath(const Shape& shape, int, std::uint64_t) const
{
    if (!isFinite()) throw SpecError("group", "has no path for the invariance probe", spec());
    ElementPath p;
    p.parameter = "k";
    p.elements = elements(shape);
    for (std::size_t i = 0; i < p.elements.size(); ++i) p.t.push_back(double(i));
    return p;
}

ElementPath Group::curvePath(const Shape&, int, const std::pair<double, double>*) const
{
    throw SpecError("group", curveUnavailable(), spec());
}

// Rotation: theta in (-pi, pi].
GroupElement RotationGroup::sampleHaar(Rng& rng, const Shape&) const
{
    GroupElement g;
    g.theta = std::numbers::pi - 2.0 * std::numbers::pi * uniform01(rng);  // (-pi, pi]
    return g;
}

ParameterAxis RotationGroup::parameterAxis() const
{
    return {.name = "theta (rad)", .title = "rotation angle θ (rad)", .lo = -std::numbers::pi, .hi = std::numbers::pi, .periodic = true};
}

ElementPath RotationGroup::probePath(const Shape& shape, int points, std::uint64_t) const
{
    return anglePath(*this, shape, points);
}

ElementPath RotationGroup::curvePath(const Shape& shape, int points, const std::pair<double, double>*) const
{
    ElementPath p = pathOf(*this, shape, points, parameterAxis().name, [&](GroupElement& e, int k) {
        return e.theta = 2.0 * std::numbers::pi * double(k - points / 2) / double(points);
    });
    return p;
}

ElementPath AffineGroup::probePath(const Shape& shape, int points, std::uint64_t) const
{
    return anglePath(*this, shape, points);
}

// Translation: dx across the image's width (and the distribution's range).
ElementPath TranslationGroup::probePath(const Shape& shape, int points, std::uint64_t) const
{
    return pathOf(*this, shape, points, "dx (px)", [&](GroupElement& e, int i) {
        return e.dx = shape.width * (-0.5 + double(i) / (points - 1));
    });
}

ElementPath TranslationGroup::curvePath(const Shape& shape, int points, const std::pair<double, double>* range) const
{
    double lo = -0.5 * shape.width, hi = 0.5 * shape.width;
    if (range) {
        lo = std::min(lo, range->first);
        hi = std::max(hi, range->second);
    }
    return pathOf(*this, shape, points, parameterAxis().name, [&](GroupElement& e, int k) {
        return e.dx = lo + (hi - lo) * double(k) / double(points - 1);
    });
}

// Scale: s on a log grid from 1/2 to 2 (and the distribution's range).
ElementPath ScaleGroup::probePath(const Shape& shape, int points, std::uint64_t) const
{
    return pathOf(*this, shape, points, "scale", [&](GroupElement& e, int i) {
        return e.scale = std::pow(2.0, -1.0 + 2.0 * i / (points - 1));
    });
}

ElementPath ScaleGroup::curvePath(const Shape& shape, int points, const std::pair<double, double>* range) const
{
    double lo = 0.5, hi = 2.0;
    if (range) {
        auto [a, b] = *range;
        if (b > 0) {
            if (a <= 0) a = 1.0 / b;
            lo = std::min(lo, a);
            hi = std::max(hi, b);
        }
    }
    const double l0 = std::log(lo), l1 = std::log(hi);
    return pathOf(*this, shape, points, parameterAxis().name, [&](GroupElement& e, int k) {
        return e.scale = std::exp(l0 + (l1 - l0) * double(k) / double(points - 1));
    });
}

// Cyclic C_n: k uniform, every element on the curve.
GroupElement CyclicGroup::sampleHaar(Rng& rng, const Shape&) const
{
    GroupElement g;
    g.k = static_cast<int>(uniformIndex(rng, static_cast<std::uint64_t>(order())));
    return g;
}

ElementPath CyclicGroup::curvePath(const Shape& shape, int, const std::pair<double, double>*) const
{
    ElementPath p;
    p.parameter = parameterAxis().name;
    p.elements = elements(shape);
    for (const GroupElement& e : p.elements) p.t.push_back(double(e.k));
    return p;
}

// The orthogonal set: a uniform index.
GroupElement OrthogonalSetGroup::sampleHaar(Rng& rng, const Shape&) const
{
    GroupElement g;
    g.k = static_cast<int>(uniformIndex(rng, static_cast<std::uint64_t>(count())));
    return g;
}

// Permutations: the indices; Fisher-Yates; a chain of transpositions.
ElementCoordinates PermutationGroup::coordinates(const GroupElement& g) const
{
    return {std::vector<double>(g.perm.begin(), g.perm.end()), true, true};
}

GroupElement PermutationGroup::sampleHaar(Rng& rng, const Shape& shape) const
{
    GroupElement g = identity(shape);  // Fisher-Yates
    for (std::size_t i = g.perm.size(); i > 1; --i) std::swap(g.perm[i - 1], g.perm[uniformIndex(rng, i)]);
    return g;
}

ElementPath PermutationGroup::probePath(const Shape& shape, int points, std::uint64_t seed) const
{
    ElementPath p;
    p.parameter = "transpositions";
    Rng rng = makeRng(seed, 0x70726f6265ULL);
    GroupElement e = identity(shape);
    for (int i = 0; i < points; ++i) {
        p.elements.push_back(e);
        p.t.push_back(i);
        const std::size_t n = e.perm.size();
        if (n > 1) {
            const std::size_t a = uniformIndex(rng, n), b = (a + 1 + uniformIndex(rng, n - 1)) % n;
            std::swap(e.perm[a], e.perm[b]);
        }
    }
    return p;
}

} // namespace orbit

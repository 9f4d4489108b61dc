#pragma once
#include "orbit/groups/SimilaritySubgroup.hpp"

namespace orbit {

/// SO(2) acting on images: rotation by theta about the centre c = ((w-1)/2, (h-1)/2),
/// (T_theta x)(p) = x(c + R(-theta)(p - c)), counter-clockwise on screen, bilinear, zero border,
/// every channel alike. Elements use `theta` in (-pi, pi].
/// Requires: Images. Guarantees: quarter turns of square images are exact pixel permutations;
/// unitary up to interpolation and the corners that leave the image.
class RotationGroup final : public SimilaritySubgroup {
public:
    RotationGroup() : SimilaritySubgroup(true, false, false) {}
    GroupKind kind() const override { return GroupKind::Rotation; }
    std::string spec() const override { return "rotation"; }
    std::string describe(const GroupElement& g) const override;
    ElementCoordinates coordinates(const GroupElement& g) const override { return {{g.theta}}; }
    bool hasHaarProbability() const override { return true; }
    GroupElement sampleHaar(Rng& rng, const Shape& shape) const override;
    ParameterAxis parameterAxis() const override;
    double parameterOf(const GroupElement& g) const override { return g.theta; }
    ElementPath probePath(const Shape& shape, int points, std::uint64_t seed) const override;
    std::string curveUnavailable() const override { return {}; }
    ElementPath curvePath(const Shape& shape, int points, const std::pair<double, double>* range) const override;
};

} // namespace orbit

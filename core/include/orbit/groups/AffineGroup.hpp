#pragma once
#include "orbit/groups/SimilaritySubgroup.hpp"

namespace orbit {

/// The similarity subgroup rotation x translation x scale acting on images (LGIKA's CIFAR-10 setting):
/// g = rotation(theta) * translation(dx, dy) * scale(s), scale first, all about the centre c:
///   p -> c + s R(theta)(p - c) + R(theta) t,   (T_g x)(p') = (1/s) x(p).
/// Closed under compose (theta adds, s multiplies, t = s_a t_b + R(-theta_b) t_a) and inverse
/// (theta -> -theta, s -> 1/s, t -> -R(theta) t / s). Requires: Images. Unitary up to interpolation
/// and the border.
class AffineGroup final : public SimilaritySubgroup {
public:
    AffineGroup() : SimilaritySubgroup(true, true, true) {}
    GroupKind kind() const override { return GroupKind::Affine; }
    std::string spec() const override { return "affine"; }
    std::string describe(const GroupElement& g) const override;
    ElementCoordinates coordinates(const GroupElement& g) const override
    {
        return {{g.theta, g.dx, g.dy, g.scale}, true};
    }
    /// The probe turns the angle (as the rotation group's path).
    ElementPath probePath(const Shape& shape, int points, std::uint64_t seed) const override;
    std::string curveUnavailable() const override
    {
        return "the affine group has four parameters (angle, two shifts, scale): the curve needs a one-parameter group";
    }
};

} // namespace orbit

#pragma once
#include "orbit/groups/Group.hpp"

namespace orbit {

/// SO(2) acting on images: rotation by theta about the centre c = ((w-1)/2, (h-1)/2),
/// (T_theta x)(p) = x(c + R(-theta)(p - c)), counter-clockwise on screen, bilinear, zero border,
/// every channel alike. Elements use `theta` in (-pi, pi].
/// Requires: Images. Guarantees: quarter turns of square images are exact pixel permutations;
/// unitary up to interpolation and the corners that leave the image.
class RotationGroup final : public Group {
public:
    GroupKind kind() const override { return GroupKind::Rotation; }
    std::string spec() const override { return "rotation"; }
    void checkShape(DataKind kind, const Shape& shape) const override;
    GroupElement identity(const Shape&) const override { return {}; }
    GroupElement inverse(const GroupElement& g) const override;
    GroupElement compose(const GroupElement& a, const GroupElement& b) const override;
    void apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const override;
    bool isUnitary() const override { return true; }
    std::string describe(const GroupElement& g) const override;
};

} // namespace orbit

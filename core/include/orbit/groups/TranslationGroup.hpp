#pragma once
#include "orbit/groups/SimilaritySubgroup.hpp"

namespace orbit {

/// R^2 acting on images by sub-pixel shifts: (T_t x)(p) = x(p - t), t = (dx, dy) pixels (x right,
/// y down), bilinear, zero border. Requires: Images. Guarantees: Jacobian 1, so unitary up to the
/// border; integer shifts are exact index copies.
class TranslationGroup final : public SimilaritySubgroup {
public:
    TranslationGroup() : SimilaritySubgroup(false, true, false) {}
    GroupKind kind() const override { return GroupKind::Translation; }
    std::string spec() const override { return "translation"; }
    std::string describe(const GroupElement& g) const override;
    ElementCoordinates coordinates(const GroupElement& g) const override { return {{g.dx, g.dy}, true}; }
    ParameterAxis parameterAxis() const override { return {.name = "dx (px)", .title = "shift dx (px), same law for dy"}; }
    double parameterOf(const GroupElement& g) const override { return g.dx; }
    ElementPath probePath(const Shape& shape, int points, std::uint64_t seed) const override;
    std::string curveUnavailable() const override { return {}; }
    ElementPath curvePath(const Shape& shape, int points, const std::pair<double, double>* range) const override;
};

} // namespace orbit

#pragma once
#include "orbit/groups/SimilaritySubgroup.hpp"

namespace orbit {

/// The multiplicative group s > 0 acting on images by isotropic zoom about the centre c:
/// (T_s x)(p) = (1/s) x(c + (p - c)/s). The factor |J|^(-1/2) = 1/s keeps the action unitary
/// (LGIKA Lemma 2.1) as long as the zoomed image stays inside the frame. Requires: Images.
class ScaleGroup final : public SimilaritySubgroup {
public:
    ScaleGroup() : SimilaritySubgroup(false, false, true) {}
    GroupKind kind() const override { return GroupKind::Scale; }
    std::string spec() const override { return "scale"; }
    std::string describe(const GroupElement& g) const override;
    ElementCoordinates coordinates(const GroupElement& g) const override { return {{g.scale}}; }
    ParameterAxis parameterAxis() const override { return {.name = "s", .title = "zoom factor s"}; }
    double parameterOf(const GroupElement& g) const override { return g.scale; }
    ElementPath probePath(const Shape& shape, int points, std::uint64_t seed) const override;
    std::string curveUnavailable() const override { return {}; }
    ElementPath curvePath(const Shape& shape, int points, const std::pair<double, double>* range) const override;
};

} // namespace orbit

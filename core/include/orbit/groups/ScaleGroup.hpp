#pragma once
#include "orbit/groups/Group.hpp"

namespace orbit {

/// The multiplicative group s > 0 acting on images by isotropic zoom about the centre c:
/// (T_s x)(p) = (1/s) x(c + (p - c)/s). The factor |J|^(-1/2) = 1/s keeps the action unitary
/// (LGIKA Lemma 2.1) as long as the zoomed image stays inside the frame. Requires: Images.
class ScaleGroup final : public Group {
public:
    GroupKind kind() const override { return GroupKind::Scale; }
    std::string spec() const override { return "scale"; }
    void checkShape(DataKind kind, const Shape& shape) const override;
    GroupElement identity(const Shape&) const override { return {}; }
    GroupElement inverse(const GroupElement& g) const override;
    GroupElement compose(const GroupElement& a, const GroupElement& b) const override;
    void apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const override;
    bool isUnitary() const override { return true; }
    std::string describe(const GroupElement& g) const override;
};

} // namespace orbit

#pragma once
#include "orbit/groups/Group.hpp"

namespace orbit {

/// R^2 acting on images by sub-pixel shifts: (T_t x)(p) = x(p - t), t = (dx, dy) pixels (x right,
/// y down), bilinear, zero border. Requires: Images. Guarantees: Jacobian 1, so unitary up to the
/// border; integer shifts are exact index copies.
class TranslationGroup final : public Group {
public:
    GroupKind kind() const override { return GroupKind::Translation; }
    std::string spec() const override { return "translation"; }
    void checkShape(DataKind kind, const Shape& shape) const override;
    GroupElement identity(const Shape&) const override { return {}; }
    GroupElement inverse(const GroupElement& g) const override;
    GroupElement compose(const GroupElement& a, const GroupElement& b) const override;
    void apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const override;
    bool isUnitary() const override { return true; }
    std::string describe(const GroupElement& g) const override;
};

} // namespace orbit

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
};

} // namespace orbit

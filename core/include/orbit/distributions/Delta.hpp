#pragma once
#include "orbit/distributions/Distribution.hpp"

namespace orbit {

/// The point mass at the identity: every sample is group.identity(shape), and the local kernel is
/// the plain base kernel. Works with every group. Symmetric; no density.
class Delta final : public Distribution {
public:
    std::string spec() const override { return "delta"; }
    void checkGroup(const Group&) const override {}
    GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const override;
    bool isSymmetric() const override { return true; }

protected:
    GroupKind parameterGroup() const override { return GroupKind::Rotation; }  // no parameters on any group
};

} // namespace orbit

#pragma once
#include "orbit/distributions/Distribution.hpp"

#include <memory>

namespace orbit {

/// The product distribution over the affine group g = rotation(theta) * translation(t) * scale(s):
/// theta ~ q_rot, t ~ q_trans, s ~ q_scale independently (drawn in that order from the engine).
/// Spec: `rotation=D1,translation=D2,scale=D3` (also `;`-separated); a new factor starts at a
/// comma followed by `rotation=`, `translation=` or `scale=`, so factor specs keep their own commas
/// (`scale=lognormal:mu=0,sigma=0.3`). Missing factors are the delta; plain `delta` is all three.
/// Symmetric only when q(g) = q(g^-1) holds for g^-1 = (-theta, -R(theta) t / s, 1/s): every factor
/// symmetric, not both translation and scale random, and an isotropic (Gaussian) translation when
/// the rotation is random.
class AffineProduct final : public Distribution {
public:
    AffineProduct(std::shared_ptr<const Distribution> rotation, std::shared_ptr<const Distribution> translation,
                  std::shared_ptr<const Distribution> scale);
    /// Parses the spec above (field "distribution"); throws SpecError.
    static std::shared_ptr<const AffineProduct> parse(const std::string& text);

    const Distribution& rotation() const { return *rotation_; }
    const Distribution& translation() const { return *translation_; }
    const Distribution& scale() const { return *scale_; }

    std::string spec() const override;
    void checkGroup(const Group& group) const override;
    GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const override;
    bool isSymmetric() const override;

    /// "rotation.kappa", "translation.sigma", "scale.mu", "scale.sigma", ... (the factors' own, prefixed).
    std::vector<std::pair<std::string, double>> parameters() const override;
    const ParamDescriptor& parameterDescriptor(const std::string& name) const override;
    std::shared_ptr<const Distribution> withParameters(const std::map<std::string, double>& values) const override;
    /// Factor by factor, in sample()'s order (rotation, translation, scale).
    GroupElement sampleWithTangents(Rng& rng, const Group& group, const Shape& shape, const float* x,
                                    const std::vector<std::string>& params,
                                    std::vector<GroupTangent>& tangents) const override;

protected:
    GroupKind parameterGroup() const override { return GroupKind::Affine; }

private:
    /// The factor (0 rotation, 1 translation, 2 scale) and key of "factor.key"; throws SpecError.
    std::pair<int, std::string> splitName(const std::string& name) const;
    const Distribution& factor(int f) const;

    std::shared_ptr<const Distribution> rotation_, translation_, scale_;
};

} // namespace orbit

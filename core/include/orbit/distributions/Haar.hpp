#pragma once
#include "orbit/distributions/Distribution.hpp"

namespace orbit {

/// The Haar (uniform) probability measure of a compact group: the rotation angle uniform on
/// (-pi, pi], k uniform on C_n, a uniform permutation of S_n (Fisher-Yates), or a uniform index into
/// a finite orthogonal set. Symmetric; with it the local kernel is the exact Haar-integration kernel.
/// Requires: rotation, cyclic, permutation or orthogonal (translation and scale have no Haar
/// probability measure).
class Haar final : public Distribution {
public:
    /// The kind of group it will be used with (the density exists for rotations only).
    explicit Haar(GroupKind kind) : kind_(kind) {}
    std::string spec() const override { return "haar"; }
    void checkGroup(const Group& group) const override;
    GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const override;
    bool isSymmetric() const override { return true; }
    bool isHaar() const override { return true; }
    /// The rotation angle's density 1 / (2 pi) (for plotting; the discrete groups have none).
    bool hasDensity() const override { return kind_ == GroupKind::Rotation; }
    double density(double theta) const override;
    std::pair<double, double> densityRange() const override;
    std::string densityParameter() const override { return "theta (rad)"; }

protected:
    GroupKind parameterGroup() const override { return kind_; }

private:
    GroupKind kind_;
};

/// Whether d is the Haar measure (Distribution::isHaar): with a finite group, averages over q may
/// then be exact sums over all elements.
inline bool isHaar(const Distribution& d) { return d.isHaar(); }

} // namespace orbit

#pragma once
#include "orbit/distributions/Distribution.hpp"

namespace orbit {

/// The hard window U[-a, a] (I-theory / van der Wilk et al.): on the rotation angle
/// (q(theta) = 1/(2a), requires 0 < a <= pi) or independently on each translation axis
/// (q(dx) = 1/(2a) per axis, requires a > 0). Symmetric.
class UniformWindow final : public Distribution {
public:
    explicit UniformWindow(double a, GroupKind kind);
    double halfWidth() const { return a_; }

    std::string spec() const override;
    void checkGroup(const Group& group) const override;
    GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const override;
    GroupElement sampleWithTangents(Rng& rng, const Group& group, const Shape& shape, const float* x,
                                    const std::vector<std::string>& params,
                                    std::vector<GroupTangent>& tangents) const override;
    bool isSymmetric() const override { return true; }
    bool hasDensity() const override { return true; }
    double density(double t) const override;
    std::pair<double, double> densityRange() const override;
    std::string densityParameter() const override;

protected:
    GroupKind parameterGroup() const override { return kind_; }

private:
    double a_;
    GroupKind kind_;
};

} // namespace orbit

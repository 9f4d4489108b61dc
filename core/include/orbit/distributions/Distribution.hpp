#pragma once
// Probability distributions q over a group: the locality knob (DESIGN.md §1).
#include "orbit/groups/Group.hpp"
#include "orbit/util/Random.hpp"

#include <memory>
#include <string>
#include <utility>

namespace orbit {

/// A distribution over the elements of a group.
///
/// Contract: sample() draws g ~ q from the caller's engine (and, when dependsOnInput(), from the
/// sample x it is given); isSymmetric() says q(g) == q(g^-1); where hasDensity(), density(t)
/// evaluates the density of the one-dimensional parameter t (angle, shift per axis, scale) for
/// plotting, and densityRange() a range that holds nearly all of its mass.
class Distribution {
public:
    virtual ~Distribution() = default;
    virtual std::string spec() const = 0;
    /// Throws SpecError if this distribution cannot be used with the group.
    virtual void checkGroup(const Group& group) const = 0;
    /// x points to shape.dim() floats; it may be null when !dependsOnInput().
    virtual GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const = 0;
    virtual bool isSymmetric() const = 0;
    virtual bool dependsOnInput() const { return false; }
    virtual bool hasDensity() const { return false; }
    virtual double density(double t) const;
    virtual std::pair<double, double> densityRange() const { return {-1.0, 1.0}; }
    /// The name of the density's parameter for plot axes ("theta (rad)", "dx (px)", "s").
    virtual std::string densityParameter() const { return {}; }
};

/// Builds a distribution from its spec (`vonmises:kappa=K`, `uniform:a=A`, `gaussian:sigma=S`,
/// `lognormal:mu=M,sigma=S`, `haar`, `noisysort:sigma=S`, `delta`) for the given group; for the
/// affine group one per factor: `rotation=D1,translation=D2,scale=D3` (any factor may be left out,
/// it is then the delta). Throws SpecError("--dist") on bad text, parameters or group mismatch.
std::shared_ptr<const Distribution> makeDistribution(const std::string& spec, const Group& group);

} // namespace orbit

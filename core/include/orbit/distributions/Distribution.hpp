#pragma once
// Probability distributions q over a group: the locality knob (docs/design.md, "Distributions over a group").
#include "orbit/groups/Group.hpp"
#include "orbit/registry/Parameters.hpp"
#include "orbit/util/Random.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace orbit {

/// A distribution over the elements of a group.
///
/// Contract: sample() draws g ~ q from the caller's engine (and, when dependsOnInput(), from the
/// sample x it is given); isSymmetric() says q(g) == q(g^-1); where hasDensity(), density(t)
/// evaluates the density of the one-dimensional parameter t (angle, shift per axis, scale) for
/// plotting, and densityRange() a range that holds nearly all of its mass.
///
/// Common random numbers: sample() takes the same number of draws from the engine whatever the
/// parameter values, and the element is a continuous function of the parameters at fixed draws
/// (g = g(noise; parameters): theta = a (2u - 1), theta = F^-1(u; kappa), t = sigma eps,
/// s = exp(mu + sigma eps)). So the same seed gives elements that move smoothly as a parameter
/// moves, and sampleWithTangents() gives their derivatives (noisy sort's permutation is piecewise
/// constant in sigma: it has no derivative).
class Distribution {
public:
    virtual ~Distribution() = default;
    virtual std::string spec() const = 0;
    /// Throws SpecError if this distribution cannot be used with the group. By default: unless its
    /// registry descriptor (found by the name of spec()) applies to the group's kind.
    virtual void checkGroup(const Group& group) const;
    /// x points to shape.dim() floats; it may be null when !dependsOnInput().
    virtual GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const = 0;
    virtual bool isSymmetric() const = 0;
    virtual bool dependsOnInput() const { return false; }
    /// Whether q is the Haar (uniform) measure of the group: with a finite group, averages over q
    /// may then be exact sums over all elements, and a sample may be redrawn by moving the input.
    virtual bool isHaar() const { return false; }
    virtual bool hasDensity() const { return false; }
    virtual double density(double t) const;
    virtual std::pair<double, double> densityRange() const { return {-1.0, 1.0}; }
    /// The name of the density's parameter for plot axes ("theta (rad)", "dx (px)", "s").
    virtual std::string densityParameter() const { return {}; }

    /// Its numeric parameters and their values in spec order: "kappa"; "a"; "sigma"; "mu", "sigma";
    /// for the affine product prefixed by the factor: "rotation.kappa", "translation.sigma", ...
    virtual std::vector<std::pair<std::string, double>> parameters() const;
    /// The description of parameter `name` (named as in parameters()). Throws SpecError
    /// ("distribution") naming the parameter and the ones there are when it has no such parameter.
    virtual const ParamDescriptor& parameterDescriptor(const std::string& name) const;
    /// The same distribution with the named parameters set to new values (names as in parameters()).
    /// Throws SpecError naming the parameter and the value when a name is unknown or a value invalid.
    virtual std::shared_ptr<const Distribution> withParameters(const std::map<std::string, double>& values) const;
    /// Draws the element sample() would draw from the same engine state, taking the same draws, and
    /// writes tangents[i] = d g / d params[i] (GroupTangent) at fixed base noise (params named as in parameters()).
    /// Throws SpecError naming the parameter when it has no reparameterised derivative.
    virtual GroupElement sampleWithTangents(Rng& rng, const Group& group, const Shape& shape, const float* x,
                                            const std::vector<std::string>& params,
                                            std::vector<GroupTangent>& tangents) const;

protected:
    /// The group kind whose parameter descriptions apply (distributionParameters(name, kind)).
    virtual GroupKind parameterGroup() const = 0;
    /// Throws SpecError unless every name of params is one of parameters() with a learnable descriptor.
    void requireDifferentiable(const std::vector<std::string>& params) const;
};

/// Throws SpecError("distribution NAME.KEY") naming the value unless the registry's description of
/// parameter `key` of distribution `name` on a group of `kind` accepts v: what a constructor calls
/// on each of its parameters. ContractError when there is no such parameter.
void requireDistributionParameter(const std::string& name, GroupKind kind, const std::string& key, double v);

/// Builds a distribution from its spec (`vonmises:kappa=K`, `uniform:a=A`, `gaussian:sigma=S`,
/// `lognormal:mu=M,sigma=S`, `haar`, `noisysort:sigma=S`, `delta`) for the given group; for the
/// affine group one per factor: `rotation=D1,translation=D2,scale=D3` (any factor may be left out,
/// it is then the delta). The registry's descriptor of the name builds it (DistributionDescriptor::make),
/// so a registered distribution is built the same way. Throws SpecError("distribution") on bad text, parameters or group mismatch.
std::shared_ptr<const Distribution> makeDistribution(const std::string& spec, const Group& group);

} // namespace orbit

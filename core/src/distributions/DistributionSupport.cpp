#include "distributions/DistributionSupport.hpp"

#include "groups/GroupSupport.hpp"
#include "orbit/distributions/AffineProduct.hpp"
#include "orbit/distributions/Delta.hpp"
#include "orbit/distributions/GaussianTranslation.hpp"
#include "orbit/distributions/Haar.hpp"
#include "orbit/distributions/LogNormalScale.hpp"
#include "orbit/distributions/NoisySort.hpp"
#include "orbit/distributions/UniformWindow.hpp"
#include "orbit/distributions/VonMises.hpp"
#include "orbit/registry/Parameters.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <map>

#include <cmath>
#include <stdexcept>

namespace orbit {

namespace detail {

void requireParameter(const std::string& name, GroupKind kind, const std::string& key, double v)
{
    for (const ParamDescriptor& p : distributionParameters(name, kind)) {
        if (p.key != key) continue;
        const std::string why = p.violation(v);
        if (!why.empty()) throw SpecError("--dist " + name + "." + key, why, formatNumber(v));
        return;
    }
    throw std::logic_error("no descriptor for the parameter " + name + "." + key);
}

void groupMismatch(const Distribution& dist, const Group& group, const std::string& needs)
{
    throw SpecError("--dist", dist.spec() + " cannot be used with the group " + group.spec() + "; it needs " + needs,
                    dist.spec());
}

std::shared_ptr<const Distribution> makeSingleDistribution(const std::string& text, const std::string& field,
                                                           GroupKind kind)
{
    const Spec spec = parseSpec(text, field);
    const std::string& name = spec.name;
    if (name == "vonmises") {
        spec.allowOnly({"kappa"});
        return std::make_shared<VonMises>(spec.number("kappa"));
    }
    if (name == "uniform") {
        spec.allowOnly({"a"});
        return std::make_shared<UniformWindow>(spec.number("a"), kind);
    }
    if (name == "gaussian") {
        spec.allowOnly({"sigma"});
        return std::make_shared<GaussianTranslation>(spec.number("sigma"));
    }
    if (name == "lognormal") {
        spec.allowOnly({"mu", "sigma"});
        return std::make_shared<LogNormalScale>(spec.number("mu", 0.0), spec.number("sigma"));
    }
    if (name == "noisysort") {
        spec.allowOnly({"sigma"});
        return std::make_shared<NoisySort>(spec.number("sigma"));
    }
    if (name == "haar") {
        spec.allowOnly({});
        return std::make_shared<Haar>(kind);
    }
    if (name == "delta") {
        spec.allowOnly({});
        return std::make_shared<Delta>();
    }
    throw SpecError(field,
                    "unknown distribution (expected vonmises:kappa=K, uniform:a=A, gaussian:sigma=S, "
                    "lognormal:mu=M,sigma=S, haar, noisysort:sigma=S, delta)",
                    name);
}

} // namespace detail

double Distribution::density(double) const
{
    throw std::logic_error("the distribution " + spec() + " has no density (check hasDensity() first)");
}

std::vector<std::pair<std::string, double>> Distribution::parameters() const
{
    const Spec s = parseSpec(spec(), "distribution");
    std::vector<std::pair<std::string, double>> out;
    for (const ParamDescriptor& p : distributionParameters(s.name, parameterGroup()))
        out.emplace_back(p.key, s.number(p.key, p.defaultValue));
    return out;
}

const ParamDescriptor& Distribution::parameterDescriptor(const std::string& name) const
{
    const std::string own = parseSpec(spec(), "distribution").name;
    const auto& params = distributionParameters(own, parameterGroup());
    for (const ParamDescriptor& p : params)
        if (p.key == name) return p;
    std::string keys;
    for (const ParamDescriptor& p : params) keys += (keys.empty() ? "" : ", ") + p.key;
    throw SpecError("distribution", own + " has no parameter of that name (it has: " + (keys.empty() ? "none" : keys) + ")",
                    name);
}

std::shared_ptr<const Distribution> Distribution::withParameters(const std::map<std::string, double>& values) const
{
    Spec s = parseSpec(spec(), "distribution");
    for (const auto& [name, value] : values) {
        parameterDescriptor(name);  // throws for an unknown name
        s.params[name] = detail::formatNumber(value);
    }
    std::string text = s.name;
    char sep = ':';
    for (const auto& [k, v] : s.params) {
        text += sep + k + "=" + v;
        sep = ',';
    }
    return detail::makeSingleDistribution(text, "distribution", parameterGroup());
}

void Distribution::requireDifferentiable(const std::vector<std::string>& params) const
{
    for (const std::string& name : params)
        if (!parameterDescriptor(name).learnable)
            throw SpecError("distribution", spec() + " is not a differentiable function of " + name +
                                                " (its samples are piecewise constant in it)",
                            name);
}

GroupElement Distribution::sampleWithTangents(Rng& rng, const Group& group, const Shape& shape, const float* x,
                                              const std::vector<std::string>& params,
                                              std::vector<GroupTangent>& tangents) const
{
    requireDifferentiable(params);  // throws: a learnable parameter overrides this function
    tangents.assign(params.size(), GroupTangent{});
    return sample(rng, group, shape, x);
}

std::shared_ptr<const Distribution> makeDistribution(const std::string& text, const Group& group)
{
    std::shared_ptr<const Distribution> dist;
    if (group.kind() == GroupKind::Affine)
        dist = AffineProduct::parse(text);
    else
        dist = detail::makeSingleDistribution(text, "--dist", group.kind());
    dist->checkGroup(group);
    return dist;
}

} // namespace orbit

#include "distributions/DistributionSupport.hpp"

#include "groups/GroupSupport.hpp"
#include "orbit/distributions/AffineProduct.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <map>
#include <cmath>
#include <stdexcept>

namespace orbit {

namespace detail {

void requireParameter(const std::string& name, GroupKind kind, const std::string& key, double v)
{
    requireDistributionParameter(name, kind, key, v);
}

void groupMismatch(const Distribution& dist, const Group& group, const std::string& needs)
{
    throw SpecError("distribution", dist.spec() + " cannot be used with the group " + group.spec() + "; it needs " + needs,
                    dist.spec());
}

std::shared_ptr<const Distribution> makeSingleDistribution(const std::string& text, const std::string& field,
                                                           GroupKind kind)
{
    const Spec spec = parseSpec(text, field);
    const std::string& name = spec.name;
    const DistributionDescriptor* d = findDistribution(name);
    if (!d) throw SpecError(field, "unknown distribution (expected " + synopsisList(distributionDescriptors()) + ")", name);
    checkSpecKeys(spec, *d);
    // Presence was checked; the values' ranges are the constructors' (requireDistributionParameter).
    return d->make(DistributionArguments{spec, kind, *d});
}

void requireGroupOf(const Distribution& dist, const std::string& name, const Group& group, const std::string& note)
{
    const DistributionDescriptor* d = findDistribution(name);
    if (!d) throw ContractError("requireGroupOf", "no descriptor for the distribution " + name);
    if (d->appliesTo(group.kind())) return;
    std::vector<std::string> groups, factors;
    const std::vector<GroupKind>& affine = groupDescriptor(GroupKind::Affine).factors;
    for (GroupKind k : d->groups) {
        groups.push_back(toString(k));
        if (std::find(affine.begin(), affine.end(), k) != affine.end()) factors.push_back(std::string(toString(k)) + "=");
    }
    auto list = [](const std::vector<std::string>& words, const std::string& last) {
        std::string out;
        for (std::size_t i = 0; i < words.size(); ++i) out += (i == 0 ? "" : i + 1 == words.size() ? last : ", ") + words[i];
        return out;
    };
    std::string needs = list(groups, " or ");
    if (!factors.empty() && group.kind() != GroupKind::Affine) needs += " (or the " + list(factors, " / ") + " factor of affine)";
    if (!note.empty()) needs += "; " + note;
    groupMismatch(dist, group, needs);
}

} // namespace detail

void requireDistributionParameter(const std::string& name, GroupKind kind, const std::string& key, double v)
{
    for (const ParamDescriptor& p : distributionParameters(name, kind)) {
        if (p.key != key) continue;
        const std::string why = p.violation(v);
        if (!why.empty()) throw SpecError("distribution " + name + "." + key, why, formatNumber(v));
        return;
    }
    throw ContractError("requireDistributionParameter", "no descriptor for the parameter " + name + "." + key);
}

void Distribution::checkGroup(const Group& group) const
{
    detail::requireGroupOf(*this, parseSpec(spec(), "distribution").name, group);
}

double Distribution::density(double) const
{
    throw ContractError("Distribution::density", "the distribution " + spec() + " has no density (check hasDensity() first)");
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
        s.params[name] = formatNumber(value);
    }
    return detail::makeSingleDistribution(formatSpec(s), "distribution", parameterGroup());
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
        dist = detail::makeSingleDistribution(text, "distribution", group.kind());
    dist->checkGroup(group);
    return dist;
}

} // namespace orbit

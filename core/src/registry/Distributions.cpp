// The registry's table of distributions: the built-in ones (distributions/Registered.cpp) and those
// registered after them (registerDistribution), with the lookups makeDistribution, the panels and
// --help use.
#include "orbit/registry/Registry.hpp"

#include "orbit/util/Error.hpp"
#include "registry/Builders.hpp"

#include <algorithm>

namespace orbit {

using namespace registry;

namespace {

/// The one table: built on first use (static initialisation may reach it first), then appended to.
std::vector<DistributionDescriptor>& distributionTable()
{
    static std::vector<DistributionDescriptor> all = builtinDistributions();
    return all;
}

} // namespace

std::vector<DistributionDescriptor>& registry::mutableDistributionTable() { return distributionTable(); }

double DistributionArguments::number(const std::string& key) const
{
    const ParamDescriptor* p = descriptor.parameter(key);
    if (!p) throw ContractError("DistributionArguments::number", "no parameter " + key + " in " + descriptor.name);
    return p->required ? spec.number(key) : spec.number(key, p->defaultValue);
}

void registerDistribution(DistributionDescriptor descriptor)
{
    if (descriptor.name.empty() || descriptor.groups.empty() || !descriptor.make)
        throw ContractError("registerDistribution", "a distribution needs a name, its groups and a factory: " + descriptor.name);
    std::vector<DistributionDescriptor>& all = distributionTable();
    if (findIn(all, descriptor.name))
        throw ContractError("registerDistribution", "the distribution " + descriptor.name + " is already registered");
    all.push_back(std::move(descriptor));
}

const std::vector<ParamDescriptor>& distributionParameters(const std::string& name, GroupKind kind)
{
    static const std::vector<ParamDescriptor> none;
    const DistributionDescriptor* d = findDistribution(name);
    return d ? d->parametersOn(kind) : none;
}

bool DistributionDescriptor::appliesTo(GroupKind k) const
{
    return std::find(groups.begin(), groups.end(), k) != groups.end();
}

const std::vector<ParamDescriptor>& DistributionDescriptor::parametersOn(GroupKind k) const
{
    for (const auto& [kind, params] : parametersByGroup)
        if (kind == k) return params;
    return parameters;
}

const std::vector<DistributionDescriptor>& distributionDescriptors() { return distributionTable(); }

const DistributionDescriptor* findDistribution(const std::string& name) { return findIn(distributionDescriptors(), name); }

std::vector<const DistributionDescriptor*> distributionsFor(GroupKind kind)
{
    std::vector<const DistributionDescriptor*> out;
    for (const DistributionDescriptor& d : distributionDescriptors())
        if (d.appliesTo(kind)) out.push_back(&d);
    return out;
}

} // namespace orbit

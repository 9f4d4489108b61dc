// The registry's table of groups: one descriptor per transformation group, the built-in ones
// registered beside their classes (groups/RegisteredGroups.cpp); makeGroup builds through them.
#include "orbit/registry/Registry.hpp"

#include "orbit/util/Error.hpp"
#include "registry/Builders.hpp"

#include <algorithm>
#include <string>

namespace orbit {

using namespace registry;

namespace {

/// The one table: built on first use from the built-in groups (groups/RegisteredGroups.cpp), then
/// appended to (registerGroup).
std::vector<GroupDescriptor>& groupTable()
{
    static std::vector<GroupDescriptor> all = builtinGroups();
    return all;
}

} // namespace

void registerGroup(GroupDescriptor descriptor)
{
    if (descriptor.name.empty() || descriptor.dataKinds.empty() || !descriptor.make)
        throw ContractError("registerGroup", "a group needs a name, the data it acts on and a factory: " + descriptor.name);
    std::vector<GroupDescriptor>& all = groupTable();
    if (findIn(all, descriptor.name))
        throw ContractError("registerGroup", "the group " + descriptor.name + " is already registered");
    int registered = 0;
    for (const GroupDescriptor& g : all) registered += static_cast<int>(g.kind) >= kFirstRegisteredGroupKind;
    descriptor.kind = static_cast<GroupKind>(kFirstRegisteredGroupKind + registered);
    for (DistributionDescriptor& d : mutableDistributionTable())
        if (d.onEveryGroup || (d.onEveryHaarGroup && descriptor.haarProbability)) d.groups.push_back(descriptor.kind);
    all.push_back(std::move(descriptor));
}

GroupKind registeredGroupKind(const std::string& name)
{
    const GroupDescriptor* d = findGroup(name);
    if (!d) throw ContractError("registeredGroupKind", "no registered group " + name);
    return d->kind;
}

bool GroupDescriptor::appliesTo(DataKind k) const
{
    return std::find(dataKinds.begin(), dataKinds.end(), k) != dataKinds.end();
}

bool GroupDescriptor::appliesTo(DataKind k, const Shape& shape) const
{
    return appliesTo(k) && shape.dim() >= 1 && (maxDimension == 0 || shape.dim() <= maxDimension);
}

std::vector<const ParamDescriptor*> GroupDescriptor::editorParameters() const
{
    std::vector<const ParamDescriptor*> out;
    for (const ParamDescriptor& p : parameters)
        if (p.required) out.push_back(&p);
    return out;
}

const std::vector<GroupDescriptor>& groupDescriptors() { return groupTable(); }

const GroupDescriptor* findGroup(const std::string& name) { return findIn(groupDescriptors(), name); }

const char* toString(GroupKind kind) { return groupDescriptor(kind).name.c_str(); }

const GroupDescriptor& groupDescriptor(GroupKind kind)
{
    for (const GroupDescriptor& g : groupDescriptors())
        if (g.kind == kind) return g;
    throw ContractError("groupDescriptor", "no descriptor for the group kind " + std::to_string(static_cast<int>(kind)));
}

std::vector<const GroupDescriptor*> groupsFor(DataKind kind, const Shape& shape)
{
    std::vector<const GroupDescriptor*> out;
    for (const GroupDescriptor& g : groupDescriptors())
        if (g.appliesTo(kind, shape)) out.push_back(&g);
    return out;
}

} // namespace orbit

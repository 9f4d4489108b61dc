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

/// The one table: built on first use from the built-in groups (groups/RegisteredGroups.cpp).
const std::vector<GroupDescriptor>& groupTable()
{
    static const std::vector<GroupDescriptor> all = builtinGroups();
    return all;
}

} // namespace

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

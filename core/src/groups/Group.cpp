#include "orbit/groups/Group.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <stdexcept>

namespace orbit {

std::vector<GroupElement> Group::elements(const Shape&, std::size_t) const
{
    throw SpecError("group", "an infinite group has no list of elements (use a finite group such as cyclic:n=N)",
                    spec());
}

void Group::applyTangent(const GroupElement&, const GroupTangent&, const float*, float*, const Shape&) const
{
    throw SpecError("group", "the action of " + spec() + " has no derivative in continuous parameters", spec());
}

void Group::apply(const GroupElement&, const double*, double*, const Shape&) const
{
    throw SpecError("group", "the action of " + spec() + " has no double-precision form", spec());
}

void Group::applyTangent(const GroupElement&, const GroupTangent&, const double*, double*, const Shape&) const
{
    throw SpecError("group", "the action of " + spec() + " has no derivative in continuous parameters", spec());
}

GroupTangent Group::inverseTangent(const GroupElement&, const GroupTangent&) const
{
    throw SpecError("group", "the action of " + spec() + " has no derivative in continuous parameters", spec());
}

std::shared_ptr<const Group> makeGroup(const std::string& text, const Shape& shape, std::uint64_t seed)
{
    const Spec spec = parseSpec(text, "group");
    const GroupDescriptor* d = findGroup(spec.name);
    if (!d) throw SpecError("group", "unknown group (expected " + synopsisList(groupDescriptors()) + ")", spec.name);
    checkSpecKeys(spec, *d);
    if (!d->make) throw ContractError("makeGroup", "no factory for the registered group " + d->name);
    return d->make(spec, *d, shape, seed);
}

} // namespace orbit

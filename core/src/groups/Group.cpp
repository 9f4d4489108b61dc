#include "orbit/groups/Group.hpp"

#include "orbit/groups/AffineGroup.hpp"
#include "orbit/groups/CyclicGroup.hpp"
#include "orbit/groups/OrthogonalSetGroup.hpp"
#include "orbit/groups/PermutationGroup.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"
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
    switch (d->kind) {
    case GroupKind::Rotation: return std::make_shared<RotationGroup>();
    case GroupKind::Translation: return std::make_shared<TranslationGroup>();
    case GroupKind::Scale: return std::make_shared<ScaleGroup>();
    case GroupKind::Affine: return std::make_shared<AffineGroup>();
    case GroupKind::Cyclic: return std::make_shared<CyclicGroup>(static_cast<int>(readInteger(spec, *d->parameter("n"))));
    case GroupKind::Permutation:  // n left out: the data's matrix size (0)
        return std::make_shared<PermutationGroup>(spec.has("n") ? static_cast<int>(readInteger(spec, *d->parameter("n"))) : 0);
    case GroupKind::Orthogonal: {
        const int k = static_cast<int>(readInteger(spec, *d->parameter("k")));
        const int d0 = spec.has("d") ? static_cast<int>(readInteger(spec, *d->parameter("d"))) : shape.dim();
        if (spec.has("d") && shape.dim() > 1 && d0 != shape.dim())
            throw SpecError("group orthogonal.d", "the samples have dimension " + std::to_string(shape.dim()),
                            std::to_string(d0));
        return std::make_shared<OrthogonalSetGroup>(k, d0, seed);
    }
    }
    throw ContractError("makeGroup", "no factory for the registered group " + d->name);
}

} // namespace orbit

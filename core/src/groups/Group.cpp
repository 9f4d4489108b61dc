#include "orbit/groups/Group.hpp"

#include "orbit/groups/AffineGroup.hpp"
#include "orbit/groups/CyclicGroup.hpp"
#include "orbit/groups/OrthogonalSetGroup.hpp"
#include "orbit/groups/PermutationGroup.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

namespace orbit {

const char* toString(GroupKind kind)
{
    switch (kind) {
    case GroupKind::Rotation: return "rotation";
    case GroupKind::Translation: return "translation";
    case GroupKind::Scale: return "scale";
    case GroupKind::Affine: return "affine";
    case GroupKind::Cyclic: return "cyclic";
    case GroupKind::Permutation: return "permutation";
    case GroupKind::Orthogonal: return "orthogonal";
    }
    return "group";
}

std::vector<GroupElement> Group::elements(const Shape&, std::size_t) const
{
    throw SpecError("--group", "an infinite group has no list of elements (use a finite group such as cyclic:n=N)",
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
    const Spec spec = parseSpec(text, "--group");
    const std::string& name = spec.name;
    if (name == "rotation" || name == "translation" || name == "scale" || name == "affine") {
        spec.allowOnly({});
        if (name == "rotation") return std::make_shared<RotationGroup>();
        if (name == "translation") return std::make_shared<TranslationGroup>();
        if (name == "scale") return std::make_shared<ScaleGroup>();
        return std::make_shared<AffineGroup>();
    }
    if (name == "cyclic") {
        spec.allowOnly({"n"});
        return std::make_shared<CyclicGroup>(static_cast<int>(spec.integer("n", 1, 1 << 20)));
    }
    if (name == "permutation") {
        spec.allowOnly({"n"});
        return std::make_shared<PermutationGroup>(static_cast<int>(spec.integer("n", 0, 1, 4096)));
    }
    if (name == "orthogonal") {
        spec.allowOnly({"k", "d"});
        const int k = static_cast<int>(spec.integer("k", 1, 1 << 20));
        const int d = static_cast<int>(spec.integer("d", shape.dim(), 1, 1 << 30));
        if (spec.has("d") && shape.dim() > 1 && d != shape.dim())
            throw SpecError("--group orthogonal.d", "the samples have dimension " + std::to_string(shape.dim()),
                            std::to_string(d));
        return std::make_shared<OrthogonalSetGroup>(k, d, seed);
    }
    throw SpecError("--group",
                    "unknown group (expected rotation, translation, scale, affine, cyclic:n=N, permutation, "
                    "orthogonal:k=K)",
                    name);
}

} // namespace orbit

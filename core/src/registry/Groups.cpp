// The registry's groups: one descriptor per transformation group (makeGroup reads them).
#include "orbit/registry/Registry.hpp"

#include "orbit/util/Error.hpp"
#include "registry/Builders.hpp"

#include <algorithm>
#include <string>

namespace orbit {

using namespace registry;

namespace {

GroupDescriptor group(std::string name, GroupKind kind, std::string display, std::string doc, std::vector<DataKind> kinds,
                      std::vector<ParamDescriptor> parameters = {})
{
    GroupDescriptor g;
    g.name = std::move(name);
    g.kind = kind;
    g.displayName = std::move(display);
    g.doc = std::move(doc);
    g.dataKinds = std::move(kinds);
    g.parameters = std::move(parameters);
    return g;
}

std::vector<GroupDescriptor> makeGroups()
{
    using enum DataKind;
    std::vector<GroupDescriptor> all;
    all.push_back(group("rotation", GroupKind::Rotation, "rotation SO(2)",
                        "Rotates the image about its centre (bilinear, zero border).", {Images}));
    all.push_back(group("translation", GroupKind::Translation, "translation R²",
                        "Shifts the image by (dx, dy) pixels, sub-pixel bilinear.", {Images}));
    all.push_back(group("scale", GroupKind::Scale, "isotropic scale",
                        "Zooms about the centre, intensities divided by s to keep the norm.", {Images}));
    GroupDescriptor affine = group("affine", GroupKind::Affine, "affine (rotation × translation × scale)",
                                   "Scale, then translate, then rotate; each factor has its own distribution.", {Images});
    affine.factors = {GroupKind::Rotation, GroupKind::Translation, GroupKind::Scale};
    all.push_back(affine);
    all.push_back(group("cyclic", GroupKind::Cyclic, "cyclic Cₙ",
                        "The n rotations by multiples of 2π/n (images) or cyclic shifts by multiples of d/n (vectors): "
                        "a finite group with exact averages.",
                        {Images, Vectors},
                        {integer("n", 1, 1 << 20, true, 4,
                                 "The number of elements (on vectors n must divide the dimension d).")}));
    all.push_back(group("permutation", GroupKind::Permutation, "permutation Sₙ (atoms)",
                        "Reorders the atoms of a molecule: C → P C Pᵀ.", {Coulomb},
                        {integer("n", 1, 4096, false, 1, "The number of atoms, only needed without data.",
                                 "the data's matrix size")}));
    GroupDescriptor orthogonal =
        group("orthogonal", GroupKind::Orthogonal, "random orthogonal set",
              "A fixed set of k Haar-random orthogonal matrices acting on vectors (a set, not a group).",
              {Images, Coulomb, Vectors},
              {integer("k", 1, 1 << 20, true, 16, "The number of random orthogonal matrices in the set."),
               integer("d", 1, 1 << 30, false, 1, "The dimension of the matrices, only needed without data.",
                       "the data's dimension")});
    orthogonal.maxDimension = kOrthogonalSetMaxDim;
    all.push_back(orthogonal);
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

const std::vector<GroupDescriptor>& groupDescriptors()
{
    static const std::vector<GroupDescriptor> all = makeGroups();
    return all;
}

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

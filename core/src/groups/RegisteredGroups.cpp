// The built-in transformation groups: one registration each, with its words, the samples it acts
// on, its parameters and its factory (the registry's table is these; makeGroup builds through them).
#include "orbit/groups/AffineGroup.hpp"
#include "orbit/groups/CyclicGroup.hpp"
#include "orbit/groups/OrthogonalSetGroup.hpp"
#include "orbit/groups/PermutationGroup.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "registry/Builders.hpp"

namespace orbit::registry {

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

/// A group without parameters, built by its default constructor.
template <class G>
GroupDescriptor::Factory plain()
{
    return [](const Spec&, const GroupDescriptor&, const Shape&, std::uint64_t) { return std::make_shared<G>(); };
}

int integerOf(const Spec& spec, const GroupDescriptor& d, const std::string& key)
{
    return static_cast<int>(readInteger(spec, *d.parameter(key)));
}

} // namespace

std::vector<GroupDescriptor> builtinGroups()
{
    using enum DataKind;
    std::vector<GroupDescriptor> all;
    all.push_back(group("rotation", GroupKind::Rotation, "rotation SO(2)",
                        "Rotates the image about its centre (bilinear, zero border).", {Images}));
    all.back().make = plain<RotationGroup>();
    all.push_back(group("translation", GroupKind::Translation, "translation R²",
                        "Shifts the image by (dx, dy) pixels, sub-pixel bilinear.", {Images}));
    all.back().make = plain<TranslationGroup>();
    all.push_back(group("scale", GroupKind::Scale, "isotropic scale",
                        "Zooms about the centre, intensities divided by s to keep the norm.", {Images}));
    all.back().make = plain<ScaleGroup>();
    GroupDescriptor affine = group("affine", GroupKind::Affine, "affine (rotation × translation × scale)",
                                   "Scale, then translate, then rotate; each factor has its own distribution.", {Images});
    affine.factors = {GroupKind::Rotation, GroupKind::Translation, GroupKind::Scale};
    affine.make = plain<AffineGroup>();
    all.push_back(affine);
    GroupDescriptor cyclic = group("cyclic", GroupKind::Cyclic, "cyclic Cₙ",
                                   "The n rotations by multiples of 2π/n (images) or cyclic shifts by multiples of d/n (vectors): "
                                   "a finite group with exact averages.",
                                   {Images, Vectors},
                                   {integer("n", 1, 1 << 20, true, 4,
                                            "The number of elements (on vectors n must divide the dimension d).")});
    cyclic.make = [](const Spec& spec, const GroupDescriptor& d, const Shape&, std::uint64_t) {
        return std::make_shared<CyclicGroup>(integerOf(spec, d, "n"));
    };
    all.push_back(cyclic);
    GroupDescriptor permutation = group("permutation", GroupKind::Permutation, "permutation Sₙ (atoms)",
                                        "Reorders the atoms of a molecule: C → P C Pᵀ.", {Coulomb},
                                        {integer("n", 1, 4096, false, 1, "The number of atoms, only needed without data.",
                                                 "the data's matrix size")});
    permutation.make = [](const Spec& spec, const GroupDescriptor& d, const Shape&, std::uint64_t) {
        return std::make_shared<PermutationGroup>(spec.has("n") ? integerOf(spec, d, "n") : 0);  // 0: the data's size
    };
    all.push_back(permutation);
    GroupDescriptor orthogonal =
        group("orthogonal", GroupKind::Orthogonal, "random orthogonal set",
              "A fixed set of k Haar-random orthogonal matrices acting on vectors (a set, not a group).",
              {Images, Coulomb, Vectors},
              {integer("k", 1, 1 << 20, true, 16, "The number of random orthogonal matrices in the set."),
               integer("d", 1, 1 << 30, false, 1, "The dimension of the matrices, only needed without data.",
                       "the data's dimension")});
    orthogonal.maxDimension = kOrthogonalSetMaxDim;
    orthogonal.make = [](const Spec& spec, const GroupDescriptor& d, const Shape& shape, std::uint64_t seed) {
        const int k = integerOf(spec, d, "k");
        const int d0 = spec.has("d") ? integerOf(spec, d, "d") : shape.dim();
        if (spec.has("d") && shape.dim() > 1 && d0 != shape.dim())
            throw SpecError("group orthogonal.d", "the samples have dimension " + std::to_string(shape.dim()), std::to_string(d0));
        return std::make_shared<OrthogonalSetGroup>(k, d0, seed);
    };
    all.push_back(orthogonal);
    return all;
}

} // namespace orbit::registry

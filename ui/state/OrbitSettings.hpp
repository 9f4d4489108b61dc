#pragma once
// The user's choice of group, distribution(s), r and seed: everything an orbit depends on.
#include "orbit/data/Dataset.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/registry/Parameters.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace orbitui {

/// One distribution over a (factor) group: its registry name and the values of its parameters, keyed
/// as the registry's descriptors key them ("kappa", "a", "sigma", "mu"). A parameter of `name` that
/// has no value reads as its registry default; values of other distributions' keys stay (switching
/// from von Mises to uniform and back finds κ where it was) and spec() leaves them out.
struct DistributionParams {
    std::string name = "vonmises";
    std::map<std::string, double> values;

    /// `name` with the registry's defaults of its parameters on a group of `kind` (uniform's window
    /// is 0.5 rad on rotations, 1 px on translations), then `given` over them.
    static DistributionParams of(const std::string& name, orbit::GroupKind kind, std::map<std::string, double> given = {});
    /// Switches to distribution `name` on a group of `kind`: every value is kept, and each parameter
    /// of `name` without one is seeded with its default there.
    void choose(const std::string& name, orbit::GroupKind kind);
    /// The spec string with the registry's keys of `name` in spec order, e.g. "vonmises:kappa=0.2"
    /// (orbit::formatSpec: shortest round-trip numbers); the bare name for an unknown one.
    std::string spec() const;
    /// The value of `key`, or the registry's default of `name`'s parameter `key`; std::logic_error
    /// naming the key when it has neither.
    double value(const std::string& key) const;
    /// Sets `key`, a parameter key of some registered distribution; std::logic_error for another.
    void setValue(const std::string& key, double v);
    /// Every parameter key of every registered distribution (what setValue takes).
    static const std::vector<std::string>& keys();
    bool operator==(const DistributionParams&) const = default;
};

/// Every registered group's editor parameters (orbit::GroupDescriptor::editorParameters) with the
/// group's name, in registry order: ("cyclic", n), ("orthogonal", k).
std::vector<std::pair<std::string, const orbit::ParamDescriptor*>> groupEditorParameters();

/// Group, distribution (one per factor for the affine group), r and seed.
struct OrbitSettings {
    std::string group = "rotation";  ///< rotation, translation, scale, affine, cyclic, permutation, orthogonal
    /// The values of the groups' editor parameters (orbit::GroupDescriptor::editorParameters), by
    /// "group.key": {"cyclic.n": 4, "orthogonal.k": 16} at the registry's defaults. Every group's are
    /// kept, so switching groups and back keeps them.
    std::map<std::string, int> groupValues = defaultGroupValues();
    DistributionParams dist = DistributionParams::of("vonmises", orbit::GroupKind::Rotation);  ///< for every group but affine
    /// The affine group's distribution of each factor, by the registry's factor names (rotation,
    /// translation, scale); by default LGIKA's CIFAR-10 setting (defaultFactorDistributions).
    std::map<std::string, DistributionParams> factorDists = defaultFactorDistributions();
    int r = 64;
    std::uint64_t seed = 0;
    /// Per-class distributions, "C=SPEC;C=SPEC" (orbit::ClassDistributions' text, `--dist-per-class`):
    /// what a per-class learn found, distSpec() the default for the classes not named; empty: none.
    std::string distPerClass;

    /// The group with its editor parameters: "rotation", "cyclic:n=4", "orthogonal:k=16".
    std::string groupSpec() const;
    /// Editor parameter `key` of `group`: groupValues' entry, else the registry's default.
    int groupValue(const std::string& group, const std::string& key) const;
    /// Whether the group is a product of factors, each with its own distribution (affine).
    bool isProduct() const;
    /// For affine: "rotation=<spec>,translation=<spec>,scale=<spec>" (the syntax makeDistribution reads).
    std::string distSpec() const;
    /// The factors of the group (the registry's, e.g. {"rotation","translation","scale"} for affine), else {group}.
    std::vector<std::string> factors() const;
    /// Whether `name` is one of factors(): a control, request or result made for another group's
    /// factor (before a change of group) must not ask factor() for it.
    bool hasFactor(const std::string& name) const;
    /// The distribution of factor `name`: for affine factorDists' (std::logic_error for a name that is
    /// no factor), else `dist`.
    DistributionParams& factor(const std::string& name);
    const DistributionParams& factor(const std::string& name) const;
    /// The kind of group factor `name` acts as (the group's own kind but for affine).
    orbit::GroupKind factorKind(const std::string& name) const;
    /// A distribution parameter named as orbit::Distribution::parameters() names it: "kappa", or
    /// "rotation.kappa" for a factor of affine. std::logic_error for a name of another form.
    double parameter(const std::string& name) const;
    void setParameter(const std::string& name, double value);
    /// Von Mises κ = 9, Gaussian translation σ = 0.3 and log-normal scale (0, 0.3), by factor.
    static std::map<std::string, DistributionParams> defaultFactorDistributions();
    /// Every registered group's editor parameters at their defaults, by "group.key".
    static std::map<std::string, int> defaultGroupValues();

    bool operator==(const OrbitSettings&) const = default;
};

/// Built objects of an OrbitSettings for one sample shape.
struct BuiltOrbit {
    std::shared_ptr<const orbit::Group> group;
    std::shared_ptr<const orbit::Distribution> dist;
};

/// Builds group and distribution; throws SpecError (group/shape mismatch, bad parameters).
BuiltOrbit buildOrbit(const OrbitSettings& s, orbit::DataKind kind, const orbit::Shape& shape);

/// Groups that can act on samples of this kind and shape: the registry's orbit::groupsFor.
std::vector<std::string> validGroups(orbit::DataKind kind, const orbit::Shape& shape);

/// Distributions of a single-factor group (for affine: per factor name): the registry's
/// orbit::distributionsFor; empty for an unknown group.
std::vector<std::string> validDistributions(const std::string& factorGroupSpec);

/// Settings that suit a data kind: rotation/von Mises for images, permutation/noisy sort for
/// Coulomb matrices, a random orthogonal set/Haar for vectors.
OrbitSettings defaultSettingsFor(orbit::DataKind kind);

/// `spec` with every number of more than six characters written to four significant digits
/// ("vonmises:kappa=8.610594855191643" reads "vonmises:kappa=8.611"), for titles and labels; the
/// settings and sessions keep every digit.
std::string readableSpec(const std::string& spec);

} // namespace orbitui

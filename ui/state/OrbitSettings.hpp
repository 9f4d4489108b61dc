#pragma once
// The user's choice of group, distribution(s), r and seed: everything an orbit depends on.
#include "orbit/data/Dataset.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace orbitui {

/// One distribution with all its possible parameters; spec() uses only those of `name`.
struct DistributionParams {
    std::string name = "vonmises";
    double kappa = 1.0;  ///< von Mises concentration
    double a = 0.5;      ///< uniform window half-width
    double sigma = 1.0;  ///< Gaussian / log-normal / noisy-sort spread
    double mu = 0.0;     ///< log-normal location
    /// The spec string with the registry's keys of `name` in spec order, e.g. "vonmises:kappa=0.2"
    /// (orbit::formatSpec: shortest round-trip numbers); the bare name for an unknown one.
    std::string spec() const;
    /// The value of a registry key ("kappa", "a", "sigma", "mu"); std::logic_error for another key.
    double value(const std::string& key) const;
    void setValue(const std::string& key, double v);
    /// The keys value() knows: every parameter key of every registered distribution.
    static const std::vector<std::string>& keys();
    bool operator==(const DistributionParams&) const = default;
};

/// Group, distribution (one per factor for the affine group), r and seed.
struct OrbitSettings {
    std::string group = "rotation";  ///< rotation, translation, scale, affine, cyclic, permutation, orthogonal
    int cyclicN = 4;
    int orthogonalK = 16;
    DistributionParams dist;         ///< for every group but affine
    DistributionParams rotation{"vonmises", 9.0};
    DistributionParams translation{"gaussian", 1.0, 0.5, 0.3};
    DistributionParams scale{"lognormal", 1.0, 0.5, 0.3, 0.0};
    int r = 64;
    std::uint64_t seed = 0;

    std::string groupSpec() const;
    /// For affine: "rotation=<spec>,translation=<spec>,scale=<spec>" (the syntax makeDistribution reads).
    std::string distSpec() const;
    /// The factors of the group (the registry's, e.g. {"rotation","translation","scale"} for affine), else {group}.
    std::vector<std::string> factors() const;
    DistributionParams& factor(const std::string& name);
    const DistributionParams& factor(const std::string& name) const;
    /// A distribution parameter named as orbit::Distribution::parameters() names it: "kappa", or
    /// "rotation.kappa" for a factor of affine. std::logic_error for a name of another form.
    double parameter(const std::string& name) const;
    void setParameter(const std::string& name, double value);

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

#pragma once
// One description of every distribution parameter: what the spec parser checks, what the panels'
// sliders span, what `learn` and `evidence` may change and within which bounds (docs/design.md, "One source of truth";
// "one source of truth").
#include "orbit/registry/GroupKinds.hpp"

#include <string>
#include <vector>

namespace orbit {

/// How a parameter's value is written in a spec.
enum class ParamType {
    Real,     ///< a finite number (and, when `choices` is not empty, one of those words too: span=auto)
    Integer,  ///< a whole number
    Choice,   ///< one of `choices` (form=cos|complex)
    Text,     ///< free text the object itself checks (kif's eta=mean|max|moments:n)
};

/// One parameter of a spec (a distribution's `kappa`, `a`, `sigma`, `mu`; a group's `n`; a feature
/// map's `s`, `r`, `form`; a kernel's `sigma`; a learner's grid axis `lambda`).
///
/// Valid values: minimum (< or <=, by minimumOpen) v (< or <=, by maximumOpen) maximum; the
/// constructor of the object throws SpecError outside them. learnMinimum..learnMaximum is the
/// default search range of `learn` and the span of the panels' sliders (a subset of the valid
/// range; positive parameters with logScale are searched and slid in log space); the panels' spin
/// boxes accept the whole valid range. learnable: the evidence is a differentiable function of it
/// through reparameterised samples; sweepable: a grid axis may vary it (every continuous parameter;
/// noisy sort's sigma is sweepable and searched without a gradient).
/// A spec must give a `required` parameter; an optional one takes defaultValue when left out, or,
/// when defaultText is not empty, what defaultText says (a Choice's word, "the data's size", ...).
/// Every member has an initialiser, so a descriptor is written with designated initialisers that
/// name only what differs from these defaults.
struct ParamDescriptor {
    std::string key{};         ///< spec key: "kappa", "a", "sigma", "mu"
    std::string label{};       ///< for panels: "κ (concentration)"
    std::string unit{};        ///< "rad", "px", "" (dimensionless)
    double minimum = 0.0;
    bool minimumOpen = false;
    double maximum = 0.0;
    double defaultValue = 0.0;
    double learnMinimum = 0.0;
    double learnMaximum = 0.0;
    bool logScale = false;
    bool learnable = false;    ///< a gradient of the evidence exists (reparameterised samples)
    bool sweepable = true;
    std::string doc{};         ///< one sentence: what it does

    ParamType type = ParamType::Real;
    bool maximumOpen = false;
    bool required = true;
    std::vector<std::string> choices{};  ///< Choice: the accepted words; Real: words accepted besides numbers
    std::string defaultText{}; ///< the default when it is not defaultValue (a Choice's word, or in words)
    std::string placeholder{}; ///< in synopses: the "K" of kappa=K; empty: the key's first letter, upper case
    int decimals = 3;          ///< digits after the point in the panels' spin boxes

    /// Whether v is a valid value (for Integer: also a whole number).
    bool accepts(double v) const;
    /// "must be > 0" / "must be <= 3.14159..." for v, or empty when accepts(v).
    std::string violation(double v) const;
    /// "kappa=K", "form=cos|complex", "span=S|auto".
    std::string synopsis() const;
    /// The valid range in words: ">= 0 and <= 1e+06", "an integer in [1, 1000000]", "cos or complex".
    std::string rangeText() const;
};

/// The parameters of distribution `name` on a group of `kind` (for affine: the factor's kind), in
/// spec order (its descriptor's parametersOn(kind)); empty for haar and delta and for unknown names.
const std::vector<ParamDescriptor>& distributionParameters(const std::string& name, GroupKind kind);

} // namespace orbit

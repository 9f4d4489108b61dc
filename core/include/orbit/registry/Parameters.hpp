#pragma once
// One description of every distribution parameter: what the spec parser checks, what the panels'
// sliders span, what `learn` and `evidence` may change and within which bounds (DESIGN.md §2,
// "one source of truth").
#include "orbit/groups/Group.hpp"

#include <string>
#include <vector>

namespace orbit {

/// One numeric parameter of a spec (a distribution's `kappa`, `a`, `sigma`, `mu`).
///
/// Valid values: minimum (< or <=, by minimumOpen) v <= maximum; the constructor of the object
/// throws SpecError outside them. learnMinimum..learnMaximum is the default search range of `learn`
/// and the span of the panels' sliders (a subset of the valid range; positive parameters with
/// logScale are searched and slid in log space). learnable: the evidence is a differentiable
/// function of it through reparameterised samples; sweepable: a grid axis may vary it (every
/// continuous parameter; noisy sort's sigma is sweepable and searched without a gradient).
struct ParamDescriptor {
    std::string key;           ///< spec key: "kappa", "a", "sigma", "mu"
    std::string label;         ///< for panels: "κ (concentration)"
    std::string unit;          ///< "rad", "px", "" (dimensionless)
    double minimum = 0.0;
    bool minimumOpen = false;
    double maximum = 0.0;
    double defaultValue = 0.0;
    double learnMinimum = 0.0;
    double learnMaximum = 0.0;
    bool logScale = false;
    bool learnable = false;    ///< a gradient of the evidence exists (reparameterised samples)
    bool sweepable = true;
    std::string doc;           ///< one sentence: what it does

    /// Whether v is a valid value.
    bool accepts(double v) const;
    /// "must be > 0" / "must be <= 3.14159..." for v, or empty when accepts(v).
    std::string violation(double v) const;
};

/// The parameters of distribution `name` on a group of `kind` (for affine: the factor's kind), in
/// spec order; empty for haar and delta and for unknown names.
const std::vector<ParamDescriptor>& distributionParameters(const std::string& name, GroupKind kind);

} // namespace orbit

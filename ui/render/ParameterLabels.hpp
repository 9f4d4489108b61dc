#pragma once
// The registry's words for people, in Qt's terms: the names, descriptions and symbols of groups,
// distributions and parameters, and how the editors show a parameter (label, spans, tooltip). The one
// place that turns a descriptor's label into a symbol ("κ (concentration)" -> "κ").
#include "orbit/registry/Parameters.hpp"

#include <QString>

#include <string>
#include <vector>

namespace orbitui {

/// One numeric parameter: how to show and edit it.
struct ParameterInfo {
    QString key;            ///< "kappa", "a", "sigma", "mu"
    QString label;          ///< "κ (concentration)"
    double minimum = 0.0;   ///< the spin box: the core's whole valid range (an open end moved in by one step)
    double maximum = 1.0;
    double sliderMinimum = 0.0;  ///< the slider: the descriptor's typical range
    double sliderMaximum = 1.0;
    bool logScale = false;  ///< the slider moves in log space
    int decimals = 3;
    QString tooltip;        ///< what the parameter does and which values it takes
};

/// The panels' view of one registry parameter.
ParameterInfo parameterInfo(const orbit::ParamDescriptor& p);

/// Parameters of distribution `name` on the (factor) group `group`, in spec order (the registry's
/// orbit::distributionParameters); empty for unknown names.
std::vector<ParameterInfo> parametersOf(const std::string& name, const std::string& group);

/// The registry's display name of a distribution ("von Mises", "noisy sort", ...), or the name.
QString displayName(const std::string& name);
/// The registry's one-sentence description of a distribution.
QString describeDistribution(const std::string& name);
/// The registry's display name and description of a group.
QString groupDisplayName(const std::string& group);
QString describeGroup(const std::string& group);

/// A parameter's symbol: its label up to the first space ("κ (concentration)" -> "κ", "λ").
QString symbolOf(const orbit::ParamDescriptor& p);
/// The symbol of the distribution parameter or learner axis `key` ("kappa" -> "κ", "lambda" -> "λ"),
/// or the key when the registry has no such parameter.
QString symbolOf(const std::string& key);
/// A readable name of a grid axis or learned parameter, named as the core names it: kappa -> κ,
/// rotation.kappa -> rotation κ, median -> bandwidth (× median distance).
QString axisLabel(const std::string& name);
/// The same with the descriptor's unit, for the axes of the evidence landscape: "κ", "rotation a (rad)".
QString axisLabel(const std::string& name, const orbit::ParamDescriptor& p);

} // namespace orbitui

#pragma once
// What each distribution parameter means, its range and its slider span, for the editors: the
// core registry's descriptors (orbit/registry) in the panels' terms.
#include "orbit/registry/Parameters.hpp"

#include <QString>

#include <string>
#include <vector>

namespace orbitui {

/// One numeric parameter of a distribution: how to show and edit it.
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

} // namespace orbitui

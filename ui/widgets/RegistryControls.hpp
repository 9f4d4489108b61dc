#pragma once
// Plain Qt controls set up from the registry's descriptors (orbit/registry): a spin box takes a
// setting's range, decimals and doc, a combo box a list of named choices, and each is named by the
// setting's key (its objectName). The panels' controls of the same setting then agree with the
// parser, the sessions and each other.
#include "orbit/registry/Parameters.hpp"
#include "orbit/registry/Registry.hpp"

#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace orbitui {

/// A whole-number setting: from its valid minimum to the most a panel offers (learnMaximum), its
/// default as the value and its doc as the tooltip.
void configureCount(QSpinBox* box, const orbit::ParamDescriptor& p);
/// A real setting: its valid range (an open end moved in by one step of its decimals), decimals,
/// default and doc (render/ParameterLabels' parameterInfo).
void configureReal(QDoubleSpinBox* box, const orbit::ParamDescriptor& p);
/// One item per descriptor (its displayName, its name as the item's data, its doc as the item's
/// tooltip) and the setting's doc as the box's tooltip; the setting's default chosen.
void configureChoice(QComboBox* box, const orbit::ParamDescriptor& setting,
                     const std::vector<const orbit::SpecDescriptor*>& choices);

} // namespace orbitui

#pragma once
// Pieces shared by the distribution implementations (private to core/src/distributions).
#include "orbit/distributions/Distribution.hpp"
#include "orbit/util/Spec.hpp"  // formatSpec, for spec()

#include <memory>
#include <string>

namespace orbit::detail {

/// Throws SpecError("distribution NAME.KEY", ...) naming the value unless the parameter's descriptor
/// (distributionParameters(name, kind)) accepts v.
void requireParameter(const std::string& name, GroupKind kind, const std::string& key, double v);

/// Throws SpecError("distribution", "<dist> cannot be used with <group>; it needs <needs>").
[[noreturn]] void groupMismatch(const Distribution& dist, const Group& group, const std::string& needs);

/// Throws SpecError("distribution", "<dist> cannot be used with <group>; it needs <groups>") unless the
/// registry's descriptor of `name` applies to the group's kind; `note` follows the list of groups.
void requireGroupOf(const Distribution& dist, const std::string& name, const Group& group, const std::string& note = {});

/// One distribution from its spec (everything but the affine product), for a group of `kind`.
/// Does not call checkGroup().
std::shared_ptr<const Distribution> makeSingleDistribution(const std::string& text, const std::string& field,
                                                           GroupKind kind);

} // namespace orbit::detail

#pragma once
// The registry's building blocks, shared by its tables (Groups.cpp, Distributions.cpp, Kernels.cpp,
// FeatureMaps.cpp, Learners.cpp) and its checks (Registry.cpp). Private to the core.
#include "orbit/registry/Parameters.hpp"
#include "orbit/registry/Registry.hpp"

#include <limits>
#include <string>
#include <vector>

namespace orbit::registry {

/// No upper bound for a real parameter.
constexpr double kUnbounded = std::numeric_limits<double>::max();
/// The most templates, features or group samples per template a spec may ask for.
constexpr double kMaxCount = 1000000;

/// "a, b or c" (sep ", ", last " or "); "a|b|c" (both "|").
std::string joined(const std::vector<std::string>& words, const std::string& sep, const std::string& last);

/// A whole-number parameter; the panels' spin boxes span its valid range.
ParamDescriptor integer(std::string key, double lo, double hi, bool required, double def, std::string doc,
                        std::string defaultText = {});
/// A number in (lo, hi) / [lo, hi] by the open flags; typicalLo..typicalHi (log-spaced when
/// logScale) is where a search or a slider would look.
ParamDescriptor real(std::string key, double lo, bool loOpen, double hi, bool hiOpen, bool required, double def,
                     double typicalLo, double typicalHi, bool logScale, std::string doc, std::string defaultText = {});
/// An optional word of `words` (the first is the default).
ParamDescriptor choice(std::string key, std::vector<std::string> words, std::string doc);

/// The built-in distributions with their factories, in registry order (defined beside the classes,
/// in distributions/Registered.cpp); the registry's table starts with them.
std::vector<DistributionDescriptor> builtinDistributions();
/// The distributions' table itself, for registerGroup to add a Haar group to onEveryHaarGroup ones.
std::vector<DistributionDescriptor>& mutableDistributionTable();
/// The built-in feature maps with their factories (features/RegisteredMaps.cpp).
std::vector<FeatureMapDescriptor> builtinFeatureMaps();
/// The built-in base kernels with their factories (kernels/RegisteredKernels.cpp).
std::vector<KernelDescriptor> builtinKernels();
/// The built-in groups with their factories (groups/RegisteredGroups.cpp).
std::vector<GroupDescriptor> builtinGroups();
/// The built-in learners with their factories (training/RegisteredLearners.cpp).
std::vector<LearnerDescriptor> builtinLearners();
/// A positive grid axis of a learner, searched in log space.
ParamDescriptor learnerAxis(std::string key, std::string label, std::string doc);

/// The descriptor called `name` in `all`, or null.
template <class D>
const D* findIn(const std::vector<D>& all, const std::string& name)
{
    for (const D& d : all)
        if (d.name == name) return &d;
    return nullptr;
}

} // namespace orbit::registry

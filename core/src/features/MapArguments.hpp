#pragma once
// How the built-in feature maps read their specs (features/RegisteredMaps.cpp's factories): counts
// within the descriptor's range, a memory check before anything is allocated, and the words of the
// shared parameters. Private to core/src/features.
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/InvariantRandomFourier.hpp"
#include "orbit/features/NystromMap.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Spec.hpp"

#include <string>

namespace orbit::detail {

/// The parameter `key` of the map's descriptor (ContractError when it has none).
const ParamDescriptor& mapParameter(const FeatureMapDescriptor& d, const std::string& key);

/// A count (templates, features, group samples) within the descriptor's range.
int mapCount(const Spec& s, const FeatureMapDescriptor& d, const std::string& key);

/// A size parameter read as a number (so 1e9 is understood), for the memory estimate only; the
/// exact range check is mapCount()'s. Absent: the descriptor's default. Not a positive integer: SpecError.
double mapSize(const Spec& s, const FeatureMapDescriptor& d, const std::string& key);

/// Refuses, before anything is allocated, a map whose fitted float32 state would not fit: `count`
/// templates of d values each, moved by `r` group elements when the template trick applies
/// (count x r x d), plus `extraBytes` (e.g. the Nystrom landmark kernel matrix).
void checkMapTemplates(const Spec& s, const FeatureContext& c, const std::string& countKey, double count, double r,
                       bool moved, double extraBytes = 0);

/// Whether the map will move its templates (the template trick); kernelValues as OrbitPlan::make's
/// (a map that evaluates the base kernel at (g x, z), like inystrom).
bool movesMapTemplates(const Spec& s, const FeatureMapDescriptor& d, const FeatureContext& c, bool kernelValues);

/// The `form` parameter: cos or complex.
InvariantRandomFourier::Form fourierForm(const Spec& s, const FeatureMapDescriptor& d);

/// GICDF's threshold span: the paper's, auto, or a number.
double gicdfSpan(const Spec& s, const FeatureMapDescriptor& d);

/// The `landmarks` word. Default: from the orbits when the map is invariant and q depends on the
/// input (noisy sort), so the landmarks look like the transformed inputs g x they are compared with
/// (raw Coulomb matrices do not); else random rows.
NystromMap::Landmarks nystromLandmarks(const Spec& s, const FeatureMapDescriptor& d, const FeatureContext& c);

/// jitter and tol are alternatives (checkSpecKeys); tol unset is -1 (Cholesky).
NystromMap::Whitening nystromWhitening(const Spec& s, const FeatureMapDescriptor& d);

/// The context without its group and distribution (the plain maps rf and nystrom).
FeatureContext withoutGroup(FeatureContext c);

} // namespace orbit::detail

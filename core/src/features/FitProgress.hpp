#pragma once
// Private: progress of a feature map's fit, split into sub-steps.
#include "orbit/util/Progress.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "util/SubProgress.hpp"

#include <string>
#include <utility>

namespace orbit::detail {

/// The one-off work of the context's group (the orthogonal set draws its matrices) as the start of
/// a fit, where a cancel is seen; its words show while the fit's fraction stays at 0.
inline void prepareGroup(const FeatureContext& context, const Progress& progress)
{
    if (context.group) context.group->prepare(subProgress(progress, 0.0, 0.0));
}

} // namespace orbit::detail

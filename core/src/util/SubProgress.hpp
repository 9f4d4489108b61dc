#pragma once
// Private: a part of a progress callback's range, for a step of a longer computation.
#include "orbit/util/Progress.hpp"

#include <string>
#include <utility>

namespace orbit::detail {

/// `progress` restricted to [lo, hi] of its range, each step text prefixed by `prefix` (empty
/// stays empty: no reporting, never cancels).
inline Progress subProgress(const Progress& progress, double lo, double hi, std::string prefix = {})
{
    if (!progress) return {};
    return [progress, lo, hi, prefix = std::move(prefix)](double f, const std::string& what) {
        return progress(lo + (hi - lo) * f, prefix + what);
    };
}

} // namespace orbit::detail

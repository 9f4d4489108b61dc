#pragma once
// Refuse feature-map sizes whose arrays would not fit, before allocating anything.
#include "orbit/util/Error.hpp"

#include <cstdio>
#include <string>

namespace orbit::detail {

/// Largest memory a feature map may need for one array family (fitted templates, output), in GiB.
inline constexpr double kFeatureMemoryLimitGiB = 8.0;

/// Requires: bytes = estimated allocation. Guarantees: returns if bytes <= kFeatureMemoryLimitGiB GiB,
/// else throws SpecError(field, "<what> would need X GiB of memory (limit L GiB)", value).
inline void checkFeatureMemory(double bytes, const std::string& field, const std::string& what, const std::string& value)
{
    const double gib = bytes / (1024.0 * 1024.0 * 1024.0);
    if (gib <= kFeatureMemoryLimitGiB) return;
    char text[160];
    std::snprintf(text, sizeof text, " would need %.3g GiB of memory (limit %g GiB)", gib, kFeatureMemoryLimitGiB);
    throw SpecError(field, what + text, value);
}

} // namespace orbit::detail

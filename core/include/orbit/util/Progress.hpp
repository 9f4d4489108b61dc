#pragma once
// Progress reporting and cancellation for long evaluations (grid searches, learning curves).
#include "orbit/util/Error.hpp"

#include <functional>
#include <string>

namespace orbit {

/// A progress callback: called with the fraction done in [0, 1] and a short description of the
/// current step. It returns true to ask for cancellation; the callee then throws orbit::Cancelled
/// before starting the next unit of work. An empty function means "no reporting, never cancel".
using Progress = std::function<bool(double fraction, const std::string& what)>;

/// Reports `fraction` / `what` to `progress` (if any); throws Cancelled when it returns true.
inline void reportProgress(const Progress& progress, double fraction, const std::string& what)
{
    if (progress && progress(fraction, what))
        throw Cancelled();
}

} // namespace orbit

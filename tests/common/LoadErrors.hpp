#pragma once
// The loaders' refusals as values, for the data suites that compare their kind and message.
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include <optional>
#include <string>

namespace orbittest {

/// The LoadError loadDataset(path, options) throws, or nullopt when the file loads.
inline std::optional<orbit::LoadError> errorOf(const std::string& path, const orbit::LoadOptions& options = {})
{
    try {
        orbit::loadDataset(path, options);
    } catch (const orbit::LoadError& e) {
        return e;
    }
    return std::nullopt;
}

} // namespace orbittest

#pragma once
// Private: the contract every FeatureMap::transform checks first, with a message naming the sizes.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Error.hpp"

#include <cstddef>
#include <string>

namespace orbit::detail {

/// Requires: begin <= end <= X.rows() and rows of X with `dim` values. Throws ContractError(where)
/// naming both sizes otherwise (the callers in the core always pass blocks of the fitted shape).
inline void checkBlock(const char* where, const MatrixXfR& X, std::size_t begin, std::size_t end, Eigen::Index dim)
{
    if (X.cols() != dim)
        throw ContractError(where, "input rows have " + std::to_string(X.cols()) + " values, the map needs " +
                                       std::to_string(dim));
    if (begin > end || end > std::size_t(X.rows()))
        throw ContractError(where, "rows [" + std::to_string(begin) + ", " + std::to_string(end) + ") of a block of " +
                                       std::to_string(X.rows()) + " rows");
}

} // namespace orbit::detail

#pragma once
// Private: how much work a chunked loop does between two progress reports (orbit/util/Progress.hpp).

namespace orbit::detail {

/// Values written between two progress reports: 2^21 floats, e.g. 2675 rotated 28 x 28 images, a
/// few tens of milliseconds on two cores (the templates of features/OrbitPlan.hpp, the centres of
/// analysis/KMeans.cpp).
constexpr long long kValuesPerReport = 1LL << 21;

} // namespace orbit::detail

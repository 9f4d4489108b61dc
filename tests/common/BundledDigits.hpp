#pragma once
// The bundled digits (resources/data/digits.png: OpenCV's 5000 20 x 20 digits) as the core suites
// use them: the first few hundred, or the points of a kernel plot among them, each loaded once.
#include "orbit/data/Loaders.hpp"
#include "orbit/figures/ApproxError.hpp"

#include "TestPaths.hpp"

#include <cstdint>
#include <cstddef>

namespace orbittest {

/// The first `limit` bundled digits (0: all 5000), loaded once per suite.
template <std::size_t limit>
const orbit::Dataset& firstDigits()
{
    static const orbit::Dataset d = [] {
        orbit::LoadOptions o;
        o.limit = limit;
        return orbit::loadDataset(bundledFile("digits.png"), o);
    }();
    return d;
}

/// The n points of a kernel plot (kernelPlotIndices with `seed`) among the first `limit` digits.
template <std::size_t limit, std::size_t n, std::uint64_t seed>
const orbit::Dataset& kernelPlotDigits()
{
    static const orbit::Dataset d = firstDigits<limit>().subset(orbit::kernelPlotIndices(firstDigits<limit>(), n, seed));
    return d;
}

} // namespace orbittest

#pragma once
// Shared by the feature-map suites: a feature context for a data kind, group and distribution, the
// first 600 bundled digits, and bit-identity of two feature matrices.
#include "orbit/features/FeatureMap.hpp"

#include "BundledDigits.hpp"

#include <cstring>
#include <string>

namespace orbittest {

/// The context of a feature map: `group` and `dist` (none when `group` is empty) on inputs of
/// `shape`, a Gaussian base kernel of width `sigma`; Coulomb inputs are symmetric.
inline orbit::FeatureContext context(orbit::DataKind kind, orbit::Shape shape, const std::string& group,
                                     const std::string& dist, double sigma)
{
    orbit::FeatureContext c;
    c.kind = kind;
    c.shape = shape;
    if (!group.empty()) {
        c.group = orbit::makeGroup(group, shape);
        c.dist = orbit::makeDistribution(dist, *c.group);
    }
    c.kernel = orbit::BaseKernel::gaussian(sigma);
    c.symmetricInputs = kind == orbit::DataKind::Coulomb;
    return c;
}

/// The first 600 of the bundled digits (20 x 20 images), loaded once.
inline const orbit::Dataset& digits() { return firstDigits<600>(); }

inline bool sameBits(const orbit::MatrixXfR& a, const orbit::MatrixXfR& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0;
}

} // namespace orbittest

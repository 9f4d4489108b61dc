#pragma once
// A test-only base kernel the core does not know, registered by its library alone (issue 45 item 3):
// "toysquare", k(x, y) = exp(-||x - y||^2 / sigma^2), i.e. the Gaussian at bandwidth sigma / sqrt(2),
// so every path it takes can be checked against the built-in one.
#include "orbit/kernels/KernelProfile.hpp"

namespace orbittest {

inline constexpr const char* kToySquareName = "toysquare";

class ToySquare : public orbit::KernelProfile {
public:
    std::string name() const override { return kToySquareName; }
    orbit::BaseKernel::Distance distance() const override { return orbit::BaseKernel::Distance::SquaredEuclidean; }
    double value(double d2, double sigma) const override;
    double slope(double d2, double sigma) const override;
    /// N(0, 2 / sigma^2) per coordinate.
    void drawFrequency(orbit::Rng& rng, float* w, Eigen::Index d, double sigma) const override;
};

} // namespace orbittest

#pragma once
// A stationary base kernel added by registration: k(x, y) = value(dist(x, y), sigma) on one of the
// distances BaseKernel knows, with its spectral density for random Fourier features. One class and
// one registerKernel call add a kernel; BaseKernel::profiled wraps it, and every path of the four
// built-in kernels (kernel matrices, exact orbit kernels and their slopes, random features, saved
// models) takes it.
#include "orbit/kernels/BaseKernel.hpp"

#include <Eigen/Core>

#include <string>
#include <utility>
#include <vector>

namespace orbit {

class Rng;

class KernelProfile {
public:
    virtual ~KernelProfile() = default;
    /// The spec name (registered as the descriptor's name).
    virtual std::string name() const = 0;
    /// The parameters besides sigma that spec() writes, e.g. {{"alpha", 2}}.
    virtual std::vector<std::pair<std::string, double>> specParameters() const { return {}; }
    /// The distance the kernel is a function of: SquaredEuclidean (d^2), Euclidean (d) or L1.
    virtual BaseKernel::Distance distance() const = 0;
    /// k at distance `dist` (in distance()'s terms) and bandwidth sigma > 0; value(0, sigma) = 1.
    virtual double value(double dist, double sigma) const = 0;
    /// dk / d dist at `dist` (the exact GP's slopes in the distribution's parameters).
    virtual double slope(double dist, double sigma) const = 0;
    /// dk / d log sigma at `dist` (the exact GP's slope in the bandwidth). By default from
    /// value(dist, sigma) = f(dist / sigma^p) for the distance's power p (2 for d^2, else 1):
    /// -p dist slope(dist, sigma).
    virtual double logSigmaSlope(double dist, double sigma) const;
    /// Draws one frequency w (d coordinates) of the spectral density at bandwidth sigma:
    /// E cos(<w, x - y>) = k(x, y).
    virtual void drawFrequency(Rng& rng, float* w, Eigen::Index d, double sigma) const = 0;
};

} // namespace orbit

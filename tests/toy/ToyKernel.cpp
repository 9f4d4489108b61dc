#include "ToyKernel.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Random.hpp"

#include <cmath>
#include <limits>
#include <memory>

namespace orbittest {

double ToySquare::value(double d2, double sigma) const { return std::exp(-d2 / (sigma * sigma)); }

double ToySquare::slope(double d2, double sigma) const { return -value(d2, sigma) / (sigma * sigma); }

void ToySquare::drawFrequency(orbit::Rng& rng, float* w, Eigen::Index d, double sigma) const
{
    const double scale = std::sqrt(2.0) / sigma;
    for (Eigen::Index t = 0; t < d; ++t) w[t] = static_cast<float>(orbit::standardNormal(rng) * scale);
}

namespace {

orbit::KernelDescriptor toySquareDescriptor()
{
    orbit::KernelDescriptor d;
    d.name = kToySquareName;
    d.displayName = "toy square";
    d.doc = "A test-only kernel: k(x, y) = exp(-||x - y||² / σ²).";
    d.parameters = {{.key = "sigma", .label = "σ (bandwidth)", .minimum = 0.0, .minimumOpen = true, .maximum = std::numeric_limits<double>::max(),
                     .defaultValue = 1.0, .learnMinimum = 0.01, .learnMaximum = 1e4, .logScale = true,
                     .doc = "The toy's bandwidth σ.", .required = false},
                    {.key = "median", .label = "bandwidth × median distance", .minimum = 0.0, .minimumOpen = true, .maximum = std::numeric_limits<double>::max(),
                     .defaultValue = 1.0, .learnMinimum = 0.05, .learnMaximum = 20.0, .logScale = true,
                     .doc = "σ as a multiple F of the median pairwise distance.", .required = false,
                     .placeholder = "F"}};
    d.alternatives = {{{"sigma", "median"}, true}};
    d.make = [](const orbit::Spec&, const orbit::KernelDescriptor&, double sigma) {
        return orbit::BaseKernel::profiled(std::make_shared<ToySquare>(), sigma);
    };
    return d;
}

} // namespace

// The one registration: at static initialisation, before main.
const orbit::KernelRegistration toySquareRegistration{toySquareDescriptor()};

} // namespace orbittest

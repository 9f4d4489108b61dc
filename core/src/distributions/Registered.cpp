// The built-in distributions: one registration each, with its words, its parameters on each group
// and its factory (the registry's table starts with these; registerDistribution adds others).
#include "orbit/distributions/Delta.hpp"
#include "orbit/distributions/GaussianTranslation.hpp"
#include "orbit/distributions/Haar.hpp"
#include "orbit/distributions/LogNormalScale.hpp"
#include "orbit/distributions/NoisySort.hpp"
#include "orbit/distributions/UniformWindow.hpp"
#include "orbit/distributions/VonMises.hpp"
#include "registry/Builders.hpp"

#include <numbers>

namespace orbit::registry {

namespace {

DistributionDescriptor registered(std::string name, std::string display, std::string doc, std::vector<GroupKind> groups,
                                  std::vector<ParamDescriptor> parameters, DistributionDescriptor::Factory make)
{
    DistributionDescriptor d;
    d.name = std::move(name);
    d.displayName = std::move(display);
    d.doc = std::move(doc);
    d.groups = std::move(groups);
    d.parameters = std::move(parameters);
    d.make = std::move(make);
    return d;
}

} // namespace

std::vector<DistributionDescriptor> builtinDistributions()
{
    using enum GroupKind;
    constexpr double pi = std::numbers::pi;
    using Args = DistributionArguments;
    // Real numbers, required and sweepable (ParamDescriptor's defaults) unless an entry says otherwise.
    std::vector<DistributionDescriptor> all;
    all.push_back(registered(
        "vonmises", "von Mises",
        "Angles with density ∝ exp(κ cos θ): a bump around the identity whose width falls as κ grows.", {Rotation},
        {{.key = "kappa", .label = "κ (concentration)", .minimum = 0.0, .maximum = 1e6, .defaultValue = 1.0,
          .learnMinimum = 0.01, .learnMaximum = 1000.0, .logScale = true, .learnable = true,
          .doc = "How concentrated the rotation angles are around 0: κ = 0 is the uniform (Haar) measure over all "
                 "angles, large κ keeps the copies close to the input."}},
        [](const Args& a) { return std::make_shared<VonMises>(a.number("kappa")); }));

    DistributionDescriptor uniform = registered(
        "uniform", "uniform window",
        "A hard window: every element within distance a of the identity is equally likely "
        "(angles in [-a, a] radians, or shifts in [-a, a] pixels on each axis).",
        {Rotation, Translation},
        // Searched and scanned on a linear scale: windows of interest span 5° to 180°, evenly.
        {{.key = "a", .label = "a (half-width, rad)", .unit = "rad", .minimum = 0.0, .minimumOpen = true, .maximum = pi,
          .defaultValue = 0.5, .learnMinimum = 0.01, .learnMaximum = pi, .logScale = false, .learnable = true,
          .doc = "The half-width of the window: angles are drawn uniformly from [-a, a] radians (π = all rotations)."}},
        [](const Args& a) { return std::make_shared<UniformWindow>(a.number("a"), a.group); });
    uniform.parametersByGroup = {
        {Translation,
         {{.key = "a", .label = "a (half-width, px)", .unit = "px", .minimum = 0.0, .minimumOpen = true, .maximum = 1e6,
           .defaultValue = 1.0, .learnMinimum = 0.01, .learnMaximum = 100.0, .logScale = true, .learnable = true,
           .doc = "The half-width of the window: shifts are drawn uniformly from [-a, a] pixels on each axis.",
           .decimals = 2}}}};
    all.push_back(uniform);

    all.push_back(registered(
        "gaussian", "Gaussian", "Shifts drawn from N(0, σ² I) pixels.", {Translation},
        {{.key = "sigma", .label = "σ (px)", .unit = "px", .minimum = 0.0, .minimumOpen = true, .maximum = 1e6,
          .defaultValue = 1.0, .learnMinimum = 0.01, .learnMaximum = 100.0, .logScale = true, .learnable = true,
          .doc = "The standard deviation of the shift in pixels on each axis: larger σ moves the copies further "
                 "from the input."}},
        [](const Args& a) { return std::make_shared<GaussianTranslation>(a.number("sigma")); }));

    all.push_back(registered(
        "lognormal", "log-normal", "Zoom factors s with log s ~ N(μ, σ²).", {Scale},
        {{.key = "mu", .label = "μ (log-scale mean)", .minimum = -10.0, .maximum = 10.0, .defaultValue = 0.0,
          .learnMinimum = -3.0, .learnMaximum = 3.0, .logScale = false, .learnable = true,
          .doc = "The mean of log s: μ = 0 centres the zoom factors on 1 (no zoom).",
          .required = false},  // lognormal:sigma=S is centred on s = 1
         {.key = "sigma", .label = "σ (log-scale spread)", .minimum = 0.0, .minimumOpen = true, .maximum = 10.0,
          .defaultValue = 0.3, .learnMinimum = 0.001, .learnMaximum = 5.0, .logScale = true, .learnable = true,
          .doc = "The standard deviation of log s: larger σ gives stronger zooms in and out."}},
        [](const Args& a) { return std::make_shared<LogNormalScale>(a.number("mu"), a.number("sigma")); }));

    all.push_back(registered("haar", "Haar (uniform over the group)",
                             "Every group element equally likely: full invariance (compact groups only; translations "
                             "and scales have no uniform probability measure).",
                             {Rotation, Cyclic, Permutation, Orthogonal}, {},
                             [](const Args& a) { return std::make_shared<Haar>(a.group); }));
    all.back().onEveryHaarGroup = true;  // and every registered group with haarProbability

    DistributionDescriptor noisy = registered(
        "noisysort", "noisy sort",
        "Sort atoms by row norm plus Gaussian noise (Montavon et al. 2012); depends on the input.", {Permutation},
        {{.key = "sigma", .label = "σ (row-norm noise)", .minimum = 0.0, .maximum = 1e6, .defaultValue = 1.0,
          .learnMinimum = 0.01, .learnMaximum = 1000.0, .logScale = true, .learnable = false,
          .doc = "The noise added to the row norms before sorting: σ = 0 always gives the sorted Coulomb matrix, "
                 "larger σ mixes atoms of similar norm. The evidence is piecewise constant in σ (no gradient)."}},
        [](const Args& a) { return std::make_shared<NoisySort>(a.number("sigma")); });
    noisy.dependsOnInput = true;
    all.push_back(noisy);

    all.push_back(registered("delta", "delta (identity only)", "Only the identity: no invariance, the plain base kernel.",
                             {Rotation, Translation, Scale, Affine, Cyclic, Permutation, Orthogonal}, {},
                             [](const Args&) { return std::make_shared<Delta>(); }));
    all.back().onEveryGroup = true;  // and every registered group
    return all;
}

} // namespace orbit::registry

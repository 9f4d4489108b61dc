// The registry's distributions over the groups and their parameters (makeDistribution reads them).
#include "orbit/registry/Registry.hpp"

#include "registry/Builders.hpp"

#include <algorithm>
#include <numbers>

namespace orbit {

using namespace registry;

namespace {

DistributionDescriptor distribution(std::string name, std::string display, std::string doc, std::vector<GroupKind> groups)
{
    DistributionDescriptor d;
    d.name = std::move(name);
    d.displayName = std::move(display);
    d.doc = std::move(doc);
    d.groups = std::move(groups);
    d.parameters = distributionParameters(d.name, d.groups.front());
    return d;
}

std::vector<DistributionDescriptor> makeDistributions()
{
    using enum GroupKind;
    std::vector<DistributionDescriptor> all;
    all.push_back(distribution("vonmises", "von Mises",
                               "Angles with density ∝ exp(κ cos θ): a bump around the identity whose width falls as κ grows.",
                               {Rotation}));
    all.push_back(distribution("uniform", "uniform window",
                               "A hard window: every element within distance a of the identity is equally likely "
                               "(angles in [-a, a] radians, or shifts in [-a, a] pixels on each axis).",
                               {Rotation, Translation}));
    all.push_back(distribution("gaussian", "Gaussian", "Shifts drawn from N(0, σ² I) pixels.", {Translation}));
    all.push_back(distribution("lognormal", "log-normal", "Zoom factors s with log s ~ N(μ, σ²).", {Scale}));
    all.push_back(distribution("haar", "Haar (uniform over the group)",
                               "Every group element equally likely: full invariance (compact groups only; translations "
                               "and scales have no uniform probability measure).",
                               {Rotation, Cyclic, Permutation, Orthogonal}));
    DistributionDescriptor noisy = distribution(
        "noisysort", "noisy sort",
        "Sort atoms by row norm plus Gaussian noise (Montavon et al. 2012); depends on the input.", {Permutation});
    noisy.dependsOnInput = true;
    all.push_back(noisy);
    all.push_back(distribution("delta", "delta (identity only)", "Only the identity: no invariance, the plain base kernel.",
                               {Rotation, Translation, Scale, Affine, Cyclic, Permutation, Orthogonal}));
    return all;
}

} // namespace

const std::vector<ParamDescriptor>& distributionParameters(const std::string& name, GroupKind kind)
{
    constexpr double pi = std::numbers::pi;
    static const std::vector<ParamDescriptor> none;
    // Real numbers, required and sweepable (ParamDescriptor's defaults) unless an entry says otherwise.
    static const std::vector<ParamDescriptor> vonMises = {
        {.key = "kappa", .label = "κ (concentration)", .minimum = 0.0, .maximum = 1e6, .defaultValue = 1.0,
         .learnMinimum = 0.01, .learnMaximum = 1000.0, .logScale = true, .learnable = true,
         .doc = "How concentrated the rotation angles are around 0: κ = 0 is the uniform (Haar) measure over all "
                "angles, large κ keeps the copies close to the input."}};
    static const std::vector<ParamDescriptor> uniformAngle = {
        // Searched and scanned on a linear scale: windows of interest span 5° to 180°, evenly.
        {.key = "a", .label = "a (half-width, rad)", .unit = "rad", .minimum = 0.0, .minimumOpen = true, .maximum = pi,
         .defaultValue = 0.5, .learnMinimum = 0.01, .learnMaximum = pi, .logScale = false, .learnable = true,
         .doc = "The half-width of the window: angles are drawn uniformly from [-a, a] radians (π = all rotations)."}};
    static const std::vector<ParamDescriptor> uniformShift = {
        {.key = "a", .label = "a (half-width, px)", .unit = "px", .minimum = 0.0, .minimumOpen = true, .maximum = 1e6,
         .defaultValue = 1.0, .learnMinimum = 0.01, .learnMaximum = 100.0, .logScale = true, .learnable = true,
         .doc = "The half-width of the window: shifts are drawn uniformly from [-a, a] pixels on each axis.",
         .decimals = 2}};
    static const std::vector<ParamDescriptor> gaussian = {
        {.key = "sigma", .label = "σ (px)", .unit = "px", .minimum = 0.0, .minimumOpen = true, .maximum = 1e6,
         .defaultValue = 1.0, .learnMinimum = 0.01, .learnMaximum = 100.0, .logScale = true, .learnable = true,
         .doc = "The standard deviation of the shift in pixels on each axis: larger σ moves the copies further "
                "from the input."}};
    static const std::vector<ParamDescriptor> logNormal = {
        {.key = "mu", .label = "μ (log-scale mean)", .minimum = -10.0, .maximum = 10.0, .defaultValue = 0.0,
         .learnMinimum = -3.0, .learnMaximum = 3.0, .logScale = false, .learnable = true,
         .doc = "The mean of log s: μ = 0 centres the zoom factors on 1 (no zoom).",
         .required = false},  // lognormal:sigma=S is centred on s = 1
        {.key = "sigma", .label = "σ (log-scale spread)", .minimum = 0.0, .minimumOpen = true, .maximum = 10.0,
         .defaultValue = 0.3, .learnMinimum = 0.001, .learnMaximum = 5.0, .logScale = true, .learnable = true,
         .doc = "The standard deviation of log s: larger σ gives stronger zooms in and out."}};
    static const std::vector<ParamDescriptor> noisySort = {
        {.key = "sigma", .label = "σ (row-norm noise)", .minimum = 0.0, .maximum = 1e6, .defaultValue = 1.0,
         .learnMinimum = 0.01, .learnMaximum = 1000.0, .logScale = true, .learnable = false,
         .doc = "The noise added to the row norms before sorting: σ = 0 always gives the sorted Coulomb matrix, "
                "larger σ mixes atoms of similar norm. The evidence is piecewise constant in σ (no gradient)."}};
    if (name == "vonmises") return vonMises;
    if (name == "uniform") return kind == GroupKind::Translation ? uniformShift : uniformAngle;
    if (name == "gaussian") return gaussian;
    if (name == "lognormal") return logNormal;
    if (name == "noisysort") return noisySort;
    return none;
}

bool DistributionDescriptor::appliesTo(GroupKind k) const
{
    return std::find(groups.begin(), groups.end(), k) != groups.end();
}

const std::vector<ParamDescriptor>& DistributionDescriptor::parametersOn(GroupKind k) const
{
    return distributionParameters(name, k);
}

const std::vector<DistributionDescriptor>& distributionDescriptors()
{
    static const std::vector<DistributionDescriptor> all = makeDistributions();
    return all;
}

const DistributionDescriptor* findDistribution(const std::string& name) { return findIn(distributionDescriptors(), name); }

std::vector<const DistributionDescriptor*> distributionsFor(GroupKind kind)
{
    std::vector<const DistributionDescriptor*> out;
    for (const DistributionDescriptor& d : distributionDescriptors())
        if (d.appliesTo(kind)) out.push_back(&d);
    return out;
}

} // namespace orbit

// The built-in feature maps: one registration each, with its words, its parameters and its factory
// (the registry's table starts with these; registerFeatureMap adds others). The second RF layer has
// no factory: makeFeatureMap stacks it on a first map.
#include "orbit/features/GicdfMap.hpp"
#include "orbit/features/InvariantRandomFourier.hpp"
#include "orbit/features/KernelInvariantFeatures.hpp"
#include "orbit/features/NystromMap.hpp"
#include "orbit/features/SimpleMaps.hpp"
#include "orbit/util/Error.hpp"

#include "features/MapArguments.hpp"
#include "registry/Builders.hpp"

namespace orbit::registry {

using namespace detail;

namespace {

ParamDescriptor countOf(const std::string& key, const std::string& doc) { return integer(key, 1, kMaxCount, true, 1000, doc); }

ParamDescriptor orbitSamples(bool required = true)
{
    return integer("r", 1, kMaxCount, required, 16,
                   "The number of group elements drawn per template (template trick) or per input (data path).");
}

ParamDescriptor formParameter()
{
    return choice("form", {"cos", "complex"},
                  "cos: sqrt(2/s) cos(<w, x> + b); complex: the cos and sin pair of each template (2 s features).");
}

ParamDescriptor modeParameter()
{
    return choice("mode", {"auto", "templates", "data"},
                  "How the orbit average is taken: templates moves the templates once (needs a unitary action and a "
                  "symmetric q independent of x), data transforms the inputs; auto takes templates when it may.");
}

std::vector<ParamDescriptor> whiteningParameters()
{
    ParamDescriptor landmarks = choice("landmarks", {"random", "kmeans", "orbit"},
                                       "Random training rows, k-means centres, or training rows each moved by one "
                                       "g ~ q (the default when q depends on x).");
    ParamDescriptor tol = real("tol", 0.0, false, 1.0, true, false, 0.0, 1e-9, 0.1, true,
                               "Invert the landmark kernel by its pseudo-inverse, keeping eigenvalues above tol λ_max "
                               "(slow, not cancellable).",
                               "unset: Cholesky with jitter");
    ParamDescriptor jitter = real("jitter", 0.0, true, 1e-2, false, false, 1e-6, 1e-9, 1e-2, true,
                                  "Cholesky of K_ZZ + jitter mean(diag K_ZZ) I (raised when K_ZZ is not positive definite).");
    return {landmarks, tol, jitter};
}

FeatureMapDescriptor featureMap(std::string name, std::string display, std::string doc,
                                std::vector<ParamDescriptor> parameters, FeatureMapDescriptor::Factory make = {})
{
    FeatureMapDescriptor m;
    m.name = std::move(name);
    m.displayName = std::move(display);
    m.doc = std::move(doc);
    m.parameters = std::move(parameters);
    m.make = std::move(make);
    return m;
}

/// kif's eta: mean, max or moments:n.
std::pair<KernelInvariantFeatures::Pooling, int> kifPooling(const std::string& eta)
{
    using Pooling = KernelInvariantFeatures::Pooling;
    if (eta == "mean") return {Pooling::Mean, 1};
    if (eta == "max") return {Pooling::Max, 1};
    if (eta.rfind("moments:", 0) == 0) {
        const auto v = parseInteger(eta.substr(8));
        if (!v) throw SpecError("features kif.eta", "moments:n needs an integer n", eta);
        return {Pooling::Moments, static_cast<int>(*v)};
    }
    throw SpecError("features kif.eta", "must be mean, max or moments:n", eta);
}

} // namespace

std::vector<FeatureMapDescriptor> builtinFeatureMaps()
{
    using Map = std::unique_ptr<FeatureMap>;
    using D = FeatureMapDescriptor;
    std::vector<FeatureMapDescriptor> all;
    FeatureMapDescriptor raw = featureMap("raw", "raw input", "The input itself.", {},
                                          [](const Spec&, const FeatureContext& c, const D&) -> Map {
                                              return std::make_unique<RawMap>(c.shape);
                                          });
    raw.seedOnlyFit = true;
    all.push_back(raw);
    FeatureMapDescriptor sorted =
        featureMap("sorted", "sorted Coulomb", "The Coulomb matrix with rows and columns sorted by row norm.", {},
                   [](const Spec&, const FeatureContext& c, const D&) -> Map {
                       return std::make_unique<SortedCoulombMap>(c.shape);
                   });
    sorted.seedOnlyFit = true;
    all.push_back(sorted);

    FeatureMapDescriptor rf = featureMap("rf", "random Fourier (rf)", "Random Fourier features of the Gaussian kernel.",
                                         {countOf("s", "The number of features."), formParameter()},
                                         [](const Spec& s, const FeatureContext& c, const D& d) -> Map {
                                             checkMapTemplates(s, c, "s", mapSize(s, d, "s"), 1, false);
                                             return std::make_unique<InvariantRandomFourier>(
                                                 withoutGroup(c), mapCount(s, d, "s"), 1, fourierForm(s, d));
                                         });
    rf.usesBaseKernel = rf.seedOnlyFit = true;
    all.push_back(rf);
    FeatureMapDescriptor irf = featureMap("irf", "invariant random Fourier (irf)",
                                          "Invariant random Fourier features of k_qG (LGIKA eq. 7).",
                                          {countOf("s", "The number of features."), orbitSamples(), formParameter(),
                                           modeParameter()},
                                          [](const Spec& s, const FeatureContext& c, const D& d) -> Map {
                                              checkMapTemplates(s, c, "s", mapSize(s, d, "s"), mapSize(s, d, "r"),
                                                                movesMapTemplates(s, d, c, false));
                                              return std::make_unique<InvariantRandomFourier>(
                                                  c, mapCount(s, d, "s"), mapCount(s, d, "r"), fourierForm(s, d),
                                                  readText(s, mapParameter(d, "mode")));
                                          });
    irf.invariant = irf.usesBaseKernel = irf.seedOnlyFit = true;
    irf.plainMap = "rf";
    all.push_back(irf);

    std::vector<ParamDescriptor> nystromParameters = {countOf("s", "The number of landmarks.")};
    for (const ParamDescriptor& p : whiteningParameters()) nystromParameters.push_back(p);
    FeatureMapDescriptor nystrom =
        featureMap("nystrom", "Nyström", "Nyström features of the base kernel on s landmarks.", nystromParameters,
                   [](const Spec& s, const FeatureContext& c, const D& d) -> Map {
                       const double landmarks = mapSize(s, d, "s");
                       checkMapTemplates(s, c, "s", landmarks, 1, false, 8.0 * landmarks * landmarks);
                       return std::make_unique<NystromMap>(withoutGroup(c), mapCount(s, d, "s"), 1,
                                                           nystromLandmarks(s, d, c), nystromWhitening(s, d));
                   });
    nystrom.alternatives = {{{"tol", "jitter"}, false}};
    nystrom.usesBaseKernel = true;
    nystrom.foldsCoulomb = false;
    all.push_back(nystrom);
    std::vector<ParamDescriptor> inystromParameters = {countOf("s", "The number of landmarks."), orbitSamples()};
    for (const ParamDescriptor& p : whiteningParameters()) inystromParameters.push_back(p);
    inystromParameters.push_back(modeParameter());
    FeatureMapDescriptor inystrom = featureMap(
        "inystrom", "invariant Nyström (inystrom)",
        "Invariant Nyström features of k_qG (LGIKA eq. 8); with orbit landmarks s may exceed the number of rows.",
        inystromParameters, [](const Spec& s, const FeatureContext& c, const D& d) -> Map {
            // It evaluates the base kernel at (g x, z): with the Laplacian the templates move only
            // for permutations of coordinates.
            const double landmarks = mapSize(s, d, "s");
            checkMapTemplates(s, c, "s", landmarks, mapSize(s, d, "r"), movesMapTemplates(s, d, c, true),
                              8.0 * landmarks * landmarks);
            return std::make_unique<NystromMap>(c, mapCount(s, d, "s"), mapCount(s, d, "r"), nystromLandmarks(s, d, c),
                                                nystromWhitening(s, d), readText(s, mapParameter(d, "mode")));
        });
    inystrom.alternatives = nystrom.alternatives;
    inystrom.invariant = inystrom.usesBaseKernel = true;
    inystrom.plainMap = "nystrom";
    inystrom.foldsCoulomb = false;
    all.push_back(inystrom);

    ParamDescriptor span = real("span", 0.0, true, kUnbounded, false, false, 1.1, 0.1, 100.0, true,
                                "The thresholds lie in [-span, span]; auto measures the range of the projections on "
                                "the training rows.",
                                "1 + eps, the paper's");
    span.choices = {"auto"};
    FeatureMapDescriptor gicdf = featureMap(
        "gicdf", "GICDF", "Group-invariant CDF features, m (2 bins + 1) dimensions (Mroueh et al. 2015).",
        {countOf("m", "The number of templates."),
         integer("bins", 1, 10000, false, 25, "The number of thresholds per template."), orbitSamples(),
         real("eps", 0.0, true, 1.0, true, false, 0.1, 0.01, 0.5, false, "The margin of the paper's threshold range [-(1 + eps), 1 + eps]."),
         modeParameter(),
         choice("norm", {"each", "max"},
                "each: every input scaled to unit norm; max: all divided by the largest training norm."),
         span},
        [](const Spec& s, const FeatureContext& c, const D& d) -> Map {
            checkMapTemplates(s, c, "m", mapSize(s, d, "m"), mapSize(s, d, "r"), movesMapTemplates(s, d, c, false));
            const GicdfMap::Norm norm =
                readText(s, mapParameter(d, "norm")) == "max" ? GicdfMap::Norm::Max : GicdfMap::Norm::Each;
            return std::make_unique<GicdfMap>(c, mapCount(s, d, "m"), mapCount(s, d, "bins"), mapCount(s, d, "r"),
                                              readReal(s, mapParameter(d, "eps")), readText(s, mapParameter(d, "mode")),
                                              norm, gicdfSpan(s, d));
        });
    gicdf.invariant = gicdf.seedOnlyFit = true;
    gicdf.fitReadsRowsWith = {{"span", "auto"}, {"norm", "max"}};  // the measured range, the largest norm
    gicdf.foldsCoulomb = false;
    gicdf.presetFeaturesPerSize = 21;  // 2 bins + 1 at the presets' 10 bins, over measured thresholds
    gicdf.presetValues = {{"bins", "10"}, {"span", "auto"}};
    all.push_back(gicdf);

    ParamDescriptor eta;
    eta.key = eta.label = "eta";
    eta.type = ParamType::Text;
    eta.required = false;
    eta.defaultText = "mean";
    eta.placeholder = "mean|max|moments:n";
    eta.sweepable = false;
    eta.doc = "The pooling over the orbit: the mean, the max, or the first n moments (1 <= n <= 16).";
    FeatureMapDescriptor kif = featureMap(
        "kif", "kernel invariant features (kif)",
        "Pal & Savvides kernel invariant features over G0 (the whole finite group with haar, else r samples of q).",
        {countOf("k", "The number of templates."), eta, orbitSamples(false)},
        [](const Spec& s, const FeatureContext& c, const D& d) -> Map {
            checkMapTemplates(s, c, "k", mapSize(s, d, "k"), mapSize(s, d, "r"), true);
            const auto [pooling, moments] = kifPooling(readText(s, mapParameter(d, "eta")));
            return std::make_unique<KernelInvariantFeatures>(c, mapCount(s, d, "k"), pooling, moments,
                                                             mapCount(s, d, "r"));
        });
    kif.invariant = kif.usesBaseKernel = true;
    kif.presetValues = {{"eta", "mean"}};  // pools by the mean
    all.push_back(kif);

    FeatureMapDescriptor rf2 = featureMap(
        "rf2", "second RF layer", "A second Gaussian random Fourier layer on the first layer's features (...+rf2:s=S2).",
        {countOf("s", "The number of second-layer features."),
         real("sigma", 0.0, true, kUnbounded, false, false, 1.0, 0.01, 1e4, true, "The bandwidth of the second layer.",
              "median x the median distance of the first-layer features"),
         real("median", 0.0, true, kUnbounded, false, false, 1.0, 0.05, 20.0, true,
              "The bandwidth as a multiple of the median distance of the first-layer features.")});
    rf2.parameters[0].placeholder = "S2";
    rf2.parameters[2].placeholder = "F";
    rf2.alternatives = {{{"sigma", "median"}, false}};
    rf2.secondLayer = true;
    all.push_back(rf2);
    return all;
}

} // namespace orbit::registry

// The registry's feature maps: the first-layer maps and the second RF layer (makeFeatureMap reads them).
#include "orbit/registry/Registry.hpp"

#include "registry/Builders.hpp"

namespace orbit {

using namespace registry;

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
                                std::vector<ParamDescriptor> parameters)
{
    FeatureMapDescriptor m;
    m.name = std::move(name);
    m.displayName = std::move(display);
    m.doc = std::move(doc);
    m.parameters = std::move(parameters);
    return m;
}

std::vector<FeatureMapDescriptor> makeFeatureMaps()
{
    std::vector<FeatureMapDescriptor> all;
    FeatureMapDescriptor raw = featureMap("raw", "raw input", "The input itself.", {});
    raw.seedOnlyFit = true;
    all.push_back(raw);
    FeatureMapDescriptor sorted =
        featureMap("sorted", "sorted Coulomb", "The Coulomb matrix with rows and columns sorted by row norm.", {});
    sorted.seedOnlyFit = true;
    all.push_back(sorted);

    FeatureMapDescriptor rf = featureMap("rf", "random Fourier (rf)", "Random Fourier features of the Gaussian kernel.",
                                         {countOf("s", "The number of features."), formParameter()});
    rf.usesBaseKernel = rf.seedOnlyFit = true;
    all.push_back(rf);
    FeatureMapDescriptor irf = featureMap("irf", "invariant random Fourier (irf)",
                                          "Invariant random Fourier features of k_qG (LGIKA eq. 7).",
                                          {countOf("s", "The number of features."), orbitSamples(), formParameter(),
                                           modeParameter()});
    irf.invariant = irf.usesBaseKernel = irf.seedOnlyFit = true;
    all.push_back(irf);

    std::vector<ParamDescriptor> nystromParameters = {countOf("s", "The number of landmarks.")};
    for (const ParamDescriptor& p : whiteningParameters()) nystromParameters.push_back(p);
    FeatureMapDescriptor nystrom =
        featureMap("nystrom", "Nyström", "Nyström features of the base kernel on s landmarks.", nystromParameters);
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
        inystromParameters);
    inystrom.alternatives = nystrom.alternatives;
    inystrom.invariant = inystrom.usesBaseKernel = true;
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
         span});
    gicdf.invariant = gicdf.seedOnlyFit = true;
    gicdf.foldsCoulomb = false;
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
        {countOf("k", "The number of templates."), eta, orbitSamples(false)});
    kif.invariant = kif.usesBaseKernel = true;
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

} // namespace

const std::vector<FeatureMapDescriptor>& featureMapDescriptors()
{
    static const std::vector<FeatureMapDescriptor> all = makeFeatureMaps();
    return all;
}

const FeatureMapDescriptor* findFeatureMap(const std::string& name) { return findIn(featureMapDescriptors(), name); }

} // namespace orbit

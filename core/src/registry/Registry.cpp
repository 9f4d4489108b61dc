#include "orbit/registry/Registry.hpp"

#include "orbit/groups/OrthogonalSetGroup.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace orbit {

namespace {

constexpr double kUnbounded = std::numeric_limits<double>::max();
constexpr double kMaxCount = 1000000;  // templates, features, group samples per template

std::string joined(const std::vector<std::string>& words, const std::string& sep, const std::string& last)
{
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? last : sep) + words[i];
    return out;
}

/// A whole-number parameter; the panels' spin boxes span its valid range.
ParamDescriptor integer(std::string key, double lo, double hi, bool required, double def, std::string doc,
                        std::string defaultText = {})
{
    ParamDescriptor p;
    p.key = key;
    p.label = std::move(key);
    p.type = ParamType::Integer;
    p.minimum = lo;
    p.maximum = hi;
    p.required = required;
    p.defaultValue = def;
    p.defaultText = std::move(defaultText);
    p.learnMinimum = lo;
    p.learnMaximum = hi;
    p.sweepable = false;
    p.decimals = 0;
    p.doc = std::move(doc);
    return p;
}

/// A number in (lo, hi) / [lo, hi] by the open flags; typicalLo..typicalHi (log-spaced when
/// logScale) is where a search or a slider would look.
ParamDescriptor real(std::string key, double lo, bool loOpen, double hi, bool hiOpen, bool required, double def,
                     double typicalLo, double typicalHi, bool logScale, std::string doc, std::string defaultText = {})
{
    ParamDescriptor p;
    p.key = key;
    p.label = std::move(key);
    p.minimum = lo;
    p.minimumOpen = loOpen;
    p.maximum = hi;
    p.maximumOpen = hiOpen;
    p.required = required;
    p.defaultValue = def;
    p.defaultText = std::move(defaultText);
    p.learnMinimum = typicalLo;
    p.learnMaximum = typicalHi;
    p.logScale = logScale;
    p.sweepable = false;
    // Enough digits for the lower end of the typical range.
    p.decimals = typicalLo > 0 ? std::max(3, static_cast<int>(std::ceil(-std::log10(typicalLo) - 1e-9))) : 3;
    p.doc = std::move(doc);
    return p;
}

ParamDescriptor choice(std::string key, std::vector<std::string> words, std::string doc)
{
    ParamDescriptor p;
    p.key = key;
    p.label = std::move(key);
    p.type = ParamType::Choice;
    p.required = false;
    p.defaultText = words.front();
    p.choices = std::move(words);
    p.sweepable = false;
    p.doc = std::move(doc);
    return p;
}

// ---- groups ----

GroupDescriptor group(std::string name, GroupKind kind, std::string display, std::string doc, std::vector<DataKind> kinds,
                      std::vector<ParamDescriptor> parameters = {})
{
    GroupDescriptor g;
    g.name = std::move(name);
    g.kind = kind;
    g.displayName = std::move(display);
    g.doc = std::move(doc);
    g.dataKinds = std::move(kinds);
    g.parameters = std::move(parameters);
    return g;
}

std::vector<GroupDescriptor> makeGroups()
{
    using enum DataKind;
    std::vector<GroupDescriptor> all;
    all.push_back(group("rotation", GroupKind::Rotation, "rotation SO(2)",
                        "Rotates the image about its centre (bilinear, zero border).", {Images}));
    all.push_back(group("translation", GroupKind::Translation, "translation R²",
                        "Shifts the image by (dx, dy) pixels, sub-pixel bilinear.", {Images}));
    all.push_back(group("scale", GroupKind::Scale, "isotropic scale",
                        "Zooms about the centre, intensities divided by s to keep the norm.", {Images}));
    GroupDescriptor affine = group("affine", GroupKind::Affine, "affine (rotation × translation × scale)",
                                   "Scale, then translate, then rotate; each factor has its own distribution.", {Images});
    affine.factors = {GroupKind::Rotation, GroupKind::Translation, GroupKind::Scale};
    all.push_back(affine);
    all.push_back(group("cyclic", GroupKind::Cyclic, "cyclic Cₙ",
                        "The n rotations by multiples of 2π/n (images) or cyclic shifts by multiples of d/n (vectors): "
                        "a finite group with exact averages.",
                        {Images, Vectors},
                        {integer("n", 1, 1 << 20, true, 4,
                                 "The number of elements (on vectors n must divide the dimension d).")}));
    all.push_back(group("permutation", GroupKind::Permutation, "permutation Sₙ (atoms)",
                        "Reorders the atoms of a molecule: C → P C Pᵀ.", {Coulomb},
                        {integer("n", 1, 4096, false, 1, "The number of atoms, only needed without data.",
                                 "the data's matrix size")}));
    GroupDescriptor orthogonal =
        group("orthogonal", GroupKind::Orthogonal, "random orthogonal set",
              "A fixed set of k Haar-random orthogonal matrices acting on vectors (a set, not a group).",
              {Images, Coulomb, Vectors},
              {integer("k", 1, 1 << 20, true, 16, "The number of random orthogonal matrices in the set."),
               integer("d", 1, 1 << 30, false, 1, "The dimension of the matrices, only needed without data.",
                       "the data's dimension")});
    orthogonal.maxDimension = OrthogonalSetGroup::kMaxDim;
    all.push_back(orthogonal);
    return all;
}

// ---- distributions ----

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

// ---- kernels ----

std::vector<KernelDescriptor> makeKernels()
{
    std::vector<KernelDescriptor> all;
    KernelDescriptor gaussian;
    gaussian.name = "gaussian";
    gaussian.displayName = "Gaussian";
    gaussian.doc = "k(x, y) = exp(-||x - y||² / (2 σ²)).";
    ParamDescriptor sigma = real("sigma", 0.0, true, kUnbounded, false, false, 1.0, 0.01, 1e4, true, "The bandwidth σ.");
    sigma.label = "σ (bandwidth)";
    ParamDescriptor median = real("median", 0.0, true, kUnbounded, false, false, 1.0, 0.05, 20.0, true,
                                  "σ as a multiple F of the median pairwise distance of a seeded sample of the data "
                                  "(at most 1000 rows).");
    median.placeholder = "F";
    median.label = "bandwidth × median distance";
    gaussian.parameters = {sigma, median};
    gaussian.alternatives = {{{"sigma", "median"}, true}};
    all.push_back(gaussian);
    KernelDescriptor polynomial;
    polynomial.name = "polynomial";
    polynomial.displayName = "polynomial";
    polynomial.doc = "k(x, y) = (<x, y> + c)^degree.";
    polynomial.parameters = {integer("degree", 1, 20, false, 2, "The degree."),
                             real("c", 0.0, false, kUnbounded, false, false, 1.0, 0.0, 10.0, false, "The offset c.")};
    all.push_back(polynomial);
    return all;
}

// ---- feature maps ----

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

template <class D>
const D* findIn(const std::vector<D>& all, const std::string& name)
{
    for (const D& d : all)
        if (d.name == name) return &d;
    return nullptr;
}

std::string valueText(const Spec& spec, const std::vector<std::string>& keys)
{
    std::string out;
    for (const std::string& k : keys)
        if (spec.has(k)) out += (out.empty() ? "" : ",") + k + "=" + spec.text(k, "");
    return out;
}

} // namespace

// ---- SpecDescriptor ----

const ParamDescriptor* SpecDescriptor::parameter(const std::string& key) const
{
    for (const ParamDescriptor& p : parameters)
        if (p.key == key) return &p;
    return nullptr;
}

std::vector<std::string> SpecDescriptor::keys() const
{
    std::vector<std::string> out;
    for (const ParamDescriptor& p : parameters) out.push_back(p.key);
    return out;
}

std::string SpecDescriptor::synopsis(bool withOptional) const
{
    std::vector<std::string> shown;  // required ones and required alternatives, in spec order
    std::vector<std::string> optional;
    std::vector<std::string> done;
    for (const ParamDescriptor& p : parameters) {
        if (std::find(done.begin(), done.end(), p.key) != done.end()) continue;
        const KeyAlternatives* alt = nullptr;
        for (const KeyAlternatives& a : alternatives)
            if (std::find(a.keys.begin(), a.keys.end(), p.key) != a.keys.end()) alt = &a;
        if (alt) {
            std::vector<std::string> parts;
            for (const std::string& k : alt->keys) parts.push_back(parameter(k)->synopsis());
            done.insert(done.end(), alt->keys.begin(), alt->keys.end());
            (alt->required ? shown : optional).push_back(joined(parts, "|", "|"));
        } else {
            (p.required ? shown : optional).push_back(p.synopsis());
        }
    }
    std::string text = name;
    if (!shown.empty()) text += ":" + joined(shown, ",", ",");
    if (withOptional)
        for (std::size_t i = 0; i < optional.size(); ++i)
            text += "[" + std::string(shown.empty() && i == 0 ? ":" : ",") + optional[i] + "]";
    return text;
}

// ---- groups and distributions ----

bool GroupDescriptor::appliesTo(DataKind k) const
{
    return std::find(dataKinds.begin(), dataKinds.end(), k) != dataKinds.end();
}

bool GroupDescriptor::appliesTo(DataKind k, const Shape& shape) const
{
    return appliesTo(k) && shape.dim() >= 1 && (maxDimension == 0 || shape.dim() <= maxDimension);
}

bool DistributionDescriptor::appliesTo(GroupKind k) const
{
    return std::find(groups.begin(), groups.end(), k) != groups.end();
}

const std::vector<ParamDescriptor>& DistributionDescriptor::parametersOn(GroupKind k) const
{
    return distributionParameters(name, k);
}

std::string EvaluationDescriptor::synopsis(bool) const
{
    return parameters.empty() ? name : name + ":" + parameters.front().placeholder;
}

const std::vector<GroupDescriptor>& groupDescriptors()
{
    static const std::vector<GroupDescriptor> all = makeGroups();
    return all;
}

const std::vector<DistributionDescriptor>& distributionDescriptors()
{
    static const std::vector<DistributionDescriptor> all = makeDistributions();
    return all;
}

const std::vector<FeatureMapDescriptor>& featureMapDescriptors()
{
    static const std::vector<FeatureMapDescriptor> all = makeFeatureMaps();
    return all;
}

const std::vector<KernelDescriptor>& kernelDescriptors()
{
    static const std::vector<KernelDescriptor> all = makeKernels();
    return all;
}

const GroupDescriptor* findGroup(const std::string& name) { return findIn(groupDescriptors(), name); }
const DistributionDescriptor* findDistribution(const std::string& name) { return findIn(distributionDescriptors(), name); }
const FeatureMapDescriptor* findFeatureMap(const std::string& name) { return findIn(featureMapDescriptors(), name); }
const KernelDescriptor* findKernel(const std::string& name) { return findIn(kernelDescriptors(), name); }
const LearnerDescriptor* findLearner(const std::string& name) { return findIn(learnerDescriptors(), name); }
const EvaluationDescriptor* findEvaluation(const std::string& name) { return findIn(evaluationDescriptors(), name); }

const GroupDescriptor& groupDescriptor(GroupKind kind)
{
    for (const GroupDescriptor& g : groupDescriptors())
        if (g.kind == kind) return g;
    throw ContractError("groupDescriptor", "no descriptor for the group kind " + std::to_string(static_cast<int>(kind)));
}

std::vector<const DistributionDescriptor*> distributionsFor(GroupKind kind)
{
    std::vector<const DistributionDescriptor*> out;
    for (const DistributionDescriptor& d : distributionDescriptors())
        if (d.appliesTo(kind)) out.push_back(&d);
    return out;
}

std::vector<const GroupDescriptor*> groupsFor(DataKind kind, const Shape& shape)
{
    std::vector<const GroupDescriptor*> out;
    for (const GroupDescriptor& g : groupDescriptors())
        if (g.appliesTo(kind, shape)) out.push_back(&g);
    return out;
}

std::string synopsisList(const std::vector<const SpecDescriptor*>& descriptors)
{
    std::vector<std::string> parts;
    for (const SpecDescriptor* d : descriptors) parts.push_back(d->synopsis());
    return joined(parts, ", ", ", ");
}

// ---- checks ----

void checkSpecKeys(const Spec& spec, const std::vector<ParamDescriptor>& parameters,
                   const std::vector<KeyAlternatives>& alternatives)
{
    std::vector<std::string> keys;
    for (const ParamDescriptor& p : parameters) keys.push_back(p.key);
    spec.allowOnly(keys);
    for (const KeyAlternatives& a : alternatives) {
        std::size_t given = 0;
        for (const std::string& k : a.keys) given += spec.has(k) ? 1 : 0;
        std::vector<std::string> forms;
        for (const std::string& k : a.keys)
            for (const ParamDescriptor& p : parameters)
                if (p.key == k) forms.push_back(p.synopsis());
        if (given > 1)
            throw SpecError(spec.field + " " + spec.name, "give " + joined(a.keys, ", ", " or ") + ", not more than one",
                            valueText(spec, a.keys));
        if (given == 0 && a.required)
            throw SpecError(spec.field, spec.name + " needs exactly one of " + joined(forms, ", ", " or "));
    }
    for (const ParamDescriptor& p : parameters) {
        if (p.required && !spec.has(p.key)) throw SpecError(spec.field, spec.name + " needs " + p.key + "=");
        if (p.type == ParamType::Choice && spec.has(p.key)) {
            const std::string v = spec.text(p.key, "");
            if (std::find(p.choices.begin(), p.choices.end(), v) == p.choices.end())
                throw SpecError(spec.field + " " + spec.name + "." + p.key, "must be " + joined(p.choices, ", ", " or "), v);
        }
    }
}

void checkSpecKeys(const Spec& spec, const SpecDescriptor& descriptor)
{
    checkSpecKeys(spec, descriptor.parameters, descriptor.alternatives);
}

double readReal(const Spec& spec, const ParamDescriptor& p)
{
    if (!spec.has(p.key)) return p.defaultValue;
    const double v = spec.number(p.key);
    const std::string why = p.violation(v);
    if (!why.empty()) throw SpecError(spec.field + " " + spec.name + "." + p.key, why, spec.text(p.key, ""));
    return v;
}

long long readInteger(const Spec& spec, const ParamDescriptor& p)
{
    const auto lo = static_cast<long long>(p.minimum), hi = static_cast<long long>(p.maximum);
    if (p.required) return spec.integer(p.key, lo, hi);
    return spec.integer(p.key, static_cast<long long>(p.defaultValue), lo, hi);
}

std::string readText(const Spec& spec, const ParamDescriptor& p) { return spec.text(p.key, p.defaultText); }

// ---- help ----

namespace {

/// Code points in UTF-8 text (the width of the line on a terminal, near enough).
std::size_t columns(const std::string& text)
{
    std::size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

/// `head` padded to `indent` columns (or followed by two spaces), then `text` wrapped at `width`
/// columns with continuation lines indented by `indent`.
std::string hanging(const std::string& head, const std::string& text, std::size_t indent, std::size_t width)
{
    std::string line = head;
    if (columns(line) + 2 > indent) {
        line += "\n";
        line += std::string(indent, ' ');
    } else {
        line += std::string(indent - columns(line), ' ');
    }
    std::string out;
    std::size_t used = columns(line.substr(line.rfind('\n') == std::string::npos ? 0 : line.rfind('\n') + 1));
    bool first = true;
    for (const std::string& word : split(text, ' ')) {
        if (word.empty()) continue;
        if (!first && used + 1 + columns(word) > width) {
            line += "\n" + std::string(indent, ' ');
            used = indent;
        } else if (!first) {
            line += ' ';
            ++used;
        }
        line += word;
        used += columns(word);
        first = false;
    }
    return line + "\n";
}

} // namespace

std::string helpLines(const SpecDescriptor& d, bool withParameters, const std::string& extra)
{
    constexpr std::size_t indent = 28, width = 110;
    std::string out = d.name.empty() ? std::string() : hanging("  " + d.synopsis(true), d.doc + extra, indent, width);
    if (!withParameters) return out;
    for (const ParamDescriptor& p : d.parameters) {
        std::string facts = p.rangeText();
        if (!p.required) {
            const std::string def = !p.defaultText.empty() ? p.defaultText
                                    : p.type == ParamType::Integer ? std::to_string(static_cast<long long>(p.defaultValue))
                                                                   : formatNumber(p.defaultValue);
            facts += (facts.empty() ? "" : "; ") + std::string("default ") + def;
        }
        if (!p.unit.empty()) facts += (facts.empty() ? "" : "; ") + std::string("in ") + p.unit;
        out += hanging("      " + p.key, p.doc + (facts.empty() ? "" : " (" + facts + ")"), indent, width);
    }
    return out;
}

} // namespace orbit

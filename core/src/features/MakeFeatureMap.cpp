#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/GicdfMap.hpp"
#include "orbit/features/InvariantRandomFourier.hpp"
#include "orbit/features/KernelInvariantFeatures.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/features/NystromMap.hpp"
#include "orbit/features/SecondLayer.hpp"
#include "orbit/features/SimpleMaps.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "features/OrbitPlan.hpp"

#include <cmath>
#include <stdexcept>

namespace orbit {

namespace {

/// The parameter `key` of the map's descriptor.
const ParamDescriptor& param(const FeatureMapDescriptor& d, const std::string& key)
{
    const ParamDescriptor* p = d.parameter(key);
    if (!p) throw ContractError("makeFeatureMap", "the feature map " + d.name + " has no parameter " + key);
    return *p;
}

/// A count (templates, features, group samples) within the descriptor's range.
int count(const Spec& s, const FeatureMapDescriptor& d, const std::string& key)
{
    return static_cast<int>(readInteger(s, param(d, key)));
}

/// A size parameter read as a number (so 1e9 is understood), for the memory estimate only; the
/// exact range check is count()'s. Absent: the descriptor's default. Not a positive integer: SpecError.
double size(const Spec& s, const FeatureMapDescriptor& d, const std::string& key)
{
    if (!s.has(key)) return param(d, key).defaultValue;
    const double v = s.number(key);
    if (!(v >= 1) || v != std::floor(v))
        throw SpecError(s.field + " " + s.name + "." + key, "must be a positive integer", s.text(key, ""));
    return v;
}

/// Refuses, before anything is allocated, a map whose fitted float32 state would not fit: `count`
/// templates of d values each, moved by `r` group elements when the template trick applies
/// (count x r x d), plus `extraBytes` (e.g. the Nystrom landmark kernel matrix).
void checkTemplates(const Spec& s, const FeatureContext& c, const std::string& countKey, double count, double r,
                    bool moved, double extraBytes = 0)
{
    const double d = double(c.shape.dim());
    const double bytes = 4.0 * count * d * (1.0 + (moved ? r : 0.0)) + extraBytes;
    detail::checkFeatureMemory(bytes, s.field + " " + s.name + "." + countKey,
                               countKey + (moved ? " x r x d templates" : " x d templates"), s.text(countKey, ""));
}

/// Whether the map will move its templates (the template trick). inystrom evaluates the base kernel
/// at (g x, z), which with the Laplacian moves onto the landmarks only for permutations of coordinates.
bool movesTemplates(const Spec& s, const FeatureMapDescriptor& d, const FeatureContext& c)
{
    return detail::OrbitPlan::wouldUseTemplates(c, readText(s, param(d, "mode")), s.name == "inystrom");
}

InvariantRandomFourier::Form form(const Spec& s, const FeatureMapDescriptor& d)
{
    return readText(s, param(d, "form")) == "complex" ? InvariantRandomFourier::Form::Complex
                                                      : InvariantRandomFourier::Form::Cos;
}

double gicdfSpan(const Spec& s, const FeatureMapDescriptor& d)
{
    if (!s.has("span")) return GicdfMap::kSpanPaper;
    if (s.text("span", "") == "auto") return GicdfMap::kSpanAuto;
    return readReal(s, param(d, "span"));
}

/// Default: from the orbits when q depends on the input (noisy sort), so the landmarks look like
/// the transformed inputs g x they are compared with (raw Coulomb matrices do not); else random rows.
NystromMap::Landmarks landmarks(const Spec& s, const FeatureContext& c)
{
    const bool fromOrbits = s.name == "inystrom" && c.dist && c.dist->dependsOnInput();
    const std::string l = s.text("landmarks", fromOrbits ? "orbit" : "random");  // a word checkSpecKeys accepted
    if (l == "kmeans") return NystromMap::Landmarks::KMeans;
    if (l == "orbit") return NystromMap::Landmarks::Orbit;
    return NystromMap::Landmarks::Random;
}

/// jitter and tol are alternatives (checkSpecKeys); tol unset is -1 (Cholesky).
NystromMap::Whitening whitening(const Spec& s, const FeatureMapDescriptor& d)
{
    NystromMap::Whitening w;
    w.jitter = readReal(s, param(d, "jitter"));
    w.tol = s.has("tol") ? readReal(s, param(d, "tol")) : -1.0;
    return w;
}

void requireGroup(const FeatureContext& c, const std::string& name)
{
    if (!c.group || !c.dist) throw SpecError("features", name + " needs a group and a distribution", name);
}

FeatureContext withoutGroup(FeatureContext c)
{
    c.group.reset();
    c.dist.reset();
    return c;
}

/// "raw, sorted, rf:s=S, ..." and the second layer, for the unknown-name message.
std::string mapList()
{
    std::vector<const SpecDescriptor*> first;
    std::string second;
    for (const FeatureMapDescriptor& d : featureMapDescriptors()) {
        if (d.secondLayer)
            second += "; a second layer: ...+" + d.synopsis();
        else
            first.push_back(&d);
    }
    return synopsisList(first) + second;
}

std::unique_ptr<FeatureMap> makeFirst(const std::string& text, const FeatureContext& c)
{
    const Spec s = parseSpec(text, "features");
    const FeatureMapDescriptor* found = findFeatureMap(s.name);
    if (!found || found->secondLayer)
        throw SpecError("features", "unknown feature map (expected " + mapList() + ")", s.name);
    const FeatureMapDescriptor& d = *found;
    checkSpecKeys(s, d);
    if (d.invariant) requireGroup(c, s.name);
    if (s.name == "raw") return std::make_unique<RawMap>(c.shape);
    if (s.name == "sorted") return std::make_unique<SortedCoulombMap>(c.shape);
    if (s.name == "rf") {
        checkTemplates(s, c, "s", size(s, d, "s"), 1, false);
        return std::make_unique<InvariantRandomFourier>(withoutGroup(c), count(s, d, "s"), 1, form(s, d));
    }
    if (s.name == "irf") {
        checkTemplates(s, c, "s", size(s, d, "s"), size(s, d, "r"), movesTemplates(s, d, c));
        return std::make_unique<InvariantRandomFourier>(c, count(s, d, "s"), count(s, d, "r"), form(s, d),
                                                        readText(s, param(d, "mode")));
    }
    if (s.name == "nystrom") {
        checkTemplates(s, c, "s", size(s, d, "s"), 1, false, 8.0 * size(s, d, "s") * size(s, d, "s"));
        return std::make_unique<NystromMap>(withoutGroup(c), count(s, d, "s"), 1, landmarks(s, c), whitening(s, d));
    }
    if (s.name == "inystrom") {
        checkTemplates(s, c, "s", size(s, d, "s"), size(s, d, "r"), movesTemplates(s, d, c),
                       8.0 * size(s, d, "s") * size(s, d, "s"));
        return std::make_unique<NystromMap>(c, count(s, d, "s"), count(s, d, "r"), landmarks(s, c), whitening(s, d),
                                            readText(s, param(d, "mode")));
    }
    if (s.name == "gicdf") {
        checkTemplates(s, c, "m", size(s, d, "m"), size(s, d, "r"), movesTemplates(s, d, c));
        const GicdfMap::Norm norm = readText(s, param(d, "norm")) == "max" ? GicdfMap::Norm::Max : GicdfMap::Norm::Each;
        return std::make_unique<GicdfMap>(c, count(s, d, "m"), count(s, d, "bins"), count(s, d, "r"),
                                          readReal(s, param(d, "eps")), readText(s, param(d, "mode")), norm,
                                          gicdfSpan(s, d));
    }
    if (s.name == "kif") {
        checkTemplates(s, c, "k", size(s, d, "k"), size(s, d, "r"), true);
        const std::string eta = readText(s, param(d, "eta"));
        KernelInvariantFeatures::Pooling pooling;
        int n = 1;
        if (eta == "mean") {
            pooling = KernelInvariantFeatures::Pooling::Mean;
        } else if (eta == "max") {
            pooling = KernelInvariantFeatures::Pooling::Max;
        } else if (eta.rfind("moments:", 0) == 0) {
            pooling = KernelInvariantFeatures::Pooling::Moments;
            const auto v = parseInteger(eta.substr(8));
            if (!v) throw SpecError("features kif.eta", "moments:n needs an integer n", eta);
            n = static_cast<int>(*v);
        } else {
            throw SpecError("features kif.eta", "must be mean, max or moments:n", eta);
        }
        return std::make_unique<KernelInvariantFeatures>(c, count(s, d, "k"), pooling, n, count(s, d, "r"));
    }
    throw ContractError("makeFeatureMap", "no factory for the registered map " + s.name);
}

} // namespace

std::unique_ptr<FeatureMap> makeFeatureMap(const std::string& text, const FeatureContext& context)
{
    const auto parts = split(text, '+');
    if (parts.size() > 2) throw SpecError("features", "at most one second layer (+rf2:s=S)", text);
    auto first = makeFirst(parts[0], context);
    if (parts.size() == 1) return first;
    const Spec s = parseSpec(parts[1], "features");
    const FeatureMapDescriptor* d = findFeatureMap(s.name);
    if (!d || !d->secondLayer) throw SpecError("features", "the second layer must be " + findFeatureMap("rf2")->synopsis(true), parts[1]);
    checkSpecKeys(s, *d);
    detail::checkFeatureMemory(4.0 * size(s, *d, "s") * double(first->dim()), "features rf2.s",
                               "s2 x (first-layer dims) templates", s.text("s", ""));
    std::optional<double> sigma;
    if (s.has("sigma")) sigma = readReal(s, param(*d, "sigma"));
    return std::make_unique<SecondLayerMap>(std::move(first), count(s, *d, "s"), sigma, readReal(s, param(*d, "median")));
}

FeatureContext makeFeatureContext(const Dataset& data, const std::string& groupSpec, const std::string& distSpec,
                                  const std::string& kernelSpec, std::uint64_t seed)
{
    FeatureContext c;
    c.kind = data.kind;
    c.shape = data.shape;
    c.symmetricInputs = data.kind == DataKind::Coulomb;
    if (groupSpec.empty() != distSpec.empty())
        throw SpecError(groupSpec.empty() ? "group" : "distribution",
                        groupSpec.empty() ? "is needed with a distribution" : "is needed with a group");
    if (!groupSpec.empty()) {
        c.group = makeGroup(groupSpec, data.shape, seed);
        c.group->checkShape(data.kind, data.shape);
        c.dist = makeDistribution(distSpec, *c.group);
    }
    if (!kernelSpec.empty()) c.kernel = makeKernel(kernelSpec, data.X, seed);
    return c;
}

} // namespace orbit

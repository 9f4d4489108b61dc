// makeFeatureMap: finds the spec's descriptor and calls its factory (the built-in ones are in
// RegisteredMaps.cpp), stacks a second layer, and the spec readers the factories share (MapArguments.hpp).
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/GicdfMap.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/features/SecondLayer.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "features/MapArguments.hpp"
#include "features/OrbitPlan.hpp"

#include <cmath>
#include <stdexcept>

namespace orbit {

namespace detail {

const ParamDescriptor& mapParameter(const FeatureMapDescriptor& d, const std::string& key)
{
    const ParamDescriptor* p = d.parameter(key);
    if (!p) throw ContractError("makeFeatureMap", "the feature map " + d.name + " has no parameter " + key);
    return *p;
}

int mapCount(const Spec& s, const FeatureMapDescriptor& d, const std::string& key)
{
    return static_cast<int>(readInteger(s, mapParameter(d, key)));
}

double mapSize(const Spec& s, const FeatureMapDescriptor& d, const std::string& key)
{
    if (!s.has(key)) return mapParameter(d, key).defaultValue;
    const double v = s.number(key);
    if (!(v >= 1) || v != std::floor(v))
        throw SpecError(s.field + " " + s.name + "." + key, "must be a positive integer", s.text(key, ""));
    return v;
}

void checkMapTemplates(const Spec& s, const FeatureContext& c, const std::string& countKey, double count, double r,
                       bool moved, double extraBytes)
{
    const double d = double(c.shape.dim());
    const double bytes = 4.0 * count * d * (1.0 + (moved ? r : 0.0)) + extraBytes;
    checkFeatureMemory(bytes, s.field + " " + s.name + "." + countKey,
                       countKey + (moved ? " x r x d templates" : " x d templates"), s.text(countKey, ""));
}

bool movesMapTemplates(const Spec& s, const FeatureMapDescriptor& d, const FeatureContext& c, bool kernelValues)
{
    return OrbitPlan::wouldUseTemplates(c, readText(s, mapParameter(d, "mode")), kernelValues);
}

InvariantRandomFourier::Form fourierForm(const Spec& s, const FeatureMapDescriptor& d)
{
    return readText(s, mapParameter(d, "form")) == "complex" ? InvariantRandomFourier::Form::Complex
                                                             : InvariantRandomFourier::Form::Cos;
}

double gicdfSpan(const Spec& s, const FeatureMapDescriptor& d)
{
    if (!s.has("span")) return GicdfMap::kSpanPaper;
    if (s.text("span", "") == "auto") return GicdfMap::kSpanAuto;
    return readReal(s, mapParameter(d, "span"));
}

NystromMap::Landmarks nystromLandmarks(const Spec& s, const FeatureMapDescriptor& d, const FeatureContext& c)
{
    const bool fromOrbits = d.invariant && c.dist && c.dist->dependsOnInput();
    const std::string l = s.text("landmarks", fromOrbits ? "orbit" : "random");  // a word checkSpecKeys accepted
    if (l == "kmeans") return NystromMap::Landmarks::KMeans;
    if (l == "orbit") return NystromMap::Landmarks::Orbit;
    return NystromMap::Landmarks::Random;
}

NystromMap::Whitening nystromWhitening(const Spec& s, const FeatureMapDescriptor& d)
{
    NystromMap::Whitening w;
    w.jitter = readReal(s, mapParameter(d, "jitter"));
    w.tol = s.has("tol") ? readReal(s, mapParameter(d, "tol")) : -1.0;
    return w;
}

FeatureContext withoutGroup(FeatureContext c)
{
    c.group.reset();
    c.dist.reset();
    return c;
}

} // namespace detail

namespace {

void requireGroup(const FeatureContext& c, const std::string& name)
{
    if (!c.group || !c.dist) throw SpecError("features", name + " needs a group and a distribution", name);
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

/// "rf2:s=S2[,sigma=S|median=F]": the synopses of the second layers, for the wrong-layer message.
std::string secondLayers()
{
    std::string out;
    for (const FeatureMapDescriptor& d : featureMapDescriptors())
        if (d.secondLayer) out += (out.empty() ? "" : " or ") + d.synopsis(true);
    return out;
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
    return d.make(s, c, d);
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
    if (!d || !d->secondLayer) throw SpecError("features", "the second layer must be " + secondLayers(), parts[1]);
    checkSpecKeys(s, *d);
    detail::checkFeatureMemory(4.0 * detail::mapSize(s, *d, "s") * double(first->dim()), "features rf2.s",
                               "s2 x (first-layer dims) templates", s.text("s", ""));
    std::optional<double> sigma;
    if (s.has("sigma")) sigma = readReal(s, detail::mapParameter(*d, "sigma"));
    return std::make_unique<SecondLayerMap>(std::move(first), detail::mapCount(s, *d, "s"), sigma,
                                            readReal(s, detail::mapParameter(*d, "median")));
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

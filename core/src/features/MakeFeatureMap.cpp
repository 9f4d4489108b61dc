#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/GicdfMap.hpp"
#include "orbit/features/InvariantRandomFourier.hpp"
#include "orbit/features/KernelInvariantFeatures.hpp"
#include "orbit/features/NystromMap.hpp"
#include "orbit/features/SimpleMaps.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "features/MemoryLimit.hpp"
#include "features/OrbitPlan.hpp"

#include <cmath>

namespace orbit {

namespace {

constexpr long long kMaxCount = 1000000;

int count(const Spec& s, const std::string& key, long long fallback = -1)
{
    return static_cast<int>(fallback < 0 ? s.integer(key, 1, kMaxCount) : s.integer(key, fallback, 1, kMaxCount));
}

/// A size parameter read as a number (so 1e9 is understood), for the memory estimate only; the
/// exact range check is count()'s. Missing with no fallback, or not a finite number: SpecError.
double size(const Spec& s, const std::string& key, long long fallback = -1)
{
    if (!s.has(key) && fallback >= 0) return double(fallback);
    if (!s.has(key)) return double(s.integer(key, 1, kMaxCount));  // throws "needs key="
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

bool movesTemplates(const Spec& s, const FeatureContext& c)
{
    return detail::OrbitPlan::wouldUseTemplates(c, s.text("mode", "auto"));
}

InvariantRandomFourier::Form form(const Spec& s)
{
    const std::string f = s.text("form", "cos");
    if (f == "cos") return InvariantRandomFourier::Form::Cos;
    if (f == "complex") return InvariantRandomFourier::Form::Complex;
    throw SpecError("--features.form", "must be cos or complex", f);
}

GicdfMap::Norm gicdfNorm(const Spec& s)
{
    const std::string n = s.text("norm", "each");
    if (n == "each") return GicdfMap::Norm::Each;
    if (n == "max") return GicdfMap::Norm::Max;
    throw SpecError("--features.norm", "must be each (every input to unit norm) or max (divided by the largest training norm)", n);
}

double gicdfSpan(const Spec& s)
{
    if (!s.has("span")) return GicdfMap::kSpanPaper;
    if (s.text("span", "") == "auto") return GicdfMap::kSpanAuto;
    const double v = s.number("span");
    if (!(v > 0)) throw SpecError("--features.span", "must be a positive number or auto", s.text("span", ""));
    return v;
}

/// Default: from the orbits when q depends on the input (noisy sort), so the landmarks look like
/// the transformed inputs g x they are compared with (raw Coulomb matrices do not); else random rows.
NystromMap::Landmarks landmarks(const Spec& s, const FeatureContext& c)
{
    const bool fromOrbits = s.name == "inystrom" && c.dist && c.dist->dependsOnInput();
    const std::string l = s.text("landmarks", fromOrbits ? "orbit" : "random");
    if (l == "random") return NystromMap::Landmarks::Random;
    if (l == "kmeans") return NystromMap::Landmarks::KMeans;
    if (l == "orbit") return NystromMap::Landmarks::Orbit;
    throw SpecError("--features.landmarks", "must be random, kmeans or orbit", l);
}

NystromMap::Whitening whitening(const Spec& s)
{
    NystromMap::Whitening w;
    if (s.has("tol") && s.has("jitter"))
        throw SpecError("--features", "give tol (eigendecomposition, pseudo-inverse) or jitter (Cholesky), not both",
                        s.text("tol", "") + " / " + s.text("jitter", ""));
    w.jitter = s.number("jitter", w.jitter);
    w.tol = s.number("tol", -1);
    if (s.has("tol") && w.tol < 0) throw SpecError("--features.tol", "must be in [0, 1)", s.text("tol", ""));
    return w;
}

void requireGroup(const FeatureContext& c, const std::string& name)
{
    if (!c.group || !c.dist) throw SpecError("--features", name + " needs --group and --dist", name);
}

FeatureContext withoutGroup(FeatureContext c)
{
    c.group.reset();
    c.dist.reset();
    return c;
}

std::unique_ptr<FeatureMap> makeFirst(const std::string& text, const FeatureContext& c)
{
    const Spec s = parseSpec(text, "--features");
    if (s.name == "raw") {
        s.allowOnly({});
        return std::make_unique<RawMap>(c.shape);
    }
    if (s.name == "sorted") {
        s.allowOnly({});
        return std::make_unique<SortedCoulombMap>(c.shape);
    }
    if (s.name == "rf") {
        s.allowOnly({"s", "form"});
        checkTemplates(s, c, "s", size(s, "s"), 1, false);
        return std::make_unique<InvariantRandomFourier>(withoutGroup(c), count(s, "s"), 1, form(s));
    }
    if (s.name == "irf") {
        s.allowOnly({"s", "r", "form", "mode"});
        requireGroup(c, "irf");
        checkTemplates(s, c, "s", size(s, "s"), size(s, "r"), movesTemplates(s, c));
        return std::make_unique<InvariantRandomFourier>(c, count(s, "s"), count(s, "r"), form(s),
                                                        s.text("mode", "auto"));
    }
    if (s.name == "nystrom") {
        s.allowOnly({"s", "landmarks", "tol", "jitter"});
        checkTemplates(s, c, "s", size(s, "s"), 1, false, 8.0 * size(s, "s") * size(s, "s"));
        return std::make_unique<NystromMap>(withoutGroup(c), count(s, "s"), 1, landmarks(s, c), whitening(s));
    }
    if (s.name == "inystrom") {
        s.allowOnly({"s", "r", "landmarks", "tol", "jitter", "mode"});
        requireGroup(c, "inystrom");
        checkTemplates(s, c, "s", size(s, "s"), size(s, "r"), movesTemplates(s, c), 8.0 * size(s, "s") * size(s, "s"));
        return std::make_unique<NystromMap>(c, count(s, "s"), count(s, "r"), landmarks(s, c), whitening(s),
                                            s.text("mode", "auto"));
    }
    if (s.name == "gicdf") {
        s.allowOnly({"m", "bins", "r", "eps", "mode", "norm", "span"});
        requireGroup(c, "gicdf");
        checkTemplates(s, c, "m", size(s, "m"), size(s, "r"), movesTemplates(s, c));
        return std::make_unique<GicdfMap>(c, count(s, "m"), static_cast<int>(s.integer("bins", 25, 1, 10000)),
                                          count(s, "r"), s.number("eps", 0.1), s.text("mode", "auto"), gicdfNorm(s), gicdfSpan(s));
    }
    if (s.name == "kif") {
        s.allowOnly({"k", "eta", "r"});
        requireGroup(c, "kif");
        checkTemplates(s, c, "k", size(s, "k"), size(s, "r", 16), true);
        const std::string eta = s.text("eta", "mean");
        KernelInvariantFeatures::Pooling pooling;
        int n = 1;
        if (eta == "mean") {
            pooling = KernelInvariantFeatures::Pooling::Mean;
        } else if (eta == "max") {
            pooling = KernelInvariantFeatures::Pooling::Max;
        } else if (eta.rfind("moments:", 0) == 0) {
            pooling = KernelInvariantFeatures::Pooling::Moments;
            const auto v = parseInteger(eta.substr(8));
            if (!v) throw SpecError("--features.eta", "moments:n needs an integer n", eta);
            n = static_cast<int>(*v);
        } else {
            throw SpecError("--features.eta", "must be mean, max or moments:n", eta);
        }
        return std::make_unique<KernelInvariantFeatures>(c, count(s, "k"), pooling, n, count(s, "r", 16));
    }
    throw SpecError("--features", "unknown feature map (raw, sorted, rf, irf, nystrom, inystrom, gicdf, kif)", s.name);
}

} // namespace

std::unique_ptr<FeatureMap> makeFeatureMap(const std::string& text, const FeatureContext& context)
{
    const auto parts = split(text, '+');
    if (parts.size() > 2) throw SpecError("--features", "at most one second layer (+rf2:s=S)", text);
    auto first = makeFirst(parts[0], context);
    if (parts.size() == 1) return first;
    const Spec s = parseSpec(parts[1], "--features");
    if (s.name != "rf2") throw SpecError("--features", "the second layer must be rf2:s=S", parts[1]);
    s.allowOnly({"s", "sigma", "median"});
    if (s.has("sigma") && s.has("median")) throw SpecError("--features.rf2", "give sigma or median, not both", parts[1]);
    detail::checkFeatureMemory(4.0 * size(s, "s") * double(first->dim()), "--features rf2.s",
                               "s2 x (first-layer dims) templates", s.text("s", ""));
    std::optional<double> sigma;
    if (s.has("sigma")) sigma = s.number("sigma");
    return std::make_unique<StackedMap>(std::move(first), count(s, "s"), sigma, s.number("median", 1.0));
}

FeatureContext makeFeatureContext(const Dataset& data, const std::string& groupSpec, const std::string& distSpec,
                                  const std::string& kernelSpec, std::uint64_t seed)
{
    FeatureContext c;
    c.kind = data.kind;
    c.shape = data.shape;
    c.symmetricInputs = data.kind == DataKind::Coulomb;
    if (groupSpec.empty() != distSpec.empty())
        throw SpecError(groupSpec.empty() ? "--group" : "--dist", "--group and --dist go together");
    if (!groupSpec.empty()) {
        c.group = makeGroup(groupSpec, data.shape, seed);
        c.group->checkShape(data.kind, data.shape);
        c.dist = makeDistribution(distSpec, *c.group);
    }
    if (!kernelSpec.empty()) c.kernel = makeKernel(kernelSpec, data.X, seed);
    return c;
}

} // namespace orbit

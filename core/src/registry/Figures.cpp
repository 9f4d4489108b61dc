// The registry's figures: the Kernels figure and the approximation-error figure (LGIKA Figure 1),
// their settings and the approximations of k_qG they offer.
#include "orbit/registry/Figures.hpp"

#include "orbit/util/Error.hpp"
#include "registry/Builders.hpp"

#include <algorithm>

namespace orbit {

using namespace registry;

namespace {

ApproximationDescriptor approximation(std::string name, std::string display, std::string inWords, std::string doc,
                                      std::string map, std::string sizeKey)
{
    ApproximationDescriptor a;
    a.name = std::move(name);
    a.displayName = std::move(display);
    a.inWords = std::move(inWords);
    a.doc = std::move(doc);
    a.featureMap = std::move(map);
    a.sizeKey = std::move(sizeKey);
    return a;
}

std::vector<ApproximationDescriptor> makeApproximations()
{
    ApproximationDescriptor rf = approximation("rf", "Random Fourier", "invariant random Fourier",
                                               "Invariant random Fourier features (LGIKA eq. 7): s templates, each "
                                               "averaged over r group samples.",
                                               "irf", "s");
    rf.errorCurves = true;
    ApproximationDescriptor nystrom = approximation("nystrom", "Nyström", "invariant Nyström",
                                                    "Invariant Nyström features (LGIKA eq. 8): s landmarks among the "
                                                    "points, each averaged over r group samples.",
                                                    "inystrom", "s");
    nystrom.errorCurves = nystrom.sAtMostPoints = true;
    ApproximationDescriptor gicdf = approximation("gicdf", "GICDF", "GICDF",
                                                  "Group-invariant CDF features (Mroueh et al. 2015) of s templates, "
                                                  "25 bins: they approximate a CDF kernel of their own, not k_qG.",
                                                  "gicdf", "m");
    gicdf.fixedKeys = "bins=25";
    gicdf.ownKernel = true;
    return {rf, nystrom, gicdf};
}

/// A count a panel sets in a spin box: valid in [lo, hi], offered up to `offered`.
ParamDescriptor count(std::string key, std::string label, double lo, double hi, double offered, double def, std::string doc)
{
    ParamDescriptor p = integer(std::move(key), lo, hi, false, def, std::move(doc));
    p.label = std::move(label);
    p.learnMaximum = offered;
    return p;
}

/// σ of the Gaussian base kernel as a multiple of the median distance between the points.
ParamDescriptor bandwidth()
{
    ParamDescriptor p = real("bandwidth", 0.0, true, 100.0, false, false, 1.0, 0.05, 20.0, true,
                             "The Gaussian kernel's width σ as a multiple of the median distance between points.");
    p.label = "σ / median distance";
    p.decimals = 2;
    return p;
}

/// The figure's choice among the approximations for which `offered` holds (the first is the default).
ParamDescriptor method(std::string label, std::string doc, bool errorCurvesOnly)
{
    std::vector<std::string> names;
    for (const ApproximationDescriptor& a : approximationDescriptors())
        if (!errorCurvesOnly || a.errorCurves) names.push_back(a.name);
    ParamDescriptor p = choice("method", names, std::move(doc));
    p.label = std::move(label);
    return p;
}

FigureDescriptor makeKernelsFigure()
{
    FigureDescriptor f;
    f.name = "kernels";
    f.displayName = "Kernels";
    f.doc = "Base, invariant and approximated kernel matrices of N points ordered by label (or by target).";
    ParamDescriptor r = count("r", "r (group samples)", 1, 100000, 1000, 20,
                              "r, the number of group samples g ~ q averaged per point: larger r gives a smoother, more "
                              "invariant kernel (0 uses the r of the Orbits settings).");
    r.defaultText = "the r of the orbit settings";
    f.parameters = {
        count("n", "N points", 2, 20000, 1000, 100,
              "N, the number of points: a random subset of the data, ordered by label so classes form blocks."),
        r,
        method("Approximation", "The feature map ψ whose inner products ⟨ψ(x), ψ(y)⟩ approximate the invariant kernel.",
               false),
        count("s", "s", 1, kMaxCount, 20000, 200,
              "s, the number of random templates (RF), landmarks (Nyström) or CDF templates (GICDF): larger s "
              "approximates the kernel better."),
        bandwidth()};
    return f;
}

FigureDescriptor makeApproximationFigure()
{
    FigureDescriptor f;
    f.name = "approximation";
    f.displayName = "Approximation";
    f.doc = "LGIKA Figure 1: the normalised error of invariant features against s, one curve per r.";
    f.parameters = {
        count("n", "n points", 2, 20000, 2000, 100, "n, the number of data points whose kernel matrix K is approximated."),
        method("Features", "The feature map Ψ whose Gram matrix Ψ Ψᵀ approximates the invariant kernel K.", true),
        count("s", "s values", 1, 100000, 100000, 100,
              "The values of s, the number of templates (RF) or landmarks (Nyström), one point per value."),
        count("r", "r values", 1, 100000, 100000, 16,
              "The values of r, the number of group samples per template or landmark, one curve per value."),
        count("ref_r", "ref-r", 1, 100000, 1000, 20,
              "ref-r, the number of group samples per point of the reference kernel K (drawn independently of the "
              "features): larger is more exact and slower."),
        count("repeats", "Repeats", 1, 1000, 50, 3, "How many independent feature draws are averaged for each (r, s)."),
        bandwidth()};
    f.lists = {{"s", {10, 20, 50, 100, 200, 500}}, {"r", {1, 4, 16}}};
    return f;
}

} // namespace

std::string ApproximationDescriptor::featureSpec(int s, int r) const
{
    return featureMap + ":" + sizeKey + "=" + std::to_string(s) + (fixedKeys.empty() ? "" : "," + fixedKeys) +
           ",r=" + std::to_string(r);
}

const std::vector<ApproximationDescriptor>& approximationDescriptors()
{
    static const std::vector<ApproximationDescriptor> all = makeApproximations();
    return all;
}

const ApproximationDescriptor* findApproximation(const std::string& name) { return findIn(approximationDescriptors(), name); }

const ParamDescriptor& FigureDescriptor::setting(const std::string& key) const
{
    if (const ParamDescriptor* p = parameter(key)) return *p;
    throw ContractError("FigureDescriptor::setting", "the " + name + " figure has no setting " + key);
}

const std::vector<int>& FigureDescriptor::defaultList(const std::string& key) const
{
    for (const auto& [k, values] : lists)
        if (k == key) return values;
    throw ContractError("FigureDescriptor::defaultList", "the " + name + " figure has no list of " + key);
}

std::vector<const ApproximationDescriptor*> FigureDescriptor::approximations() const
{
    std::vector<const ApproximationDescriptor*> out;
    for (const std::string& n : setting("method").choices) out.push_back(findApproximation(n));
    return out;
}

const FigureDescriptor& kernelsFigure()
{
    static const FigureDescriptor f = makeKernelsFigure();
    return f;
}

const FigureDescriptor& approximationFigure()
{
    static const FigureDescriptor f = makeApproximationFigure();
    return f;
}

} // namespace orbit

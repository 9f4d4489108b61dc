#pragma once
// The settings of the two figures a panel draws and a command reproduces: the Kernels figure (base,
// invariant and approximated kernel matrices; `orbitlab-cli kernel --features`) and LGIKA Figure 1,
// the approximation error against s (`orbitlab-cli approx-error`). The Kernels and Approximation
// panels take their ranges, names, words and defaults from here, their requests and sessions check
// against it (docs/design.md, "One source of truth").
#include "orbit/registry/Registry.hpp"

#include <string>
#include <utility>
#include <vector>

namespace orbit {

/// A way to approximate the invariant kernel k_qG that the figures offer: `rf` (invariant random
/// Fourier, LGIKA eq. 7), `nystrom` (invariant Nyström, eq. 8), `gicdf` (the Kernels figure only).
/// `displayName` is the choice's name in a list, `doc` what it is.
struct ApproximationDescriptor : SpecDescriptor {
    std::string featureMap;       ///< the registry's feature map: irf, inystrom, gicdf
    std::string sizeKey;          ///< the map's key that the figure's s sets: s, or m (templates) for gicdf
    std::string fixedKeys;        ///< the map's keys the figure fixes ("bins=25"), or empty
    std::string inWords;          ///< the map in a title: "invariant random Fourier"
    bool errorCurves = false;     ///< the approximation-error figure draws it (approx-error --features)
    bool sAtMostPoints = false;   ///< s is at most the number of points (Nyström's landmarks are rows)
    bool ownKernel = false;       ///< approximates a kernel of its own, not k_qG (GICDF's CDF kernel)

    /// The map's spec for s and r group samples: "irf:s=200,r=20", "gicdf:m=200,bins=25,r=20".
    std::string featureSpec(int s, int r) const;
};

const std::vector<ApproximationDescriptor>& approximationDescriptors();
/// The approximation called `name`, or null.
const ApproximationDescriptor* findApproximation(const std::string& name);

/// The settings of a figure (`parameters`, keyed as sessions key them) with their ranges, words and
/// defaults. A count a panel sets in a spin box offers learnMinimum..learnMaximum of its valid range
/// (the figures' N stops at what the panel can draw); a list setting (`lists`) holds values of the
/// parameter of the same key and starts as given.
struct FigureDescriptor : SpecDescriptor {
    std::vector<std::pair<std::string, std::vector<int>>> lists;  ///< s_list, r_list: the key of their values and the defaults

    /// The parameter `key`; ContractError when the figure has none.
    const ParamDescriptor& setting(const std::string& key) const;
    /// The default values of list `key` (ContractError when there is none).
    const std::vector<int>& defaultList(const std::string& key) const;
    /// The approximations the figure offers (its `method` setting's choices), in registry order.
    std::vector<const ApproximationDescriptor*> approximations() const;
};

/// The Kernels figure: n (points), r (group samples; left to the orbit settings when not given), the
/// approximation method, s, bandwidth (σ as a multiple of the median distance).
const FigureDescriptor& kernelsFigure();
/// The approximation-error figure: n, the method, s and r (each value of s_list and r_list), ref_r,
/// repeats, bandwidth.
const FigureDescriptor& approximationFigure();

} // namespace orbit

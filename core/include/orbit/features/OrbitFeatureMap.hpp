#pragma once
// The common part of the feature maps that average over orbits: irf (and plain rf), nystrom and
// inystrom, gicdf, kif.
#include "orbit/features/FeatureMap.hpp"

#include <memory>
#include <string>

namespace orbit {

namespace detail { struct OrbitPlan; }

/// A feature map whose fit() makes an orbit plan (features/OrbitPlan.hpp): the group elements it
/// averages over and how, by moving the templates once (template trick) or by transforming each
/// input (data path). This base holds the context and that plan, answers usesRowIndex() from it, and
/// runs the checks every fit() and transform() start with.
class OrbitFeatureMap : public FeatureMap {
public:
    ~OrbitFeatureMap() override;
    /// After fit(): true when the inputs get their own group samples (the data path of a group).
    bool usesRowIndex() const override;

protected:
    explicit OrbitFeatureMap(FeatureContext context);

    /// fit()'s first check: rows of X with the context shape's d values; ContractError(where) otherwise.
    void checkFitInput(const char* where, const MatrixXfR& X) const;
    /// transform()'s first checks: fitted, and rows [begin, end) of X exist with `dim` values each.
    void checkTransformInput(const char* where, const MatrixXfR& X, std::size_t begin, std::size_t end,
                             Eigen::Index dim) const;
    /// For kernel(): ", rotation, vonmises:kappa=0.2, r=10 (template trick)" after fit(), empty before.
    std::string planDescription() const;
    /// For kernel() of maps of the base kernel (irf, inystrom): "k_qG with gaussian:sigma=3, rotation,
    /// vonmises:kappa=0.2, r=10 (...)" after a fit with a group, the base kernel's spec otherwise.
    std::string baseOrInvariantKernel() const;

    FeatureContext context_;
    std::unique_ptr<detail::OrbitPlan> plan_;  ///< made by fit()
};

} // namespace orbit

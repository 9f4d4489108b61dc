#pragma once
// Panel settings the GUI suites compute in seconds on the bundled digits: small Kernels matrices,
// an Approximation grid computed on request, a Training run of invariant features and blr.
#include "state/AnalysisSettings.hpp"
#include "state/TrainingSettings.hpp"

#include <cstdint>
#include <vector>

namespace orbittest {

/// Kernel matrices of n points with r = 4 group samples and s = 64 features, computed on request.
inline orbitui::KernelsSettings smallKernels(int n) { return {.n = n, .r = 4, .s = 64, .autoApply = false}; }

/// Approximation errors of n points over the grid sList x rList against the reference r = 4,
/// computed on request.
inline orbitui::ApproximationSettings manualApproximation(int n, std::vector<int> sList, std::vector<int> rList)
{
    return {.n = n, .sList = std::move(sList), .rList = std::move(rList), .refR = 4, .autoApply = false};
}

/// irf features (s templates, r group samples each) of 300 digits, blr on one hold-out split of a
/// quarter, the median bandwidth, `seed`: a run of a second or two.
inline orbitui::TrainingSettings quickInvariantBlr(int s, int r, std::uint64_t seed)
{
    orbitui::TrainingSettings t;
    t.preset = "irf";
    t.s = s;
    t.r = r;
    t.learner = "blr";
    t.eval = "holdout";
    t.holdoutFraction = 0.25;
    t.medians = {1.0};
    t.subset = 300;
    t.seed = seed;
    return t;
}

} // namespace orbittest

#pragma once
// Private: the elementwise step of Gaussian kernel values from inner products,
// k = exp(min(0, (2 <a, b> - ||a||^2 - ||b||^2) gamma)), over one row of a product, compiled twice:
// for the x86-64 baseline and for AVX-512 (target attributes, chosen at run time by
// orbit::simdLevel(), as features/CosPool is). The loop is fastExp's branch-free float operations in
// the same order either way (16 lanes instead of 4, no contraction into FMA), so both give the same
// bits; only the speed differs.
#include <Eigen/Core>

namespace orbit::detail {

/// p[t] := exp(min(0, (2 p[t] - a2 - b2[t]) gamma)) for t < n (fastExp).
void gaussianRow(float* p, float a2, const float* b2, float gamma, Eigen::Index n);
/// acc[t] += exp(min(0, (2 p[t] - a2 - b2[t]) gamma)) for t < n: the same values, summed.
void addGaussianRow(float* acc, const float* p, float a2, const float* b2, float gamma, Eigen::Index n);

} // namespace orbit::detail

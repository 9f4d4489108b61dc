#pragma once
// Private: the elementwise step of the random-Fourier maps (irf, rf) and of their tangents, acc += cos(p + b) over a tile
// row of the product, compiled twice: for the x86-64 baseline and for AVX-512 (target attributes,
// chosen at run time by orbit::simdLevel(), as CdfPool is). The loop is fastCos's branch-free
// float operations in the same order either way (16 lanes instead of 4, no contraction into FMA:
// ISO C++ mode), so both give the same bits; only the speed differs.
#include <Eigen/Core>

namespace orbit::detail {

/// acc[t] += fastCos(p[t] + b[t]) for t < n.
void addCos(float* acc, const float* p, const float* b, Eigen::Index n);
/// acc[t] += fastSin(p[t]) for t < n.
void addSin(float* acc, const float* p, Eigen::Index n);
/// The tangents' step (features/InvariantFourierTangents): acc[t] -= fastSin(p[t] + b[t]) * dp[t].
void subSinTimes(float* acc, const float* p, const float* b, const float* dp, Eigen::Index n);
/// acc[t] += fastCos(p[t]) * dp[t] (the complex form's tangents).
void addCosTimes(float* acc, const float* p, const float* dp, Eigen::Index n);

} // namespace orbit::detail

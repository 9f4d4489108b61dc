#include "kernels/GaussianRows.hpp"

#include "orbit/kernels/FastExp.hpp"
#include "util/SimdDispatch.hpp"

namespace orbit::detail {

namespace {

__attribute__((always_inline)) inline float gaussian(float p, float a2, float b2, float gamma)
{
    const float e = (2.0f * p - a2 - b2) * gamma;
    return fastExp(e < 0.0f ? e : 0.0f);
}

__attribute__((always_inline)) inline void gaussianLoop(float* p, float a2, const float* b2, float gamma, Eigen::Index n)
{
    for (Eigen::Index t = 0; t < n; ++t) p[t] = gaussian(p[t], a2, b2[t], gamma);
}

__attribute__((always_inline)) inline void addGaussianLoop(float* acc, const float* p, float a2, const float* b2,
                                                          float gamma, Eigen::Index n)
{
    for (Eigen::Index t = 0; t < n; ++t) acc[t] += gaussian(p[t], a2, b2[t], gamma);
}

#if ORBIT_SIMD_DISPATCH
ORBIT_TARGET_AVX512 void gaussianAvx512(float* p, float a2, const float* b2, float gamma, Eigen::Index n)
{
    gaussianLoop(p, a2, b2, gamma, n);
}
ORBIT_TARGET_AVX512 void addGaussianAvx512(float* acc, const float* p, float a2, const float* b2, float gamma,
                                           Eigen::Index n)
{
    addGaussianLoop(acc, p, a2, b2, gamma, n);
}
#endif

} // namespace

void gaussianRow(float* p, float a2, const float* b2, float gamma, Eigen::Index n)
{
#if ORBIT_SIMD_DISPATCH
    if (simdLevel() == SimdLevel::Avx512) return gaussianAvx512(p, a2, b2, gamma, n);
#endif
    gaussianLoop(p, a2, b2, gamma, n);
}

void addGaussianRow(float* acc, const float* p, float a2, const float* b2, float gamma, Eigen::Index n)
{
#if ORBIT_SIMD_DISPATCH
    if (simdLevel() == SimdLevel::Avx512) return addGaussianAvx512(acc, p, a2, b2, gamma, n);
#endif
    addGaussianLoop(acc, p, a2, b2, gamma, n);
}

} // namespace orbit::detail

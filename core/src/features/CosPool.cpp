#include "features/CosPool.hpp"

#include "orbit/features/FastCos.hpp"
#include "util/SimdDispatch.hpp"

namespace orbit::detail {

namespace {

__attribute__((always_inline)) inline void addCosLoop(float* acc, const float* p, const float* b, Eigen::Index n)
{
    for (Eigen::Index t = 0; t < n; ++t) acc[t] += fastCos(p[t] + b[t]);
}

__attribute__((always_inline)) inline void addSinLoop(float* acc, const float* p, Eigen::Index n)
{
    for (Eigen::Index t = 0; t < n; ++t) acc[t] += fastSin(p[t]);
}

__attribute__((always_inline)) inline void subSinTimesLoop(float* acc, const float* p, const float* b, const float* dp, Eigen::Index n)
{
    for (Eigen::Index t = 0; t < n; ++t) acc[t] -= fastSin(p[t] + b[t]) * dp[t];
}

__attribute__((always_inline)) inline void addCosTimesLoop(float* acc, const float* p, const float* dp, Eigen::Index n)
{
    for (Eigen::Index t = 0; t < n; ++t) acc[t] += fastCos(p[t]) * dp[t];
}

#if ORBIT_SIMD_DISPATCH
ORBIT_TARGET_AVX512 void subSinTimesAvx512(float* acc, const float* p, const float* b, const float* dp, Eigen::Index n)
{
    subSinTimesLoop(acc, p, b, dp, n);
}
ORBIT_TARGET_AVX512 void addCosTimesAvx512(float* acc, const float* p, const float* dp, Eigen::Index n) { addCosTimesLoop(acc, p, dp, n); }
ORBIT_TARGET_AVX512 void addCosAvx512(float* acc, const float* p, const float* b, Eigen::Index n) { addCosLoop(acc, p, b, n); }
ORBIT_TARGET_AVX512 void addSinAvx512(float* acc, const float* p, Eigen::Index n) { addSinLoop(acc, p, n); }
#endif

} // namespace

void addCos(float* acc, const float* p, const float* b, Eigen::Index n)
{
#if ORBIT_SIMD_DISPATCH
    if (simdLevel() == SimdLevel::Avx512) return addCosAvx512(acc, p, b, n);
#endif
    addCosLoop(acc, p, b, n);
}

void addSin(float* acc, const float* p, Eigen::Index n)
{
#if ORBIT_SIMD_DISPATCH
    if (simdLevel() == SimdLevel::Avx512) return addSinAvx512(acc, p, n);
#endif
    addSinLoop(acc, p, n);
}

void subSinTimes(float* acc, const float* p, const float* b, const float* dp, Eigen::Index n)
{
#if ORBIT_SIMD_DISPATCH
    if (simdLevel() == SimdLevel::Avx512) return subSinTimesAvx512(acc, p, b, dp, n);
#endif
    subSinTimesLoop(acc, p, b, dp, n);
}

void addCosTimes(float* acc, const float* p, const float* dp, Eigen::Index n)
{
#if ORBIT_SIMD_DISPATCH
    if (simdLevel() == SimdLevel::Avx512) return addCosTimesAvx512(acc, p, dp, n);
#endif
    addCosTimesLoop(acc, p, dp, n);
}

} // namespace orbit::detail

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

#if ORBIT_SIMD_DISPATCH
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

} // namespace orbit::detail

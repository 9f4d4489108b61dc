#include "util/StreamStore.hpp"

#include "util/SimdDispatch.hpp"

#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace orbit::detail {

void adviseHugePages(float* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t page = 4096;
    const std::uintptr_t a = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
    const std::uintptr_t e = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
    if (bytes >= (std::size_t(4) << 20) && e > a) madvise(reinterpret_cast<void*>(a), e - a, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

namespace {

/// Stores elements [0, i) normally until dst + i is aligned to `bytes`; returns i.
std::size_t alignedStart(const float* src, float* dst, std::size_t n, std::size_t bytes)
{
    std::size_t i = 0;
    while (i < n && (reinterpret_cast<std::uintptr_t>(dst + i) % bytes) != 0) {
        dst[i] = src[i];
        ++i;
    }
    return i;
}

#if ORBIT_SIMD_DISPATCH
ORBIT_TARGET_AVX512 void streamCopyAvx512(const float* src, float* dst, std::size_t n)
{
    std::size_t i = alignedStart(src, dst, n, 64);
    for (; i + 16 <= n; i += 16) _mm512_stream_ps(dst + i, _mm512_loadu_ps(src + i));
    for (; i < n; ++i) dst[i] = src[i];
}
#endif

} // namespace

void streamCopy(const float* src, float* dst, std::size_t n)
{
#if ORBIT_SIMD_DISPATCH
    if (simdLevel() == SimdLevel::Avx512) return streamCopyAvx512(src, dst, n);
#endif
#if defined(__AVX512F__)
    constexpr std::size_t lanes = 16;
#elif defined(__AVX__)
    constexpr std::size_t lanes = 8;
#elif defined(__SSE2__)
    constexpr std::size_t lanes = 4;
#endif
#if defined(__SSE2__)
    std::size_t i = alignedStart(src, dst, n, lanes * sizeof(float));
    for (; i + lanes <= n; i += lanes) {
#if defined(__AVX512F__)
        _mm512_stream_ps(dst + i, _mm512_loadu_ps(src + i));
#elif defined(__AVX__)
        _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
#else
        _mm_stream_ps(dst + i, _mm_loadu_ps(src + i));
#endif
    }
    for (; i < n; ++i) dst[i] = src[i];
#else
    std::memcpy(dst, src, n * sizeof(float));
#endif
}

} // namespace orbit::detail

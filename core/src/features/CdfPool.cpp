#include "features/CdfPool.hpp"

#include "util/SimdDispatch.hpp"

#include <algorithm>
#include <cmath>

#if ORBIT_SIMD_DISPATCH
#include <immintrin.h>
#endif

namespace orbit::detail {

namespace {

#if ORBIT_SIMD_DISPATCH
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_ps(), a self-initialised variable that
// -Wmaybe-uninitialized reports once inlined here (a GCC 12 false positive, GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
/// CdfPool::indices on 16 lanes at a time: idx[i] = (clamp(ceil(p[i] to), lo, hi) + shift) << bits for
/// i in [0, n rounded down to 16); returns where the scalar tail starts. The same float operations
/// in the same order as the scalar loop, so the same indices.
ORBIT_TARGET_AVX512 Eigen::Index indicesAvx512(const float* p, Eigen::Index n, float to, float lo, float hi,
                                               float shift, int bits, int* idx)
{
    const __m512 vTo = _mm512_set1_ps(to), vLo = _mm512_set1_ps(lo), vHi = _mm512_set1_ps(hi),
                 vShift = _mm512_set1_ps(shift);
    const __m128i vBits = _mm_cvtsi32_si128(bits);
    Eigen::Index i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 y = _mm512_roundscale_ps(_mm512_mul_ps(_mm512_loadu_ps(p + i), vTo),
                                        _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
        y = _mm512_add_ps(_mm512_max_ps(_mm512_min_ps(y, vHi), vLo), vShift);
        _mm512_storeu_si512(idx + i, _mm512_sll_epi32(_mm512_cvttps_epi32(y), vBits));
    }
    return i;
}

/// Counts (16 bytes) k0 .. k0 + 16 of a row as floats, stored to o[k0 ..) where width allows.
ORBIT_TARGET_AVX512 inline void putCounts(__m128i bytes, bool lookup, __m512 value, __m512 scale, int width, int k0,
                                          float* o)
{
    const __m512i counts = _mm512_cvtepu8_epi32(bytes);
    const __m512 v = lookup ? _mm512_permutexvar_ps(counts, value) : _mm512_mul_ps(_mm512_cvtepi32_ps(counts), scale);
    const int n = std::min(16, width - k0);
    if (n == 16)
        _mm512_storeu_ps(o + k0, v);
    else
        _mm512_mask_storeu_ps(o + k0, __mmask16((1u << n) - 1u), v);
}

/// CdfPool's byte steps for nj templates: out[j width + k] = scale sum_{i < r} table[idx_ji][k], with
/// idx_ji = at[j jStride + i iStride] / 64 (at holds the rows' byte offsets) and table rows of 64
/// bytes. A whole row is one register, so the r steps are r byte adds (counts <= r <= 255 fit), then
/// one widening per 16 lanes: to the float `value[count]` when r < 16 (a lane permute: value[c] =
/// float(c) scale, the same product as below), else float(count) scale.
ORBIT_TARGET_AVX512 void byteStepsAvx512(const std::uint8_t* table, const int* at, Eigen::Index nj,
                                         Eigen::Index jStride, Eigen::Index iStride, int r, int width, float scale,
                                         const float* value, float* out)
{
    const __m512 vScale = _mm512_set1_ps(scale), vValue = _mm512_loadu_ps(value);
    const bool lookup = r < 16;
    for (Eigen::Index j = 0; j < nj; ++j) {
        const int* aj = at + j * jStride;
        __m512i f = _mm512_loadu_si512(table + aj[0]);
        for (int i = 1; i < r; ++i) f = _mm512_add_epi8(f, _mm512_loadu_si512(table + aj[i * iStride]));
        float* o = out + j * width;
        putCounts(_mm512_castsi512_si128(f), lookup, vValue, vScale, width, 0, o);
        if (width > 16) putCounts(_mm512_extracti32x4_epi32(f, 1), lookup, vValue, vScale, width, 16, o);
        if (width > 32) putCounts(_mm512_extracti32x4_epi32(f, 2), lookup, vValue, vScale, width, 32, o);
        if (width > 48) putCounts(_mm512_extracti32x4_epi32(f, 3), lookup, vValue, vScale, width, 48, o);
    }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

} // namespace

CdfPool::CdfPool(int bins, int r, float s, float scale)
    : bins_(bins), width_(2 * bins + 1), padded_((width_ + kLanes - 1) / kLanes * kLanes), r_(r),
      toBin_(float(bins) / s), scale_(scale), counts_(std::size_t(width_) + 1)
{
#if ORBIT_SIMD_DISPATCH
    avx512_ = simdLevel() == SimdLevel::Avx512;
    if (avx512_ && width_ <= 64 && r <= 255) {
        mode_ = Mode::ByteSteps;
        byteSteps_.assign(std::size_t(width_ + 1) * 64, 0);
        for (int j = 0; j <= width_; ++j)
            for (int k = j; k < width_; ++k) byteSteps_[std::size_t(j) * 64 + std::size_t(k)] = 1;
        indexBits_ = 6;  // indices() gives the rows' byte offsets
        for (int c = 0; c < kLanes; ++c) countValue_[std::size_t(c)] = float(c) * scale_;
        return;
    }
#endif
    if (padded_ <= kMaxStepWidth && r * (padded_ / kLanes) <= 4 * width_) {
        mode_ = Mode::FloatSteps;
        steps_.assign(std::size_t(width_ + 1) * std::size_t(padded_), 0.0f);
        for (int j = 0; j <= width_; ++j)
            for (int k = j; k < width_; ++k) steps_[std::size_t(j) * std::size_t(padded_) + std::size_t(k)] = 1.0f;
    }
}

void CdfPool::indices(const float* p, Eigen::Index n, std::vector<int>& idx) const
{
    // Projections are finite (transform refuses non-finite inputs), so min/max clamp exactly.
    idx.resize(std::size_t(n));
    const float lo = -float(bins_), hi = float(bins_ + 1), shift = float(bins_);
    Eigen::Index i = 0;
#if ORBIT_SIMD_DISPATCH
    if (avx512_) i = indicesAvx512(p, n, toBin_, lo, hi, shift, indexBits_, idx.data());
#endif
    for (; i < n; ++i)
        idx[std::size_t(i)] = int(std::max(std::min(std::ceil(p[i] * toBin_), hi), lo) + shift) << indexBits_;
}

void CdfPool::operator()(const int* idx, Eigen::Index nj, Eigen::Index jStride, Eigen::Index iStride, float* out)
{
#if ORBIT_SIMD_DISPATCH
    if (mode_ == Mode::ByteSteps)
        return byteStepsAvx512(byteSteps_.data(), idx, nj, jStride, iStride, r_, width_, scale_, countValue_.data(),
                               out);
#endif
    for (Eigen::Index j = 0; j < nj; ++j) pool(idx + j * jStride, iStride, out + j * width_);
}

void CdfPool::pool(const int* idx, Eigen::Index stride, float* out)
{
    if (mode_ == Mode::FloatSteps) {
        switch (padded_ / kLanes) {
        case 1: return addSteps<1>(idx, stride, out);
        case 2: return addSteps<2>(idx, stride, out);
        case 3: return addSteps<3>(idx, stride, out);
        case 4: return addSteps<4>(idx, stride, out);
        case 5: return addSteps<5>(idx, stride, out);
        case 6: return addSteps<6>(idx, stride, out);
        case 7: return addSteps<7>(idx, stride, out);
        default: return addSteps<8>(idx, stride, out);
        }
    }
    const int w = width_;
    float* f = counts_.data();
    std::fill(counts_.begin(), counts_.end(), 0.0f);
    for (int i = 0; i < r_; ++i) f[idx[i * stride]] += 1.0f;
    for (int k = 1; k < w; ++k) f[k] += f[k - 1];
    for (int k = 0; k < w; ++k) out[k] = f[k] * scale_;
}

template <int Chunks>
void CdfPool::addSteps(const int* idx, Eigen::Index stride, float* out) const
{
    using Lane = Eigen::Array<float, kLanes, 1>;
    Lane f[Chunks];
    const float* row = steps_.data() + std::ptrdiff_t(idx[0]) * padded_;
    for (int c = 0; c < Chunks; ++c) f[c] = Eigen::Map<const Lane>(row + c * kLanes);
    for (int i = 1; i < r_; ++i) {
        row = steps_.data() + std::ptrdiff_t(idx[i * stride]) * padded_;
        for (int c = 0; c < Chunks; ++c) f[c] += Eigen::Map<const Lane>(row + c * kLanes);
    }
    for (int c = 0; c < Chunks; ++c) {
        const int k0 = c * kLanes, n = std::min(kLanes, width_ - k0);
        if (n == kLanes)
            Eigen::Map<Lane>(out + k0) = f[c] * scale_;
        else
            for (int l = 0; l < n; ++l) out[k0 + l] = f[c][l] * scale_;
    }
}

} // namespace orbit::detail

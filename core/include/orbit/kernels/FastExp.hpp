#pragma once
// A vectorisable exponential for float arrays: the Gaussian kernel's inner loop (Nystrom, kif,
// kernel matrices).
#include <cstdint>
#include <cstring>

namespace orbit {

/// exp(x) for x <= 0, the exponent of a Gaussian kernel value. Range reduction x = n ln 2 + t
/// (Cody-Waite, two-part ln 2, n rounded to nearest), |t| <= ln 2 / 2, exp(t) by Cephes' expf
/// polynomial of degree 7, times 2^n built in the exponent bits.
/// Guarantees: relative error < 1e-7 (about 1.3 ulp at worst) for -86 <= x <= 0; 0 for x < -86
/// (exp(-86) is 4.4e-38, so no denormal is ever made: they are slow on x86); exp(0) = 1 exactly.
/// Branch-free and made of plain float and integer operations, so a loop over an array of it
/// vectorises at any x86-64 level and gives the same bits at each when no a * b + c is contracted
/// into an FMA (-ffp-contract=off, kernels/GaussianRows.cpp).
inline float fastExp(float x)
{
    constexpr float lowest = -86.0f;
    constexpr float log2e = 1.44269504088896341f;
    constexpr float magic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
    const float xc = x < lowest ? lowest : x;
    const float shifted = xc * log2e + magic;
    const float n = shifted - magic;
    std::int32_t bits;
    std::memcpy(&bits, &shifted, sizeof bits);
    const std::int32_t k = bits - 0x4B400000;  // n as an integer (the low mantissa bits of shifted)
    float t = xc - n * 0.693359375f;            // ln 2 = 0.693359375 - 2.12194440e-4: n * hi is exact
    t = t - n * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * t + 1.3981999507e-3f;
    p = p * t + 8.3334519073e-3f;
    p = p * t + 4.1665795894e-2f;
    p = p * t + 1.6666665459e-1f;
    p = p * t + 5.0000001201e-1f;
    p = p * (t * t) + t + 1.0f;
    const std::int32_t scaleBits = (k + 127) << 23;  // 2^n, n >= -125: a normal float
    float scale;
    std::memcpy(&scale, &scaleBits, sizeof scale);
    const float e = p * scale;
    return x < lowest ? 0.0f : e;
}

} // namespace orbit

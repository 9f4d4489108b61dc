#pragma once
// A vectorisable cosine for float arrays: the inner loop of the random-Fourier hot path.
#include <cstdint>
#include <cstring>

namespace orbit {

/// cos(x) for |x| < 2^22: range reduction x = n pi + t (Cody-Waite, three-part pi), |t| <= pi/2,
/// cos x = (-1)^n cos t, and cos t by its even Taylor/minimax polynomial of degree 14 (truncation
/// error < 1e-9 on [-pi/2, pi/2]). Guarantees |fastCos(x) - cos(x)| <= ~1e-6 for |x| <= 1e3
/// (float rounding of the argument dominates beyond that). Branch-free, so loops over arrays of it
/// vectorise (AVX2 / AVX-512 with -march=native).
namespace detail {
/// (-1)^n cos(t) with x = (n + offset) pi + t, |t| <= pi/2; offset 0 gives cos x, 0.5 gives sin x.
inline float reducedCos(float x, float offset)
{
    constexpr float invPi = 0.318309886183790671538f;
    constexpr float magic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
    const float shifted = (x * invPi - offset) + magic;
    const float n = shifted - magic;
    std::uint32_t bits;
    std::memcpy(&bits, &shifted, sizeof bits);
    const std::uint32_t sign = bits << 31;  // parity of n in the sign bit
    const float m = n + offset;             // exact: few significant bits
    float t = x - m * 3.140625f;            // pi = 3.140625 + 9.67502593994140625e-4 + 1.50995799e-7
    t = t - m * 9.67502593994140625e-4f;
    t = t - m * 1.509957990e-7f;
    const float t2 = t * t;
    float p = -1.1470745597729725e-11f;
    p = p * t2 + 2.0876756987868099e-09f;
    p = p * t2 - 2.7557319223985893e-07f;
    p = p * t2 + 2.4801587301587302e-05f;
    p = p * t2 - 1.3888888888888889e-03f;
    p = p * t2 + 4.1666666666666667e-02f;
    p = p * t2 - 0.5f;
    p = p * t2 + 1.0f;
    std::uint32_t pb;
    std::memcpy(&pb, &p, sizeof pb);
    pb ^= sign;
    std::memcpy(&p, &pb, sizeof p);
    return p;
}
} // namespace detail

inline float fastCos(float x) { return detail::reducedCos(x, 0.0f); }

/// sin(x) = (-1)^n cos(t) for x = (n + 1/2) pi + t, with the same accuracy as fastCos.
inline float fastSin(float x) { return detail::reducedCos(x, 0.5f); }

} // namespace orbit

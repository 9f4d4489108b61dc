#include "orbit/util/Random.hpp"

#include <cmath>

namespace orbit {

void Rng::seed(result_type seed)
{
    state_[0] = seed;
    for (std::size_t i = 1; i < kStateSize; ++i)
        state_[i] = 6364136223846793005ULL * (state_[i - 1] ^ (state_[i - 1] >> 62)) + i;
    next_ = kStateSize;
}

void Rng::twist()
{
    constexpr std::size_t n = kStateSize, m = 156;
    // y = upper 33 bits of word k, lower 31 of word k + 1; new word = word k + m ^ (y >> 1), and the
    // matrix a too when y is odd: a mask, not a branch.
    auto next = [](result_type upper, result_type lower, result_type shifted) {
        const result_type y = (upper & 0xffffffff80000000ULL) | (lower & 0x7fffffffULL);
        return shifted ^ (y >> 1) ^ ((result_type(0) - (y & 1u)) & 0xb5026f5aa96619e9ULL);
    };
    std::size_t k = 0;
    for (; k < n - m; ++k) state_[k] = next(state_[k], state_[k + 1], state_[k + m]);
    for (; k < n - 1; ++k) state_[k] = next(state_[k], state_[k + 1], state_[k + m - n]);
    state_[n - 1] = next(state_[n - 1], state_[0], state_[m - 1]);
    next_ = 0;
}

std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream)
{
    auto mix = [](std::uint64_t z) {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    return mix(mix(seed) ^ (stream * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL));
}

double uniform01(Rng& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

double standardNormal(Rng& rng)
{
    double u, v, s;
    do {
        u = 2.0 * uniform01(rng) - 1.0;
        v = 2.0 * uniform01(rng) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * std::sqrt(-2.0 * std::log(s) / s);
}

std::uint64_t uniformIndex(Rng& rng, std::uint64_t n)
{
    // Lemire-style rejection for an unbiased result.
    const std::uint64_t limit = n == 0 ? 0 : (~std::uint64_t(0) - (~std::uint64_t(0) % n));
    std::uint64_t x;
    do {
        x = rng();
    } while (x >= limit);
    return x % n;
}

} // namespace orbit

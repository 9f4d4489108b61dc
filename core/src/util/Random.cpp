#include "orbit/util/Random.hpp"

#include <cmath>

namespace orbit {

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

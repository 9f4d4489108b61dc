#pragma once
// Explicit randomness. There is no global RNG: every stochastic call takes an Rng or a seed.
// Parallel code derives one stream per work item with deriveSeed(seed, item), so the numbers do
// not depend on how items are spread over threads.
#include <cstdint>
#include <random>

namespace orbit {

using Rng = std::mt19937_64;

/// splitmix64 mix of (seed, stream): independent, reproducible seeds for sub-streams.
std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream);

/// An engine for sub-stream `stream` of `seed`.
inline Rng makeRng(std::uint64_t seed, std::uint64_t stream = 0) { return Rng(deriveSeed(seed, stream)); }

/// Uniform on [0, 1) with 53 random bits (portable: does not use std::uniform_real_distribution).
double uniform01(Rng& rng);

/// Standard normal N(0, 1) by the Marsaglia polar method (portable across standard libraries).
double standardNormal(Rng& rng);

/// Uniform integer in [0, n).
std::uint64_t uniformIndex(Rng& rng, std::uint64_t n);

} // namespace orbit

#pragma once
// Explicit randomness. There is no global RNG: every stochastic call takes an Rng or a seed.
// Parallel code derives one stream per work item with deriveSeed(seed, item), so the numbers do
// not depend on how items are spread over threads.
#include <array>
#include <cstddef>
#include <cstdint>

namespace orbit {

/// MT19937-64: the same numbers as std::mt19937_64 from the same seed, bit for bit (every seed and
/// paper anchor stays as it was). Its own because libstdc++'s twist picks the matrix by a branch on
/// the low bit of each word: half of them mispredict, and a build for baseline x86-64 draws at a
/// quarter of a -march=native build's speed (4.8 against 1.0 ns a number on the machine of
/// docs/results.md). Here the twist is branch-free: 1.15 ns a number in the baseline build, 0.97
/// in a native one.
/// A UniformRandomBitGenerator, so the standard distributions take it too.
class Rng {
public:
    using result_type = std::uint64_t;
    static constexpr std::size_t kStateSize = 312;
    static constexpr result_type kDefaultSeed = 5489u;

    explicit Rng(result_type seed = kDefaultSeed) { this->seed(seed); }
    void seed(result_type seed);

    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }

    result_type operator()()
    {
        if (next_ >= kStateSize) twist();
        result_type z = state_[next_++];
        z ^= (z >> 29) & 0x5555555555555555ULL;
        z ^= (z << 17) & 0x71d67fffeda60000ULL;
        z ^= (z << 37) & 0xfff7eee000000000ULL;
        return z ^ (z >> 43);
    }

    /// Skips n numbers.
    void discard(unsigned long long n)
    {
        for (; n > 0; --n) (*this)();
    }

    friend bool operator==(const Rng& a, const Rng& b) { return a.next_ == b.next_ && a.state_ == b.state_; }
    friend bool operator!=(const Rng& a, const Rng& b) { return !(a == b); }

private:
    /// The next kStateSize words of the recurrence (out of line: once every 312 numbers).
    void twist();

    std::array<result_type, kStateSize> state_{};
    std::size_t next_ = kStateSize;
};

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

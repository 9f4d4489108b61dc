#pragma once
// Which instruction set the hand-vectorised kernels use, chosen at run time.
//
// The default build targets the x86-64 baseline (SSE2), so its binaries run on any x86-64 CPU; the
// few kernels written with AVX-512 intrinsics (GICDF's CDF pooling) are compiled for AVX-512 with
// target attributes and called only when the CPU has it. Every kernel gives the same bits at every
// level (they count small integers exactly), so the level never changes a result.
#include <string>

namespace orbit {

enum class SimdLevel {
    Baseline,  ///< portable code only (plus what the build's -march allows the compiler)
    Avx512,    ///< AVX-512 F + BW kernels
};

/// The best level this CPU runs (Baseline off x86-64 or when the compiler has no target attributes).
SimdLevel simdSupported();

/// The level the kernels use: simdSupported(), lowered to Baseline when the environment variable
/// ORBIT_SIMD is "baseline" at the first call, or as set by setSimdLevel().
SimdLevel simdLevel();

/// Selects the level (tests run both paths). Requires: level <= simdSupported(), else
/// std::invalid_argument. Not to be called while a feature map is transforming on another thread.
void setSimdLevel(SimdLevel level);

/// "baseline" or "avx512".
std::string simdName(SimdLevel level);

/// How the library was compiled: "native" (-march=native), or "portable" (the default).
std::string buildArch();

} // namespace orbit

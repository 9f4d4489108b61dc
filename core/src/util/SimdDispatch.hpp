#pragma once
// Private: compiling a kernel for a wider instruction set than the build's, to be called only after
// a run-time check (orbit::simdLevel(), orbit/util/Simd.hpp). The build's own -march stays the
// default for everything else, so a portable build runs on any x86-64.
#include "orbit/util/Simd.hpp"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define ORBIT_SIMD_DISPATCH 1
/// Lets a function use AVX-512 F + BW intrinsics whatever -march says. Callers check
/// simdLevel() == SimdLevel::Avx512 first.
#define ORBIT_TARGET_AVX512 __attribute__((target("avx512f,avx512bw")))
#else
#define ORBIT_SIMD_DISPATCH 0
#endif

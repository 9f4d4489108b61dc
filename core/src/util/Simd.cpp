#include "orbit/util/Simd.hpp"

#include "util/SimdDispatch.hpp"

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace orbit {

namespace {

SimdLevel detect()
{
#if ORBIT_SIMD_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return SimdLevel::Avx512;
#endif
    return SimdLevel::Baseline;
}

SimdLevel initial()
{
    const char* env = std::getenv("ORBIT_SIMD");
    if (env && std::string_view(env) == "baseline") return SimdLevel::Baseline;
    return simdSupported();
}

std::atomic<SimdLevel>& current()
{
    static std::atomic<SimdLevel> level{initial()};
    return level;
}

} // namespace

SimdLevel simdSupported()
{
    static const SimdLevel supported = detect();
    return supported;
}

SimdLevel simdLevel() { return current().load(std::memory_order_relaxed); }

void setSimdLevel(SimdLevel level)
{
    if (int(level) > int(simdSupported()))
        throw std::invalid_argument("setSimdLevel: this CPU does not run " + simdName(level) + " (it runs " +
                                    simdName(simdSupported()) + ")");
    current().store(level, std::memory_order_relaxed);
}

std::string simdName(SimdLevel level) { return level == SimdLevel::Avx512 ? "avx512" : "baseline"; }

std::string buildArch()
{
#if ORBIT_BUILD_NATIVE
    return "native";
#else
    return "portable";
#endif
}

} // namespace orbit

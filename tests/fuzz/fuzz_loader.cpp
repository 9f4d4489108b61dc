// libFuzzer target for one dataset loader, chosen at compile time: ORBIT_FUZZ_TARGET is the name
// of FuzzChecks.hpp's loaderFor() ("idx", "cifar", ...), ORBIT_FUZZ_SUFFIX the temporary file's
// extension. Property (checkLoad): the input loads with its invariants, or is refused with
// LoadError / SpecError. Other exceptions, sanitizer reports, leaks, allocations beyond
// -rss_limit_mb and hangs are findings.
#include "FuzzChecks.hpp"
#include "FuzzInput.hpp"

#include <cstdlib>
#include <iostream>

#ifndef ORBIT_FUZZ_TARGET
#error "define ORBIT_FUZZ_TARGET (e.g. \"idx\")"
#endif
#ifndef ORBIT_FUZZ_SUFFIX
#define ORBIT_FUZZ_SUFFIX ""
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const orbitfuzz::Loader load = orbitfuzz::loaderFor(ORBIT_FUZZ_TARGET);
    static orbitfuzz::TempInput input(ORBIT_FUZZ_SUFFIX);
    if (!load) std::abort();
    try {
        (void)orbitfuzz::checkLoad(load, input.write(data, size));
    } catch (const orbitfuzz::Finding& f) {
        std::cerr << ORBIT_FUZZ_TARGET << ": " << f.what() << "\n";
        std::abort();
    }
    return 0;
}

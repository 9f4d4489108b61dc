// libFuzzer target for the spec-string parsers of the CLI and sessions. The input's lines are
//   1: a --group spec, 2: a --dist spec, 3: a --kernel spec, 4: a --features spec
// (see FuzzChecks.hpp checkSpecs). Property: every parser returns an object or throws SpecError;
// building a map never allocates its templates (fit() does), so a large allocation is a finding too.
#include "FuzzChecks.hpp"
#include "FuzzInput.hpp"

#include <cstdlib>
#include <iostream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    try {
        orbitfuzz::checkSpecs(orbitfuzz::lines(data, size, 4));
    } catch (const orbitfuzz::Finding& f) {
        std::cerr << "spec: " << f.what() << "\n";
        std::abort();
    }
    return 0;
}

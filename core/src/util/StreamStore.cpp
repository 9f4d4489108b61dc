#include "util/StreamStore.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace orbit::detail {

void adviseHugePages(float* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t page = 4096;
    const std::uintptr_t a = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
    const std::uintptr_t e = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
    if (bytes >= (std::size_t(4) << 20) && e > a) madvise(reinterpret_cast<void*>(a), e - a, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace orbit::detail

#include "orbit/util/Allocator.hpp"

#include <algorithm>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace orbit {

void limitAllocatorArenasToCores()
{
#if defined(__GLIBC__)
    const int arenas = std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
    mallopt(M_ARENA_MAX, arenas);
#endif
}

} // namespace orbit

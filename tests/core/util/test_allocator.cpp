// The allocator's arenas for a long-lived process (orbit/util/Allocator.hpp): after
// limitAllocatorArenasToCores, threads allocating at the same time share at most one arena per core
// (at least 2) instead of getting one each.
#include "orbit/util/Allocator.hpp"

#include <QTest>
#include <QObject>

#include <algorithm>
#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

/// The arenas malloc has now: the <heap nr=...> elements of malloc_info's report (-1 when it cannot
/// be read).
int arenaCount()
{
#if defined(__GLIBC__)
    char* text = nullptr;
    std::size_t size = 0;
    FILE* report = open_memstream(&text, &size);
    if (!report)
        return -1;
    const int rc = malloc_info(0, report);
    std::fclose(report);
    const std::string xml = text ? std::string(text, size) : std::string();
    std::free(text);
    if (rc != 0)
        return -1;
    int heaps = 0;
    for (std::size_t at = xml.find("<heap nr="); at != std::string::npos; at = xml.find("<heap nr=", at + 1))
        ++heaps;
    return heaps;
#else
    return -1;
#endif
}

} // namespace

class TestAllocator : public QObject {
    Q_OBJECT
private slots:
    void threadsAllocatingAtOnceShareOneArenaPerCore()
    {
#if !defined(__GLIBC__)
        QSKIP("the arena limit is glibc's (M_ARENA_MAX); other C libraries are left as they are");
#elif defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("a sanitizer replaces malloc: there are no glibc arenas to count");
#else
        orbit::limitAllocatorArenasToCores();
        const int before = arenaCount();
        QVERIFY2(before >= 1, "malloc_info gave no <heap> element");
        const int limit = std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
        // Eight threads per allowed arena, all alive and allocating at once: without the limit glibc
        // gives each its own arena (up to eight per core), so the count would pass the limit.
        const int threads = 8 * limit;
        std::barrier allAllocated(threads);
        std::vector<std::thread> team;
        for (int t = 0; t < threads; ++t)
            team.emplace_back([&] {
                std::vector<void*> blocks;
                for (int i = 0; i < 16; ++i)
                    blocks.push_back(std::malloc(4096));
                allAllocated.arrive_and_wait();
                for (void* b : blocks)
                    std::free(b);
            });
        for (std::thread& t : team)
            t.join();
        const int after = arenaCount();
        QVERIFY2(after <= std::max(before, limit),
                 qPrintable(QStringLiteral("%1 arenas after %2 threads allocated at once, %3 before; at most %4 allowed")
                                .arg(after)
                                .arg(threads)
                                .arg(before)
                                .arg(limit)));
#endif
    }
};

QTEST_GUILESS_MAIN(TestAllocator)
#include "test_allocator.moc"

#pragma once
// Private: parallel work whose results do not depend on --threads.
// Eigen's own threading picks its product blocking from the thread count, which changes float
// rounding; products whose results must not depend on the thread count run under SerialEigen, and
// parallel loops split the work into a fixed partition (forEachBlock) instead of per-thread chunks.
#include "orbit/util/ComputeBudget.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>

namespace orbit::detail {

/// Eigen runs single-threaded while any of these guards lives, in any thread. Eigen's thread count
/// is one global: guards living in several threads at once (the GUI's workers) count themselves, the
/// first saves the count and the last puts it back. (Each saving and restoring its own would let one
/// thread's restore switch another's products back to several threads mid-way, and could leave
/// Eigen pinned at one thread.)
class SerialEigen {
public:
    SerialEigen()
    {
        const std::lock_guard<std::mutex> lock(state().m);
        if (state().guards++ == 0) {
            state().saved = Eigen::nbThreads();
            Eigen::setNbThreads(1);
        }
    }
    ~SerialEigen()
    {
        const std::lock_guard<std::mutex> lock(state().m);
        if (--state().guards == 0) Eigen::setNbThreads(state().saved);
    }
    SerialEigen(const SerialEigen&) = delete;
    SerialEigen& operator=(const SerialEigen&) = delete;

private:
    struct State {
        std::mutex m;
        int guards = 0;
        int saved = 0;
    };
    static State& state()
    {
        static State s;
        return s;
    }
};

/// Runs f() with Eigen single-threaded (a SerialEigen guard): the factorisations and solves of the
/// learners, whose bits must not depend on the thread count. OpenMP loops inside f still use the
/// team (their partitions are fixed).
template <class F>
void sequentialEigen(F&& f)
{
    const SerialEigen serial;
    f();
}

/// Runs body(begin, end) over the fixed partition of [0, count) into blocks of `block`, in an
/// OpenMP loop; Eigen runs single-threaded inside (each product's reduction order is fixed), and
/// the first exception is rethrown after the loop. Once a block has thrown (a cancel, an error),
/// the blocks not yet started are skipped: their work would be thrown away.
template <class Body>
void forEachBlock(std::size_t count, std::size_t block, Body&& body)
{
    const long long blocks = static_cast<long long>((count + block - 1) / block);
    const SerialEigen serial;
    std::exception_ptr error;
    std::atomic<bool> failed{false};
    std::mutex m;
#pragma omp parallel for schedule(dynamic, 1) num_threads(orbit::teamSize())
    for (long long b = 0; b < blocks; ++b) {
        if (failed.load(std::memory_order_relaxed)) continue;
        try {
            const std::size_t begin = std::size_t(b) * block;
            body(begin, std::min(count, begin + block));
        } catch (...) {
            std::lock_guard<std::mutex> lock(m);
            if (!error) error = std::current_exception();
            failed.store(true, std::memory_order_relaxed);
        }
    }
    if (error) std::rethrow_exception(error);
}

} // namespace orbit::detail

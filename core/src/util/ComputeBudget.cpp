#include "orbit/util/ComputeBudget.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>

namespace orbit {
namespace {

std::atomic<int> g_budget{0};  ///< 0: OpenMP's default
std::atomic<int> g_active{0};

} // namespace

int computeBudget()
{
    const int set = g_budget.load(std::memory_order_relaxed);
    return set > 0 ? set : std::max(1, omp_get_max_threads());
}

void setComputeBudget(int threads)
{
    g_budget.store(threads > 0 ? threads : 0, std::memory_order_relaxed);
    if (threads > 0) omp_set_num_threads(threads);  // Eigen's own products follow the calling thread's setting
}

int teamSize()
{
    const int active = g_active.load(std::memory_order_relaxed);
    const int budget = computeBudget();
    const int share = active <= 1 ? budget : std::max(1, budget / active);
    // Never more than the calling thread's own OpenMP setting (omp_set_num_threads: the tests
    // that compare 1 and 2 threads).
    return std::max(1, std::min(share, omp_get_max_threads()));
}

int activeComputations() { return g_active.load(std::memory_order_relaxed); }

ComputeShare::ComputeShare() { g_active.fetch_add(1, std::memory_order_relaxed); }

ComputeShare::~ComputeShare() { g_active.fetch_sub(1, std::memory_order_relaxed); }

} // namespace orbit

#pragma once
// One compute budget for the whole process: how many threads each parallel region of the core starts.
//
// The GUI runs one worker per panel, and two panels may compute at once. Each worker's computation
// holds a ComputeShare while it runs, and every OpenMP region of the core starts teamSize() threads:
// the budget divided among the computations running at that moment. So two computations on a
// 2-core machine run one thread each instead of two full teams fighting over the cores; a
// computation that started alone gives up half its threads at its next region when another starts,
// and takes them back when the other ends. Results never depend on the team size: the parallel
// loops use fixed partitions, and Eigen runs single-threaded inside them (a team of one thread is
// not an active OpenMP region, so Eigen would otherwise start its own team there and change its
// summation order; util/Deterministic.hpp).

namespace orbit {

/// The threads the process may use at once: set by setComputeBudget (the CLI's --threads), else
/// the calling thread's OpenMP maximum (OMP_NUM_THREADS, or the cores).
int computeBudget();
/// threads >= 1; values below 1 restore the default.
void setComputeBudget(int threads);

/// Threads for the next parallel region started on the calling thread: computeBudget() divided
/// among the live ComputeShares (at least 1), the whole budget when there are none; never more
/// than the thread's own OpenMP setting (omp_get_max_threads()).
int teamSize();

/// How many ComputeShares are alive now.
int activeComputations();

/// Held by one computation for as long as it runs (the GUI's Worker holds one per task).
class ComputeShare {
public:
    ComputeShare();
    ~ComputeShare();
    ComputeShare(const ComputeShare&) = delete;
    ComputeShare& operator=(const ComputeShare&) = delete;
};

} // namespace orbit

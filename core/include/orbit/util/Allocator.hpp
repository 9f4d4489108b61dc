#pragma once
// The C library's allocator, for a process that lives for hours and computes on several threads.
//
// glibc gives each thread that allocates an arena of its own (up to eight per core) and keeps every
// arena at its high-water mark: matrices a worker freed stay resident in that worker's arena, cut up
// by the small blocks still alive there, and malloc_trim cannot give those pages back. The window
// does exactly that for hours (a worker per panel, OpenMP teams, Qt's own threads). Measured with
// the random-click run (seed 11, 1500 actions): 243 MB free against 58 MB in use in the arenas at
// the end, resident memory 57-137 MB above its level after the warm-up; with one arena per core,
// -13 to +12 MB over five seeds, and the same page faults and system time in a training run
// (docs/results.md, "Nothing lost").

namespace orbit {

/// At most one malloc arena per hardware thread (at least 2), from now on. Call it at the start of a
/// long-lived process, before its threads allocate; threads that already have an arena keep it. It
/// does nothing when the C library is not glibc. The CLI and the Python module do not call it: a run
/// that ends soon gains nothing from it.
void limitAllocatorArenasToCores();

} // namespace orbit

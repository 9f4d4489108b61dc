#pragma once
// Speed of the feature hot paths against Eigen's own float32 product of the same shapes, and against
// the best float32 product this machine can do on them (its peak).
#include "orbit/data/Dataset.hpp"

#include <optional>
#include <string>
#include <vector>

namespace orbit {

/// One timed hot path. flops = 2 * rows * cols * depth of the GEMM it amounts to (rows = inputs, or
/// inputs x r on the data path; cols = r s transformed templates, or s), plus, for Nystrom, the
/// whitening product (inputs x s times s x s); gflops = flops / seconds;
/// gemm_gflops = the rate of Eigen float32 products C = A B^T of exactly those shapes (their times
/// added), timed in the same run with the same threads; ratio = gflops / gemm_gflops. peak_gflops =
/// the better of that and the run-time-dispatched BLAS's sgemm (its kernels for this CPU) on the same
/// shapes, rows split evenly over the same threads, one sgemm each; peak_ratio = gflops / peak_gflops: how close
/// the hot path is to the machine, whatever the build. Each side is the best of `repeats`
/// runs, the two alternating, so load from other processes cannot favour either. Both are timed in steady state: the
/// hot path writes into the output of a first, untimed transform (as a caller streaming batches into
/// one buffer does) and the GEMM into a paged-in matrix, so neither pays first-touch page faults.
struct BenchCase {
    std::string name;
    std::vector<long long> shape;  ///< {N, d, s, r}
    std::string spec;              ///< the feature spec and group/dist it ran
    double seconds = 0, gflops = 0, gemmGflops = 0, ratio = 0, peakGflops = 0, peakRatio = 0;
    std::string note;
};

struct BenchConfig {
    std::optional<Dataset> qm7;     ///< real QM7 (Coulomb 23 x 23) for the noisy-sort case, else synthetic
    std::optional<Dataset> digits;  ///< real images for the digits cases, else synthetic 20 x 20 in [0, 1]
    bool quick = false;             ///< smaller N (for smoke runs)
    int repeats = 5;                ///< timed runs per case; the best of them counts, for both sides
    std::vector<std::string> only;  ///< run only these case names (empty: all)
    std::uint64_t seed = 0;
};

/// Runs: irf-templates-digits (rotation, von Mises, template trick), irf-noisysort-qm7 (N = 7101,
/// d = 529, s = 2000, r = 10, inputs transformed), inystrom-templates-digits, gicdf-templates-digits,
/// and the exact kernel machines' orbit distances of 2000 QM7 inputs x 3 noisy-sort views:
/// exact-gram-gaussian-qm7 (GEMM-based: against the float product peak) and exact-l1-laplacian-qm7
/// (the L1 distance kernel: against its own in-cache ceiling, the same instruction mix).
std::vector<BenchCase> runBench(const BenchConfig& config);

} // namespace orbit

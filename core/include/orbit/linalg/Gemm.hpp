#pragma once
// The matrix products of the hot paths, C = beta C + A B^T, by one of two code paths chosen at run
// time: a run-time-dispatched BLAS (Debian's OpenBLAS, which picks its kernels for the CPU it runs
// on, so a portable binary multiplies at the machine's speed) or Eigen's own product (compiled for
// the build's ISA: SSE2 in a portable build).
//
// Threads and bits: two rules, both needed for the same bits at any --threads and any number of
// MPI ranks.
//  1. Every call is one thread's work, wherever it is made: inside a parallel loop, on a thread that
//     spreads a block's tiles over a team, on a GUI worker or in a team of one. The BLAS path
//     enforces it per call: OpenBLAS's OpenMP flavour would otherwise run a call made outside an
//     active parallel region on omp_get_max_threads() threads, and its threaded driver gives other
//     bits (it cuts the rows among the threads, so other entries fall on its edge kernels, and
//     cuts a depth k between GEMM_Q and 2 GEMM_Q, 384 and 768 for sgemm on AVX-512, into other
//     panels). Eigen runs single-threaded under the callers' SerialEigen guards.
//  2. The bits of an entry of C depend on the shape of the call that computes it, not only on its
//     operands: OpenBLAS sums an entry's k products in another order on its edge kernels (the rows
//     and columns left over from its register tiles: cutting a row-major product into column tiles
//     of a multiple of 4 and row tiles of a multiple of 2 kept every bit on SkylakeX kernels, tiles
//     of 3 or 17 did not), and Eigen picks its depth blocking from m, n and k. So the callers cut
//     their products into a
//     fixed partition of blocks and tiles (util/Deterministic.hpp, features/Pooling.hpp) that never
//     depends on the thread count or the ranks, and a block whose tiles may run on several threads
//     computes the same tiles either way.
// The bits do depend on the path (the two sum in different orders) and, for the BLAS path, on the
// kernels the CPU gets (as a native build's would). tests/core/linalg/test_gemm_paths checks rule 1
// (aCallOutsideAParallelRegionHasTheBitsOfOneThread), tests/core/features/test_feature_maps the
// two together (oneBlockSplitsItsTilesWithTheSameBits).
#include "orbit/data/Dataset.hpp"

#include <Eigen/Core>

#include <string>

namespace orbit {

enum class GemmPath {
    Eigen,  ///< Eigen's product, compiled for the build's instruction set
    Blas,   ///< the BLAS's sgemm / dgemm, its kernels chosen at run time for the CPU
};

/// Whether this build has a BLAS (CMake ORBIT_BLAS, on by default).
bool blasAvailable();

/// The path the products take: Blas when the build has one, lowered to Eigen when the environment
/// variable ORBIT_GEMM is "eigen" at the first call, or as set by setGemmPath().
GemmPath gemmPath();

/// Selects the path (tests run both). Requires: Blas only when blasAvailable(), else
/// std::invalid_argument. Not to be called while a product runs on another thread.
void setGemmPath(GemmPath path);

/// "eigen" or "blas".
std::string gemmName(GemmPath path);

/// What does the products: "eigen (sse2)", or the BLAS with the kernels it chose for this CPU,
/// e.g. "OpenBLAS 0.3.21 ... (SkylakeX kernels)". For bench --json.
std::string gemmDescription();

using ConstRowBlockF = Eigen::Ref<const MatrixXfR, 0, Eigen::OuterStride<>>;
using RowBlockF = Eigen::Ref<MatrixXfR, 0, Eigen::OuterStride<>>;
using ConstColBlockF = Eigen::Ref<const Eigen::MatrixXf, 0, Eigen::OuterStride<>>;
using ColBlockF = Eigen::Ref<Eigen::MatrixXf, 0, Eigen::OuterStride<>>;
using ConstColBlockD = Eigen::Ref<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using ColBlockD = Eigen::Ref<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

/// C = alpha A B^T + beta C on the calling thread (float32, row-major blocks). Requires
/// A.cols() == B.cols(), C of A.rows() x B.rows(), beta 0 or 1 (with 0, C's old values are never
/// read), C not overlapping A or B; ContractError otherwise.
void gemmABt(ConstRowBlockF A, ConstRowBlockF B, RowBlockF C, float alpha = 1.0f, float beta = 0.0f);
/// The same with column-major float32 blocks.
void gemmABt(ConstColBlockF A, ConstColBlockF B, ColBlockF C, float alpha = 1.0f, float beta = 0.0f);
/// The same in double precision, column-major blocks.
void gemmABt(ConstColBlockD A, ConstColBlockD B, ColBlockD C, double alpha = 1.0, double beta = 0.0);

/// C = A^T B on the calling thread (double, column-major blocks; C's old values are never read).
/// Requires B with A.rows() rows, C of A.cols() x B.cols(); ContractError otherwise.
void gemmAtB(ConstColBlockD A, ConstColBlockD B, ColBlockD C);

/// B := B L^{-T} on the calling thread, for L lower triangular (only its lower triangle is read;
/// the panel step of a blocked Cholesky factorisation). Requires L square with B.cols() columns;
/// ContractError otherwise.
void solveRightLowerTransposed(ConstColBlockD L, ColBlockD B);

} // namespace orbit

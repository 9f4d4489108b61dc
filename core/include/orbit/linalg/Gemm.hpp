#pragma once
// The matrix products of the hot paths, C = beta C + A B^T, by one of two code paths chosen at run
// time: a run-time-dispatched BLAS (Debian's OpenBLAS, which picks its kernels for the CPU it runs
// on, so a portable binary multiplies at the machine's speed) or Eigen's own product (compiled for
// the build's ISA: SSE2 in a portable build).
//
// Threads. Every call is one thread's work: the BLAS is told once to start no threads of its own,
// and Eigen runs under the callers' SerialEigen guards. The callers split their products into a
// fixed partition of blocks (util/Deterministic.hpp), so the bits never depend on --threads or on
// the number of MPI ranks. They do depend on the path (the two sum in different orders) and, for
// the BLAS path, on the kernels the CPU gets (as a native build's would).
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

/// B := B L^{-T} on the calling thread, for L lower triangular (only its lower triangle is read;
/// the panel step of a blocked Cholesky factorisation). Requires L square with B.cols() columns;
/// ContractError otherwise.
void solveRightLowerTransposed(ConstColBlockD L, ColBlockD B);

} // namespace orbit

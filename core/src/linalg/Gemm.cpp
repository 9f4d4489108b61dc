#include "orbit/linalg/Gemm.hpp"

#include "orbit/util/Error.hpp"

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#if ORBIT_BLAS
#include <cblas.h>
#include <omp.h>
#endif

namespace orbit {

namespace {

GemmPath initial()
{
    const char* env = std::getenv("ORBIT_GEMM");
    if (env && std::string_view(env) == "eigen") return GemmPath::Eigen;
    return blasAvailable() ? GemmPath::Blas : GemmPath::Eigen;
}

std::atomic<GemmPath>& current()
{
    static std::atomic<GemmPath> path{initial()};
    return path;
}

#if ORBIT_BLAS
extern "C" {
// OpenBLAS's run-time dispatch (driver/others/dynamic.c), exported by Debian's DYNAMIC_ARCH build:
// init picks the kernels (OPENBLAS_CORETYPE if set, else its CPU table), quit forgets them.
void gotoblas_dynamic_init(void);
void gotoblas_dynamic_quit(void);
}

/// The OpenBLAS kernels for what this CPU runs, by the same features OpenBLAS checks.
const char* coreTypeForThisCpu()
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
    if (__builtin_cpu_supports("avx")) return "Sandybridge";
    return nullptr;
}

/// Load-time set-up, before main and before any product, while the process has one thread.
///  - A CPU newer than the OpenBLAS build (Debian 12's 0.3.21 does not know e.g. family 6 model 207)
///    gets its fallback, the SSE3 "Prescott" kernels: a fifth of the machine. When the user did not
///    choose (OPENBLAS_CORETYPE unset) and that happened, OpenBLAS's dispatch is redone once with
///    the kernels this CPU's features name (the variable is set for that call only).
///  - OpenBLAS's own thread count is set to 1. That alone does not hold (its OpenMP flavour
///    resizes its team at the next call made outside a parallel region): every call is also made
///    under OnCallingThread below. Setting its count also sets this thread's OpenMP default, which
///    the budget reads: that is put back.
struct BlasSetUp {
    BlasSetUp()
    {
        const char* core = coreTypeForThisCpu();
        if (!std::getenv("OPENBLAS_CORETYPE") && core && std::string_view(openblas_get_corename()) == "Prescott") {
            setenv("OPENBLAS_CORETYPE", core, 1);
            gotoblas_dynamic_quit();
            gotoblas_dynamic_init();
            unsetenv("OPENBLAS_CORETYPE");
        }
        const int saved = omp_get_max_threads();
        openblas_set_num_threads(1);
        omp_set_num_threads(saved);
    }
};
const BlasSetUp blasSetUp;
#endif

void checkShapes(Eigen::Index am, Eigen::Index ak, Eigen::Index bn, Eigen::Index bk, Eigen::Index cm, Eigen::Index cn,
                 double beta)
{
    requireSize("gemmABt", "depth of B", bk, ak);
    requireSize("gemmABt", "rows of C", cm, am);
    requireSize("gemmABt", "columns of C", cn, bn);
    if (beta != 0.0 && beta != 1.0) throw ContractError("gemmABt", "beta must be 0 or 1, got " + std::to_string(beta));
}

} // namespace

bool blasAvailable()
{
#if ORBIT_BLAS
    return true;
#else
    return false;
#endif
}

GemmPath gemmPath() { return current().load(std::memory_order_relaxed); }

void setGemmPath(GemmPath path)
{
    if (path == GemmPath::Blas && !blasAvailable())
        throw std::invalid_argument("setGemmPath: this build has no BLAS (CMake ORBIT_BLAS is off)");
    current().store(path, std::memory_order_relaxed);
}

std::string gemmName(GemmPath path) { return path == GemmPath::Blas ? "blas" : "eigen"; }

std::string gemmDescription()
{
#if ORBIT_BLAS
    if (gemmPath() == GemmPath::Blas) {
        return std::string(openblas_get_config()) + " (" + openblas_get_corename() + " kernels)";
    }
#endif
#if defined(__AVX512F__)
    return "eigen (avx512)";
#elif defined(__AVX2__)
    return "eigen (avx2)";
#else
    return "eigen (sse2)";
#endif
}

namespace {

#if ORBIT_BLAS
/// Held around every OpenBLAS call: the call runs on the calling thread. The OpenMP flavour of
/// OpenBLAS (0.3.21) resizes its own team to omp_get_max_threads() at every call made outside an
/// active parallel region (a team of one thread is not active), whatever openblas_set_num_threads
/// said before; a product split over two threads there and run whole inside a team sums its edge
/// tiles with other kernels, so the bits would depend on the compute budget's team size (seen in
/// test_compute_budget's dual ridge). Lowering this thread's OpenMP default to 1 for the call makes
/// OpenBLAS size its team to one; the default is put back after it. Inside an active region
/// OpenBLAS runs on the calling thread anyway.
class OnCallingThread {
public:
    OnCallingThread() : saved_(omp_in_parallel() ? 0 : omp_get_max_threads())
    {
        if (saved_ > 1) omp_set_num_threads(1);
    }
    ~OnCallingThread()
    {
        if (saved_ > 1) omp_set_num_threads(saved_);
    }
    OnCallingThread(const OnCallingThread&) = delete;
    OnCallingThread& operator=(const OnCallingThread&) = delete;

private:
    int saved_;
};

void blasGemm(CBLAS_ORDER order, int m, int n, int k, float alpha, const float* A, int lda, const float* B, int ldb,
              float beta, float* C, int ldc)
{
    const OnCallingThread one;
    cblas_sgemm(order, CblasNoTrans, CblasTrans, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
void blasGemm(CBLAS_ORDER order, int m, int n, int k, double alpha, const double* A, int lda, const double* B,
              int ldb, double beta, double* C, int ldc)
{
    const OnCallingThread one;
    cblas_dgemm(order, CblasNoTrans, CblasTrans, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
#endif

template <class ConstBlock, class Block, class Scalar>
void gemm(const ConstBlock& A, const ConstBlock& B, Block& C, Scalar alpha, Scalar beta)
{
    checkShapes(A.rows(), A.cols(), B.rows(), B.cols(), C.rows(), C.cols(), double(beta));
    if (C.size() == 0) return;
    if (A.cols() == 0) {
        if (beta == Scalar(0)) C.setZero();
        return;
    }
#if ORBIT_BLAS
    if (gemmPath() == GemmPath::Blas) {
        constexpr bool rowMajor = std::remove_cvref_t<decltype(A)>::IsRowMajor;
        blasGemm(rowMajor ? CblasRowMajor : CblasColMajor, int(C.rows()), int(C.cols()), int(A.cols()), alpha,
                 A.data(), int(A.outerStride()), B.data(), int(B.outerStride()), beta, C.data(), int(C.outerStride()));
        return;
    }
#endif
    // The same expressions the callers wrote before this function existed: the same bits.
    if (beta == Scalar(0)) {
        if (alpha == Scalar(1))
            C.noalias() = A * B.transpose();
        else
            C.noalias() = alpha * (A * B.transpose());
    } else if (alpha == Scalar(1)) {
        C.noalias() += A * B.transpose();
    } else if (alpha == Scalar(-1)) {
        C.noalias() -= A * B.transpose();
    } else {
        C.noalias() += alpha * (A * B.transpose());
    }
}

} // namespace

void solveRightLowerTransposed(ConstColBlockD L, ColBlockD B)
{
    requireSize("solveRightLowerTransposed", "columns of L", L.cols(), L.rows());
    requireSize("solveRightLowerTransposed", "columns of B", B.cols(), L.rows());
    if (B.size() == 0) return;
#if ORBIT_BLAS
    if (gemmPath() == GemmPath::Blas) {
        const OnCallingThread one;
        cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, int(B.rows()), int(B.cols()), 1.0,
                    L.data(), int(L.outerStride()), B.data(), int(B.outerStride()));
        return;
    }
#endif
    // (L^{-1} B^T)^T, as the factorisation wrote it before this function existed: the same bits.
    Eigen::MatrixXd P = B.transpose();
    L.triangularView<Eigen::Lower>().solveInPlace(P);
    B = P.transpose();
}

void gemmABt(ConstRowBlockF A, ConstRowBlockF B, RowBlockF C, float alpha, float beta) { gemm(A, B, C, alpha, beta); }
void gemmABt(ConstColBlockF A, ConstColBlockF B, ColBlockF C, float alpha, float beta) { gemm(A, B, C, alpha, beta); }
void gemmABt(ConstColBlockD A, ConstColBlockD B, ColBlockD C, double alpha, double beta) { gemm(A, B, C, alpha, beta); }

void gemmAtB(ConstColBlockD A, ConstColBlockD B, ColBlockD C)
{
    requireSize("gemmAtB", "rows of B", B.rows(), A.rows());
    requireSize("gemmAtB", "rows of C", C.rows(), A.cols());
    requireSize("gemmAtB", "columns of C", C.cols(), B.cols());
    if (C.size() == 0) return;
    if (A.rows() == 0) {
        C.setZero();
        return;
    }
#if ORBIT_BLAS
    if (gemmPath() == GemmPath::Blas) {
        const OnCallingThread one;
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, int(C.rows()), int(C.cols()), int(A.rows()), 1.0, A.data(),
                    int(A.outerStride()), B.data(), int(B.outerStride()), 0.0, C.data(), int(C.outerStride()));
        return;
    }
#endif
    C.noalias() = A.transpose() * B;
}

} // namespace orbit

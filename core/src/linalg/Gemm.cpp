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
///  - OpenBLAS's own count is set to one thread (its pthread builds keep to it; the OpenMP flavour
///    decides per call, hence OneBlasThread around every call). Setting it also sets this thread's
///    OpenMP default, which the budget reads: that is put back.
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
/// Makes the BLAS call it guards run on the calling thread alone. OpenBLAS's OpenMP flavour decides
/// per call (num_cpu_avail): one thread inside an active parallel region, else as many as
/// omp_get_max_threads() says, whatever openblas_set_num_threads was told before (it resets its
/// count to the OpenMP one). So a call outside an active region (the calling thread of a block
/// that spreads its tiles, a GUI worker, a team of one) would run on several threads, and
/// OpenBLAS's threaded driver cuts the depth k into other panels than its one-thread driver does
/// (for GEMM_Q < k < 2 GEMM_Q it splits k at (k + 1) / 2, the one-thread driver at k / 2 rounded up
/// to the kernel's unroll): other sums, other bits. The guard lowers the calling thread's OpenMP
/// count to one for the call (a per-thread setting: other threads are not affected).
class OneBlasThread {
public:
    OneBlasThread() : saved_(omp_in_parallel() ? 1 : omp_get_max_threads())
    {
        if (saved_ > 1) omp_set_num_threads(1);
    }
    ~OneBlasThread()
    {
        if (saved_ > 1) omp_set_num_threads(saved_);
    }
    OneBlasThread(const OneBlasThread&) = delete;
    OneBlasThread& operator=(const OneBlasThread&) = delete;

private:
    int saved_;
};

void blasGemm(CBLAS_ORDER order, int m, int n, int k, float alpha, const float* A, int lda, const float* B, int ldb,
              float beta, float* C, int ldc)
{
    cblas_sgemm(order, CblasNoTrans, CblasTrans, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
void blasGemm(CBLAS_ORDER order, int m, int n, int k, double alpha, const double* A, int lda, const double* B,
              int ldb, double beta, double* C, int ldc)
{
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
        const OneBlasThread oneThread;
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
        const OneBlasThread oneThread;
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

} // namespace orbit

// The L1 distance kernel of the Laplacian (orbit/kernels/BaseKernel.hpp, l1DistanceBlock), compiled
// three times: for the x86-64 baseline, for AVX2 and for AVX-512 (target attributes, chosen at run
// time). It vectorises across pairs, never across coordinates: a tile of 4 rows of A against 32
// rows of B (transposed once into a scratch panel), each lane summing |a_t - b_t| over t in order.
// So every entry is the same sequence of float operations at every level (the same bits); only how
// many entries run side by side differs. Instruction mix per 32 pairs and coordinate: one load of
// B's panel, one broadcast of a, then per row a subtract, an absolute value (and-not of the sign)
// and an add.
#include "orbit/kernels/BaseKernel.hpp"

#include "util/SimdDispatch.hpp"

#include <algorithm>
#include <cmath>
#include <Eigen/Core>

#include <vector>

namespace orbit {

namespace {

constexpr Eigen::Index kRows = 4;   // rows of A per tile
constexpr Eigen::Index kCols = 32;  // rows of B per tile (two AVX-512 registers, four AVX2 ones)

/// acc[r][c] = sum_t |a_r[t] - Bt[t][c]| over t < d for the tile's 4 rows and 32 columns.
__attribute__((always_inline)) inline void l1Tile(const float* const* a, const float* Bt, Eigen::Index d,
                                                  float (&acc)[kRows][kCols])
{
    for (Eigen::Index t = 0; t < d; ++t) {
        const float* b = Bt + t * kCols;
        for (Eigen::Index r = 0; r < kRows; ++r) {
            const float x = a[r][t];
            for (Eigen::Index c = 0; c < kCols; ++c) acc[r][c] += std::fabs(x - b[c]);
        }
    }
}

__attribute__((always_inline)) inline void l1Loop(const float* A, Eigen::Index lda, Eigen::Index na, const float* B,
                                                  Eigen::Index ldb, Eigen::Index nb, Eigen::Index d, float* out,
                                                  Eigen::Index ldo, float* panel)
{
    for (Eigen::Index j0 = 0; j0 < nb; j0 += kCols) {
        const Eigen::Index nj = std::min(kCols, nb - j0);
        // B's 32 rows, transposed: d x 32 (columns past nb repeat the last row, never written out).
        for (Eigen::Index c = 0; c < kCols; ++c) {
            const float* b = B + (j0 + std::min(c, nj - 1)) * ldb;
            for (Eigen::Index t = 0; t < d; ++t) panel[t * kCols + c] = b[t];
        }
        for (Eigen::Index i0 = 0; i0 < na; i0 += kRows) {
            const Eigen::Index ni = std::min(kRows, na - i0);
            const float* a[kRows];
            for (Eigen::Index r = 0; r < kRows; ++r) a[r] = A + (i0 + std::min(r, ni - 1)) * lda;
            alignas(64) float acc[kRows][kCols] = {};
            l1Tile(a, panel, d, acc);
            for (Eigen::Index r = 0; r < ni; ++r)
                for (Eigen::Index c = 0; c < nj; ++c) out[(i0 + r) * ldo + j0 + c] = acc[r][c];
        }
    }
}

#if ORBIT_SIMD_DISPATCH
ORBIT_TARGET_AVX512 void l1Avx512(const float* A, Eigen::Index lda, Eigen::Index na, const float* B, Eigen::Index ldb,
                                  Eigen::Index nb, Eigen::Index d, float* out, Eigen::Index ldo, float* panel)
{
    l1Loop(A, lda, na, B, ldb, nb, d, out, ldo, panel);
}
__attribute__((target("avx2"))) void l1Avx2(const float* A, Eigen::Index lda, Eigen::Index na, const float* B,
                                            Eigen::Index ldb, Eigen::Index nb, Eigen::Index d, float* out, Eigen::Index ldo,
                                            float* panel)
{
    l1Loop(A, lda, na, B, ldb, nb, d, out, ldo, panel);
}

bool cpuHasAvx2()
{
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}
#endif

} // namespace

void l1DistanceBlock(const float* A, Eigen::Index lda, Eigen::Index na, const float* B, Eigen::Index ldb, Eigen::Index nb,
                     Eigen::Index d, float* out, Eigen::Index ldo)
{
    if (na <= 0 || nb <= 0) return;
    thread_local std::vector<float, Eigen::aligned_allocator<float>> scratch;
    if (scratch.size() < std::size_t(d * kCols)) scratch.resize(std::size_t(d * kCols));
    float* panel = scratch.data();
#if ORBIT_SIMD_DISPATCH
    if (simdLevel() == SimdLevel::Avx512) return l1Avx512(A, lda, na, B, ldb, nb, d, out, ldo, panel);
    // AVX2 only where the CPU has no AVX-512 (a CPU that has it runs the level simdLevel() says,
    // so ORBIT_SIMD=baseline there tests the baseline loop).
    if (simdSupported() == SimdLevel::Baseline && cpuHasAvx2()) return l1Avx2(A, lda, na, B, ldb, nb, d, out, ldo, panel);
#endif
    l1Loop(A, lda, na, B, ldb, nb, d, out, ldo, panel);
}

MatrixXfR l1Distances(const MatrixXfR& A, const MatrixXfR& B)
{
    MatrixXfR D(A.rows(), B.rows());
    l1DistanceBlock(A.data(), A.cols(), A.rows(), B.data(), B.cols(), B.rows(), A.cols(), D.data(), D.cols());
    return D;
}

} // namespace orbit

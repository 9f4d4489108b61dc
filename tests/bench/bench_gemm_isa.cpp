// The two ways to a portable binary at the machine's speed, measured on the products the hot paths
// make (docs/design.md, "Products and portability"): Eigen's float32 product compiled per x86-64 level (this file is
// built three times, for the baseline, x86-64-v3 and x86-64-v4; a dispatching build would carry all
// three and choose at start) against the run-time-dispatched OpenBLAS sgemm (the baseline build only).
//
// Shapes: "peak", one 4096 x 784 times (8192 x 784)^T product with 2 threads (Eigen's own threads;
// OpenBLAS on row halves, one thread each); "tile", the hot path's unit of work, 128 inputs x 512
// moved templates x depth 400 (a 20 x 20 image), each thread multiplying its own tiles on one thread,
// as poolTemplates does. Best of --repeats; prints one JSON line per (path, shape).
#include <Eigen/Core>
#include <omp.h>

#if ORBIT_BENCH_BLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

using MatrixXfR = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

enum class Path { Eigen, Blas };

void product(Path path, const MatrixXfR& A, const MatrixXfR& B, MatrixXfR& C, Eigen::Index r0, Eigen::Index h)
{
#if ORBIT_BENCH_BLAS
    if (path == Path::Blas) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(h), int(B.rows()), int(A.cols()), 1.0f,
                    A.data() + r0 * A.cols(), int(A.cols()), B.data(), int(B.cols()), 0.0f, C.data() + r0 * C.cols(),
                    int(C.cols()));
        return;
    }
#endif
    (void)path;
    C.middleRows(r0, h).noalias() = A.middleRows(r0, h) * B.transpose();
}

/// One big product over `threads` threads.
double peak(Path path, int threads, int repeats)
{
    const Eigen::Index m = 4096, n = 8192, k = 784;
    MatrixXfR A = MatrixXfR::Random(m, k), B = MatrixXfR::Random(n, k), C = MatrixXfR::Zero(m, n);
    double best = std::numeric_limits<double>::infinity();
    for (int rep = 0; rep <= repeats; ++rep) {
        const double t0 = now();
        if (path == Path::Eigen) {
            Eigen::setNbThreads(threads);
            product(path, A, B, C, 0, m);
        } else {
#pragma omp parallel for num_threads(threads) schedule(static)
            for (int t = 0; t < threads; ++t) {
                const Eigen::Index r0 = m * t / threads, r1 = m * (t + 1) / threads;
                product(path, A, B, C, r0, r1 - r0);
            }
        }
        if (rep > 0) best = std::min(best, now() - t0);  // the first run packs and pages in
    }
    return 2.0 * double(m) * double(n) * double(k) / best * 1e-9;
}

/// Each thread multiplies `tiles` hot-path tiles of its own, one thread per product.
double tiles(Path path, int threads, int repeats)
{
    const Eigen::Index m = 128, n = 512, k = 400;
    const int perThread = 40;
    Eigen::setNbThreads(1);
    std::vector<MatrixXfR> A(threads), B(threads), C(threads);
    for (int t = 0; t < threads; ++t) {
        A[t] = MatrixXfR::Random(m, k);
        B[t] = MatrixXfR::Random(n * perThread, k);
        C[t] = MatrixXfR::Zero(m, n);
    }
    double best = std::numeric_limits<double>::infinity();
    for (int rep = 0; rep <= repeats; ++rep) {
        const double t0 = now();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int t = 0; t < threads; ++t)
            for (int j = 0; j < perThread; ++j) {
                const MatrixXfR Bj = B[t].middleRows(Eigen::Index(j) * n, n);
                product(path, A[t], Bj, C[t], 0, m);
            }
        if (rep > 0) best = std::min(best, now() - t0);
    }
    return 2.0 * double(m) * double(n) * double(k) * perThread * threads / best * 1e-9;
}

} // namespace

int main(int argc, char** argv)
{
    int repeats = 5, threads = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--repeats")) repeats = std::max(1, std::atoi(argv[i + 1]));
        if (!std::strcmp(argv[i], "--threads")) threads = std::max(1, std::atoi(argv[i + 1]));
    }
    std::vector<std::pair<Path, std::string>> paths{{Path::Eigen, std::string("eigen-") + ORBIT_BENCH_ISA}};
#if ORBIT_BENCH_BLAS
    openblas_set_num_threads(1);
    paths.push_back({Path::Blas, std::string("openblas-") + openblas_get_corename()});
#endif
    for (const auto& [path, name] : paths) {
        std::printf("{\"path\":\"%s\",\"shape\":\"peak 4096x8192x784\",\"threads\":%d,\"gflops\":%.1f}\n", name.c_str(),
                    threads, peak(path, threads, repeats));
        std::printf("{\"path\":\"%s\",\"shape\":\"tile 128x512x400\",\"threads\":%d,\"gflops\":%.1f}\n", name.c_str(),
                    threads, tiles(path, threads, repeats));
    }
    return 0;
}

// The hot paths against Eigen's float32 product of the same shapes, on the real QM7 when it is
// present next to the repository (../shared/data/qm7/qm7.extxyz), else synthetic data of its shape.
#include "orbit/data/Loaders.hpp"
#include "orbit/bench/Bench.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>

int main(int argc, char** argv)
{
    orbit::BenchConfig config;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--quick") == 0) config.quick = true;
    const std::string qm7 = std::string(ORBIT_SHARED_DIR) + "/data/qm7/qm7.extxyz";
    if (std::filesystem::exists(qm7)) config.qm7 = orbit::loadDataset(qm7);
    for (const auto& c : orbit::runBench(config))
        std::printf("%-28s N=%lld d=%lld s=%lld r=%lld  %.3f s  %.1f GFLOP/s  (Eigen GEMM %.1f)  ratio %.2f\n",
                    c.name.c_str(), c.shape[0], c.shape[1], c.shape[2], c.shape[3], c.seconds, c.gflops, c.gemmGflops,
                    c.ratio);
    return 0;
}

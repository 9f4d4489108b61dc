// orbitlab-cli bench: hot paths against Eigen's own float32 product and the machine's peak (docs/cli.md).
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/bench/Bench.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/util/Simd.hpp"
#include "orbit/util/Spec.hpp"

#include <iomanip>
#include <ostream>

namespace orbit::cli {

namespace {

int runBenchCommand(const Args& args, Io& io)
{
    BenchConfig config;
    config.seed = static_cast<std::uint64_t>(args.integer("seed", 0, 0, 1LL << 62));
    if (args.has("data")) config.qm7 = loadDataset(args.text("data"));
    if (args.has("digits")) config.digits = loadDataset(args.text("digits"));
    config.quick = args.flag("quick");
    config.repeats = int(args.integer("repeats", config.quick ? 1 : config.repeats, 1, 1000));  // --quick: one timed run
    if (args.has("cases")) config.only = split(args.text("cases"), ',');
    const auto cases = runBench(config);
    if (args.flag("json")) {
        Json list = Json::array();
        for (const auto& c : cases) {
            Json j{{"name", c.name}, {"shape", c.shape},       {"seconds", c.seconds},
                   {"gflops", c.gflops}, {"gemm_gflops", c.gemmGflops}, {"ratio", c.ratio}, {"peak_gflops", c.peakGflops},
                   {"peak_ratio", c.peakRatio}, {"spec", c.spec}};
            if (!c.note.empty()) j["note"] = c.note;
            list.push_back(j);
        }
        // build: portable or native (-march=native); simd: the level of the hand-vectorised kernels;
        // gemm: what does the hot paths' products (the BLAS and the kernels it chose, or Eigen).
        io.out << Json{{"cases", list}, {"build", buildArch()}, {"simd", simdName(simdLevel())}, {"gemm", gemmDescription()}}
                      .dump()
               << "\n";
        return 0;
    }
    io.out << "build " << buildArch() << ", kernels " << simdName(simdLevel()) << ", products " << gemmDescription() << "\n";
    io.out << std::left << std::setw(28) << "case" << std::setw(26) << "shape N,d,s,r" << std::setw(10) << "seconds"
           << std::setw(10) << "GFLOP/s" << std::setw(10) << "GEMM" << std::setw(8) << "ratio"
           << std::setw(10) << "peak" << "peak ratio\n";
    for (const auto& c : cases) {
        std::string shape;
        for (auto v : c.shape) shape += (shape.empty() ? "" : ",") + std::to_string(v);
        io.out << std::left << std::setw(28) << c.name << std::setw(26) << shape << std::setw(10) << std::setprecision(3)
               << c.seconds << std::setw(10) << c.gflops << std::setw(10) << c.gemmGflops << std::setw(8) << c.ratio
               << std::setw(10) << c.peakGflops << c.peakRatio << "\n";
    }
    for (const BenchCase& c : cases)
        if (!c.note.empty()) io.out << c.name << ": " << c.note << "\n";
    return 0;
}

} // namespace

Command benchCommand()
{
    return {"bench",
            "time the feature hot paths against Eigen's own float32 product of the same shapes and the machine's peak",
            "bench [--data QM7FILE] [--digits FILE] [--cases a,b] [--repeats K] [--quick] [--json]",
            "Cases: irf-templates-digits, irf-noisysort-qm7 (N=7101, d=529, s=2000, r=10), inystrom-templates-digits,\n"
            "gicdf-templates-digits. Synthetic data of the right shape unless --data (QM7, e.g.\n"
            "../shared/data/qm7/qm7.extxyz) / --digits is given. ratio = hot-path GEMM-equivalent rate / Eigen's rate;\n"
            "peak_ratio = that rate / the best float32 product of the same shape in this run (the run-time-\n"
            "dispatched BLAS sgemm, or Eigen's when faster). GFLOP/s count the nominal product: the hot paths skip\n"
            "work that is zero (the lower triangle of symmetric Coulomb matrices, pixels empty in every image of a\n"
            "block), so a ratio above 1 is the skipped work (the synthetic images have none). ORBIT_GEMM=eigen makes\n"
            "the hot paths use Eigen's product.",
            {{"data", "", false, "FILE", "real QM7 for the noisy-sort case"},
             {"digits", "", false, "FILE", "real images for the digits cases"},
             {"cases", "", false, "LIST", "comma-separated case names"},
             {"repeats", "", false, "K", "timed runs per case, best counts for both sides (default 5, 1 with --quick)"},
             {"quick", "", true, "", "smaller N (smoke run)"}},
            runBenchCommand};
}

} // namespace orbit::cli

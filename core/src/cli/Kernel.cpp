// orbitlab-cli kernel: the N x N invariant kernel matrix (../shared/CLI.md).
#include "cli/GroupOptions.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/distributions/Haar.hpp"
#include "orbit/experiments/ApproxError.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MatrixIo.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <algorithm>
#include <chrono>
#include <ostream>

namespace orbit::cli {

namespace {

int runKernel(const Args& args, Io& io)
{
    const std::uint64_t seed = seedOption(args);
    const std::string out = args.required("out");
    auto data = loadDataOption(args);
    if (!data) throw SpecError("--data", "is required");
    // --n beyond the dataset is refused, not silently clipped; the default 200 is clipped.
    const auto count = static_cast<long long>(data->count());
    const auto n = static_cast<std::size_t>(args.integer("n", std::min(200LL, count), 1, std::min(20000LL, count)));
    const Dataset subset = data->subset(kernelPlotIndices(*data, n, seed));
    const FeatureContext c = makeFeatureContext(subset, args.required("group"), args.required("dist"),
                                                args.text("kernel", "gaussian:median=1"), seed);
    std::string method = args.text("method", "auto");
    if (method == "auto") method = c.group->isFinite() && isHaar(*c.dist) ? "haar" : "mc";
    const std::string est = args.text("estimator", "v");
    if (est != "v" && est != "u") throw SpecError("--estimator", "must be v or u", est);
    const int r = static_cast<int>(args.integer("r", 20, 1, 100000));
    const auto t0 = std::chrono::steady_clock::now();
    Eigen::MatrixXd K;
    if (method == "mc") {
        const OrbitSampler sampler(c.group, c.dist, c.shape, r, seed);
        K = invariantKernelMatrix(subset.X, sampler, *c.kernel, est == "u" ? Estimator::U : Estimator::V);
    } else if (method == "haar") {
        K = haarKernelMatrix(subset.X, *c.group, c.shape, *c.kernel);
    } else if (method == "pal") {
        const int m = static_cast<int>(args.integer("templates", 50, 1, 100000));
        if (std::size_t(m) > data->count()) throw SpecError("--templates", "more than the dataset holds", std::to_string(m));
        // Templates: m random samples of the whole dataset; G0: the finite group, or r samples of q.
        Rng rng = makeRng(seed, 0x74656d70ULL);
        MatrixXfR T(m, data->X.cols());
        std::vector<std::size_t> pool(data->count());
        for (std::size_t i = 0; i < pool.size(); ++i) pool[i] = i;
        for (int i = 0; i < m; ++i) {
            std::swap(pool[i], pool[i + uniformIndex(rng, pool.size() - i)]);
            T.row(i) = data->X.row(Eigen::Index(pool[i]));
        }
        std::vector<GroupElement> G0;
        if (c.group->isFinite() && isHaar(*c.dist))
            G0 = c.group->elements(c.shape, 4096);
        else
            G0 = OrbitSampler(c.group, c.dist, c.shape, r, seed).sharedElements();
        K = palSavvidesKernelMatrix(subset.X, T, *c.group, G0, c.shape, *c.kernel);
    } else {
        throw SpecError("--method", "must be auto, mc, haar or pal", method);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    writeCsv(out, K);
    if (args.flag("json")) {
        Json j;
        j["n"] = K.rows();
        j["method"] = method;
        j["kernel"] = c.kernel->spec();
        j["group"] = c.group->spec();
        j["dist"] = c.dist->spec();
        j["seconds"] = seconds;
        j["out"] = out;
        io.out << j.dump() << "\n";
    } else {
        io.out << K.rows() << " x " << K.cols() << " " << method << " kernel (" << c.kernel->spec() << ", "
               << c.group->spec() << ", " << c.dist->spec() << ") in " << seconds << " s, written to " << out << "\n";
    }
    return 0;
}

} // namespace

Command kernelCommand()
{
    std::vector<Option> options;
    for (const auto& o : dataOptions())
        if (o.name != "index") options.push_back(o);
    for (const auto& o : groupOptions()) options.push_back(o);
    options.push_back({"n", "", false, "N", "number of points: a random subset (--seed) ordered by label (default 200)"});
    options.push_back({"r", "r", false, "R", "group samples per point (mc) or G0 size (pal, infinite groups); default 20"});
    options.push_back({"kernel", "", false, "SPEC", "base kernel: " + kernelOptionHelp()});
    options.push_back({"method", "", false, "M",
                       "auto (haar for a finite group with --dist haar, else mc) | mc | haar | pal (Pal-Savvides Thm 3.1)"});
    options.push_back({"estimator", "", false, "v|u", "mc diagonal: v = V-statistic (PSD, default), u = unbiased U-statistic"});
    options.push_back({"templates", "", false, "M", "pal: number of templates (default 50)"});
    options.push_back({"out", "o", false, "FILE", "CSV output (N rows of N values)"});
    return {"kernel",
            "N x N invariant kernel matrix (Monte Carlo, exact Haar sum, or Pal-Savvides)",
            "kernel --data FILE --n N --group G --dist D -r R --kernel K --out CSV",
            "mc: K_ij = (1/r^2) sum_ab k(g_a x_i, h_b x_j), g, h ~ q drawn independently per point (PSD).\n"
            "haar: K_ij = (1/|G|^2) sum_{g,h in G} k(g x_i, h x_j) for a finite group (exactly invariant).\n"
            "pal: k(x, y) = (1/|G0|) sum_g u_x^T K(gT, T) u_y with u_x = K_TT^+ k_T(x) (templates T).\n\n" +
                kernelHelp() + groupSpecHelp(),
            options,
            runKernel};
}

} // namespace orbit::cli

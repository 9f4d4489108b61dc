// orbitlab-cli kernel: the N x N invariant kernel matrix (../shared/CLI.md).
#include "GroupOptions.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/distributions/Haar.hpp"
#include "orbit/experiments/ApproxError.hpp"
#include "orbit/experiments/KernelComparison.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MatrixIo.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/RandomSubset.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
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
    const std::vector<std::size_t> indices = kernelPlotIndices(*data, n, seed);
    const Dataset subset = data->subset(indices);
    const FeatureContext c = makeFeatureContext(subset, args.required("group"), args.required("dist"),
                                                args.text("kernel", "gaussian:median=1"), seed);
    const bool compare = args.has("features");
    std::string method = args.text("method", "auto");
    if (method == "auto") method = c.group->isFinite() && isHaar(*c.dist) && !compare ? "haar" : "mc";
    const std::string est = args.text("estimator", "v");
    if (est != "v" && est != "u") throw SpecError("--estimator", "must be v or u", est);
    if (compare && method != "mc") throw SpecError("--method", "--features compares with the mc kernel only", method);
    if (compare && est != "v") throw SpecError("--estimator", "--features compares with the V-statistic only", est);
    for (const char* option : {"approx-out", "base-out", "difference-out"})
        if (args.has(option) && !compare)
            throw SpecError(std::string("--") + option, "needs --features SPEC", args.text(option));
    const int r = static_cast<int>(args.integer("r", 20, 1, 100000));
    const auto t0 = std::chrono::steady_clock::now();
    Eigen::MatrixXd K;
    std::optional<KernelComparison> comparison;
    if (compare) {
        KernelComparisonConfig config;
        config.r = r;
        config.features = args.text("features");
        config.seed = seed;
        comparison = compareKernels(subset.X, c, config);
        K = comparison->invariant;
    } else if (method == "mc") {
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
        const std::vector<std::size_t> pool = randomSubset(data->count(), std::size_t(m), rng);
        for (int i = 0; i < m; ++i) T.row(i) = data->X.row(Eigen::Index(pool[std::size_t(i)]));
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
    // All files or none: a file that cannot be written removes those written before it.
    std::vector<std::pair<std::string, const Eigen::MatrixXd*>> files = {{"out", &K}};
    if (comparison)
        for (const auto& [option, M] : {std::pair<std::string, const Eigen::MatrixXd*>{"approx-out", &comparison->approx},
                                        {"base-out", &comparison->base}, {"difference-out", &comparison->difference}})
            if (args.has(option)) files.emplace_back(option, M);
    std::vector<std::string> written;
    for (const auto& [option, M] : files) {
        const std::string path = args.text(option);
        try {
            writeCsv(path, *M);
            written.push_back(path);
        } catch (const SpecError& e) {
            for (const std::string& w : written) std::remove(w.c_str());
            throw SpecError("--" + option, e.detail(), e.value());
        }
    }
    if (args.flag("json")) {
        Json j;
        j["n"] = K.rows();
        j["method"] = method;
        j["kernel"] = c.kernel->spec();
        j["group"] = c.group->spec();
        j["dist"] = c.dist->spec();
        j["indices"] = indices;
        if (comparison) {
            j["features"] = comparison->featureSpec;
            j["frobenius"] = comparison->error.frobenius;
            j["spectral"] = comparison->error.spectral;
        }
        j["seconds"] = seconds;
        j["out"] = out;
        io.out << j.dump() << "\n";
    } else {
        io.out << K.rows() << " x " << K.cols() << " " << method << " kernel (" << c.kernel->spec() << ", "
               << c.group->spec() << ", " << c.dist->spec() << ") in " << seconds << " s, written to " << out << "\n";
        if (comparison)
            io.out << comparison->featureSpec << " approximates it with relative errors: Frobenius "
                   << comparison->error.frobenius << ", spectral " << comparison->error.spectral << "\n";
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
    options.push_back({"features", "", false, "SPEC",
                       "also approximate the mc kernel by this map's <psi(x_i), psi(x_j)> (the Kernels panel: "
                       "irf:s=S,r=R, inystrom:s=S,r=R, gicdf:m=M,bins=B,r=R)"});
    options.push_back({"approx-out", "", false, "FILE", "with --features: write the approximation (CSV)"});
    options.push_back({"base-out", "", false, "FILE", "with --features: write the base kernel k(x_i, x_j) (CSV)"});
    options.push_back({"difference-out", "", false, "FILE", "with --features: write approximation - mc kernel (CSV)"});
    return {"kernel",
            "N x N invariant kernel matrix (Monte Carlo, exact Haar sum, or Pal-Savvides)",
            "kernel --data FILE --n N --group G --dist D -r R --kernel K --out CSV",
            "mc: K_ij = (1/r^2) sum_ab k(g_a x_i, h_b x_j), g, h ~ q drawn independently per point (PSD).\n"
            "haar: K_ij = (1/|G|^2) sum_{g,h in G} k(g x_i, h x_j) for a finite group (exactly invariant).\n"
            "pal: k(x, y) = (1/|G0|) sum_g u_x^T K(gT, T) u_y with u_x = K_TT^+ k_T(x) (templates T).\n"
            "The points: a random subset of --n rows (--seed), ordered by label, or by target for regression\n"
            "data; --json lists them as `indices` (the dataset rows of the matrix, in order).\n"
            "--features SPEC (mc only) also fits the map on the points (seed: a stream of its own) and adds\n"
            "`features`, `frobenius` and `spectral` (||approximation - K|| / ||K||) to --json: the four matrices\n"
            "and the errors of the Kernels panel for the same settings and seed.\n\n" +
                kernelHelp() + groupSpecHelp(),
            options,
            runKernel};
}

} // namespace orbit::cli

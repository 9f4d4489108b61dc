// orbitlab-cli kernel: the N x N invariant kernel matrix (docs/cli.md).
#include "GroupOptions.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/distributions/Haar.hpp"
#include "orbit/figures/ApproxError.hpp"
#include "orbit/figures/KernelComparison.hpp"
#include "orbit/figures/KernelCurve.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MatrixIo.hpp"
#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/RandomSubset.hpp"
#include "orbit/util/SafeText.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

namespace orbit::cli {

namespace {

/// --pair I,J: two dataset rows.
std::pair<std::size_t, std::size_t> pairOption(const Args& args, const Dataset& data)
{
    const std::string text = args.text("pair");
    const std::size_t comma = text.find(',');
    std::size_t i = 0, j = 0, used = 0;
    try {
        if (comma == std::string::npos) throw std::invalid_argument("no comma");
        const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
        i = std::stoul(a, &used);
        if (used != a.size() || a.empty() || a[0] == '-') throw std::invalid_argument("I");
        j = std::stoul(b, &used);
        if (used != b.size() || b.empty() || b[0] == '-') throw std::invalid_argument("J");
    } catch (const std::exception&) {
        throw SpecError("--pair", "must be two dataset rows I,J", text);
    }
    for (std::size_t k : {i, j})
        if (k >= data.count())
            throw SpecError("--pair", "no such sample (the data hold " + std::to_string(data.count()) + ")",
                            std::to_string(k));
    return {i, j};
}

/// kernel --pair I,J: the curve k(g_t x_I, x_J) over the group's parameter, with the base kernel
/// resolved on the --n points exactly as for the matrix (the Kernels panel's inspector).
int runPairCurve(const Args& args, Io& io, const Dataset& data, const std::vector<std::size_t>& indices,
                 const FeatureContext& c, const std::string& out)
{
    for (const char* option : {"features", "approx-out", "base-out", "difference-out", "templates"})
        if (args.has(option)) throw SpecError(std::string("--") + option, "does not go with --pair", args.text(option));
    const auto [i, j] = pairOption(args, data);
    KernelCurveConfig config;
    config.points = static_cast<int>(args.integer("points", config.points, 2, 1000000));
    config.seed = seedOption(args);
    if (const std::string why = kernelCurveUnavailable(*c.group); !why.empty())
        throw SpecError("--group", "--pair draws a curve over a one-parameter group; " + why, c.group->spec());
    const KernelCurve curve = kernelCurve(*c.group, *c.dist, *c.kernel, c.shape, data.sample(i), data.sample(j), config);
    std::ofstream file = openOutput("--out", out);
    file << "t,c,q\n";
    for (std::size_t k = 0; k < curve.t.size(); ++k)
        file << curve.t[k] << "," << curve.c[k] << "," << (curve.q.empty() ? 0.0 : curve.q[k]) << "\n";
    closeOutput(file, "--out", out);
    const double base = (*c.kernel)(data.sample(i), data.sample(j), c.shape.dim());
    auto position = [&](std::size_t k) -> long long {
        const auto it = std::find(indices.begin(), indices.end(), k);
        return it == indices.end() ? -1 : static_cast<long long>(it - indices.begin());
    };
    if (args.flag("json")) {
        Json jo;
        jo["pair"] = {i, j};
        jo["rows"] = {position(i), position(j)};
        jo["n"] = indices.size();
        jo["kernel"] = c.kernel->spec();
        jo["group"] = c.group->spec();
        jo["dist"] = c.dist->spec();
        jo["parameter"] = curve.parameter;
        jo["base"] = base;
        jo["t"] = curve.t;
        jo["c"] = curve.c;
        jo["q"] = curve.q;
        jo["t_star"] = curve.tStar();
        jo["c_star"] = curve.cStar();
        if (curve.bestWeighted) {
            jo["t_star_q"] = curve.t[*curve.bestWeighted];
            jo["weighted_mean"] = curve.weightedMean;
        }
        jo["out"] = out;
        io.out << jo.dump() << "\n";
    } else {
        io.out << "k(g_t x_" << i << ", x_" << j << ") over " << curve.t.size() << " values of " << curve.parameter
               << " (" << c.kernel->spec() << ", " << c.group->spec() << ", " << c.dist->spec() << "): best t* = "
               << curve.tStar() << " with k = " << curve.cStar() << " (k(x_" << i << ", x_" << j << ") = " << base
               << ")";
        if (curve.bestWeighted)
            io.out << "; argmax c(t) q(t) at t = " << curve.t[*curve.bestWeighted]
                   << ", E_q k(g x_i, x_j) = " << curve.weightedMean;
        io.out << "; written to " << safePath(out) << "\n";
    }
    return 0;
}

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
    if (args.has("pair")) return runPairCurve(args, io, *data, indices, c, out);
    if (args.has("points")) throw SpecError("--points", "needs --pair I,J", args.text("points"));
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
    options.push_back({"pair", "", false, "I,J",
                       "instead of the matrix: the curve k(g_t x_I, x_J) over the group's parameter t for dataset rows "
                       "I and J (--out: CSV t,c,q)"});
    options.push_back({"points", "", false, "P", "with --pair: grid points of t (default 360; cyclic: its n elements)"});
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
            "and the errors of the Kernels panel for the same settings and seed.\n"
            "--pair I,J (dataset rows) writes, instead of the matrix, the curve c(t) = k(g_t x_I, x_J) with the base\n"
            "kernel resolved on the --n points as above, and the density q(t) of --dist on the same grid: rotation\n"
            "theta = 2 pi (k - P/2) / P over [-pi, pi); scale s log-spaced over the density's range and [1/2, 2];\n"
            "translation the x shift dx (dy = 0) over the density's range and [-w/2, w/2]; cyclic:n its n\n"
            "elements with q their frequency in 20000 draws (--seed). Permutations, orthogonal sets and the\n"
            "affine group have no one-parameter curve (exit 2). --out CSV columns t,c,q; --json prints {pair,\n"
            "rows (their positions in `indices`, -1 when not among them), n, kernel, group, dist, parameter,\n"
            "base = k(x_I, x_J), t, c, q, t_star = argmax c (the best alignment), c_star, t_star_q = argmax c q\n"
            "(the alignment q weighs most), weighted_mean = E_q k(g x_I, x_J) on the grid, out}; q is empty,\n"
            "and t_star_q and weighted_mean absent, for a distribution without a density (delta).\n\n" +
                kernelHelp() + groupSpecHelp(),
            options,
            runKernel};
}

} // namespace orbit::cli

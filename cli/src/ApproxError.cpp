// orbitlab-cli approx-error: LGIKA Figure 1 (docs/cli.md).
#include "GroupOptions.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/figures/ApproxError.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <ostream>

namespace orbit::cli {

namespace {

std::vector<int> intList(const Args& args, const std::string& name)
{
    std::vector<int> v;
    for (const auto& part : split(args.required(name), ',')) {
        const auto x = parseInteger(part);
        if (!x || *x < 1 || *x > 1000000) throw SpecError("--" + name, "expected positive integers a,b,..", part);
        v.push_back(static_cast<int>(*x));
    }
    return v;
}

int runApproxError(const Args& args, Io& io)
{
    const std::uint64_t seed = seedOption(args);
    auto data = loadDataOption(args);
    if (!data) throw SpecError("--data", "is required");
    ApproxErrorConfig config;
    config.method = args.text("features", "rf");
    config.sList = intList(args, "s-list");
    config.rList = intList(args, "r-list");
    config.refR = static_cast<int>(args.integer("ref-r", 70, 1, 100000));
    config.repeats = static_cast<int>(args.integer("repeats", 1, 1, 1000));
    config.seed = seed;
    config.validate();
    // --n beyond the dataset is refused, not silently clipped; the default 200 is clipped.
    const auto count = static_cast<long long>(data->count());
    const auto n = static_cast<std::size_t>(args.integer("n", std::min(200LL, count), 2, std::min(20000LL, count)));
    const Dataset subset = data->subset(kernelPlotIndices(*data, n, seed));
    const FeatureContext c = makeFeatureContext(subset, args.required("group"), args.required("dist"),
                                                args.text("kernel", "gaussian:median=1"), seed);
    const auto t0 = std::chrono::steady_clock::now();
    auto progress = [&](int done, int total) {
        if (io.progress) io.err << "\rapprox-error " << done << "/" << total << std::flush;
    };
    const auto rows = approximationError(subset.X, c, config, progress);
    if (io.progress) io.err << "\n";
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (args.has("csv")) {
        std::ofstream f(args.text("csv"));
        if (!f) throw SpecError("--csv", "cannot open for writing", args.text("csv"));
        f << "method,r,s,spectral,frobenius\n" << std::setprecision(10);
        for (const auto& r : rows) f << r.method << "," << r.r << "," << r.s << "," << r.spectral << "," << r.frobenius << "\n";
        if (!f) throw SpecError("--csv", "write failed", args.text("csv"));
    }
    if (args.flag("json")) {
        Json j;
        j["kernel"] = c.kernel->spec();
        j["group"] = c.group->spec();
        j["dist"] = c.dist->spec();
        j["n"] = subset.count();
        j["ref_r"] = config.refR;
        j["seconds"] = seconds;
        Json list = Json::array();
        for (const auto& r : rows)
            list.push_back({{"method", r.method}, {"r", r.r}, {"s", r.s}, {"spectral", r.spectral}, {"frobenius", r.frobenius}});
        j["rows"] = std::move(list);
        io.out << j.dump() << "\n";
    } else {
        io.out << "method,r,s,spectral,frobenius\n";
        for (const auto& r : rows) io.out << r.method << "," << r.r << "," << r.s << "," << r.spectral << "," << r.frobenius << "\n";
    }
    return 0;
}

} // namespace

Command approxErrorCommand()
{
    std::vector<Option> options;
    for (const auto& o : dataOptions())
        if (o.name != "index") options.push_back(o);
    for (const auto& o : groupOptions()) options.push_back(o);
    options.push_back({"n", "", false, "N", "number of points (random subset, --seed; default 200)"});
    options.push_back({"kernel", "", false, "SPEC", "base kernel: " + kernelOptionHelp()});
    options.push_back({"features", "", false, "rf|nystrom", "invariant RF (eq. 7) or invariant Nystrom (eq. 8); default rf"});
    options.push_back({"s-list", "", false, "a,b,..", "numbers of templates / landmarks"});
    options.push_back({"r-list", "", false, "a,b,..", "group samples of the feature maps"});
    options.push_back({"ref-r", "", false, "R", "group samples per point of the reference kernel (default 70)"});
    options.push_back({"repeats", "", false, "K", "independent feature draws averaged per (r, s) (default 1)"});
    options.push_back({"csv", "", false, "FILE", "write method,r,s,spectral,frobenius"});
    return {"approx-error",
            "kernel approximation error of invariant RF / Nystrom against the Monte Carlo invariant kernel",
            "approx-error --data FILE --n N --group G --dist D --kernel K --features rf|nystrom --s-list a,b,.. "
            "--r-list a,b,.. --ref-r R --csv OUT",
            "Errors ||K - Psi Psi^T|| / ||K|| in spectral norm (Spectra Lanczos) and Frobenius norm; K from\n"
            "ref-r group samples per point drawn independently of the feature maps (LGIKA Figure 1).\n\n" +
                kernelHelp() + groupSpecHelp(),
            options,
            runApproxError};
}

} // namespace orbit::cli

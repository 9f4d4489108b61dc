// orbitlab-cli density: the distribution's density and a histogram of N draws (docs/cli.md),
// the numbers of the Group panel's chart.
#include "GroupOptions.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/figures/DensitySummary.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <ostream>

namespace orbit::cli {

namespace {

constexpr long long kMaxDraws = 10000000;

/// One CSV row per curve point t (the histogram's height at t beside the density), or without a
/// density one row per bin at its centre with an empty density.
long long writeRows(std::ostream& out, const DensitySummary& d, const std::string& factor, bool withFactor)
{
    const std::string prefix = withFactor ? factor + "," : std::string();
    long long rows = 0;
    if (d.hasDensity) {
        for (std::size_t i = 0; i < d.t.size(); ++i, ++rows)
            out << prefix << d.t[i] << "," << d.density[i] << "," << d.histogramAt(d.t[i]) << "\n";
    } else {
        for (std::size_t b = 0; b < d.histogram.size(); ++b, ++rows)
            out << prefix << d.binCentre(static_cast<int>(b)) << ",," << d.histogram[b] << "\n";
    }
    return rows;
}

int runDensity(const Args& args, Io& io)
{
    const std::uint64_t seed = seedOption(args);
    const std::string outPath = args.required("out");
    DensityConfig config;
    config.samples = static_cast<int>(args.integer("n", config.samples, 1, kMaxDraws));
    config.minBins = static_cast<int>(args.integer("bins", config.minBins, 1, 10000));
    config.maxBins = std::max(config.maxBins, config.minBins);
    config.seed = seed;
    const auto data = loadDataOption(args);
    // Without data the group acts on 28 x 28 images, as in the Group panel before data are loaded.
    Shape shape{28, 28, 1};
    std::size_t index = 0;
    GroupChoice choice;
    if (data) {
        index = indexOption(args, *data);
        shape = data->shape;
        choice = groupOption(args, data->kind, shape, seed);
    } else {
        if (args.has("index")) throw SpecError("--index", "needs --data FILE", args.text("index"));
        choice.group = makeGroup(args.required("group"), shape, seed);
        choice.dist = makeDistribution(args.required("dist"), *choice.group);
    }
    std::vector<DensityFactor> factors = densityFactors(choice.group, choice.dist, shape, seed);
    if (args.has("factor")) {
        const std::string wanted = args.text("factor");
        std::string names;
        std::vector<DensityFactor> kept;
        for (const DensityFactor& f : factors) {
            names += (names.empty() ? "" : ", ") + f.name;
            if (f.name == wanted) kept.push_back(f);
        }
        if (kept.empty()) throw SpecError("--factor", "not a factor of the group (" + names + ")", wanted);
        factors = kept;
    }
    for (const DensityFactor& f : factors) {
        if (densityParameterName(*f.group).empty())
            throw SpecError("--group", "has no one-dimensional parameter to plot (see `sample` for its elements)",
                            f.group->spec());
        if (!data && (f.dist->dependsOnInput() || f.group->parameterAxis().movedAtoms))
            throw SpecError("--data", f.dist->spec() + " on " + f.group->spec() +
                                          " is drawn for one input: give --data FILE --index I");
    }
    const GroupDescriptor* described = findGroup(parseSpec(choice.group->spec(), "group").name);
    const bool withFactor = described && described->isProduct();
    std::ofstream out = openOutput("--out", outPath);
    out << (withFactor ? "factor," : "") << "t,density,histogram\n";
    Json list = Json::array();
    std::string summary;
    for (const DensityFactor& f : factors) {
        const DensitySummary d = densitySummary(*f.group, *f.dist, shape, data ? &*data : nullptr, index, config);
        const long long rows = writeRows(out, d, f.name, withFactor);
        Json j;
        j["factor"] = f.name;
        j["group"] = d.group;
        j["dist"] = d.dist;
        j["parameter"] = d.parameter;
        j["has_density"] = d.hasDensity;
        j["lo"] = d.lo;
        j["hi"] = d.hi;
        j["bins"] = d.histogram.size();
        j["bin_width"] = d.binWidth;
        j["rows"] = rows;
        list.push_back(std::move(j));
        summary += "\n  " + f.name + ": " + d.dist + ", " + std::to_string(d.histogram.size()) + " bins of " +
                   d.parameter + " in [" + formatNumber(d.lo) + ", " + formatNumber(d.hi) + "]" +
                   (d.hasDensity ? "" : " (no density: histogram only)");
    }
    closeOutput(out, "--out", outPath);
    if (args.flag("json")) {
        Json j;
        j["group"] = choice.group->spec();
        j["dist"] = choice.dist->spec();
        j["samples"] = config.samples;
        j["seed"] = seed;
        j["factors"] = std::move(list);
        j["out"] = outPath;
        io.out << j.dump() << "\n";
    } else {
        io.out << "wrote " << safePath(outPath) << ": " << config.samples << " draws per factor" << summary << "\n";
    }
    return 0;
}

} // namespace

Command densityCommand()
{
    std::vector<Option> options = {
        {"n", "n", false, "N", "number of draws in the histogram (1..10000000, default 20000)"},
        {"bins", "", false, "B", "at least B bins (default 40); a narrow density gets about 3 per standard deviation, up to 300"},
        {"factor", "", false, "F", "affine: only this factor (rotation, translation or scale); default all three"},
        {"out", "o", false, "CSV", "the CSV to write"}};
    for (auto& o : groupOptions()) options.push_back(o);
    for (auto& o : dataOptions()) options.push_back(o);
    return {"density",
            "the distribution's density and a histogram of N draws (the Group panel)",
            "density --group G --dist D -n N [--data FILE --index I] --out CSV [--bins B] [--factor F] [--seed S] [--json]",
            "Draws N elements g ~ q and bins their parameter t: rotation theta (rad), translation dx (px; dy\n"
            "follows the same law), scale s, cyclic k, permutations the number of atoms moved from the\n"
            "reference order (sorted order for noisy sort, else the identity). The range holds nearly all of\n"
            "the density's mass (rotation within [-pi, pi]); discrete parameters get one bin per value.\n"
            "CSV columns t,density,histogram: for a distribution with a density one row per point of a\n"
            "2001-point grid over the range, with the height of the histogram bin holding t; without a density\n"
            "(haar on finite groups, noisysort, delta) one row per bin centre and an empty density. The\n"
            "histogram integrates to 1. Affine: one block per factor, with a first column `factor`.\n"
            "--json prints {group, dist, samples, seed, factors: [{factor, group, dist, parameter, has_density,\n"
            "lo, hi, bins, bin_width, rows}], out}. The same numbers as the Group panel's \"Data CSV...\" for\n"
            "the same settings, seed and N (the panel draws 20000).\n\n" +
                groupSpecHelp(),
            options,
            runDensity};
}

} // namespace orbit::cli

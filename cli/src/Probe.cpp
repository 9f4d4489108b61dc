// orbitlab-cli probe: the invariance probe cos(psi(x), psi(g_t x)) over a sweep of t (docs/cli.md),
// the numbers of the Orbits panel's probe chart.
#include "GroupOptions.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/figures/InvarianceProbe.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <ostream>

namespace orbit::cli {

namespace {

/// --features with the r of -r filled in when the spec has none; SpecError naming the option when
/// the spec has no plain counterpart or its r disagrees with -r.
std::string probeFeatures(const Args& args)
{
    std::string text = args.text("features", "irf:s=200");
    const std::size_t plus = text.find('+');
    Spec first = parseSpec(text.substr(0, plus), "--features");
    const FeatureMapDescriptor* map = findFeatureMap(first.name);
    if (!map || map->plainMap.empty())
        throw SpecError("--features", "the probe compares an invariant map with its plain map: use irf or inystrom",
                        first.name);
    const long long r = args.integer("r", 20, 1, 100000);
    if (first.has("r")) {
        if (args.has("r") && first.integer("r", 1, 100000) != r)
            throw SpecError("-r", "disagrees with r=" + first.text("r", "") + " in --features", args.text("r"));
        return text;
    }
    first.params["r"] = std::to_string(r);
    return formatSpec(first) + (plus == std::string::npos ? std::string() : text.substr(plus));
}

int runProbe(const Args& args, Io& io)
{
    const std::uint64_t seed = seedOption(args);
    const std::string outPath = args.required("out");
    ProbeConfig config;
    config.features = probeFeatures(args);
    config.kernel = args.text("kernel", config.kernel);
    config.points = static_cast<int>(args.integer("points", config.points, 2, 100000));
    config.fitCount = static_cast<std::size_t>(args.integer("fit", 200, 2, 100000));
    config.seed = seed;
    args.required("data");
    const Dataset data = *loadDataOption(args);
    const std::size_t index = indexOption(args, data);
    if (data.count() < 2) throw SpecError("--data", "the probe fits its maps on at least two samples", data.source);
    // The group and distribution are checked against the data here, so a mismatch names the option.
    const GroupChoice choice = groupOption(args, data.kind, data.shape, seed);
    config.group = choice.group->spec();
    config.dist = choice.dist->spec();
    const ProbeResult p = probeInvariance(data, index, config);

    std::ofstream out = openOutput("--out", outPath);
    out << "t,invariant,plain\n";
    for (std::size_t i = 0; i < p.values.size(); ++i)
        out << p.values[i] << "," << p.invariant[i] << "," << p.plain[i] << "\n";
    closeOutput(out, "--out", outPath);
    if (args.flag("json")) {
        Json j;
        j["index"] = index;
        j["group"] = config.group;
        j["dist"] = config.dist;
        j["parameter"] = p.parameter;
        j["features"] = p.invariantSpec;
        j["plain_features"] = p.plainSpec;
        j["points"] = p.values.size();
        j["out"] = outPath;
        io.out << j.dump() << "\n";
    } else {
        io.out << "wrote " << safePath(outPath) << ": " << p.values.size() << " values of " << p.parameter << ", "
               << p.invariantSpec << " against " << p.plainSpec << "\n";
    }
    return 0;
}

} // namespace

Command probeCommand()
{
    std::vector<Option> options = {
        {"r", "r", false, "R", "group samples of the invariant map when --features gives no r (default 20)"},
        {"features", "", false, "SPEC", "the invariant map: irf:s=S[,r=R] (default irf:s=200) or inystrom:s=S[,r=R], optionally +rf2:s=S2"},
        {"kernel", "", false, "SPEC", "base kernel: " + kernelOptionHelp()},
        {"points", "", false, "P", "points of the sweep (default 73; finite groups: all their elements)"},
        {"fit", "", false, "N", "the maps and the median bandwidth are fitted on N points (default 200)"},
        {"out", "o", false, "CSV", "the CSV to write"}};
    for (auto& o : groupOptions()) options.push_back(o);
    for (auto& o : dataOptions()) options.push_back(o);
    return {"probe",
            "the invariance probe: cos(psi(x), psi(g_t x)) over a sweep of t for an invariant and a plain map",
            "probe --data FILE --index I --group G --dist D -r R --features F --out CSV [--kernel K] [--points P] "
            "[--fit N] [--seed S] [--json]",
            "Fits the invariant map F and its plain map with the same templates (irf -> rf, inystrom -> nystrom)\n"
            "on N points of the data (a random subset, --seed, ordered as `kernel` orders them), then moves\n"
            "sample I by g_t as t sweeps the group: rotation (and affine) theta over [-pi, pi]; translation dx over\n"
            "[-w/2, w/2]; scale s log-spaced over [1/2, 2]; cyclic groups and orthogonal sets all their elements;\n"
            "permutations 0, 1, .. P-1 random transpositions. CSV columns t,invariant,plain: the cosine\n"
            "similarity of psi(x) and psi(g_t x) for each map. With a finite group, its Haar distribution and\n"
            "inystrom (which then averages over the whole group) the invariant column is 1.\n"
            "--json prints {index, group, dist, parameter, features, plain_features, points, out}. The same\n"
            "numbers as the Orbits panel's probe chart for --features irf:s=200 -r <the panel's r>.\n\n" +
                featureMapHelp() + "\n" + kernelHelp() + groupSpecHelp(),
            options,
            runProbe};
}

} // namespace orbit::cli

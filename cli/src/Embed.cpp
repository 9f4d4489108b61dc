// orbitlab-cli embed: the 2-D PCA of the orbits of a few inputs (docs/cli.md), the numbers of
// the Orbits panel's embedding chart.
#include "GroupOptions.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/figures/OrbitEmbedding.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <iomanip>
#include <ostream>

namespace orbit::cli {

namespace {

constexpr long long kMaxCopies = 100000;
constexpr std::size_t kMaxInputs = 1000;
/// The stacked orbits are analysed in double precision (two copies): 20 million values take 320 MB.
constexpr long long kMaxValues = 20'000'000;

/// --indices I,J,...: dataset rows, each checked against the data.
std::vector<std::size_t> indicesOption(const Args& args, const Dataset& data)
{
    const std::string text = args.required("indices");
    std::vector<std::size_t> rows;
    for (const std::string& part : split(text, ',')) {
        const auto v = parseInteger(trim(part));
        if (!v) throw SpecError("--indices", "expected 0-based sample indices I,J,...", part);
        if (*v < 0 || static_cast<std::size_t>(*v) >= data.count())
            throw SpecError("--indices", "no such sample (the data hold " + std::to_string(data.count()) + ")", part);
        rows.push_back(static_cast<std::size_t>(*v));
    }
    if (rows.size() > kMaxInputs)
        throw SpecError("--indices", "at most " + std::to_string(kMaxInputs) + " inputs", std::to_string(rows.size()));
    return rows;
}

int runEmbed(const Args& args, Io& io)
{
    if (!args.has("r")) throw SpecError("-r", "is required (the number of transformed copies per input)");
    const int r = static_cast<int>(args.integer("r", 0, 1, kMaxCopies));
    const std::string outPath = args.required("out");
    const std::uint64_t seed = seedOption(args);
    args.required("data");
    const Dataset data = *loadDataOption(args);
    if (data.count() == 0) throw SpecError("--data", "the dataset is empty", data.source);
    const std::vector<std::size_t> inputs = indicesOption(args, data);
    if (inputs.size() * static_cast<std::size_t>(r) < 2)
        throw SpecError("-r", "the embedding needs at least two orbit samples: raise -r or give more --indices",
                        std::to_string(r));
    const long long values = static_cast<long long>(inputs.size()) * r * data.shape.dim();
    if (values > kMaxValues)
        throw SpecError("-r", "the stacked orbits would hold " + std::to_string(values) + " values (more than " +
                                  std::to_string(kMaxValues) + "): lower -r or give fewer --indices",
                        std::to_string(r));
    const GroupChoice choice = groupOption(args, data.kind, data.shape, seed);
    const OrbitSampler sampler(choice.group, choice.dist, data.shape, r, seed);
    const OrbitEmbedding e = orbitEmbedding(data, inputs, sampler);

    std::ofstream out = openOutput("--out", outPath);
    out << "input,copy,pc1,pc2\n" << std::setprecision(9);  // float scores: 9 digits round-trip
    for (std::size_t j = 0; j < inputs.size(); ++j) {
        const auto row = static_cast<Eigen::Index>(j);
        out << inputs[j] << ",-1," << e.inputScores(row, 0) << "," << e.inputScores(row, 1) << "\n";
        for (int k = 0; k < r; ++k) {
            const Eigen::Index s = row * r + k;
            out << inputs[j] << "," << k << "," << e.scores(s, 0) << "," << e.scores(s, 1) << "\n";
        }
    }
    closeOutput(out, "--out", outPath);
    if (args.flag("json")) {
        Json j;
        j["inputs"] = inputs;
        j["r"] = r;
        j["group"] = choice.group->spec();
        j["dist"] = choice.dist->spec();
        j["explained"] = Json::array({e.explained[0], e.explained[1]});
        j["rows"] = inputs.size() * (static_cast<std::size_t>(r) + 1);
        j["out"] = outPath;
        io.out << j.dump() << "\n";
    } else {
        io.out << "wrote " << safePath(outPath) << ": " << inputs.size() << " orbits of " << r
               << " copies on 2 principal axes (" << std::setprecision(3) << 100.0 * e.explained[0] << " % and "
               << 100.0 * e.explained[1] << " % of the variance)\n";
    }
    return 0;
}

} // namespace

Command embedCommand()
{
    std::vector<Option> options = {
        {"indices", "", false, "I,J,...", "0-based sample indices whose orbits are projected together"},
        {"r", "r", false, "R", "transformed copies per input (1..100000)"},
        {"out", "o", false, "CSV", "the CSV to write"}};
    for (auto& o : groupOptions()) options.push_back(o);
    for (auto& o : dataOptions())
        if (o.name != "index") options.push_back(o);
    return {"embed",
            "the 2-D PCA of the orbits of the given inputs (the Orbits panel)",
            "embed --data FILE --indices I,J,... --group G --dist D -r R --out CSV [--seed S] [--json]",
            "Stacks the orbits g_k x_j (k < R, the copies `orbit --index J` draws with the same seed) of every\n"
            "input, projects them on the stack's two leading principal axes, and the inputs themselves on the\n"
            "same axes. CSV columns input,copy,pc1,pc2 with copy -1 for the input x_j itself (first in its\n"
            "block). --json prints {inputs, r, group, dist, explained, rows, out}, explained being the fractions\n"
            "of the stack's variance on the two axes. The same numbers as the Orbits panel's embedding chart for\n"
            "the same inputs, settings and seed.\n\n" +
                groupSpecHelp(),
            options,
            runEmbed};
}

} // namespace orbit::cli

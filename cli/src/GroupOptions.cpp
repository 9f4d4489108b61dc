#include "GroupOptions.hpp"

#include "orbit/training/Experiment.hpp"

#include "orbit/data/Loaders.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <algorithm>
#include <iomanip>
#include <limits>

namespace orbit::cli {

namespace {

/// "a|b|c": the synopses of registered descriptors, for an option's value name.
template <class D>
std::string alternativesOf(const std::vector<D>& all, bool (*keep)(const D&) = nullptr)
{
    std::string out;
    for (const D& d : all)
        if (!keep || keep(d)) out += (out.empty() ? "" : "|") + d.synopsis();
    return out;
}

std::string groupNames(const std::vector<GroupKind>& kinds)
{
    std::string out;
    for (GroupKind k : kinds) out += (out.empty() ? "" : ", ") + std::string(toString(k));
    return out;
}

std::string dataKindNames(const std::vector<DataKind>& kinds)
{
    std::string out;
    for (DataKind k : kinds) out += (out.empty() ? "" : ", ") + std::string(toString(k));
    return out;
}

} // namespace

std::vector<Option> groupOptions()
{
    std::string groups, dists;
    for (const GroupDescriptor& g : groupDescriptors()) groups += (groups.empty() ? "" : "|") + g.synopsis(true);
    for (const DistributionDescriptor& d : distributionDescriptors()) dists += (dists.empty() ? "" : "|") + d.synopsis(true);
    return {{"group", "", false, "G", groups}, {"dist", "", false, "D", dists}};
}

std::vector<Option> dataOptions()
{
    return {{"data", "", false, "FILE", "dataset file (any format `info` reads)"},
            {"index", "", false, "I", "0-based index of the sample in the dataset (default 0)"},
            {"format", "", false, "F", "force the dataset format (see `info --help`)"}};
}

std::string groupSpecHelp()
{
    std::string s = "Groups (--group), with the data each acts on:\n";
    for (const GroupDescriptor& g : groupDescriptors()) s += helpLines(g, true, " [" + dataKindNames(g.dataKinds) + "]");
    s += "Distributions (--dist), with the groups each applies to:\n";
    for (const DistributionDescriptor& d : distributionDescriptors()) {
        // The parameters on each of its groups, when their ranges or units differ between groups.
        std::vector<GroupKind> shown = {d.groups.front()};
        for (GroupKind k : d.groups)
            for (std::size_t i = 0; i < d.parameters.size(); ++i)
                if ((d.parametersOn(k)[i].rangeText() != d.parameters[i].rangeText() ||
                     d.parametersOn(k)[i].unit != d.parameters[i].unit) &&
                    std::find(shown.begin(), shown.end(), k) == shown.end())
                    shown.push_back(k);
        s += helpLines(d, false, " [" + groupNames(d.groups) + "]");
        for (GroupKind k : shown) {
            SpecDescriptor on;
            on.parameters = d.parametersOn(k);
            if (shown.size() > 1)
                for (ParamDescriptor& p : on.parameters) p.doc = "On " + std::string(toString(k)) + ": " + p.doc;
            s += helpLines(on, true);
        }
    }
    s += "For affine give one distribution per factor, each starting at a comma (or ';'):\n"
         "  --dist rotation=vonmises:kappa=9,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.3\n"
         "Factors left out are the delta.";
    return s;
}

std::string featureMapHelp()
{
    std::string s = "Feature maps (--features), fitted with --seed, then applied:\n";
    for (const FeatureMapDescriptor& m : featureMapDescriptors())
        s += helpLines(m, true, m.invariant ? " [needs --group and --dist]" : "");
    return s;
}

std::string kernelOptionHelp()
{
    std::string out;
    for (const KernelDescriptor& k : kernelDescriptors()) out += (out.empty() ? "" : " or ") + k.synopsis(true);
    return out + " (default gaussian:median=1)";
}

std::string kernelHelp()
{
    std::string s = "Base kernels (--kernel):\n";
    for (const KernelDescriptor& k : kernelDescriptors()) s += helpLines(k, true);
    return s;
}

std::string learnerHelp()
{
    std::string s = "Learners (--learner), with their grid axis:\n";
    for (const LearnerDescriptor& l : learnerDescriptors()) {
        std::string extra;
        if (!l.parameters.empty()) {
            extra = " [axis " + l.axis() + ", default ";
            for (std::size_t i = 0; i < l.defaultAxis.size(); ++i) extra += (i ? "," : "") + formatNumber(l.defaultAxis[i]);
            extra += "]";
        }
        s += helpLines(l, false, extra);
    }
    s += "Evaluations (--eval):\n";
    for (const EvaluationDescriptor& e : evaluationDescriptors()) s += helpLines(e, false);
    return s;
}

std::string learnerNames()
{
    std::string out;
    for (const LearnerDescriptor& l : learnerDescriptors()) out += (out.empty() ? "" : "|") + l.name;
    return out;
}

std::string evaluationNames() { return alternativesOf(evaluationDescriptors()); }

std::uint64_t seedOption(const Args& args)
{
    return static_cast<std::uint64_t>(args.integer("seed", 0, 0, std::numeric_limits<long long>::max()));
}

namespace {

/// The dataset at `path`, read as --format says (or detected); only the rows `rows` marks when given.
Dataset loadWithFormat(const Args& args, const std::string& path, std::optional<std::vector<char>> rows = std::nullopt)
{
    LoadOptions options;
    if (args.has("format")) options.format = parseFormat(args.text("format"));
    options.rows = std::move(rows);
    return loadDataset(path, options);
}

} // namespace

std::optional<Dataset> loadDataOption(const Args& args, const std::vector<char>* rows)
{
    if (!args.has("data")) return std::nullopt;
    if (rows) return loadWithFormat(args, args.text("data"), *rows);
    return loadWithFormat(args, args.text("data"));
}

std::vector<Option> recipeOptions()
{
    return {
        {"n", "", false, "N", "use a seeded random subset of N samples"},
        {"rotate", "", true, "", "rotate every image by a uniform random angle (seeded), after padding"},
        {"rotate-max", "", false, "DEG", "with --rotate: angles uniform in [-DEG, DEG] instead of the whole circle"},
        {"rotate-classes", "", false, "C,C,..", "with --rotate: rotate only these classes' images, the others stay upright (padded)"},
        {"transform-group", "", false, "G", "move every image by one element of G (seeded), after padding"},
        {"transform-dist", "", false, "D", "with --transform-group: the distribution of those elements"},
        {"pad", "", false, "P", "with --rotate or --transform-group: zero-pad images to P x P first (default 28)"},
    };
}

namespace {

DataRecipe recipeOf(const Args& args)
{
    DataRecipe recipe;
    recipe.n = static_cast<std::size_t>(args.integer("n", 0, 4, 100000000));
    recipe.rotate = args.flag("rotate");
    recipe.pad = static_cast<int>(args.integer("pad", 28, 1, 4096));
    recipe.seed = seedOption(args);
    recipe.rotateMaxDegrees = args.number("rotate-max", 0.0);
    recipe.transformGroup = args.text("transform-group");
    recipe.transformDist = args.text("transform-dist");
    if (args.has("pad") && !recipe.rotate && recipe.transformGroup.empty())
        throw SpecError("--pad", "only used with --rotate or --transform-group", args.text("pad"));
    if (args.has("rotate-max") && !recipe.rotate)
        throw SpecError("--rotate-max", "only used with --rotate", args.text("rotate-max"));
    if (args.has("rotate-classes")) {
        if (!recipe.rotate) throw SpecError("--rotate-classes", "only used with --rotate", args.text("rotate-classes"));
        for (const std::string& part : split(args.text("rotate-classes"), ',')) {
            const auto c = parseInteger(trim(part));
            if (!c || *c < 0 || *c > 1000000) throw SpecError("--rotate-classes", "expected class labels C,C,...", part);
            recipe.rotateClasses.push_back(int(*c));
        }
    }
    return recipe;
}

} // namespace

namespace {

/// The file at `path` prepared by `recipe`, holding the prepared rows `rows` marks (nullptr: all).
Dataset preparedFrom(const Args& args, const std::string& path, const DataRecipe& recipe, const std::vector<char>* rows)
{
    if (!rows) return prepareDataset(loadWithFormat(args, path), recipe);
    if (rows->empty() || recipe.n == 0) return prepareDataset(loadWithFormat(args, path, *rows), recipe);
    // A seeded subset: its rows come from file rows that depend on the file's count.
    const std::size_t fileCount = loadWithFormat(args, path, std::vector<char>{}).count();
    return prepareDataset(loadWithFormat(args, path, fileRowsOf(*rows, fileCount, recipe)), recipe);
}

} // namespace

Dataset preparedData(const Args& args, const std::vector<char>* rows)
{
    if (!args.has("data")) throw SpecError("--data", "is required");
    return preparedFrom(args, args.text("data"), recipeOf(args), rows);
}

Dataset preparedTestData(const Args& args, const std::vector<char>* rows)
{
    DataRecipe recipe = recipeOf(args);
    recipe.n = 0;
    recipe.seed = deriveSeed(recipe.seed, kTestDataStream);
    return preparedFrom(args, args.required("test-data"), recipe, rows);
}

std::size_t indexOption(const Args& args, const Dataset& data)
{
    if (data.count() == 0) throw SpecError("--data", "the dataset is empty", data.source);
    return static_cast<std::size_t>(args.integer("index", 0, 0, static_cast<long long>(data.count()) - 1));
}

GroupChoice groupOption(const Args& args, DataKind kind, const Shape& shape, std::uint64_t seed)
{
    GroupChoice c;
    c.group = makeGroup(args.required("group"), shape, seed);
    c.group->checkShape(kind, shape);
    c.dist = makeDistribution(args.required("dist"), *c.group);
    return c;
}

std::ofstream openOutput(const std::string& option, const std::string& path)
{
    std::ofstream out(path);
    if (!out) throw SpecError(option, "cannot open for writing", path);
    out << std::setprecision(17);
    return out;
}

void closeOutput(std::ofstream& out, const std::string& option, const std::string& path)
{
    out.close();
    if (!out) throw SpecError(option, "write failed", path);
}

} // namespace orbit::cli

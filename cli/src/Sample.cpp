// orbitlab-cli sample: draw N group elements g ~ q (docs/cli.md).
#include "GroupOptions.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/groups/PermutationGroup.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"

#include <ostream>

namespace orbit::cli {

namespace {

constexpr long long kMaxSamples = 1000000;

/// The JSON form of one element, mirroring the text line: a number, [dx, dy], [theta, dx, dy, s],
/// an integer k, or the list of indices.
Json elementJson(const Group& group, const GroupElement& g)
{
    const ElementCoordinates c = group.coordinates(g);
    auto value = [&](double v) { return c.integers ? Json(static_cast<int>(v)) : Json(v); };
    if (!c.list) return c.values.empty() ? Json(nullptr) : value(c.values.front());
    Json out = Json::array();
    for (double v : c.values) out.push_back(value(v));
    return out;
}

int runSample(const Args& args, Io& io)
{
    if (!args.has("n")) throw SpecError("-n", "is required (the number of group elements to draw)");
    const int n = static_cast<int>(args.integer("n", 0, 1, kMaxSamples));
    const std::uint64_t seed = seedOption(args);
    const auto data = loadDataOption(args);

    Shape shape;
    const float* x = nullptr;
    std::size_t index = 0;
    GroupChoice choice;
    if (data) {
        index = indexOption(args, *data);
        shape = data->shape;
        x = data->sample(index);
        choice = groupOption(args, data->kind, shape, seed);
    } else {
        if (args.has("index")) throw SpecError("--index", "needs --data FILE", args.text("index"));
        choice.group = makeGroup(args.required("group"), shape, seed);
        if (const auto* p = dynamic_cast<const PermutationGroup*>(choice.group.get())) {
            if (p->size() == 0)
                throw SpecError("--group", "permutation needs --data FILE or permutation:n=N for the matrix size",
                                args.text("group"));
            shape = {p->size(), p->size(), 1};
        }
        choice.dist = makeDistribution(args.required("dist"), *choice.group);
        if (choice.dist->dependsOnInput())
            throw SpecError("--data", choice.dist->spec() + " depends on the input: give --data FILE --index I");
    }

    // The same elements `orbit` uses for this input: stream `index` of the seed.
    const OrbitSampler sampler(choice.group, choice.dist, shape, n, seed);
    const std::vector<GroupElement> elements = sampler.elementsFor(index, x);

    if (args.flag("json")) {
        Json j;
        j["group"] = choice.group->spec();
        j["dist"] = choice.dist->spec();
        j["seed"] = seed;
        Json samples = Json::array();
        for (const auto& g : elements) samples.push_back(elementJson(*choice.group, g));
        j["samples"] = std::move(samples);
        io.out << j.dump() << "\n";
        return 0;
    }
    for (const auto& g : elements) io.out << choice.group->describe(g) << "\n";
    return 0;
}

} // namespace

Command sampleCommand()
{
    std::vector<Option> options = {{"n", "n", false, "N", "number of group elements to draw (1..1000000)"}};
    for (auto& o : groupOptions()) options.push_back(o);
    for (auto& o : dataOptions()) options.push_back(o);
    return {"sample",
            "draw N group elements g ~ q, one per line",
            "sample --group G --dist D -n N [--data FILE --index I] [--seed S] [--json]",
            "Prints one element per line: rotation `theta` (radians, in (-pi, pi]), translation `dx dy` (pixels),\n"
            "scale `s`, affine `theta dx dy s`, cyclic `k`, orthogonal `k` (matrix index), permutation the 0-based\n"
            "indices (row i of P C P^T is row perm[i] of C). --json prints {group, dist, seed, samples} with each\n"
            "sample as a number, a list [dx, dy] / [theta, dx, dy, s] / indices, or an integer.\n"
            "The elements are those `orbit` applies to sample I with the same seed (I = 0 without --data).\n\n" +
                groupSpecHelp(),
            options,
            runSample};
}

} // namespace orbit::cli

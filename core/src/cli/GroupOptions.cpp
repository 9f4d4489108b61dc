#include "cli/GroupOptions.hpp"

#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include <limits>

namespace orbit::cli {

std::vector<Option> groupOptions()
{
    return {{"group", "", false, "G", "rotation|translation|scale|affine|cyclic:n=N|permutation|orthogonal:k=K"},
            {"dist", "", false, "D",
             "vonmises:kappa=K|uniform:a=A|gaussian:sigma=S|lognormal:mu=M,sigma=S|haar|noisysort:sigma=S|delta"}};
}

std::vector<Option> dataOptions()
{
    return {{"data", "", false, "FILE", "dataset file (any format `info` reads)"},
            {"index", "", false, "I", "0-based index of the sample in the dataset (default 0)"},
            {"format", "", false, "F", "force the dataset format (see `info --help`)"}};
}

std::string groupSpecHelp()
{
    return "Groups: rotation (about the image centre, bilinear, zero border), translation (sub-pixel, pixels),\n"
           "scale (zoom about the centre, intensities x 1/s), affine (rotation x translation x scale, scale first),\n"
           "cyclic:n=N (images: rotations by 2 pi k/N; vectors: shifts by k d/N), permutation (Coulomb C -> P C P^T;\n"
           "optional n=N without --data), orthogonal:k=K (K Haar-random orthogonal matrices; optional d=D without --data).\n"
           "Distributions: vonmises:kappa=K (rotation), uniform:a=A (rotation angle or translation per axis, window\n"
           "[-A, A]), gaussian:sigma=S (translation, pixels), lognormal:mu=M,sigma=S (scale), haar (rotation, cyclic,\n"
           "permutation, orthogonal), noisysort:sigma=S (Coulomb rows sorted by norm + N(0, S^2) noise; needs --data),\n"
           "delta (identity). For affine give one per factor, each starting at a comma (or ';'):\n"
           "  --dist rotation=vonmises:kappa=9,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.3\n"
           "Factors left out are the delta.";
}

std::uint64_t seedOption(const Args& args)
{
    return static_cast<std::uint64_t>(args.integer("seed", 0, 0, std::numeric_limits<long long>::max()));
}

std::optional<Dataset> loadDataOption(const Args& args)
{
    if (!args.has("data")) return std::nullopt;
    LoadOptions options;
    if (args.has("format")) options.format = parseFormat(args.text("format"));
    return loadDataset(args.text("data"), options);
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

} // namespace orbit::cli

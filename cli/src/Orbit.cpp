// orbitlab-cli orbit: the orbit gallery of one input as a PNG grid (docs/cli.md).
#include "GroupOptions.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/orbits/OrbitGallery.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"

#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cctype>
#include <ostream>

namespace orbit::cli {

namespace {

constexpr long long kMaxCopies = 100000;

bool endsWithPng(std::string path)
{
    std::transform(path.begin(), path.end(), path.begin(), [](unsigned char c) { return std::tolower(c); });
    return path.size() > 4 && path.compare(path.size() - 4, 4, ".png") == 0;
}

int runOrbit(const Args& args, Io& io)
{
    if (!args.has("r")) throw SpecError("-r", "is required (the number of transformed copies)");
    const int r = static_cast<int>(args.integer("r", 0, 1, kMaxCopies));
    const std::string out = args.required("out");
    if (!endsWithPng(out)) throw SpecError("--out", "the gallery is written as PNG: give a path ending in .png", out);
    const int cell = static_cast<int>(args.integer("cell", 0, 1, 4096));
    const std::uint64_t seed = seedOption(args);
    args.required("data");
    const Dataset data = *loadDataOption(args);
    const std::size_t index = indexOption(args, data);
    const GroupChoice choice = groupOption(args, data.kind, data.shape, seed);
    const GalleryLayout layout = galleryLayout(r, data.kind, data.shape, cell);

    const OrbitSampler sampler(choice.group, choice.dist, data.shape, r, seed);
    const float* x = data.sample(index);
    MatrixXfR copies;
    sampler.orbit(x, sampler.elementsFor(index, x), copies);
    const cv::Mat picture = renderGallery(copies, data.kind, data.shape, layout);
    bool written = false;
    try {
        written = cv::imwrite(out, picture);
    } catch (const cv::Exception& e) {
        throw SpecError("--out", std::string("cannot write the PNG: ") + e.what(), out);
    }
    if (!written) throw SpecError("--out", "cannot write the PNG (does the folder exist?)", out);

    if (args.flag("json")) {
        Json j;
        j["out"] = out;
        j["r"] = r;
        j["rows"] = layout.rows;
        j["cols"] = layout.cols;
        io.out << j.dump() << "\n";
    } else {
        io.out << "wrote " << safePath(out) << ": " << r << " copies of sample " << index << " in a " << layout.rows << " x "
               << layout.cols << " grid (" << layout.width << " x " << layout.height << " px)\n";
    }
    return 0;
}

} // namespace

Command orbitCommand()
{
    std::vector<Option> options = {{"r", "r", false, "R", "number of transformed copies (1..100000)"},
                                   {"out", "", false, "PNG", "the picture to write (.png)"},
                                   {"cell", "", false, "PX",
                                    "cell size in pixels, rounded down to a whole multiple of the sample size "
                                    "(default about 96)"}};
    for (auto& o : groupOptions()) options.push_back(o);
    for (auto& o : dataOptions()) options.push_back(o);
    return {"orbit",
            "the orbit gallery of one input: r transformed copies g_k x as a PNG grid",
            "orbit --data FILE --index I --group G --dist D -r R --out PNG [--seed S] [--cell PX] [--json]",
            "Draws g_1..g_R ~ q (the elements `sample --data FILE --index I` prints with the same seed), applies\n"
            "them to sample I and writes the copies row by row: images in grey or colour, upscaled with nearest\n"
            "neighbour; Coulomb matrices as heatmaps of log(1 + C) on one shared colour scale; vectors as strips.\n"
            "--json prints {out, r, rows, cols} (rows and cols of the grid).\n\n" +
                groupSpecHelp(),
            options,
            runOrbit};
}

} // namespace orbit::cli

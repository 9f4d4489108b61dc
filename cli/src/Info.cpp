#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"

#include <algorithm>
#include <ostream>

namespace orbit::cli {

namespace {

Json describe(const Dataset& d)
{
    Json j;
    j["file"] = d.source;
    j["format"] = d.format;
    j["kind"] = toString(d.kind);
    j["count"] = d.count();
    if (d.kind == DataKind::Vectors)
        j["shape"] = {d.shape.width};
    else
        j["shape"] = {d.shape.height, d.shape.width};
    j["channels"] = d.shape.channels;
    j["classes"] = d.isClassification() ? Json(d.numClasses) : Json(nullptr);
    if (d.isRegression()) {
        const auto [mn, mx] = std::minmax_element(d.targets.begin(), d.targets.end());
        double sum = 0;
        for (double t : d.targets) sum += t;
        j["target"] = {{"min", *mn}, {"max", *mx}, {"mean", sum / static_cast<double>(d.targets.size())}};
    } else {
        j["target"] = nullptr;
    }
    if (!d.folds.empty()) j["folds"] = *std::max_element(d.folds.begin(), d.folds.end()) + 1;
    return j;
}

int runInfo(const Args& args, Io& io)
{
    if (args.positional().size() != 1) throw SpecError("FILE", "info takes exactly one file");
    LoadOptions options;
    if (args.has("format")) options.format = parseFormat(args.text("format"));
    options.labels = args.text("labels");
    const Dataset d = loadDataset(args.positional()[0], options);
    const Json j = describe(d);
    if (args.flag("json")) {
        io.out << j.dump() << "\n";
        return 0;
    }
    io.out << "file      " << safePath(d.source) << " (" << d.format << ")\n"
           << "kind      " << toString(d.kind) << "\n"
           << "count     " << d.count() << "\n"
           << "shape     " << j["shape"].dump() << " x " << d.shape.channels << " channel(s)\n";
    if (d.isClassification()) io.out << "classes   " << d.numClasses << "\n";
    if (d.isRegression())
        io.out << "target    min " << j["target"]["min"].get<double>() << ", max " << j["target"]["max"].get<double>()
               << ", mean " << j["target"]["mean"].get<double>() << "\n";
    if (!d.folds.empty()) io.out << "folds     " << j["folds"].get<int>() << " predefined\n";
    return 0;
}

} // namespace

Command infoCommand()
{
    return {"info",
            "load any supported dataset and report kind, count, shape, classes and targets",
            "info FILE [--format F] [--labels FILE] [--json]",
            "Formats (detected from content and extension, or forced with --format): idx (MNIST, raw or .gz),\n"
            "cifar (CIFAR-10 binary batch), amat (Larochelle rotated MNIST), image, folder (class sub-folders),\n"
            "digits (OpenCV digits.png sheet), mat (QM7 MATLAB v5), extxyz (molecules -> Coulomb matrices), csv.",
            {{"format", "", false, "F", "force a format: idx|cifar|amat|image|folder|digits|mat|extxyz|csv"},
             {"labels", "", false, "FILE", "labels file for IDX images (default: the standard MNIST name)"}},
            runInfo};
}

} // namespace orbit::cli

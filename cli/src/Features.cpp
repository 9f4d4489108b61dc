// orbitlab-cli features: the feature matrix of a whole dataset (docs/cli.md).
#include "GroupOptions.hpp"
#include "ManyProcesses.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/locality/PerClassLocality.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/training/InputRows.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MatrixIo.hpp"
#include "orbit/features/MemoryLimit.hpp"
#include "orbit/util/Error.hpp"

#include <chrono>
#include <optional>
#include <ostream>

namespace orbit::cli {

namespace {

int runFeatures(const Args& args, Io& io)
{
    const std::uint64_t seed = seedOption(args);
    const std::string out = args.required("out");
    const std::string spec = args.required("features");
    const auto dot = out.find_last_of('.');
    const std::string ext = dot == std::string::npos ? std::string() : out.substr(dot);
    if (ext != ".npy" && ext != ".csv" && ext != ".NPY" && ext != ".CSV")
        throw SpecError("--out", "unknown output extension (use .npy or .csv)", out);
    if (!args.has("data")) throw SpecError("--data", "is required");
    const std::string kernel = args.text("kernel", "gaussian:median=1");
    // Many ranks read in two passes: the count (no row decoded), then the rows of their own blocks.
    const std::vector<char> none;
    const std::vector<char> rows =
        io.ranks.size() > 1 ? featureInputRows(loadDataOption(args, &none)->count(), spec, kernel, seed, blockRowsOption(args), io.ranks)
                            : std::vector<char>{};
    auto data = loadDataOption(args, rows.empty() ? nullptr : &rows);
    const auto t0 = std::chrono::steady_clock::now();
    // With --dist-per-class, one block of columns per distinct distribution (--dist's first), each
    // from the same templates and base noise (the same seed): the features class c's model uses.
    std::vector<std::pair<std::string, std::vector<int>>> specs{{args.text("dist"), {}}};
    if (args.has("dist-per-class")) {
        if (!data->isClassification())
            throw SpecError("--dist-per-class", "needs class labels: regression targets have no classes", args.text("dist-per-class"));
        if (!args.has("group") || !args.has("dist"))
            throw SpecError(args.has("group") ? "--dist" : "--group", "is needed with --dist-per-class (the default distribution)");
        const ClassDistributions dists = ClassDistributions::parse(args.text("dist-per-class"), args.text("dist"), data->numClasses);
        dists.check(*makeGroup(args.text("group"), data->shape, seed));
        specs = dists.distinct(data->numClasses);
    }
    std::vector<FeatureContext> contexts;  // a map may keep a reference to its context: they live as long
    contexts.reserve(specs.size());
    std::vector<std::unique_ptr<FeatureMap>> maps;
    Eigen::Index dims = 0;
    for (const auto& [dist, classes] : specs) {
        contexts.push_back(makeFeatureContext(*data, args.text("group"), dist, kernel, seed));
        maps.push_back(makeFeatureMap(spec, contexts.back()));
        dims += maps.back()->dim();
    }
    const FeatureMap* map = maps.front().get();
    const Ranks& ranks = io.ranks;
    const RowBlocks blocks{data->X.rows(), blockRowsOption(args)};
    const Eigen::Index first = ranks.firstRow(blocks), own = ranks.lastRow(blocks) - first;
    // Refuse rows that would not fit before fitting (FeatureMap::transform checks it again): this
    // rank's own, all of them in one process.
    detail::checkFeatureMemory(4.0 * double(own) * double(dims), "--features",
                               "the " + std::to_string(own) + " x " + std::to_string(dims) + " feature rows", spec);
    const auto t1 = std::chrono::steady_clock::now();
    dims = 0;  // after the fit: a map that fits on the data may settle its dimension then (Nystrom's rank)
    for (auto& m : maps) {
        m->fit(data->X, seed);
        dims += m->dim();
    }
    // The root opens the file first, so that an unwritable --out fails before the work.
    std::optional<MatrixRowWriter> writer;
    if (ranks.isRoot()) writer.emplace(out, data->X.rows(), dims);
    // Every rank fits the same map (the same seed) and computes the rows of its own blocks; they
    // reach the root in row order, which writes them as they come (ordered writes: no rank holds
    // more than its own rows and one piece of another's).
    data->requireHeld(std::size_t(first), std::size_t(first + own), "features");
    MatrixXfR F(own, dims), part;
    ranks.forOwnRows(blocks, 0, [&](Eigen::Index begin, Eigen::Index end) {
        Eigen::Index column = 0;
        for (const auto& m : maps) {
            m->transform(data->X, std::size_t(begin), std::size_t(end), part);
            F.block(begin - first, column, part.rows(), part.cols()) = part;
            column += part.cols();
        }
    });
    const auto t2 = std::chrono::steady_clock::now();
    ranks.streamRowsToRoot(F, blocks, [&](const MatrixXfR& rows) { writer->append(rows); });
    if (writer) writer->finish();
    const auto t3 = std::chrono::steady_clock::now();
    const double seconds = ranks.maximum(std::chrono::duration<double>(t3 - t1).count());
    const double computing = ranks.maximum(std::chrono::duration<double>(t2 - t1).count());
    const double gathering = ranks.maximum(std::chrono::duration<double>(t3 - t2).count());
    const double setup = std::chrono::duration<double>(t1 - t0).count();
    if (args.flag("json")) {
        Json j;
        j["seconds"] = seconds;
        j["ranks"] = ranks.size();
        j["block_rows"] = blocks.blockRows;
        j["stage_seconds"] = {{"features", computing}, {"reduction", gathering}};
        j["rows"] = blocks.rows;
        j["input_rows_held"] = static_cast<long long>(ranks.maximum(double(data->heldCount())));
        j["rank_counters"] = rankCountersJson(ranks);
        j["dims"] = dims;
        if (args.has("dist-per-class")) {
            Json list = Json::array();
            Eigen::Index column = 0;
            for (std::size_t g = 0; g < maps.size(); ++g) {
                list.push_back({{"dist", specs[g].first}, {"classes", specs[g].second}, {"first_column", column},
                                {"columns", maps[g]->dim()}});
                column += maps[g]->dim();
            }
            j["blocks"] = list;
        }
        j["features"] = map->spec();
        j["kernel"] = map->kernel();
        j["setup_seconds"] = setup;
        j["out"] = out;
        io.out << j.dump() << "\n";
    } else {
        io.out << blocks.rows << " x " << dims << " features (" << map->spec() << ") in " << seconds
               << " s, written to " << out << "\napproximates: " << map->kernel() << "\n";
        if (maps.size() > 1)
            for (std::size_t g = 0, column = 0; g < maps.size(); column += std::size_t(maps[g]->dim()), ++g) {
                io.out << "columns " << column << ".." << column + std::size_t(maps[g]->dim()) - 1 << ": " << specs[g].first << " (classes";
                for (int c : specs[g].second) io.out << " " << c;
                io.out << ")\n";
            }
    }
    return 0;
}

} // namespace

Command featuresCommand()
{
    std::vector<Option> options;
    for (const auto& o : dataOptions())
        if (o.name != "index") options.push_back(o);
    for (const auto& o : groupOptions()) options.push_back(o);
    options.push_back({"features", "", false, "SPEC", "the feature map (see the list above)"});
    options.push_back({"kernel", "", false, "SPEC", "base kernel: " + kernelOptionHelp()});
    options.push_back({"out", "o", false, "FILE", "output: .npy (float32, C order) or .csv"});
    options.push_back({"dist-per-class", "", false, "C=SPEC[;C=SPEC...]",
                       "a distribution per class, by label (--dist for the others): one block of columns per distinct one"});
    options.push_back(blockRowsOptionSpec());
    return {"features",
            "compute the feature matrix of a whole dataset",
            "features --data FILE --features SPEC [--group G --dist D] [--kernel K] --out FILE.npy|.csv [--json]",
            featureMapHelp() +
            "--json prints {seconds (fit + transform + writing), ranks, block_rows, stage_seconds {features,\n"
            "reduction (the rows travelling to rank 0 and written)}, rows, input_rows_held (the most input rows\n"
            "one rank read), rank_counters [{rank, bytes_sent, bytes_received, wait_seconds}] (every rank's\n"
            "MPI traffic, below), dims, features, kernel, setup_seconds, out}.\n"
            "--dist-per-class \"6=vonmises:kappa=8;9=vonmises:kappa=8\" writes one block of columns per distinct\n"
            "distribution, --dist's first (when a class uses it), then the others in the order of their first\n"
            "class; every block from the same templates and base noise (the same --seed): the features the\n"
            "per-class model of class c reads (train --dist-per-class). --json adds `blocks` [{dist, classes,\n"
            "first_column, columns}].\n\n" + manyProcessesHelp() +
                kernelHelp() + groupSpecHelp(),
            options,
            runFeatures};
}

} // namespace orbit::cli

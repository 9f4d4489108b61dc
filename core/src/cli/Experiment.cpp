// orbitlab-cli experiment CONFIG.json: a table of training runs (docs/experiments.md).
#include "cli/TrainJson.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/experiments/Experiment.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

namespace orbit::cli {

namespace {

std::string fixed(double v, int digits)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

/// The distinct chosen points over the folds with how many folds chose each, "a (x3) / b".
std::string chosenSummary(const TrainResult& r)
{
    std::vector<std::pair<std::string, int>> seen;
    for (const FoldResult& f : r.folds) {
        const std::string t = chosenText(f.chosen);
        const auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& p) { return p.first == t; });
        if (it == seen.end())
            seen.emplace_back(t, 1);
        else
            ++it->second;
    }
    std::string out;
    for (const auto& [t, count] : seen)
        out += (out.empty() ? "" : " / ") + t + (count > 1 ? " (x" + std::to_string(count) + ")" : "");
    return out;
}

std::string markdown(const ExperimentConfig& c, const std::vector<const ExperimentSetting*>& settings,
                     const std::vector<TrainResult>& results, std::size_t n)
{
    std::ostringstream md;
    md << "# " << c.title << "\n\n";
    md << "Data: `" << c.data.file << "`, n = " << n << (c.data.rotate ? ", rotated (pad " + std::to_string(c.data.pad) + ")" : "")
       << ", seed " << c.data.seed << ". Config: `" << c.path << "`.\n\n";
    md << "| setting | features | learner | " << (results.empty() ? "score" : results.front().metric)
       << " (mean ± std) | chosen | seconds | paper |\n";
    md << "|---|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const auto& s = *settings[i];
        const auto& r = results[i];
        const bool acc = r.metric == "accuracy";
        const double scale = acc ? 100.0 : 1.0;
        md << "| " << s.name << " | `" << r.featureSpec << "` | " << s.config.learner << " | "
           << fixed(scale * r.mean, 2) << " ± " << fixed(scale * r.stddev, 2) << (acc ? " %" : "") << " | "
           << chosenSummary(r) << " | " << fixed(r.seconds, 1) << " | "
           << (s.paper ? fixed(*s.paper, 2) + (acc ? " %" : "") : std::string("")) << " |\n";
    }
    return md.str();
}

int runExperiment(const Args& args, Io& io)
{
    if (args.positional().size() != 1) throw SpecError("CONFIG", "expected exactly one config file", std::to_string(args.positional().size()));
    const ExperimentConfig c = loadExperimentConfig(args.positional().front());
    std::vector<const ExperimentSetting*> settings;
    std::set<std::string> only;
    if (args.has("only"))
        for (const auto& name : split(args.text("only"), ',')) only.insert(trim(name));
    for (const auto& s : c.settings)
        if (only.empty() || only.count(s.name)) settings.push_back(&s);
    for (const auto& name : only)
        if (std::none_of(c.settings.begin(), c.settings.end(), [&](const ExperimentSetting& s) { return s.name == name; }))
            throw SpecError("--only", "no setting of that name in the config", name);
    const std::string outDir = args.text("out");
    if (args.has("out")) {
        std::error_code ec;
        std::filesystem::create_directories(outDir, ec);
        if (ec) throw SpecError("--out", "cannot create the folder: " + ec.message(), outDir);
    }
    const Dataset data = prepareDataset(c.data);
    std::vector<TrainResult> results;
    Json list = Json::array();
    for (std::size_t i = 0; i < settings.size(); ++i) {
        const auto& s = *settings[i];
        const std::string prefix = "[" + std::to_string(i + 1) + "/" + std::to_string(settings.size()) + "] " + s.name;
        results.push_back(train(data, s.config, terminalProgress(io.err, io.progress, prefix)));
        if (io.progress) io.err << "\n";
        Json j;
        j["name"] = s.name;
        j["features"] = s.config.features;
        j["group"] = s.config.group;
        j["dist"] = s.config.dist;
        j["learner"] = s.config.learner;
        if (s.paper) j["paper"] = *s.paper;
        if (!s.note.empty()) j["note"] = s.note;
        j["result"] = trainResultJson(results.back());
        list.push_back(std::move(j));
        if (!args.flag("json"))
            io.out << s.name << ": " << results.back().metric << " " << results.back().mean << " +- "
                   << results.back().stddev << " (" << results.back().seconds << " s)\n";
    }
    Json all;
    all["title"] = c.title;
    all["config"] = c.path;
    all["data"] = {{"file", c.data.file}, {"n", data.count()}, {"rotate", c.data.rotate}, {"pad", c.data.pad}, {"seed", c.data.seed}};
    all["settings"] = list;
    if (args.flag("json")) io.out << all.dump() << "\n";
    if (args.has("out")) {
        const auto dir = std::filesystem::path(outDir);
        std::ofstream j(dir / "results.json");
        j << all.dump(2) << "\n";
        std::ofstream m(dir / "results.md");
        m << markdown(c, settings, results, data.count());
        if (!j || !m) throw SpecError("--out", "write failed", outDir);
    }
    return 0;
}

} // namespace

Command experimentCommand()
{
    std::vector<Option> options;
    options.push_back({"out", "o", false, "DIR", "write DIR/results.json and DIR/results.md"});
    options.push_back({"only", "", false, "NAME,..", "run only the settings with these names"});
    return {"experiment",
            "run a table of training settings from a JSON config",
            "experiment CONFIG.json [--out DIR] [--only NAME,..] [--json]",
            "Runs every setting of the config in order on the config's dataset and prints one line per\n"
            "setting (or, with --json, one JSON object). The format is described in docs/experiments.md:\n"
            "{\"title\": .., \"data\": {\"file\", \"n\", \"rotate\", \"pad\", \"eval\", \"seed\"}, \"defaults\": {..},\n"
            " \"settings\": [{\"name\", \"features\", \"group\", \"dist\", \"kernel\", \"learner\", \"grid\", \"paper\"}, ..]}.\n"
            "Relative paths resolve against the config's folder; ${shared} is the shared folder beside the\n"
            "repository, ${fashion} the Fashion-MNIST folder.",
            options,
            runExperiment};
}

} // namespace orbit::cli

// orbitlab-cli experiment CONFIG.json: a table of training runs (docs/experiments.md).
#include "ManyProcesses.hpp"
#include "TrainJson.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/ExperimentConfig.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
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

/// "lambda=0.001, median=1" from a chosen point as trainResultJson writes it.
std::string chosenTextOf(const Json& point)
{
    std::ostringstream s;
    s << std::setprecision(4);
    bool first = true;
    for (const auto& [k, v] : point.items()) {
        s << (first ? "" : ", ") << k << "=" << v.get<double>();
        first = false;
    }
    return s.str();
}

/// The distinct chosen points over the folds with how many folds chose each, "a (x3) / b".
std::string chosenSummary(const Json& result)
{
    std::vector<std::pair<std::string, int>> seen;
    for (const Json& point : result.at("chosen")) {
        const std::string t = chosenTextOf(point);
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

/// The table of results.md, from the rows' JSON (computed now or resumed from an earlier run).
std::string markdown(const ExperimentConfig& c, const Json& rows, std::size_t n)
{
    std::ostringstream md;
    md << "# " << c.title << "\n\n";
    md << "Data: `" << c.data.file << "`, n = " << n << (c.data.rotate ? ", rotated (pad " + std::to_string(c.data.pad) + ")" : "")
       << ", seed " << c.data.seed << ". Config: `" << c.path << "`.\n\n";
    md << "| setting | features | learner | " << (rows.empty() ? "score" : rows.front().at("result").at("metric").get<std::string>())
       << " (mean ± std) | chosen | seconds | paper |\n";
    md << "|---|---|---|---|---|---|---|\n";
    for (const Json& row : rows) {
        const Json& r = row.at("result");
        const bool acc = r.at("metric") == "accuracy";
        const double scale = acc ? 100.0 : 1.0;
        md << "| " << row.at("name").get<std::string>() << " | `" << r.at("features").get<std::string>() << "` | "
           << row.at("learner").get<std::string>() << " | " << fixed(scale * r.at("mean").get<double>(), 2) << " ± "
           << fixed(scale * r.at("std").get<double>(), 2) << (acc ? " %" : "") << " | " << chosenSummary(r) << " | "
           << fixed(r.at("seconds").get<double>(), 1) << " | "
           << (row.contains("paper") ? fixed(row.at("paper").get<double>(), 2) + (acc ? " %" : "") : std::string("")) << " |\n";
    }
    return md.str();
}

/// Where a finished row is kept: DIR/rows/<name as a file name>-<hash of the name>.json (the hash
/// keeps names that differ only in characters a file name cannot hold apart).
std::filesystem::path rowFile(const std::filesystem::path& dir, const std::string& name)
{
    std::string slug;
    for (unsigned char ch : name) {
        if (slug.size() >= 40) break;
        slug += std::isalnum(ch) ? static_cast<char>(std::tolower(ch)) : '-';
    }
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char ch : name) h = (h ^ ch) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return dir / "rows" / (slug + "-" + std::string(hex, 8) + ".json");
}

/// Writes `text` to `path` all or nothing: a run killed while writing leaves the old file or none.
void writeAtomically(const std::filesystem::path& path, const std::string& text)
{
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) throw SpecError("--out", "cannot write", tmp.string());
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw SpecError("--out", "cannot write: " + ec.message(), path.string());
}

/// The saved row of a setting if one is there, was computed with `fingerprint` and reads back whole.
std::optional<Json> savedRow(const std::filesystem::path& file, const std::string& name, const std::string& fingerprint,
                             std::string& why)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    const Json saved = Json::parse(in, nullptr, false);
    if (saved.is_discarded() || !saved.is_object() || !saved.contains("fingerprint") || !saved.contains("row") ||
        !saved.at("row").is_object() || !saved.at("row").contains("result")) {
        why = "its saved result is unreadable";
        return std::nullopt;
    }
    if (saved.at("row").value("name", std::string()) != name || saved.at("fingerprint") != fingerprint) {
        why = "its settings changed since its result was saved";
        return std::nullopt;
    }
    return saved.at("row");
}

std::string scoreLine(const Json& row)
{
    const Json& r = row.at("result");
    std::ostringstream s;
    s << safeText(row.at("name").get<std::string>(), kQuoteMaxChars) << ": " << r.at("metric").get<std::string>() << " "
      << r.at("mean").get<double>() << " +- " << r.at("std").get<double>() << " (" << r.at("seconds").get<double>() << " s)";
    return s.str();
}

int runExperiment(const Args& args, Io& io)
{
    if (args.positional().size() != 1) throw SpecError("CONFIG", "expected exactly one config file", std::to_string(args.positional().size()));
    const bool resume = args.flag("resume");
    if (resume && !args.has("out")) throw SpecError("--resume", "needs --out DIR, the folder of the run to continue");
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
    const std::filesystem::path outDir = args.text("out");
    if (args.has("out")) {
        std::error_code ec;
        std::filesystem::create_directories(outDir / "rows", ec);
        if (ec) throw SpecError("--out", "cannot create the folder: " + ec.message(), outDir.string());
    }
    const Dataset data = prepareDataset(c.data);
    // Under mpirun the settings are dealt out: setting i runs whole on rank i mod P, in one process
    // (train's numbers do not depend on the process count). Each rank keeps its rows in --out as it
    // finishes them and sends them to rank 0 at the end; rank 0 prints and writes the table.
    const Ranks& ranks = io.ranks;
    const auto mine = [&](std::size_t i) { return int(i % std::size_t(ranks.size())) == ranks.rank(); };
    // Score lines as settings finish: rank 0 says its own; the others' wait for the end (below).
    const bool sayLines = !args.flag("json") && ranks.isRoot();
    std::vector<Json> rows(settings.size());
    for (std::size_t i = 0; i < settings.size(); ++i) {
        if (!mine(i)) continue;
        const auto& s = *settings[i];
        const std::string fingerprint = settingFingerprint(c.data, s.config);
        const std::filesystem::path file = args.has("out") ? rowFile(outDir, s.name) : std::filesystem::path();
        if (resume) {
            std::string why;
            if (auto row = savedRow(file, s.name, fingerprint, why)) {
                if (sayLines) io.out << scoreLine(*row) << " (resumed)\n";
                rows[i] = std::move(*row);
                continue;
            }
            if (!why.empty()) io.err << "orbitlab-cli experiment: " << safeText(s.name, kQuoteMaxChars) << ": " << why << ": running it again\n";
        }
        const std::string prefix = "[" + std::to_string(i + 1) + "/" + std::to_string(settings.size()) + "] " + s.name;
        const TrainResult result = train(data, s.config, terminalProgress(io.err, io.progress, prefix), oneProcess());
        if (io.progress) io.err << "\n";
        Json j;
        j["name"] = s.name;
        j["features"] = s.config.features;
        j["group"] = s.config.group;
        j["dist"] = s.config.dist;
        j["learner"] = s.config.learner;
        if (s.paper) j["paper"] = *s.paper;
        if (!s.note.empty()) j["note"] = s.note;
        j["result"] = trainResultJson(result);
        // Kept as soon as it is finished: a run killed later keeps this row (--resume continues).
        if (args.has("out")) writeAtomically(file, Json{{"fingerprint", fingerprint}, {"row", j}}.dump(2) + "\n");
        if (sayLines) io.out << scoreLine(j) << "\n";
        rows[i] = std::move(j);
    }
    if (!ranks.isRoot()) {
        Json own = Json::array();
        for (std::size_t i = 0; i < settings.size(); ++i)
            if (mine(i)) own.push_back(rows[i]);
        ranks.sendText(own.dump(), 0);
        rankCountersJson(ranks);  // rank 0 reports every rank's
        return 0;
    }
    for (int q = 1; q < ranks.size(); ++q) {
        const Json theirs = Json::parse(ranks.receiveText(q));
        std::size_t k = 0;
        for (std::size_t i = q; i < settings.size(); i += std::size_t(ranks.size())) {
            rows[i] = theirs.at(k++);
            if (sayLines) io.out << scoreLine(rows[i]) << " (rank " << q << ")\n";
        }
    }
    Json list = Json::array();
    for (Json& row : rows) list.push_back(std::move(row));
    Json all;
    all["ranks"] = ranks.size();
    all["rank_counters"] = rankCountersJson(ranks);
    all["title"] = c.title;
    all["config"] = c.path;
    all["data"] = {{"file", c.data.file}, {"n", data.count()}, {"rotate", c.data.rotate}, {"pad", c.data.pad}, {"seed", c.data.seed}};
    all["settings"] = list;
    if (args.flag("json")) io.out << all.dump() << "\n";
    if (args.has("out")) {
        writeAtomically(outDir / "results.json", all.dump(2) + "\n");
        writeAtomically(outDir / "results.md", markdown(c, list, data.count()));
    }
    return 0;
}

} // namespace

Command experimentCommand()
{
    std::vector<Option> options;
    options.push_back({"out", "o", false, "DIR", "write DIR/results.json and DIR/results.md"});
    options.push_back({"only", "", false, "NAME,..", "run only the settings with these names"});
    options.push_back({"resume", "", true, "", "continue the run in --out DIR: keep its finished rows, run the rest"});
    return {"experiment",
            "run a table of training settings from a JSON config",
            "experiment CONFIG.json [--out DIR [--resume]] [--only NAME,..] [--json]",
            "Runs every setting of the config in order on the config's dataset and prints one line per\n"
            "setting (or, with --json, one JSON object). With --out, each finished row is kept at once in\n"
            "DIR/rows/; --resume reuses the rows whose settings and data recipe are unchanged and runs the\n"
            "others (a row whose config changed runs again). The format is described in docs/experiments.md:\n"
            "{\"title\": .., \"data\": {\"file\", \"n\", \"rotate\", \"pad\", \"eval\", \"seed\"}, \"defaults\": {..},\n"
            " \"settings\": [{\"name\", \"features\", \"group\", \"dist\", \"kernel\", \"learner\", \"grid\", \"paper\"}, ..]}.\n"
            "Relative paths resolve against the config's folder; ${shared} is the shared folder beside the\n"
            "repository, ${fashion} the Fashion-MNIST folder.\n\n"
            "Under `mpirun -np P`, setting i runs whole on rank i mod P; every row is the same bits as in one\n"
            "process, rank 0 prints the lines of the other ranks' settings when they are done, and writes\n"
            "the table (each rank keeps its own rows in DIR/rows/ as it finishes them). The JSON's\n"
            "`rank_counters` [{rank, bytes_sent, bytes_received, wait_seconds}] give every rank's traffic\n"
            "through MPI (the rows sent to rank 0) and its time blocked in MPI calls.",
            options,
            runExperiment};
}

} // namespace orbit::cli

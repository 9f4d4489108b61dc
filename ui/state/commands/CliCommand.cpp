#include "state/commands/CliCommand.hpp"

#include "state/PanelRegistry.hpp"
#include "state/PredictSettings.hpp"
#include "state/TrainingSettings.hpp"
#include "state/workers/KernelTasks.hpp"

#include "orbit/training/Training.hpp"
#include "orbit/training/TrainingPython.hpp"
#include "orbit/training/TrainSettings.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>

namespace orbitui {

namespace {

std::string joinInts(const std::vector<int>& values)
{
    std::string out;
    for (int v : values)
        out += (out.empty() ? "" : ",") + std::to_string(v);
    return out;
}

std::string dataPath(const SessionState& s)
{
    if (s.dataPath.isEmpty())
        throw orbit::SpecError("data", "no dataset: the command reads the session's data file; open one first");
    return s.dataPath.toStdString();
}

void add(std::vector<std::string>& args, std::initializer_list<std::string> words) { args.insert(args.end(), words); }

/// --n for the Training panel's seeded subset (0 or at least the dataset: all rows, no --n).
void addSubset(std::vector<std::string>& args, int subset, const CommandContext& c)
{
    if (subset > 0 && (c.samples == 0 || static_cast<std::size_t>(subset) < c.samples))
        add(args, {"--n", std::to_string(subset)});
}

CliCommand trainCommand(const SessionState& s, const CommandContext& c)
{
    const std::optional<orbit::TrainConfig> perClass = perClassTrainConfig(s.training, s.orbit);
    const orbit::TrainConfig config = perClass ? *perClass : makeTrainConfig(s.training, s.orbit);
    CliCommand cmd{{"train", "--data", dataPath(s)}, true};
    addSubset(cmd.args, s.training.subset, c);
    for (const orbit::TrainSetting& setting : orbit::trainSettings())  // orbit/training/TrainSettings.hpp
        if (orbit::writesSetting(setting, config))
            add(cmd.args, {"--" + setting.flag, setting.get(config)});
    if (perClass)
        add(cmd.args, {"--dist-per-class", s.orbit.distPerClass});
    // The score curve along the locality sweep when the grid has it (TrainingPanel::run's main axis).
    if (std::any_of(config.grid.begin(), config.grid.end(),
                    [&](const orbit::ParamAxis& a) { return a.name == s.training.localityAxis; }))
        add(cmd.args, {"--curve-axis", s.training.localityAxis});
    return cmd;
}

} // namespace

std::string trainingPython(const SessionState& s, const CommandContext& c)
{
    orbit::DataRecipe recipe;
    recipe.file = dataPath(s);
    const int subset = s.training.subset;
    if (subset > 0 && (c.samples == 0 || static_cast<std::size_t>(subset) < c.samples))
        recipe.n = static_cast<std::size_t>(subset);
    recipe.seed = s.training.seed;
    return orbit::trainingAsPython(makeTrainConfig(s.training, s.orbit), recipe);
}

namespace {

CliCommand learnCommand(const SessionState& s, const CommandContext& c)
{
    const TrainingSettings& t = s.training;
    if (t.learn.empty())
        throw orbit::SpecError("learn", "check at least one parameter of the distribution to learn");
    std::string learn;
    for (const std::string& name : t.learn)
        learn += (learn.empty() ? "" : ",") + name;
    CliCommand cmd{{"learn", "--data", dataPath(s)}, true};
    addSubset(cmd.args, t.subset, c);
    const bool gp = isGaussianProcess(t.learnLearner);  // the exact GP's marginal likelihood (LocalityPane's learner choice)
    if (gp) {
        add(cmd.args, {"--learner", t.learnLearner});
        cmd.scalesOut = false;  // the exact GP learn runs in one process
    }
    add(cmd.args, {"--features", gp ? learnExactFeatureSpec(t) : learnFeatureSpec(t), "--group", s.orbit.groupSpec(),
                   "--dist", s.orbit.distSpec(), "--kernel", learnKernelSpec(t), "--learn", learn, "--eval",
                   t.evalSpec(), "--max-evals", std::to_string(t.learnEvaluations), "--seed", std::to_string(t.seed)});
    if (t.learnPerClass)
        add(cmd.args, {"--per-class"});
    return cmd;
}

} // namespace

namespace {

/// The Predict view's model file: B's, else A's; its models of runs have no file to name.
std::string predictModelPath(const SessionState& s)
{
    const PredictSettings& p = s.part<PredictSettings>();
    const QString path = !p.modelB.isEmpty() ? p.modelB : p.modelA;
    if (path.isEmpty())
        throw orbit::SpecError("model", "the Predict view asks a model of a training run, which has no file: save it with "
                                        "Save model… and open it with Open model… first");
    return path.toStdString();
}

/// The Predict view's input file: the image file, or the drawing its export writes.
std::string predictInputFile(const SessionState& s)
{
    const PredictSettings& p = s.part<PredictSettings>();
    return p.input == "file" ? p.imageFile.toStdString() : std::string("predict-input.png");
}

} // namespace

CliCommand predictCommand(const SessionState& s)
{
    const PredictSettings& p = s.part<PredictSettings>();
    CliCommand cmd{{"predict", "--model", predictModelPath(s)}, false};
    if (p.input == "row") {
        add(cmd.args, {"--data", dataPath(s), "--index", std::to_string(s.selectedIndex)});
        if (p.swap.size() == 2)  // a molecule's atoms moved by hand (the panel's Swap and Jitter)
            add(cmd.args, {"--swap", std::to_string(p.swap[0]) + "," + std::to_string(p.swap[1])});
        if (p.jitter > 0.0)
            add(cmd.args, {"--jitter", orbit::formatNumber(p.jitter)});
    } else
        add(cmd.args, {"--input", predictInputFile(s)});
    add(cmd.args, {"--sweep", sweepRangeText(predictSweepRange(p.parameter)).toStdString(), "--out", "predict-sweep.csv"});
    return cmd;
}

std::string predictPython(const SessionState& s)
{
    const PredictSettings& p = s.part<PredictSettings>();
    const orbit::SweepRange range = predictSweepRange(p.parameter);
    const bool row = p.input == "row";
    std::string out = "import numpy as np\nimport orbitlab\n\n";
    out += "model = orbitlab.load_model(" + orbit::pythonString(predictModelPath(s)) + ")\n";
    if (row) {
        out += "data = orbitlab.load(" + orbit::pythonString(dataPath(s)) + ")\n";
        if (p.swap.size() == 2 || p.jitter > 0.0) {  // the panel's Swap and Jitter
            out += "x = orbitlab.move_atoms(data, " + std::to_string(s.selectedIndex);
            if (p.swap.size() == 2)
                out += ", swap=(" + std::to_string(p.swap[0]) + ", " + std::to_string(p.swap[1]) + ")";
            if (p.jitter > 0.0)
                out += ", jitter=" + orbit::formatNumber(p.jitter);
            out += ")\n";
        } else {
            out += "x = data.X[" + std::to_string(s.selectedIndex) + "]\n";
        }
    } else {
        out += "x = orbitlab.load(" + orbit::pythonString(predictInputFile(s)) + ").X[0]  # an image of the model's input shape\n";
    }
    out += "values = np.linspace(" + orbit::formatNumber(range.values.front()) + ", " + orbit::formatNumber(range.values.back()) +
           ", " + std::to_string(range.values.size()) + ")\n";
    out += "scores = orbitlab.sweep(model, x, parameter=" + orbit::pythonString(orbit::toString(range.parameter)) +
           ", values=values, index=" + std::to_string(row ? s.selectedIndex : 0) + ")\n";
    out += "for t, answer in zip(values, scores):  # t, then the scores per class (or the value)\n";
    out += "    print(repr(float(t)), *(repr(float(v)) for v in np.atleast_1d(answer)))\n";
    return out;
}

CliCommand dataCommand(const SessionState& s, const CommandContext&) { return {{"info", dataPath(s)}, false}; }

CliCommand groupCommand(const SessionState& s, const CommandContext& c)
{
    const OrbitSettings& o = s.orbit;
    CliCommand cmd{{"density", "--group", o.groupSpec(), "--dist", o.distSpec(), "-n", "20000"}, false};
    if (!s.dataPath.isEmpty())
        add(cmd.args, {"--data", dataPath(s), "--index", std::to_string(s.selectedIndex)});
    if (o.factors().size() > 1)
        add(cmd.args, {"--factor", c.densityFactor.empty() ? o.factors().front() : c.densityFactor});
    add(cmd.args, {"--seed", std::to_string(o.seed), "--out", "density.csv"});
    return cmd;
}

CliCommand orbitsCommand(const SessionState& s, const CommandContext&)
{
    const OrbitSettings& o = s.orbit;
    const std::vector<int> inputs = s.embeddingInputs.empty() ? std::vector<int>{s.selectedIndex} : s.embeddingInputs;
    return {{"embed", "--data", dataPath(s), "--indices", joinInts(inputs), "--group", o.groupSpec(), "--dist",
             o.distSpec(), "-r", std::to_string(o.r), "--seed", std::to_string(o.seed), "--out", "orbit-embedding.csv"},
            false};
}

CliCommand kernelsCommand(const SessionState& s, const CommandContext& c)
{
    const OrbitSettings& o = s.orbit;
    const KernelRequest req = kernelRequest(s.part<KernelsSettings>(), o, c.samples);  // what the panel computes
    return {{"kernel", "--data", dataPath(s), "--n", std::to_string(req.n), "--group", o.groupSpec(), "--dist",
             o.distSpec(), "-r", std::to_string(req.r), "--kernel", req.kernelSpec(), "--features", req.featureSpec(),
             "--seed", std::to_string(o.seed), "--out", "kernel-invariant.csv", "--approx-out", "kernel-approximation.csv",
             "--base-out", "kernel-base.csv", "--difference-out", "kernel-difference.csv"},
            false};
}

CliCommand approximationCommand(const SessionState& s, const CommandContext& c)
{
    const OrbitSettings& o = s.orbit;
    const ApproxRequest req = approxRequest(s.part<ApproximationSettings>(), o, c.samples);  // what the panel computes
    const orbit::ApproxErrorConfig& a = req.config;
    return {{"approx-error", "--data", dataPath(s), "--n", std::to_string(req.n), "--group", o.groupSpec(), "--dist",
             o.distSpec(), "--kernel", req.kernelSpec(), "--features", a.method, "--s-list", joinInts(a.sList),
             "--r-list", joinInts(a.rList), "--ref-r", std::to_string(a.refR), "--repeats", std::to_string(a.repeats),
             "--seed", std::to_string(o.seed), "--csv", "approximation.csv"},
            false};
}

CliCommand trainingCommand(const SessionState& s, const CommandContext& c)
{
    return c.learn ? learnCommand(s, c) : trainCommand(s, c);
}

CliCommand panelCommand(const SessionState& s, const std::string& panel, const CommandContext& c)
{
    const PanelEntry* entry = registeredPanel(QString::fromStdString(panel));
    if (!entry || !entry->command)
        throw orbit::SpecError("panel", "no command recomputes this panel", panel);
    return entry->command(s, c);
}

std::string shellQuote(const std::string& word)
{
    const bool plain = !word.empty() && word.front() != '=' && std::all_of(word.begin(), word.end(), [](char ch) {
        const unsigned char u = static_cast<unsigned char>(ch);
        return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
               std::string_view("_@%+=:,./-").find(ch) != std::string_view::npos;
    });
    if (plain)
        return word;
    std::string out = "'";
    for (char ch : word) {
        if (ch == '\'')
            out += "'\\''";
        else
            out += ch;
    }
    return out + "'";
}

std::string shellLine(const std::vector<std::string>& words)
{
    std::string out;
    for (const std::string& w : words)
        out += (out.empty() ? "" : " ") + shellQuote(w);
    return out;
}

std::string commandLine(const CliCommand& command, const std::string& program, int processes)
{
    std::vector<std::string> words;
    if (processes > 0 && command.scalesOut)
        words = {"mpirun", "-np", std::to_string(processes)};
    words.push_back(program);
    words.insert(words.end(), command.args.begin(), command.args.end());
    return shellLine(words);
}

} // namespace orbitui

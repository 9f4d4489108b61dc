// orbitlab-cli predict --index I / --input IMAGE [--sweep NAME:FROM:TO:COUNT]: one input, and the
// Predict view's sweep chart headless (docs/cli.md, "Sweeping one input"; issue 44).
#include "GroupOptions.hpp"
#include "SavedModels.hpp"
#include "TrainJson.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/data/MoleculeMoves.hpp"
#include "orbit/figures/PredictSweep.hpp"
#include "orbit/models/SavedModel.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>

namespace orbit::cli {

namespace {

/// The one input of a single-input predict: a row of --data, or the image of --input.
struct OneInput {
    std::vector<float> x;
    std::size_t index = 0;       ///< the row whose stream its group samples come from
    std::string what;            ///< "row 3000 of digits.png" / "sketch.png"
    std::optional<int> truth;    ///< the row's class label (column of the model), when known
    std::optional<double> target;
    std::vector<float> row;      ///< the row as in the file, when --swap or --jitter moved its atoms
};

/// --swap I,J: two atom numbers.
std::pair<int, int> swapOption(const Args& args)
{
    const std::string text = args.text("swap");
    const std::size_t comma = text.find(',');
    const auto i = comma == std::string::npos ? std::nullopt : parseInteger(text.substr(0, comma));
    const auto j = comma == std::string::npos ? std::nullopt : parseInteger(text.substr(comma + 1));
    if (!i || !j || *i < 0 || *j < 0 || *i > 100000 || *j > 100000)
        throw SpecError("--swap", "two atom numbers I,J (0-based, as the file lists the atoms)", text);
    return {int(*i), int(*j)};
}

OneInput oneInputOf(const Args& args, const SavedModel& model, Io& io)
{
    OneInput in;
    if (args.has("input")) {
        if (args.has("data")) throw SpecError("--input", "give --data FILE --index I or --input IMAGE, not both", args.text("input"));
        if (model.map.kind != DataKind::Images)
            throw SpecError("--input", std::string("an image cannot be the input of a model of ") + toString(model.map.kind),
                            args.text("input"));
        std::string note;
        in.x = loadImageAsInput(args.text("input"), model.map.shape, &note);
        if (!note.empty()) io.err << "note: " << note << "\n";
        in.index = std::size_t(args.integer("index", 0, 0, 1000000));
        in.what = args.text("input");
        return in;
    }
    const Dataset data = preparedData(args);
    checkModelInput(model, data.kind, data.shape, data.source);
    in.index = indexOption(args, data);
    const float* row = data.sample(in.index);
    in.x.assign(row, row + data.shape.dim());
    in.what = "row " + std::to_string(in.index) + " of " + data.source;
    if (args.has("swap") || args.has("jitter")) {
        if (data.kind != DataKind::Coulomb)
            throw SpecError(args.has("swap") ? "--swap" : "--jitter", std::string("moves a molecule's atoms: the data are ") +
                                                                           toString(data.kind),
                            data.source);
        in.row = in.x;
        if (args.has("jitter")) {
            const double sigma = args.number("jitter", 0.0);
            if (!hasPositions(data, in.index))
                throw SpecError("--jitter", "the data have no atom positions (Coulomb matrices read from CSV or .mat have "
                                            "none; extended XYZ keeps them)",
                                data.source);
            in.x = jitteredMolecule(data, in.index, sigma, seedOption(args));
            in.what += ", atoms jittered by " + formatNumber(sigma) + " Angstrom";
        }
        if (args.has("swap")) {
            const auto [i, j] = swapOption(args);
            in.x = swappedAtoms(in.x.data(), data.shape, i, j);
            in.what += ", atoms " + std::to_string(i) + " and " + std::to_string(j) + " swapped";
        }
    }
    if (data.isClassification() && model.isClassification()) {
        const int label = data.labels[in.index];
        const std::string name = std::size_t(label) < data.classNames.size() ? data.classNames[std::size_t(label)] : std::to_string(label);
        for (int c = 0; c < model.outputs(); ++c)
            if (model.labelText(c) == name || (model.textLabels.empty() && model.integerLabels[std::size_t(c)] == label)) in.truth = c;
    } else if (data.isRegression()) {
        in.target = data.targets[in.index];
    }
    return in;
}

std::string number17(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

void writeSweep(const std::string& path, const SavedModel& m, const SweepResult& r)
{
    std::ofstream out = openOutput("out", path);
    out << sweepCsv(m, r);
    closeOutput(out, "out", path);
}

/// Where the top class changes along the sweep: {t, from, to} at the first value of the new class.
Json flipsOf(const SavedModel& m, const SweepResult& r)
{
    Json flips = Json::array();
    for (std::size_t i = 1; i < r.top.size(); ++i)
        if (r.top[i] != r.top[i - 1])
            flips.push_back({{"t", r.range.values[i]}, {"from", m.labelText(r.top[i - 1])}, {"to", m.labelText(r.top[i])}});
    return flips;
}

int runSweep(const Args& args, Io& io, const ModelPredictor& predictor, const OneInput& in, const std::string& path)
{
    const SavedModel& m = predictor.model();
    const SweepRange range = parseSweep(args.text("sweep"));
    const std::uint64_t seed = seedOption(args);
    const Progress progress = terminalProgress(io.err, io.progress, "sweep");
    const SweepResult r = predictSweep(predictor, in.x.data(), in.index, range, seed, progress);
    if (io.progress) io.err << "\n";
    if (args.has("out")) writeSweep(args.text("out"), m, r);

    const std::string name = toString(range.parameter);
    Json j = {{"input", in.what}, {"index", in.index}, {"parameter", name}, {"values", range.values.size()},
              {"from", range.values.front()}, {"to", range.values.back()}};
    j["model"] = {{"path", path}, {"features", m.map.features}, {"learner", m.learner}, {"outputs", m.outputs()}};
    if (in.truth) j["truth"] = m.labelText(*in.truth);
    std::string text = name + " of " + in.what + " from " + formatNumber(range.values.front()) + " to " +
                       formatNumber(range.values.back()) + " (" + std::to_string(range.values.size()) + " values) with " + path +
                       " (" + m.map.features + ", " + m.learner + ")";
    if (m.isClassification()) {
        const Json flips = flipsOf(m, r);
        j["top_at_start"] = m.labelText(r.top.front());
        j["flips"] = flips;
        text += ": top class " + m.labelText(r.top.front()) + " at " + formatNumber(range.values.front());
        if (flips.empty()) text += ", the same at every value";
        for (const auto& f : flips)
            text += "; " + f["to"].get<std::string>() + " from " + formatNumber(f["t"].get<double>());
    } else {
        const auto [lo, hi] = std::minmax_element(r.value.begin(), r.value.end());
        double mean = 0, var = 0;
        for (double v : r.value) mean += v / double(r.value.size());
        for (double v : r.value) var += (v - mean) * (v - mean) / double(r.value.size() - 1);
        const double sd = std::sqrt(var);
        j["value_min"] = *lo;
        j["value_max"] = *hi;
        j["spread_sd"] = sd;
        if (in.target) j["target"] = *in.target;
        text += ": " + formatNumber(r.value.front()) + " at " + formatNumber(range.values.front()) + ", from " +
                formatNumber(*lo) + " to " + formatNumber(*hi) + " (standard deviation " + formatNumber(sd) + ")";
        if (range.parameter == SweepParameter::Permutation) {
            // Invariance in expectation: the spread is what the model's own group samples make.
            constexpr int kDraws = 32;
            const MonteCarloError e = monteCarloError(predictor, in.x.data(), in.index, kDraws, seed);
            const double mc = e.sd[0] * m.coding.scale;
            j["mc_error"] = std::isfinite(mc) ? Json(mc) : Json(nullptr);
            j["mc_error_how"] = e.how;
            if (std::isfinite(mc)) {
                // Twice the error, and the float rounding of a model without any (a few ulp of the energy).
                const double rounding = 1e-9 * std::max(std::abs(*lo), std::abs(*hi));
                const bool within = sd <= 2.0 * mc + rounding;
                j["within_mc_error"] = within;
                text += "; Monte Carlo error " + formatNumber(mc) + " (" + e.how + "): the permutations' spread is " +
                        (within ? "within it" : "larger than it (not invariant)");
            } else {
                text += "; Monte Carlo error " + e.how;
            }
        }
    }
    if (args.has("out")) j["out"] = args.text("out");
    if (args.flag("json")) io.out << j.dump() << "\n";
    else io.out << text << "\n";
    return 0;
}

/// For a molecule whose atoms --swap or --jitter moved: the row's own energy, how far the moved one is
/// from it, and the model's Monte Carlo error (32 draws of its group samples) with whether the move
/// stays within twice it: what an invariant model promises for a swap.
std::string movedAtomsText(const ModelPredictor& predictor, const OneInput& in, double moved, const Args& args, Json& j)
{
    const SavedModel& m = predictor.model();
    const Eigen::MatrixXd rowScores = scoresOfRow(predictor, in.row.data(), in.index);
    const double asInFile = predictor.targets(rowScores).front();
    const double change = moved - asInFile;
    j["row_prediction"] = asInFile;
    j["change"] = change;
    std::string text = "; the row as in the file: " + formatNumber(asInFile) + ", a change of " + formatNumber(change);
    constexpr int kDraws = 32;
    const MonteCarloError e = monteCarloError(predictor, in.row.data(), in.index, kDraws, seedOption(args));
    const double mc = e.sd[0] * m.coding.scale;
    j["mc_error"] = std::isfinite(mc) ? Json(mc) : Json(nullptr);
    j["mc_error_how"] = e.how;
    if (!std::isfinite(mc)) return text + "; Monte Carlo error " + e.how;
    // Twice the error, and the float rounding of a model without any (a few ulp of the energy).
    const double rounding = 1e-9 * std::max(std::abs(moved), std::abs(asInFile));
    const bool within = std::abs(change) <= 2.0 * mc + rounding;
    j["within_mc_error"] = within;
    text += "; Monte Carlo error " + formatNumber(mc) + " (" + e.how + "): the change is " + (within ? "within it" : "larger than it");
    // A swap renumbers the same molecule: an invariant model keeps its energy. A jitter moves the atoms.
    if (!args.has("jitter") && !within) text += " (not invariant)";
    if (args.has("jitter")) text += " (the jitter moved the atoms: the molecule itself changed)";
    return text;
}

} // namespace

int runPredictOne(const Args& args, Io& io)
{
    if (io.ranks.size() > 1) throw SpecError("--model", "predict runs in one process (start it without mpirun)");
    const std::string path = args.required("model");
    if (args.has("sweep")) parseSweep(args.text("sweep"));  // a bad range before any work
    if (args.has("input") && (args.has("swap") || args.has("jitter")))
        throw SpecError(args.has("swap") ? "--swap" : "--jitter", "moves a molecule's atoms, not an image's pixels",
                        args.text(args.has("swap") ? "swap" : "jitter"));
    if (!args.has("input") && !args.has("index"))
        throw SpecError(args.has("sweep") ? "--sweep" : args.has("swap") ? "--swap" : "--jitter", "moves one input: give --data FILE --index I or --input IMAGE", args.text("sweep"));
    const SavedModel model = loadModel(path);
    if (args.has("sweep")) checkSweepInput(parseSweep(args.text("sweep")).parameter, model.map.kind);
    const OneInput in = oneInputOf(args, model, io);
    const ModelPredictor predictor(model, path);
    if (args.has("sweep")) return runSweep(args, io, predictor, in, path);

    double sd = 0.0;
    const Eigen::RowVectorXd s = scoresOfRow(predictor, in.x.data(), in.index, predictor.hasInterval() ? &sd : nullptr);
    const Eigen::MatrixXd scores = s;
    Json j = {{"input", in.what}, {"index", in.index}};
    j["model"] = {{"path", path}, {"features", model.map.features}, {"learner", model.learner}, {"outputs", model.outputs()}};
    std::string text = in.what + " with " + path + ": ";
    std::string csv = "row,prediction";
    std::string line = std::to_string(in.index) + ",";
    if (model.isClassification()) {
        const int top = predictor.classes(scores).front();
        j["prediction"] = model.labelText(top);
        j["scores"] = std::vector<double>(s.data(), s.data() + s.size());
        if (in.truth) j["truth"] = model.labelText(*in.truth);
        text += "class " + model.labelText(top) + " (score " + formatNumber(s[top]) + ")";
        line += model.labelText(top);
        for (int c = 0; c < model.outputs(); ++c) {
            csv += ",score_" + model.labelText(c);
            line += "," + number17(s[c]);
        }
    } else {
        const double v = predictor.targets(scores).front();
        j["prediction"] = v;
        if (in.target) j["target"] = *in.target;
        text += formatNumber(v) + (model.targetUnit.empty() ? "" : " " + model.targetUnit);
        line += number17(v);
        if (predictor.hasInterval()) {  // the model's posterior: value -/+ 2 sd
            j["sd"] = sd;
            j["interval"] = {v - 2 * sd, v + 2 * sd};
            text += " (+/- " + formatNumber(2 * sd) + ", 2 standard deviations)";
            csv += ",lower,upper";
            line += "," + number17(v - 2 * sd) + "," + number17(v + 2 * sd);
        }
        if (!in.row.empty()) text += movedAtomsText(predictor, in, v, args, j);
    }
    if (args.has("out")) {
        std::ofstream out = openOutput("out", args.text("out"));
        out << csv << "\n" << line << "\n";
        closeOutput(out, "out", args.text("out"));
        j["out"] = args.text("out");
    }
    if (args.flag("json")) io.out << j.dump() << "\n";
    else io.out << text << "\n";
    return 0;
}

} // namespace orbit::cli

// orbitlab-cli predict, and train's --save-model: models that outlive the process (docs/cli.md,
// "Saved models"; the file format is core's orbit/models/SavedModel.hpp).
#include "GroupOptions.hpp"
#include "SavedModels.hpp"
#include "TrainJson.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/training/TrainedModel.hpp"
#include "orbit/models/SavedModel.hpp"
#include "orbit/util/Error.hpp"

#include <chrono>
#include <filesystem>
#include <cstdio>
#include <ostream>

namespace orbit::cli {

namespace {

/// The model's column of each row's true class (-1: a class the model never saw), matched by the
/// label: integer labels by value, text labels by the dataset's class name (or its number).
std::vector<int> trueColumns(const SavedModel& m, const Dataset& data)
{
    std::vector<int> columns;
    for (int label : data.labels) {
        int column = -1;
        for (int c = 0; c < m.outputs() && column < 0; ++c) {
            if (!m.textLabels.empty()) {
                const std::string name = std::size_t(label) < data.classNames.size() ? data.classNames[std::size_t(label)]
                                                                                      : std::to_string(label);
                if (m.textLabels[std::size_t(c)] == name) column = c;
            } else if (m.integerLabels[std::size_t(c)] == label) {
                column = c;
            }
        }
        columns.push_back(column);
    }
    return columns;
}

void writePredictions(const std::string& path, const SavedModel& m, const Eigen::MatrixXd& scores,
                      const std::vector<int>& classes, const std::vector<double>& targets)
{
    std::ofstream out = openOutput("out", path);
    out << "row,prediction";
    if (m.isClassification())
        for (int c = 0; c < m.outputs(); ++c) out << ",score_" << m.labelText(c);
    out << "\n";
    char buf[40];
    for (Eigen::Index i = 0; i < scores.rows(); ++i) {
        out << i << ",";
        if (m.isClassification()) {
            out << m.labelText(classes[std::size_t(i)]);
            for (Eigen::Index c = 0; c < scores.cols(); ++c) {
                std::snprintf(buf, sizeof buf, ",%.17g", scores(i, c));
                out << buf;
            }
        } else {
            std::snprintf(buf, sizeof buf, "%.17g", targets[std::size_t(i)]);
            out << buf;
        }
        out << "\n";
    }
    closeOutput(out, "out", path);
}

int runPredict(const Args& args, Io& io)
{
    if (io.ranks.size() > 1) throw SpecError("--model", "predict runs in one process (start it without mpirun)");
    if (args.has("index") || args.has("input") || args.has("sweep") || args.has("swap") || args.has("jitter"))
        return runPredictOne(args, io);
    const std::string path = args.required("model");
    const auto t0 = std::chrono::steady_clock::now();
    const SavedModel model = loadModel(path);
    const Dataset data = preparedData(args);
    checkModelInput(model, data.kind, data.shape, data.source);
    const Progress progress = terminalProgress(io.err, io.progress, "predict");
    const ModelPredictor predictor(model, path, progress);
    const Eigen::MatrixXd scores = predictor.scores(data.X, progress);
    if (io.progress) io.err << "\n";
    std::vector<int> classes;
    std::vector<double> targets;
    if (model.isClassification())
        classes = predictor.classes(scores);
    else
        targets = predictor.targets(scores);
    if (args.has("out")) writePredictions(args.text("out"), model, scores, classes, targets);

    Json j;
    j["rows"] = data.count();
    j["model"] = {{"features", model.map.features}, {"learner", model.learner}, {"outputs", model.outputs()}};
    if (model.isClassification() && data.isClassification()) {
        const std::vector<int> truth = trueColumns(model, data);
        j["metric"] = "accuracy";
        j["score"] = accuracy(classes, truth);
    } else if (!model.isClassification() && data.isRegression()) {
        j["metric"] = "rmse";
        j["score"] = rmse(targets, data.targets);
        j["mae"] = mae(targets, data.targets);
    } else if (data.isClassification() || data.isRegression()) {
        throw SpecError("data", model.isClassification() ? "a classifier cannot score regression targets"
                                                         : "a regression model cannot score class labels",
                        data.source);
    }
    j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (args.has("out")) j["out"] = args.text("out");
    if (args.flag("json")) {
        io.out << j.dump() << "\n";
    } else {
        io.out << data.count() << " rows predicted with " << path << " (" << model.map.features << ", " << model.learner << ")";
        if (j.contains("metric")) io.out << ": " << j["metric"].get<std::string>() << " " << j["score"].get<double>();
        io.out << "\n";
    }
    return 0;
}

} // namespace

Option saveModelOptionSpec()
{
    return {"save-model", "", false, "M.npz",
            "save the first outer split's fitted model (map + learner; krr keeps its training rows' features, "
            "exact:r=R krr and gp the training rows themselves) as a NumPy .npz for `predict` and Python"};
}

void checkSaveModel(const Args& args, const Io& io)
{
    if (!args.has("save-model")) return;
    if (io.ranks.size() > 1)
        throw SpecError("--save-model", "not available under mpirun yet: train in one process to save the model",
                        args.text("save-model"));
}

Json saveTrainedModel(const Args& args, const Dataset& data, const TrainConfig& config, const TrainResult& result, Io& io)
{
    const std::string path = args.text("save-model");
    const SavedModel model = trainedModel(data, config, result, terminalProgress(io.err, io.progress, "saving the model"));
    if (io.progress) io.err << "\n";
    saveModel(path, model);
    Json j = {{"path", path},
              {"features", model.map.features},
              {"learner", model.learner},
              {"chosen", model.chosen},
              {"train_rows", model.trainRows},
              {"dims", model.dim},
              {"bytes", std::filesystem::file_size(path)}};
    if (model.hasSupport()) j["support_rows"] = model.support.rows();
    j["size"] = modelFileSize(model, j["bytes"].get<std::uintmax_t>());
    return j;
}

void printSavedModel(std::ostream& out, const Json& saved)
{
    out << "model of the first split (" << saved["chosen"].get<std::string>() << ") saved to " << saved["path"].get<std::string>()
        << ", " << saved["size"].get<std::string>() << "\n";
}

Command predictCommand()
{
    std::vector<Option> options;
    options.push_back({"model", "", false, "M.npz", "the saved model (train --save-model, or Python's save_model)"});
    for (const auto& o : dataOptions())
        options.push_back(o.name == "index" ? Option{"index", "", false, "I",
                                                     "predict row I alone (0-based, after --n and the other preparation); "
                                                     "with --input, the row whose group-sample stream the image uses (default 0)"}
                                            : o);
    for (const auto& o : recipeOptions()) options.push_back(o);
    options.push_back({"input", "", false, "IMAGE", "predict this image instead of a data row (made grey and scaled to the "
                                                    "model's input shape as the loader reads images; a note says so)"});
    options.push_back({"sweep", "", false, "NAME:FROM:TO:COUNT",
                       "move the one input over COUNT >= 2 values of rotation (degrees), translation-x, translation-y "
                       "(pixels), scale (factor) or permutation (molecules: 0 as it is, k >= 1 the k-th seeded shuffle "
                       "of its atoms) and predict each"});
    options.push_back({"swap", "", false, "I,J",
                       "molecules: exchange atoms I and J (0-based, in the file's order) of row --index before "
                       "predicting; the energy is printed next to the row's own and the model's Monte Carlo error"});
    options.push_back({"jitter", "", false, "SIGMA",
                       "molecules with positions (extended XYZ): move every atom coordinate of row --index by SIGMA "
                       "Angstrom times a seeded normal and recompute its Coulomb matrix before predicting"});
    options.push_back({"out", "o", false, "P.csv", "write row,prediction (and score_CLASS per class) for every row; with "
                                                   "--sweep t and score_CLASS per class, or t,value[,lower,upper]"});
    return {"predict",
            "predict every row of a dataset with a saved model, and score it when the data have labels",
            "predict --model M.npz --data FILE [--format F] [--n N --rotate ...] [--index I | --input IMAGE] "
            "[--swap I,J] [--jitter SIGMA] [--sweep NAME:FROM:TO:COUNT] [--out P.csv] [--json]",
            "The model's map is rebuilt from the file (its spec, seed and kept rows: the same features as when it\n"
            "was trained) and its learner predicts every row (linear, or krr against its saved training rows).\n"
            "An exact kernel machine (exact:r=R, krr or gp) has no map: row j of the data draws its group samples\n"
            "from the model's seed at sub-stream F + j, F where the run's test rows began (0, or the training\n"
            "file's rows with --test-data), so the run's own test rows get its predictions to the bit.\n"
            "Data of another shape than the model was trained on are refused, and so is a file written by a\n"
            "newer Orbit Lab, or one cut short or altered (each array's CRC-32 is checked).\n"
            "--json prints {rows, model {features, learner, outputs}, metric and score (accuracy, or rmse with\n"
            "mae) when the data have labels or targets, seconds, out}. The CSV's numbers round-trip (17 digits).\n"
            "--index I (or --input IMAGE) predicts one input in one call: the bits a sweep gives at the identity.\n"
            "--sweep moves it with the group registry's action (rotation 0..360: rotation:0:360:73) and prints\n"
            "where the top class changes; for a regression model and permutation, the energy's spread next to\n"
            "the model's Monte Carlo error (its standard deviation over 32 draws of its group samples).\n"
            "--swap I,J and --jitter SIGMA move a molecule's atoms first (a sweep then moves the moved molecule);\n"
            "without --sweep a regression model's answer is printed next to the row's own and its Monte Carlo\n"
            "error, and whether the change stays within twice it (what an invariant model promises for a swap).\n",
            options,
            runPredict};
}

} // namespace orbit::cli

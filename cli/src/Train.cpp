// orbitlab-cli train: fit and evaluate a learner on feature maps (docs/cli.md).
#include "GroupOptions.hpp"
#include "ManyProcesses.hpp"
#include "SavedModels.hpp"
#include "TrainJson.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/locality/PerClassLocality.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/training/InputRows.hpp"
#include "orbit/figures/TrainingSummary.hpp"
#include "orbit/training/TrainSettings.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <ostream>

namespace orbit::cli {

namespace {

/// train --dist-per-class: the per-class model (each class its own distribution; blr by default,
/// or one-vs-rest ridge or svm with the grid chosen as without it).
int runTrainPerClass(const Args& args, TrainConfig c, Io& io)
{
    if (!args.has("learner")) c.learner = "blr";
    if (args.has("save-model")) throw SpecError("--save-model", "saves one distribution's model, not a per-class one", args.text("save-model"));
    if (trim(c.group).empty() || trim(c.dist).empty())
        throw SpecError(trim(c.group).empty() ? "--group" : "--dist", "is needed with --dist-per-class (the default distribution)");
    Dataset ds = preparedData(args);  // every rank fits every class (one-process code, the same bits)
    if (args.has("test-data")) {
        c.testFrom = ds.count();
        ds = ds.followedBy(preparedTestData(args));
    }
    if (!ds.isClassification())
        throw SpecError("--dist-per-class", "needs class labels: regression targets have no classes", args.text("dist-per-class"));
    const ClassDistributions dists = ClassDistributions::parse(args.text("dist-per-class"), c.dist, ds.numClasses);
    dists.check(*makeGroup(c.group, ds.shape, c.seed));
    const TrainResult r = trainPerClass(ds, c, dists, terminalProgress(io.err, io.progress, "train"));
    if (io.progress) io.err << "\n";
    if (args.flag("json")) {
        Json j = trainResultJson(r);
        j["dist_per_class"] = dists.text();
        Json classes = Json::array();
        for (int k = 0; k < ds.numClasses; ++k) {  // each class's recall: its row of the confusion matrix
            const int rows = r.confusion.row(k).sum();
            Json one = {{"class", k}, {"dist", dists.of(k)}, {"test_rows", rows}};
            one["test"] = rows > 0 ? Json(double(r.confusion(k, k)) / double(rows)) : Json(nullptr);
            classes.push_back(one);
        }
        j["per_class"] = classes;
        j["n"] = ds.count();
        if (c.testFrom > 0) j["n_test"] = ds.count() - c.testFrom;
        io.out << j.dump() << "\n";
    } else {
        io.out << "per-class distributions: " << dists.text() << "; the other classes " << dists.fallback << "\n";
        printTrainResult(io.out, r);
    }
    return 0;
}

int runTrain(const Args& args, Io& io)
{
    TrainConfig c;
    for (const TrainSetting& setting : trainSettings())  // orbit/training/TrainSettings.hpp
        if (args.has(setting.flag)) applySetting(c, setting, args.text(setting.flag));
    if (args.has("test-data") && args.has("eval"))
        throw SpecError("--eval", "not used with --test-data (that file is the test set)", args.text("eval"));
    c.validate();  // bad options fail before the data is loaded
    if (args.has("dist-per-class")) return runTrainPerClass(args, c, io);
    checkSaveModel(args, io);
    if (args.has("save-model") && c.mean != "constant")  // refused before the run, not after it
        throw SpecError("--save-model", "a model with the composition mean is not saved yet: save one with --mean constant",
                        args.text("save-model"));
    if (args.has("save-model") && isExactKernelSpec(c.features) && parseExactKernelSpec(c.features).centres > 0)
        throw SpecError("--save-model", "a model of the m-centre solver (exact:r=R,centres=M) is not saved yet: save the n x n "
                                        "solve (exact:r=R) instead",
                        args.text("save-model"));
    // Many ranks read in two passes: the labels (no row decoded) say which rows this rank's part of
    // the run needs (trainingInputRows), then only those rows are read.
    std::optional<std::vector<char>> rows;
    if (io.ranks.size() > 1) {
        const std::vector<char> none;
        Dataset labels = preparedData(args, &none);
        if (args.has("test-data")) {
            c.testFrom = labels.count();
            labels = labels.followedBy(preparedTestData(args, &none));
        }
        rows = trainingInputRows(labels, c, io.ranks);
    }
    const std::vector<char>* trainRowsWanted = nullptr;
    std::vector<char> trainPart, testPart;
    if (rows && !rows->empty()) {
        const std::size_t cut = c.testFrom > 0 ? c.testFrom : rows->size();
        trainPart.assign(rows->begin(), rows->begin() + std::ptrdiff_t(cut));
        testPart.assign(rows->begin() + std::ptrdiff_t(cut), rows->end());
        trainRowsWanted = &trainPart;
    }
    Dataset ds = preparedData(args, trainRowsWanted);
    const std::size_t trainRows = ds.count();
    if (args.has("test-data")) {
        ds = ds.followedBy(preparedTestData(args, trainRowsWanted ? &testPart : nullptr));
        c.testFrom = trainRows;
    }
    const TrainResult r = train(ds, c, terminalProgress(io.err, io.progress, "train"), io.ranks);
    if (io.progress) io.err << "\n";
    const Json saved = args.has("save-model") ? saveTrainedModel(args, ds, c, r, io) : Json();
    if (args.flag("json")) {
        Json j = trainResultJson(r);
        if (!saved.is_null()) j["saved_model"] = saved;
        j["n"] = ds.count();
        j["input_rows_held"] = static_cast<long long>(io.ranks.maximum(double(ds.heldCount())));
        j["rank_counters"] = rankCountersJson(io.ranks);
        if (c.testFrom > 0) j["n_test"] = ds.count() - c.testFrom;
        // The Training panel's summary row and score chart (orbit/figures/TrainingSummary.hpp).
        const FoldSummary f = summarizeFolds(r);
        Json summary;
        summary["folds"] = f.folds;
        summary["score"] = {{"mean", f.score.mean}, {"std", f.score.sd}};
        if (f.hasMae) summary["mae"] = {{"mean", f.mae.mean}, {"std", f.mae.sd}};
        if (f.hasEvidence) summary["log_evidence"] = {{"mean", f.logEvidence.mean}, {"std", f.logEvidence.sd}};
        summary["seconds"] = f.seconds;
        j["fold_summary"] = std::move(summary);
        const AxisCurve curve = curveAlong(r, chooseMainAxis(r, args.text("curve-axis")));
        Json cj;
        cj["axis"] = curve.axis;
        cj["x"] = curve.x;
        cj["validation"] = curve.validation;
        Json evidence = Json::array();
        for (double v : curve.logEvidence) evidence.push_back(std::isfinite(v) ? Json(v) : Json(nullptr));
        cj["log_evidence"] = std::move(evidence);
        j["curve"] = std::move(cj);
        io.out << j.dump() << "\n";
    } else {
        printTrainResult(io.out, r);
        if (!saved.is_null()) printSavedModel(io.out, saved);
    }
    return 0;
}

} // namespace

Command trainCommand()
{
    std::vector<Option> options;
    for (const auto& o : dataOptions())
        if (o.name != "index") options.push_back(o);
    for (const auto& o : groupOptions()) options.push_back(o);
    // The training settings' table (orbit/training/TrainSettings.hpp), less the ones every command
    // or the group options already take (--group, --dist, --seed).
    const auto taken = [&](const std::string& name) {
        const auto named = [&](const Option& o) { return o.name == name; };
        return std::any_of(options.begin(), options.end(), named) ||
               std::any_of(commonOptions().begin(), commonOptions().end(), named);
    };
    for (const TrainSetting& s : trainSettings())
        if (!taken(s.flag)) options.push_back({s.flag, "", false, s.valueName, s.help});
    for (const auto& o : recipeOptions()) options.push_back(o);
    options.push_back({"test-data", "", false, "FILE",
                       "a separate test set (same --format, prepared as --data but whole, with angles of its own); "
                       "trains once on all of --data and scores on it, instead of --eval"});
    options.push_back(saveModelOptionSpec());
    options.push_back({"dist-per-class", "", false, "C=SPEC[;C=SPEC...]",
                       "a distribution per class, by label (--dist for the others): the per-class model (blr, ridge or svm)"});
    options.push_back({"curve-axis", "", false, "AXIS",
                       "--json `curve`: the grid axis of the score curve (default: lambda, C or median when it has "
                       "several values, else the first axis with several)"});
    return {"train",
            "fit and evaluate a learner with a grid search on inner validation splits",
            "train --data FILE --features F [--group G --dist D] [--kernel K] --learner " + learnerNames() + " --eval " +
                evaluationNames() + " [--grid AXES] [--n N] [--rotate [--pad 28]] [--test-data FILE] [--learning-curve a,b] [--json]",
            "For every outer split (--eval) the grid is searched on an inner validation split of the training\n"
            "part; the learner is refitted at the best point on the whole training part and scored on the test\n"
            "part (accuracy for classes, RMSE and MAE for targets).\n\n"
            "--grid syntax: axes separated by ';', each name=v1,v2,... Axis names:\n"
            "  lambda      ridge / krr strength (scored in one batch per feature point)\n"
            "  C           svm cost\n"
            "  median      Gaussian bandwidth as a multiple of the median pairwise input distance\n"
            "  bandwidth   absolute Gaussian bandwidth\n"
            "  KEY         any --dist parameter, e.g. kappa (vonmises) or sigma (noisysort); features are\n"
            "              recomputed for every value\n"
            "Missing axes get the learner's defaults (below) and median=0.5,1,2 when no --kernel is given\n"
            "and the features use one; blr maximises its evidence instead.\n"
            "--json adds the Training panel's numbers: `fold_summary` {folds, score, mae, log_evidence: {mean,\n"
            "std} (population std over the folds), seconds (mean per fold)} and `curve` {axis, x, validation,\n"
            "log_evidence}: along one grid axis, the best validation score over the other axes and the\n"
            "largest log evidence (null without blr). It also gives `ranks`, `stage_seconds` {features,\n"
            "products, reduction, solve} on the slowest rank, `rank_stage_seconds` the same for every rank in\n"
            "rank order (a rank that finishes early waits in the next collective stage), `rank_counters`\n"
            "[{rank, bytes_sent, bytes_received, wait_seconds}] (every rank's MPI traffic, below), and\n"
            "`product_rows`:\n"
            "the training rows whose products were computed (a fold's inner and outer fits of ridge and blr\n"
            "share per-cell sums, so each of its rows counts once; a k-fold run shares the outer test sets'\n"
            "sums across its folds and subtracts the inner validation sets', so a row counts once plus once\n"
            "per validation set), and\n"
            "`feature_rows_held`: the most feature rows one rank held (about N / P when ridge or blr fit only\n"
            "in the primal, so the rows stay spread over the ranks; N when they are gathered), and\n"
            "`input_rows_held`: the most input rows one rank read (N with one process).\n\n"
            "--dist-per-class \"6=vonmises:kappa=8;9=vonmises:kappa=8\" fits the per-class model: class c\n"
            "scores f_c(x) = phi_c(x)^T w_c with the features of its own distribution (the classes not named\n"
            "take --dist; the same templates and base noise for all, as `learn --per-class` draws them); the\n"
            "class is the argmax. The learner (default blr here):\n"
            "  blr         each class its own Bayesian linear regression, precisions at their evidence\n"
            "              optimum; no grid is searched; the kernel is --kernel or gaussian:median=1\n"
            "  ridge, svm  one-vs-rest, each class's column fitted on its own features; lambda or C, and\n"
            "              median or bandwidth, chosen for all classes as without --dist-per-class (--eval,\n"
            "              --grid, --validation, --inner-folds); no distribution axis in --grid\n"
            "`learn --per-class` prints the line to paste. --json adds `dist_per_class` and `per_class`\n"
            "[{class, dist, test, test_rows}] (each class's recall on the test parts).\n\n" +
                manyProcessesHelp() + learnerHelp() + "\n" + featureMapHelp() + "\n" + kernelHelp() + groupSpecHelp(),
            options,
            runTrain};
}

} // namespace orbit::cli

// orbitlab-cli learn / evidence: learning the locality by the evidence, and the common-random-number
// evidence curve it climbs (docs/cli.md).
#include "GroupOptions.hpp"
#include "LearnGp.hpp"
#include "ManyProcesses.hpp"
#include "TrainJson.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/locality/LocalityLearning.hpp"
#include "orbit/locality/PerClassLocality.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ReadableNumber.hpp"
#include "orbit/util/Spec.hpp"

#include <fstream>
#include <iomanip>
#include <ostream>

namespace orbit::cli {

namespace {

std::vector<std::string> parameterList(const std::string& text)
{
    std::vector<std::string> names;
    for (const std::string& p : split(text, ',')) {
        const std::string t = trim(p);
        if (t.empty()) throw SpecError("--learn", "an empty parameter name", text);
        names.push_back(t);
    }
    return names;
}

/// --bounds P=LO:HI[;P=LO:HI...]
std::map<std::string, std::pair<double, double>> boundsList(const std::string& text)
{
    std::map<std::string, std::pair<double, double>> out;
    if (trim(text).empty()) return out;
    for (const std::string& part : split(text, ';')) {
        const auto eq = part.find('=');
        const auto parts = eq == std::string::npos ? std::vector<std::string>{} : split(part.substr(eq + 1), ':');
        const auto lo = parts.size() == 2 ? parseDouble(parts[0]) : std::nullopt;
        const auto hi = parts.size() == 2 ? parseDouble(parts[1]) : std::nullopt;
        if (!lo || !hi) throw SpecError("--bounds", "expected NAME=LO:HI (several separated by ';')", part);
        out[trim(part.substr(0, eq))] = {*lo, *hi};
    }
    return out;
}

LocalityConfig configOf(const Args& args)
{
    LocalityConfig c;
    c.features = args.text("features", c.features);
    c.group = args.required("group");
    c.dist = args.required("dist");
    c.kernel = args.text("kernel", c.kernel);
    c.mean = args.text("mean", c.mean);
    c.eval = args.text("eval");
    c.seed = seedOption(args);
    c.maxEvaluations = int(args.integer("max-evals", c.maxEvaluations, 1, 100000));
    const std::string precision = args.text("precision", "float");
    if (precision != "float" && precision != "double") throw SpecError("--precision", "must be float or double", precision);
    c.doublePrecision = precision == "double";
    c.blockRows = blockRowsOption(args);
    return c;
}

Json pointJson(const EvidencePoint& p)
{
    Json params = Json::object();
    for (const auto& [k, v] : p.params) params[k] = v;
    Json j = {{"params", params}, {"log_evidence", p.logEvidence}, {"stage", p.stage}};
    if (!p.gradient.empty()) j["gradient"] = p.gradient;
    return j;
}

/// --data as `learn` and `evidence` read it: on many ranks in two passes (the labels, then only
/// the rows this rank's blocks and the median sample need: localityInputRows).
Dataset localityData(const Args& args, const LocalityConfig& c, const Ranks& ranks)
{
    if (ranks.size() == 1) return preparedData(args);
    const std::vector<char> none;
    const std::vector<char> rows = localityInputRows(preparedData(args, &none), c, ranks);
    return preparedData(args, rows.empty() ? nullptr : &rows);
}

/// The most input rows one rank read.
long long inputRowsHeld(const Dataset& data, const Ranks& ranks) { return static_cast<long long>(ranks.maximum(double(data.heldCount()))); }

/// The learned distributions as `train --dist-per-class` takes them.
std::string perClassText(const PerClassResult& r)
{
    ClassDistributions d;
    for (const ClassLocality& k : r.classes) d.named[k.label] = k.dist;
    return d.text();
}

/// learn --per-class: every class's locality, and the single one beside it.
int runPerClass(const Args& args, const LocalityConfig& c, Io& io)
{
    const Dataset data = preparedData(args);  // every class is learned whole by one rank: every row
    const PerClassResult r = learnPerClass(data, c, terminalProgress(io.err, io.progress, "learn"), {}, io.ranks);
    if (io.progress) io.err << "\n";
    const auto paramsJson = [](const std::map<std::string, double>& values) {
        Json params = Json::object();
        for (const auto& [k, v] : values) params[k] = v;
        return params;
    };
    if (args.flag("json")) {
        Json classes = Json::array();
        for (const ClassLocality& k : r.classes) {
            Json j = {{"class", k.label}, {"params", paramsJson(k.learned)}, {"dist", k.dist}, {"log_evidence", k.logEvidence},
                      {"log_evidence_at_global", k.globalLogEvidence}, {"evaluations", k.evaluations},
                      {"converged", k.converged}, {"kept_global", k.keptGlobal}};
            if (k.windowDegrees) j["window_degrees"] = *k.windowDegrees;
            if (k.test) {
                j["test"] = *k.test;
                j["test_rows"] = k.testRows;
            }
            classes.push_back(j);
        }
        Json global = {{"params", paramsJson(r.global.learned)}, {"dist", r.global.dist}, {"log_evidence", r.global.logEvidence},
                       {"log_evidence_per_class", r.globalPerClassEvidence}, {"evaluations", r.global.trajectory.size()}};
        if (r.global.test) global["test"] = *r.global.test;
        if (r.globalWindowDegrees) global["window_degrees"] = *r.globalWindowDegrees;
        Json j = {{"per_class", classes}, {"dist_per_class", perClassText(r)}, {"log_evidence", r.logEvidence}, {"global", global}, {"train_rows", r.trainRows},
                  {"seconds", r.seconds}, {"ranks", r.ranks}, {"rank_counters", rankCountersJson(io.ranks)}};
        if (r.test) {
            j["metric"] = r.metric;
            j["test"] = *r.test;
            j["test_rows"] = r.testRows.size();
        }
        io.out << j.dump() << "\n";
        return 0;
    }
    io.out << "learned per class (" << r.classes.size() << " classes, " << r.trainRows << " training rows, "
           << readableNumber(r.seconds, 3) << " s):\n";
    for (const ClassLocality& k : r.classes) {
        io.out << "  class " << k.label << ": " << readableParameters(k.learned) << (k.keptGlobal ? " (the global value)" : "");
        if (k.windowDegrees) io.out << " (95% window " << readableNumber(*k.windowDegrees, 3) << " degrees)";
        io.out << ", log evidence "
               << readableNumber(k.logEvidence, 7);
        if (k.test) io.out << ", held-out recall " << readableNumber(*k.test, 4) << " (" << k.testRows << " rows)";
        io.out << "\n";
    }
    io.out << "  --dist-per-class \"" << perClassText(r) << "\"\n";
    io.out << "  log evidence " << readableNumber(r.logEvidence, 8) << " per class, " << readableNumber(r.globalPerClassEvidence, 8)
           << " with one " << readableParameters(r.global.learned) << " for every class (precisions per class in both)\n";
    if (r.test)
        io.out << "  test accuracy " << readableNumber(*r.test, 4) << " per class, " << readableNumber(r.global.test.value_or(0.0), 4)
               << " with one locality (" << r.testRows.size() << " rows)\n";
    return 0;
}

namespace {

/// The --learner of learn and evidence: one that reports its log evidence (the registry's
/// logEvidence), blr by default; a Gaussian process is learned by its marginal likelihood.
const LearnerDescriptor& evidenceLearner(const Args& args, const std::string& command)
{
    const std::string name = args.text("learner", "blr");
    const LearnerDescriptor* l = findLearner(name);
    if (!l || !l->logEvidence)
        throw SpecError("--learner", command + "'s learners are " +
                                         learnerList([](const LearnerDescriptor& d) { return d.logEvidence; }), name);
    return *l;
}

} // namespace

int runLearn(const Args& args, Io& io)
{
    LocalityConfig c = configOf(args);
    c.learn = parameterList(args.required("learn"));
    c.bounds = boundsList(args.text("bounds"));
    if (evidenceLearner(args, "learn").gaussianProcess) {
        if (!args.has("kernel")) c.kernel = "gaussian:median=1";
        return runLearnGp(args, c, io);
    }
    if (isExactKernelSpec(c.features))
        throw SpecError("--features", "exact:r=R is learned by the GP's marginal likelihood: add --learner gp", c.features);
    if (c.mean != "constant")
        throw SpecError("--mean", "is the exact GP's mean function: add --learner gp (with --features exact:r=R)", c.mean);
    c.validate();
    if (args.flag("per-class")) return runPerClass(args, c, io);
    // A learn per fold reads every fold's rows: each rank then holds every row.
    const bool perFold = !c.eval.empty() && parseEvaluation(c.eval, "--eval").kind != EvaluationKind::HoldOut;
    const Dataset data = perFold ? preparedData(args) : localityData(args, c, io.ranks);
    const long long inputRows = inputRowsHeld(data, io.ranks);
    // --eval kfold:K (or the dataset's folds): a learn inside each training fold, scored on its test
    // part; the first fold's learn gives the top-level fields, as one split's learn does.
    std::vector<LearnResult> folds;
    const Evaluation evaluation = c.eval.empty() ? Evaluation{} : parseEvaluation(c.eval, "--eval");
    TrainConfig splits;
    splits.eval = c.eval;
    splits.seed = c.seed;
    const int foldCount = c.eval.empty() || evaluation.kind == EvaluationKind::HoldOut ? 1 : int(outerSplits(data, splits).size());
    for (int k = 0; k < foldCount; ++k) {
        LocalityConfig fc = c;
        fc.fold = k;
        folds.push_back(learnLocality(data, fc, terminalProgress(io.err, io.progress, foldCount > 1 ? "learn fold " + std::to_string(k + 1) : "learn"),
                                      {}, io.ranks));
    }
    const LearnResult& r = folds.front();
    if (io.progress) io.err << "\n";
    Json foldsJson = Json::array();
    std::vector<double> scores, maes;
    for (const LearnResult& f : folds) {
        Json params = Json::object();
        for (const auto& [k, v] : f.learned) params[k] = v;
        Json j = {{"params", params}, {"dist", f.dist}, {"log_evidence", f.logEvidence}, {"evaluations", f.trajectory.size()},
                  {"train_rows", f.trainRows}, {"test_rows", f.testRows}, {"seconds", f.seconds}};
        if (f.test) {
            j["test"] = *f.test;
            j[f.metric] = *f.test;
            scores.push_back(*f.test);
        }
        if (f.testMae) {
            j["mae"] = *f.testMae;
            maes.push_back(*f.testMae);
        }
        foldsJson.push_back(j);
    }
    if (args.flag("json")) {
        Json params = Json::object(), bounds = Json::object(), trajectory = Json::array();
        for (const auto& [k, v] : r.learned) params[k] = v;
        for (const auto& [k, b] : r.bounds) bounds[k] = {b.first, b.second};
        for (const EvidencePoint& p : r.trajectory) trajectory.push_back(pointJson(p));
        Json j = {{"params", params},         {"dist", r.dist},         {"log_evidence", r.logEvidence},
                  {"evaluations", r.trajectory.size()}, {"method", r.method}, {"bounds", bounds},
                  {"trajectory", trajectory}, {"train_rows", r.trainRows}, {"seconds", r.seconds},
                  {"ranks", r.ranks}, {"stage_seconds", stageSecondsJson(r.stages)},
                  {"feature_rows_held", r.stages.heldRows}, {"input_rows_held", inputRows}};
        j["rank_counters"] = rankCountersJson(io.ranks);
        j["converged"] = r.converged;
        Json pilots = Json::array();
        for (const PilotLevel& level : r.pilots) {
            Json points = Json::array();
            for (const EvidencePoint& p : level.trajectory) points.push_back(pointJson(p));
            pilots.push_back({{"rows", level.rows}, {"templates", level.templates}, {"evaluations", level.trajectory.size()},
                              {"trajectory", points}});
        }
        j["pilots"] = pilots;
        if (r.test) {
            j["metric"] = r.metric;
            j["test"] = *r.test;
            j["test_rows"] = r.testRows;
        }
        if (!scores.empty()) {
            j["folds"] = foldsJson;
            j["mean"] = mean(scores);
            j["stddev"] = standardDeviation(scores);
            if (!maes.empty()) {
                j["rmse"] = mean(scores);
                j["mae"] = mean(maes);
            }
        }
        io.out << j.dump() << "\n";
        return 0;
    }
    if (folds.size() > 1)
        for (std::size_t k = 0; k < folds.size(); ++k)
            io.out << "fold " << k + 1 << ": " << readableParameters(folds[k].learned) << ", test " << folds[k].metric << " "
                   << readableNumber(folds[k].test.value_or(0.0), 6) << "\n";
    if (folds.size() > 1 && !scores.empty())
        io.out << "mean " << r.metric << " " << readableNumber(mean(scores), 6) << " +- " << readableNumber(standardDeviation(scores), 4)
               << (maes.empty() ? std::string() : ", mae " + readableNumber(mean(maes), 6)) << " over " << folds.size() << " folds\n";
    std::size_t pilotEvaluations = 0;
    for (const PilotLevel& level : r.pilots) pilotEvaluations += level.trajectory.size();
    io.out << "learned " << readableParameters(r.learned) << " (" << r.method << ", " << r.trajectory.size()
           << " evaluations at full size";
    if (!r.pilots.empty()) io.out << " after " << pilotEvaluations << " on " << r.pilots.size() << (r.pilots.size() == 1 ? " pilot" : " pilots");
    io.out << (r.converged ? ", converged" : ", budget spent") << "; " << r.trainRows << " training rows, "
           << readableNumber(r.seconds, 3) << " s)\n";
    io.out << "  --dist " << r.dist << "\n  log evidence " << readableNumber(r.logEvidence, 8) << "\n";
    if (r.test) io.out << "  test " << r.metric << " " << readableNumber(*r.test, 6) << " (" << r.testRows << " rows)\n";
    return 0;
}

int runEvidence(const Args& args, Io& io)
{
    LocalityConfig c = configOf(args);
    const std::vector<std::string> params = parameterList(args.required("param"));
    if (params.size() > 2) throw SpecError("--param", "one parameter (a curve) or two (a surface)", args.text("param"));
    if (args.flag("per-class") && params.size() != 1)
        throw SpecError("--per-class", "draws one curve per class over one parameter, not a surface", args.text("param"));
    const std::vector<std::string> lists = split(args.required("values"), ';');
    if (lists.size() != params.size())
        throw SpecError("--values", "needs one list per parameter, separated by ';'", args.text("values"));
    std::vector<std::vector<double>> values;
    for (const std::string& l : lists) values.push_back(parseValueList(l));
    if (evidenceLearner(args, "evidence").gaussianProcess) return runEvidenceGp(args, c, params, values.front(), io);
    {
        LocalityConfig check = c;
        check.learn = params;
        check.validate();
    }
    const Dataset data = localityData(args, c, io.ranks);
    const long long inputRows = inputRowsHeld(data, io.ranks);
    const Progress progress = terminalProgress(io.err, io.progress, "evidence");
    std::ofstream csv;
    if (args.has("csv") && io.ranks.isRoot()) {
        csv.open(args.text("csv"));
        if (!csv) throw SpecError("--csv", "cannot write the file", args.text("csv"));
        csv << std::setprecision(17);
    }
    if (params.size() == 2) {
        const EvidenceSurface surface = evidenceSurface(data, c, params[0], values[0], params[1], values[1], progress, {}, io.ranks);
        if (io.progress) io.err << "\n";
        Json rows = Json::array();
        for (Eigen::Index i = 0; i < surface.logEvidence.rows(); ++i) {
            Json row = Json::array();
            for (Eigen::Index j = 0; j < surface.logEvidence.cols(); ++j) row.push_back(surface.logEvidence(i, j));
            rows.push_back(row);
        }
        if (csv.is_open()) {
            csv << params[0] << "," << params[1] << ",log_evidence\n";
            for (std::size_t i = 0; i < surface.xValues.size(); ++i)
                for (std::size_t j = 0; j < surface.yValues.size(); ++j)
                    csv << surface.xValues[i] << "," << surface.yValues[j] << "," << surface.logEvidence(Eigen::Index(i), Eigen::Index(j)) << "\n";
        }
        if (args.flag("json")) {
            io.out << Json{{"param", params}, {"values", {surface.xValues, surface.yValues}}, {"log_evidence", rows},
                           {"train_rows", surface.trainRows}, {"seconds", surface.seconds}, {"ranks", surface.ranks},
                           {"stage_seconds", stageSecondsJson(surface.stages)}, {"feature_rows_held", surface.stages.heldRows},
                           {"input_rows_held", inputRows}, {"rank_counters", rankCountersJson(io.ranks)}}
                          .dump()
                   << "\n";
            return 0;
        }
        io.out << params[0] << " \\ " << params[1];
        for (double y : surface.yValues) io.out << "\t" << readableNumber(y);
        io.out << "\n";
        for (std::size_t i = 0; i < surface.xValues.size(); ++i) {
            io.out << readableNumber(surface.xValues[i]);
            for (std::size_t j = 0; j < surface.yValues.size(); ++j)
                io.out << "\t" << readableNumber(surface.logEvidence(Eigen::Index(i), Eigen::Index(j)), 8);
            io.out << "\n";
        }
        return 0;
    }
    const bool perClass = args.flag("per-class");
    if (perClass && !data.isClassification())
        throw SpecError("--per-class", "needs class labels: regression targets have no classes", args.text("data"));
    const EvidenceCurve curve = perClass ? evidenceCurvePerClass(data, c, params[0], values[0], progress, io.ranks)
                                         : evidenceCurve(data, c, params[0], values[0], progress, {}, io.ranks);
    if (io.progress) io.err << "\n";
    const Eigen::Index classes = curve.classLogEvidence.cols();
    if (csv.is_open()) {
        csv << "value,log_evidence";
        for (Eigen::Index k = 0; k < classes; ++k) csv << ",class_" << k;
        csv << "\n";
        for (std::size_t i = 0; i < curve.values.size(); ++i) {
            csv << curve.values[i] << "," << curve.logEvidence[i];
            for (Eigen::Index k = 0; k < classes; ++k) csv << "," << curve.classLogEvidence(Eigen::Index(i), k);
            csv << "\n";
        }
    }
    if (csv.is_open() && !csv) throw SpecError("--csv", "writing failed", args.text("csv"));
    if (args.flag("json")) {
        Json j = {{"param", curve.param}, {"values", curve.values}, {"log_evidence", curve.logEvidence},
                  {"train_rows", curve.trainRows}, {"seconds", curve.seconds}, {"ranks", curve.ranks},
                  {"stage_seconds", stageSecondsJson(curve.stages)}, {"feature_rows_held", curve.stages.heldRows},
                  {"input_rows_held", inputRows}, {"rank_counters", rankCountersJson(io.ranks)}};
        if (perClass) {
            Json each = Json::array();
            for (Eigen::Index k = 0; k < classes; ++k) {
                const Eigen::VectorXd col = curve.classLogEvidence.col(k);
                each.push_back({{"class", k}, {"log_evidence", std::vector<double>(col.data(), col.data() + col.size())}});
            }
            j["per_class"] = each;
        }
        io.out << j.dump() << "\n";
        return 0;
    }
    io.out << curve.param << "\tlog evidence";
    for (Eigen::Index k = 0; k < classes; ++k) io.out << "\tclass " << k;
    io.out << "\n";
    for (std::size_t i = 0; i < curve.values.size(); ++i) {
        io.out << readableNumber(curve.values[i]) << "\t" << readableNumber(curve.logEvidence[i], 8);
        for (Eigen::Index k = 0; k < classes; ++k) io.out << "\t" << readableNumber(curve.classLogEvidence(Eigen::Index(i), k), 7);
        io.out << "\n";
    }
    return 0;
}

std::vector<Option> sharedOptions()
{
    std::vector<Option> options;
    for (const auto& o : dataOptions())
        if (o.name != "index") options.push_back(o);
    for (const auto& o : groupOptions()) options.push_back(o);
    options.push_back({"features", "", false, "SPEC", "feature map (default irf:s=1000,r=32,mode=data: own group samples per input); irf has gradients"});
    options.push_back({"kernel", "", false, "SPEC", "base kernel, kept fixed (default gaussian:median=1)"});
    options.push_back({"mean", "", false, "constant|composition",
                       "--learner gp's mean function: the training targets' mean (default), or linear in each "
                       "element's number of atoms, fitted on each fold's training rows (molecules)"});
    options.push_back({"eval", "", false, "holdout:FRAC|kfold:K", "learn on the training part of the first split only"});
    for (const auto& o : recipeOptions()) options.push_back(o);
    options.push_back({"precision", "", false, "float|double", "features and evidence in float (default) or double (2x slower)"});
    options.push_back(blockRowsOptionSpec());
    return options;
}

const char* kParameterHelp =
    "Parameters are the keys of the --dist spec: kappa (vonmises), a (uniform), sigma (gaussian,\n"
    "noisysort, lognormal), mu (lognormal); for affine, factor.key: rotation.kappa, rotation.a,\n"
    "translation.sigma, translation.a, scale.mu, scale.sigma. Start values come from --dist.\n"
    "Every group element is a deterministic function of fixed base noise and the parameters (common\n"
    "random numbers: theta = a(2u-1), theta = F^-1(u; kappa), t = sigma eps, s = exp(mu + sigma eps)),\n"
    "and the templates are those `train` draws with the same --seed, so the evidence is a smooth\n"
    "function of the parameters and `learn` and `evidence` with the same --seed see the same curve.\n"
    "The evidence is that of Bayesian linear regression on the features (one-hot classes or\n"
    "standardised targets), maximised over its prior and noise precisions.\n"
    "Noisy sort's sigma changes the sorted order in jumps: its curve is piecewise constant.\n"
    "The default features give every input its own group samples (irf mode=data): with one set shared\n"
    "by all inputs (mode=templates, faster for training) the evidence carries a 1/r bias and\n"
    "over-estimates windows (digits rotated by up to 45 degrees: 93 shared, 49 own; docs/results.md).\n";

} // namespace

Command learnCommand()
{
    std::vector<Option> options = sharedOptions();
    options.push_back({"learn", "", false, "P[,P...]", "the distribution parameters to learn (required)"});
    options.push_back({"bounds", "", false, "P=LO:HI[;...]", "search ranges (default: each parameter's typical range)"});
    options.push_back({"max-evals", "", false, "E", "full-size evidence evaluations at most (default 30)"});
    options.push_back({"per-class", "", true, "", "learn the parameters of every class (classes only), and the single one beside them"});
    options.push_back({"learner", "", false, "blr|gp", "blr (default): the evidence of Bayesian linear regression on features; gp: "
                                                       "the exact GP marginal likelihood on exact:r=R"});
    options.push_back({"inner-evals", "", false, "E", "gp: L-BFGS evaluations over bandwidth, signal and noise per value (default 12)"});
    options.push_back({"scan", "", false, "N", "gp: values scanned over the range, shared by the folds (default 5)"});
    return {"learn",
            "learn distribution parameters by maximising the Bayesian linear regression evidence",
            "learn --data FILE --features F --group G --dist D [--kernel K] --learn P[,P...] [--bounds P=LO:HI]\n"
            "       [--max-evals E] [--eval holdout:FRAC] [--n N] [--rotate [--rotate-max DEG]] [--json]",
            std::string(kParameterHelp) +
                "\nWith a gradient (irf features of rotation, translation, scale or affine): a scan of a few\n"
                "points spread over the bounds, then L-BFGS (NLopt, bound-constrained; positive parameters in\n"
                "log space) from the best scanned peaks while evaluations remain. Without one (noisy sort's\n"
                "sigma, other feature maps; one parameter only): the scan, then golden-section search.\n"
                "Rotation windows a are searched on a linear scale.\n"
                "With --eval the learning sees only the training part (the median rule too), and the learned\n"
                "model's held-out score is reported (metric, test). With --eval kfold:K (or folds) it learns\n"
                "inside each training fold and scores that fold's test part: --json adds `folds` [{params, dist,\n"
                "log_evidence, evaluations, test, rmse|accuracy, mae}], `mean`, `stddev`, and for regression\n"
                "`rmse` and `mae`; the top-level fields are the first fold's.\n"
                "--per-class learns the parameters of every class of a labelled data set (refused for regression\n"
                "targets): class c's one-hot column gets its own theta_c and precisions, from the same templates\n"
                "and base noise; f_c(x) = phi_theta_c(x)^T m_c, the class is the argmax. The per-class evidence\n"
                "never falls below the single learn's (C times the parameters): a few nats per class is what free\n"
                "parameters buy, tens or hundreds mean the classes want different localities; the held-out\n"
                "accuracy of both models is the plain test. --json gives `per_class` [{class, params, dist,\n"
                "window_degrees (rotations: the 95% window), log_evidence, log_evidence_at_global (the class at\n"
                "the global theta, where its search starts), evaluations (its own, beyond the scan every class\n"
                "shares and that start),\n"
                "converged, kept_global (nothing its search found beat the global theta, which it keeps), test\n"
                "(its recall), test_rows}],\n"
                "`dist_per_class` (the line for train --dist-per-class), `log_evidence` (the sum), `global`\n"
                "{params, dist, log_evidence, log_evidence_per_class (every class at the global theta, precisions\n"
                "per class), evaluations, test}, and with --eval `metric`, `test` (the per-class model's).\n"
                "--json also gives `ranks`, `stage_seconds` {features, products, reduction, solve} on the\n"
                "slowest rank over all evaluations, `feature_rows_held` (the most feature rows one rank held),\n"
                "`input_rows_held` (the most input rows one rank read) and `rank_counters` (every rank's MPI\n"
                "traffic, below).\n"
                "--learner gp (features exact:r=R, default exact:r=4): the exact Gaussian process on the invariant\n"
                "kernel k_G (R group samples per input, common random numbers), its log marginal likelihood\n"
                "maximised over the parameter (a scan of --scan values shared by the folds, then golden-section\n"
                "steps per fold: --max-evals values in all, default 8) and, at each value, over the kernel's\n"
                "bandwidth, the signal and the noise variance (L-BFGS with the analytic gradient, --inner-evals).\n"
                "Everything is fitted on training rows only (the median rule too). With --eval kfold:K every fold\n"
                "learns on its own training part and scores its test part: --json gives `folds` [{params, dist,\n"
                "log_evidence, bandwidth, signal, noise, test, rmse, mae, curve}], `mean`, `stddev`, and for\n"
                "regression `rmse` and `mae`; `evaluations` and `seconds_per_evaluation`. Several parameters\n"
                "(e.g. --learn rotation.kappa,scale.sigma on the affine group) are learned jointly by an outer\n"
                "NLopt search over their vector (L-BFGS on the analytic slopes when all are smooth, BOBYQA\n"
                "otherwise; --max-evals points per fold): `curve` and `slopes` then give every point's `params`.\n\n" +
                manyProcessesHelp() + groupSpecHelp(),
            options,
            runLearn};
}

Command evidenceCommand()
{
    std::vector<Option> options = sharedOptions();
    options.push_back({"param", "", false, "P[,P2]", "the parameter to vary, or two for a surface (required)"});
    options.push_back({"values", "", false, "V1,V2,..|LO:HI:N[:log]", "its values; for two parameters two lists separated by ';' (required)"});
    options.push_back({"csv", "", false, "FILE", "also write value,log_evidence rows (P,P2,log_evidence for a surface)"});
    options.push_back({"per-class", "", true, "", "every class's curve with its own precisions (classes only, one parameter)"});
    options.push_back({"learner", "", false, "blr|gp", "blr (default): the BLR evidence on features; gp: the exact GP marginal likelihood "
                                                       "on exact:r=R, maximised over bandwidth, signal and noise at each value"});
    options.push_back({"inner-evals", "", false, "E", "gp: L-BFGS evaluations per value (default 12)"});
    return {"evidence",
            "the common-random-number evidence curve over one distribution parameter (or surface over two)",
            "evidence --data FILE --features F --group G --dist D [--kernel K] --param P[,P2]\n"
            "       --values V1,V2,..|LO:HI:N[:log][;...] [--csv FILE] [--eval holdout:FRAC] [--per-class] [--json]",
            std::string(kParameterHelp) +
                "\n--per-class (one parameter, classes only) gives every class's curve: its one-hot column's\n"
                "evidence with its own precisions, all classes from one feature computation per value (the\n"
                "curves `learn --per-class` climbs); log_evidence is then their sum. The CSV gets a column\n"
                "class_C per class, --json `per_class` [{class, log_evidence}].\n"
                "--json gives param, values, log_evidence, train_rows, seconds, `ranks`, `stage_seconds`\n"
                "{features, products, reduction, solve} on the slowest rank, `feature_rows_held`,\n"
                "`input_rows_held` and `rank_counters`.\n\n" +
                manyProcessesHelp() + groupSpecHelp(),
            options,
            runEvidence};
}

} // namespace orbit::cli

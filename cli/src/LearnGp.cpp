// learn --learner gp and evidence --learner gp: the exact Gaussian process's marginal likelihood
// on the exact invariant kernel (ExactKernelMachines.hpp), fold by fold.
#include "LearnGp.hpp"

#include "GroupOptions.hpp"
#include "ManyProcesses.hpp"
#include "TrainJson.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ReadableNumber.hpp"

#include <fstream>
#include <iomanip>
#include <ostream>

namespace orbit::cli {

/// learn --learner gp: the exact GP's marginal likelihood, fold by fold with --eval kfold:K.
int runLearnGp(const Args& args, LocalityConfig c, Io& io)
{
    if (args.flag("per-class")) throw SpecError("--per-class", "is a blr learn: learn --learner gp learns one locality", "gp");
    if (!args.has("features")) c.features = "exact:r=4";
    if (!isExactKernelSpec(c.features))
        throw SpecError("--features", "learn --learner gp works on the exact invariant kernel: exact:r=R", c.features);
    if (!args.has("max-evals")) c.maxEvaluations = 8;
    const int inner = int(args.integer("inner-evals", 12, 1, 1000));
    const int scan = int(args.integer("scan", 5, 2, 100));
    const Dataset data = preparedData(args);
    const ExactLearnResult r = learnExactGp(data, c, inner, scan, terminalProgress(io.err, io.progress, "learn"), nullptr, io.ranks);
    if (io.progress) io.err << "\n";
    if (args.flag("json")) {
        Json folds = Json::array();
        for (const ExactLearnFold& f : r.folds) {
            Json params = Json::object(), curve = Json::array();
            for (const auto& [k, v] : f.params) params[k] = v;
            for (const auto& [v, l] : f.curve) curve.push_back({{"value", v}, {"log_evidence", l}});
            // Several parameters: the curve's points carry them all, and the slopes one per parameter.
            Json pointSlopes = Json::array();
            for (const ExactLearnPoint& p : f.points) {
                Json at = Json::object();
                for (const auto& [k, v] : p.params) at[k] = v;
                curve.push_back({{"params", at}, {"log_evidence", p.logEvidence}});
                if (p.slopes.empty()) continue;
                Json g = Json::object();
                for (const auto& [k, v] : p.slopes) g[k] = v;
                pointSlopes.push_back({{"params", at}, {"d_log_evidence", g}});
            }
            Json j = {{"params", params}, {"dist", f.dist}, {"log_evidence", f.logEvidence},
                      {"bandwidth", f.hyper.sigma}, {"signal", f.hyper.signal}, {"noise", f.hyper.noise},
                      {"outer_evaluations", f.outerEvaluations}, {"evaluations", f.innerEvaluations},
                      {"train_rows", f.trainRows}, {"test_rows", f.testRows}, {"curve", curve}};
            if (!f.slopes.empty()) {
                Json slopes = Json::array();
                for (const auto& [v, g] : f.slopes) slopes.push_back({{"value", v}, {"d_log_evidence", g}});
                j["slopes"] = slopes;
            }
            if (!pointSlopes.empty()) j["slopes"] = pointSlopes;
            if (f.test) j["test"] = *f.test;
            if (f.mae) j["mae"] = *f.mae;
            if (f.test && !f.mae) j["accuracy"] = *f.test;
            if (f.mae) j["rmse"] = *f.test;
            folds.push_back(j);
        }
        Json j = {{"learner", "gp"}, {"param", r.param}, {"folds", folds}, {"evaluations", r.evaluations},
                  {"seconds_per_evaluation", r.secondsPerEvaluation}, {"seconds", r.seconds}, {"ranks", io.ranks.size()},
                  {"rank_counters", rankCountersJson(io.ranks)}};
        if (r.params.size() > 1) {  // several parameters learned jointly: their names and the outer search
            j["learn"] = r.params;
            j["method"] = r.method;
        }
        if (r.folds.size() == 1) {
            const ExactLearnFold& f = r.folds.front();
            Json params = Json::object();
            for (const auto& [k, v] : f.params) params[k] = v;
            j["params"] = params;
            j["dist"] = f.dist;
            j["log_evidence"] = f.logEvidence;
            if (f.test) j["test"] = *f.test;
        }
        if (r.mean) {
            j["metric"] = r.metric;
            j["mean"] = *r.mean;
            j["stddev"] = *r.stddev;
            if (r.mae) {
                j["rmse"] = *r.mean;
                j["mae"] = *r.mae;
            }
        }
        io.out << j.dump() << "\n";
        return 0;
    }
    for (std::size_t k = 0; k < r.folds.size(); ++k) {
        const ExactLearnFold& f = r.folds[k];
        io.out << (r.folds.size() > 1 ? "fold " + std::to_string(k + 1) + ": " : std::string()) << "learned "
               << readableParameters(f.params) << ", bandwidth " << readableNumber(f.hyper.sigma, 5) << ", signal "
               << readableNumber(f.hyper.signal, 4) << ", noise " << readableNumber(f.hyper.noise, 4) << "; log marginal likelihood "
               << readableNumber(f.logEvidence, 8) << " (" << f.outerEvaluations << " values, " << f.innerEvaluations
               << " evaluations)";
        if (f.test) io.out << "; test " << r.metric << " " << readableNumber(*f.test, 6);
        if (f.mae) io.out << ", mae " << readableNumber(*f.mae, 6);
        io.out << "\n  --dist " << f.dist << "\n";
    }
    if (r.mean) {
        io.out << r.metric << " " << readableNumber(*r.mean, 6) << " +- " << readableNumber(*r.stddev, 4);
        if (r.mae) io.out << ", mae " << readableNumber(*r.mae, 6);
        io.out << "\n";
    }
    io.out << r.evaluations << " marginal-likelihood evaluations, " << readableNumber(r.secondsPerEvaluation, 3) << " s each; "
           << readableNumber(r.seconds, 4) << " s in all\n";
    return 0;
}

/// evidence --learner gp: the curve learn --learner gp climbs, at each value the marginal likelihood
/// maximised over the bandwidth, signal and noise.
int runEvidenceGp(const Args& args, LocalityConfig c, const std::vector<std::string>& params, const std::vector<double>& values,
                  Io& io)
{
    // The curve learn --learner gp climbs: at each value the marginal likelihood maximised over
    // the bandwidth, signal and noise.
    if (params.size() != 1 || args.flag("per-class"))
        throw SpecError("--param",
                        "evidence --learner gp draws one curve over one parameter (learn --learner gp learns several jointly)",
                        args.text("param"));
    if (!args.has("features")) c.features = "exact:r=4";
    if (!isExactKernelSpec(c.features))
        throw SpecError("--features", "evidence --learner gp works on the exact invariant kernel: exact:r=R", c.features);
    c.learn = params;
    const Dataset data = preparedData(args);
    const ExactLearnResult r = learnExactGp(data, c, int(args.integer("inner-evals", 12, 1, 1000)), 0,
                                            terminalProgress(io.err, io.progress, "evidence"), &values, io.ranks);
    if (io.progress) io.err << "\n";
    const ExactLearnFold& f = r.folds.front();
    std::vector<double> xs, ls;
    for (const auto& [v, l] : f.curve) {
        xs.push_back(v);
        ls.push_back(l);
    }
    if (args.has("csv") && io.ranks.isRoot()) {
        std::ofstream csv(args.text("csv"));
        if (!csv) throw SpecError("--csv", "cannot write the file", args.text("csv"));
        csv << std::setprecision(17) << "value,log_evidence\n";
        for (std::size_t i = 0; i < xs.size(); ++i) csv << xs[i] << "," << ls[i] << "\n";
    }
    if (args.flag("json")) {
        Json j = {{"param", params.front()}, {"learner", "gp"}, {"values", xs}, {"log_evidence", ls},
                  {"train_rows", f.trainRows}, {"evaluations", r.evaluations},
                  {"seconds_per_evaluation", r.secondsPerEvaluation}, {"seconds", r.seconds}};
        if (!f.slopes.empty()) {  // the curve's derivative (a smooth parameter), in its order
            std::vector<double> gs;
            for (const auto& s : f.slopes) gs.push_back(s.second);
            j["d_log_evidence"] = gs;
        }
        io.out << j.dump() << "\n";
        return 0;
    }
    for (std::size_t i = 0; i < xs.size(); ++i)
        io.out << params.front() << " = " << readableNumber(xs[i], 6) << ": log marginal likelihood " << readableNumber(ls[i], 8)
               << "\n";
    return 0;
}

} // namespace orbit::cli

#include "TrainJson.hpp"

#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace orbit::cli {

namespace {

Json pointJson(const ParamPoint& p)
{
    Json j = Json::object();
    for (const auto& [k, v] : p) j[k] = v;
    return j;
}

} // namespace

std::string chosenText(const ParamPoint& p)
{
    std::ostringstream s;
    s << std::setprecision(4);
    bool first = true;
    for (const auto& [k, v] : p) {
        s << (first ? "" : ", ") << k << "=" << v;
        first = false;
    }
    return s.str();
}

Json trainResultJson(const TrainResult& r)
{
    const bool regression = r.metric == "rmse";
    Json j;
    j["metric"] = r.metric;
    j["mean"] = r.mean;
    j["std"] = r.stddev;
    Json folds = Json::array(), chosen = Json::array();
    for (const FoldResult& f : r.folds) {
        Json fj;
        fj["score"] = f.score;
        if (regression) fj["mae"] = f.mae;
        if (std::isfinite(f.logEvidence)) fj["log_evidence"] = f.logEvidence;
        fj["chosen"] = pointJson(f.chosen);
        fj["seconds"] = f.seconds;
        folds.push_back(std::move(fj));
        chosen.push_back(pointJson(f.chosen));
    }
    j["folds"] = std::move(folds);
    if (regression) j["mae"] = r.mae;
    j["chosen"] = std::move(chosen);
    if (r.logEvidence) j["log_evidence"] = *r.logEvidence;
    j["seconds"] = r.seconds;
    j["ranks"] = r.ranks;
    j["stage_seconds"] = stageSecondsJson(r.stages);
    j["rank_stage_seconds"] = Json::array();
    for (const StageCosts& s : r.rankStages) j["rank_stage_seconds"].push_back(stageSecondsJson(s));
    j["product_rows"] = r.stages.productRows;
    j["feature_rows_held"] = r.stages.heldRows;
    j["feature_dim"] = r.featureDim;
    j["features"] = r.featureSpec;
    Json grid = Json::array();
    for (const GridRow& g : r.grid) {
        Json gj;
        gj["params"] = pointJson(g.params);
        gj["validation"] = g.validation;
        if (std::isfinite(g.logEvidence)) gj["log_evidence"] = g.logEvidence;
        grid.push_back(std::move(gj));
    }
    j["grid"] = std::move(grid);
    if (r.confusion.size() > 0) {
        Json c = Json::array();
        for (Eigen::Index t = 0; t < r.confusion.rows(); ++t) {
            Json row = Json::array();
            for (Eigen::Index p = 0; p < r.confusion.cols(); ++p) row.push_back(r.confusion(t, p));
            c.push_back(std::move(row));
        }
        j["confusion"] = std::move(c);
    }
    if (!r.learningCurve.empty()) {
        Json lc = Json::array();
        for (const auto& p : r.learningCurve) lc.push_back({{"train_size", p.trainSize}, {"score", p.score}});
        j["learning_curve"] = std::move(lc);
    }
    return j;
}

void printTrainResult(std::ostream& out, const TrainResult& r)
{
    const bool regression = r.metric == "rmse";
    out << std::setprecision(6) << r.metric << ": " << r.mean << " +- " << r.stddev << " over " << r.folds.size()
        << (r.folds.size() == 1 ? " split" : " folds");
    if (regression) out << ", mae " << r.mae;
    if (r.logEvidence) out << ", log evidence " << *r.logEvidence;
    out << "\nfeatures: " << r.featureSpec << " (" << r.featureDim << " dims), " << r.seconds << " s\n";
    for (std::size_t f = 0; f < r.folds.size(); ++f)
        out << "  fold " << f + 1 << ": " << r.folds[f].score << " at " << chosenText(r.folds[f].chosen) << " ("
            << r.folds[f].seconds << " s)\n";
    for (const auto& p : r.learningCurve) out << "  learning curve n=" << p.trainSize << ": " << p.score << "\n";
}

Progress terminalProgress(std::ostream& err, bool enabled, const std::string& prefix)
{
    if (!enabled) return {};
    return [&err, prefix](double f, const std::string& what) {
        err << "\r" << prefix << " " << std::fixed << std::setprecision(0) << 100.0 * f << "% " << what
            << "                    " << std::defaultfloat << std::flush;
        return false;
    };
}

Json stageSecondsJson(const StageCosts& s)
{
    return {{"features", s.features}, {"products", s.products}, {"reduction", s.reduction}, {"solve", s.solve}};
}

} // namespace orbit::cli

// Cancel latency of orbit::train at large settings (a benchmark: timings are printed, never checked).
//
// The GUI cancels a training run by making the Progress callback return true; train() then throws
// orbit::Cancelled at its next progress report. The latency of a cancel is therefore the time
// between two progress reports. Two measurements per case:
//   timeline  one run (cancelled after --limit seconds) records every progress report; the largest
//             gap between consecutive reports, per stage, is the worst latency a cancel during that
//             stage can see;
//   cancel    runs cancelled at fixed times (--at): the time from setting the flag until train()
//             returns by Cancelled, and the stage the run was in.
//
// Cases (data from ../shared/data/digits/digits.png and ../shared/data/qm7 next to the repository):
//   qm7     QM7 (N = 7101), irf:s=10000,r=70, permutation / noisysort:sigma=1, ridge, lambda 1e-6,1e-3, kfold:5
//   digits  the 5000 rotated digits (as `train --rotate --pad 28`), irf:s=4000,r=32, rotation /
//           vonmises:kappa=0, ridge, lambda 1e-6,1e-3, kfold:5
//   krr     exact kernel ridge (Gaussian kernel on raw pixels) on 2500 rotated digits, kfold:5
//   svm     liblinear on the rotated digits' irf:s=4000,r=32 features, C 0.1,1, holdout:0.2
//   nystrom QM7, inystrom:s=5000,r=70 (landmarks from the orbits), noisysort:sigma=1, ridge, kfold:5:
//           the landmark kernel, its Cholesky factor and the triangular inverse inside the fit
//
// Usage: bench_cancel [--case qm7|digits|krr|svm|nystrom|all] [--mode timeline|cancel|both]
//                     [--at 0.5,2,5,10] [--after-stage STAGE] [--limit SECONDS]
// --after-stage learn: the --at times count from the first report of that stage (e.g. "learn",
// "features"), to cancel inside a late stage.
#include "orbit/data/Loaders.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using Clock = std::chrono::steady_clock;

namespace {

struct Case {
    std::string name;
    orbit::Dataset data;
    orbit::TrainConfig config;
};

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

/// The stage of a progress text: "fitting <spec>[: templates i/N]" (the feature map's fit),
/// "features i/n", "<point>, fold k/K · <step>".
std::string stageOf(const std::string& what)
{
    const auto dot = what.find(" · ");
    if (dot != std::string::npos) {
        std::string step = what.substr(dot + std::strlen(" · "));
        const auto sp = step.find_first_of(" =");
        return "learn: " + step.substr(0, sp);
    }
    if (what.rfind("fitting", 0) == 0) return "fit feature map";
    if (what.rfind("features", 0) == 0) return "features";
    if (what.find("fold") != std::string::npos) return "learn";
    if (what == "done") return "done";
    return what.substr(0, what.find(' '));
}

/// One run of train() on a thread; the flag is set at `cancelAt` seconds (<0: never) or as soon as
/// `stopAfter` seconds passed. Records every progress report.
struct Run {
    struct Report {
        double t;
        std::string what;
    };
    std::vector<Report> reports;
    bool cancelled = false, finished = false;
    std::string error;
    double setAt = -1, returnedAt = -1;
    std::string stageAtCancel;

    /// `after`: measure cancelAt from the first report of a stage starting with it ("" = from the start).
    void go(const Case& c, double cancelAt, const std::string& after = {})
    {
        std::atomic<bool> flag{false};
        std::mutex m;
        const auto t0 = Clock::now();
        Clock::time_point returned;
        std::thread worker([&] {
            const orbit::Progress progress = [&](double, const std::string& what) {
                {
                    std::lock_guard<std::mutex> lock(m);
                    reports.push_back({seconds(t0, Clock::now()), what});
                }
                return flag.load();
            };
            try {
                orbit::train(c.data, c.config, progress);
                finished = true;
            } catch (const orbit::Cancelled&) {
                cancelled = true;
            } catch (const std::exception& e) {
                error = e.what();
            }
            returned = Clock::now();
        });
        if (cancelAt >= 0) {
            double from = 0.0;  // when the stage named by `after` began
            for (bool waiting = !after.empty(); waiting;) {
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                std::lock_guard<std::mutex> lock(m);
                for (const Report& r : reports)
                    if (stageOf(r.what).rfind(after, 0) == 0 || r.what == "done") {
                        from = r.t;
                        waiting = false;
                        break;
                    }
            }
            // Poll for completion so a run that ends early is not waited on.
            while (seconds(t0, Clock::now()) < from + cancelAt) {
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
                std::lock_guard<std::mutex> lock(m);
                if (!reports.empty() && reports.back().what == "done") break;
            }
            {
                std::lock_guard<std::mutex> lock(m);
                stageAtCancel = reports.empty() ? std::string("start") : stageOf(reports.back().what);
            }
            setAt = seconds(t0, Clock::now());
            flag = true;
        }
        worker.join();
        returnedAt = seconds(t0, returned);
    }
};

void timeline(const Case& c, double limit)
{
    Run run;
    run.go(c, limit);
    std::printf("\n[%s] timeline: %zu progress reports, %s after %.1f s%s\n", c.name.c_str(), run.reports.size(),
                run.finished ? "finished" : run.cancelled ? "cancelled" : "failed", run.returnedAt,
                run.error.empty() ? "" : (" (" + run.error + ")").c_str());
    // A gap belongs to the stage of the report that opened it; the last gap ends when train() returned.
    std::map<std::string, std::pair<double, double>> worst;  // stage -> (max gap, time it started)
    std::map<std::string, std::string> opener;                // stage -> the report that opened its max gap
    std::map<std::string, double> total;
    std::map<std::string, int> count;  // reports per stage (the fit reports "fitting <spec>: templates i/N")
    std::vector<std::string> order;
    for (std::size_t i = 0; i < run.reports.size(); ++i) {
        const double end = i + 1 < run.reports.size() ? run.reports[i + 1].t : run.returnedAt;
        const double gap = end - run.reports[i].t;
        const std::string s = stageOf(run.reports[i].what);
        if (!worst.count(s)) order.push_back(s);
        auto& w = worst[s];
        if (gap > w.first) {
            w = {gap, run.reports[i].t};
            opener[s] = run.reports[i].what;
        }
        total[s] += gap;
        ++count[s];
    }
    if (!run.reports.empty())
        std::printf("  %-28s max gap %7.3f s (from start to the first report)\n", "start", run.reports.front().t);
    double overall = run.reports.empty() ? run.returnedAt : run.reports.front().t;
    for (const std::string& s : order) {
        std::printf("  %-28s max gap %7.3f s at t = %6.1f s   (%.1f s in this stage, %d reports)\n", s.c_str(),
                    worst[s].first, worst[s].second, total[s], count[s]);
        std::printf("  %-28s   (max gap after \"%s\")\n", "", opener[s].c_str());
        overall = std::max(overall, worst[s].first);
    }
    std::printf("  max gap (worst cancel latency) %.3f s\n", overall);
}

void cancels(const Case& c, const std::vector<double>& at, const std::string& after)
{
    std::printf("\n[%s] cancel at fixed times%s\n  %8s  %-28s %10s  %s\n", c.name.c_str(),
                after.empty() ? "" : (" after the start of stage '" + after + "'").c_str(), "set at", "stage", "latency",
                "outcome");
    double worst = 0;
    for (double t : at) {
        Run run;
        run.go(c, t, after);
        const double latency = run.returnedAt - run.setAt;
        const char* outcome = run.cancelled ? "Cancelled" : run.finished ? "finished before the cancel" : "failed";
        std::printf("  %7.2fs  %-28s %9.3fs  %s%s\n", run.setAt, run.stageAtCancel.c_str(), latency, outcome,
                    run.error.empty() ? "" : (" (" + run.error + ")").c_str());
        std::fflush(stdout);
        if (run.cancelled) worst = std::max(worst, latency);
        if (run.finished) break;
    }
    std::printf("  max latency %.3f s\n", worst);
}

std::vector<double> numbers(const std::string& text)
{
    std::vector<double> v;
    for (const std::string& p : orbit::split(text, ',')) v.push_back(std::stod(p));
    return v;
}

orbit::Dataset rotatedDigits(std::size_t n)
{
    const std::string digits = std::string(ORBIT_SHARED_DIR) + "/data/digits/digits.png";
    return orbit::prepareDataset(orbit::loadDataset(digits), n, true, 28, 0);
}

} // namespace

int main(int argc, char** argv)
{
    std::string which = "all", mode = "both", after;
    std::vector<double> at = {0.5, 2, 5, 10, 20};
    double limit = 600;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--case") which = value;
        else if (key == "--mode") mode = value;
        else if (key == "--at") at = numbers(value);
        else if (key == "--limit") limit = std::stod(value);
        else if (key == "--after-stage") after = value;
        else {
            std::fprintf(stderr, "unknown option %s\n", key.c_str());
            return 2;
        }
    }
    auto wanted = [&](const char* name) { return which == "all" || which == name; };
    std::vector<Case> cases;
    // One case: data, features (group / distribution for the invariant ones), learner, evaluation, grid.
    auto add = [&](const char* name, orbit::Dataset data, const std::string& features, const std::string& group,
                   const std::string& dist, const std::string& learner, const std::string& eval,
                   std::vector<orbit::ParamAxis> grid) {
        Case c{name, std::move(data), {}};
        c.config.features = features;
        c.config.group = group;
        c.config.dist = dist;
        c.config.learner = learner;
        c.config.eval = eval;
        c.config.grid = std::move(grid);
        cases.push_back(std::move(c));
    };
    const std::string qm7 = std::string(ORBIT_SHARED_DIR) + "/data/qm7/qm7.extxyz";
    for (const char* name : {"qm7", "nystrom"}) {
        if (!wanted(name)) continue;
        if (!std::filesystem::exists(qm7)) {
            std::fprintf(stderr, "no %s: skipping %s\n", qm7.c_str(), name);
            continue;
        }
        add(name, orbit::loadDataset(qm7), name == std::string("qm7") ? "irf:s=10000,r=70" : "inystrom:s=5000,r=70",
            "permutation", "noisysort:sigma=1", "ridge", "kfold:5", {{"median", {1.0}}, {"lambda", {1e-6, 1e-3}}});
    }
    if (wanted("digits"))
        add("digits", rotatedDigits(0), "irf:s=4000,r=32", "rotation", "vonmises:kappa=0", "ridge", "kfold:5",
            {{"median", {1.0}}, {"lambda", {1e-6, 1e-3}}});
    if (wanted("krr"))
        add("krr", rotatedDigits(2500), "raw", "", "", "krr", "kfold:5", {{"median", {1.0}}, {"lambda", {1e-6, 1e-3, 1e-1}}});
    if (wanted("svm"))
        add("svm", rotatedDigits(0), "irf:s=4000,r=32", "rotation", "vonmises:kappa=0", "svm", "holdout:0.2",
            {{"median", {1.0}}, {"C", {0.1, 1.0}}});
    for (const Case& c : cases) {
        std::printf("\n== %s: N = %zu, %s%s%s, %s, %s\n", c.name.c_str(), c.data.count(), c.config.features.c_str(),
                    c.config.group.empty() ? "" : (", " + c.config.group + " / " + c.config.dist).c_str(), "",
                    c.config.learner.c_str(), c.config.eval.c_str());
        std::fflush(stdout);
        if (mode == "timeline" || mode == "both") timeline(c, limit);
        if (mode == "cancel" || mode == "both") cancels(c, at, after);
        std::fflush(stdout);
    }
    return 0;
}

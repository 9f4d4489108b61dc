// How long the GUI thread is blocked (a benchmark: numbers are printed, never checked).
//
// Runs the real MainWindow offscreen, installs a 5 ms QTimer heartbeat on the GUI thread and drives
// each panel's heavy actions the way a user would; the largest gap between two heartbeat ticks
// during an action is the longest the window was frozen. The bar is 50 ms. "busy" is the
// largest CPU time the GUI thread itself spent within one gap: on a loaded machine a gap also holds time the
// thread waited for a core, which no change to the application can remove.
//
// "play" rows play a parameter sweep (SweepControl) and report the largest gap and GUI-thread CPU
// per frame (max and 95th percentile over the frames; a frame runs from one settled frame to the next).
//
// Usage: bench_gui_stalls [--play-only|--predict-only|--shell-only|--lessons-only] [--gap-events]   (--play-only: the digits and the sweeps only;
// --predict-only: a training run on the digits, then the Predict panel's slider steps;
// --shell-only: presentation mode, resizes, panel switches and lessons; --lessons-only: each lesson's start and first Next; --gap-events: also the events of each action's
// busiest heartbeat gap, the receivers and event types with the most GUI-thread CPU; QT_QPA_PLATFORM defaults to offscreen; QM7 from ../shared/data and
// Fashion-MNIST from the Debian package are used when present)
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"
#include "state/Settings.hpp"
#include "state/LabState.hpp"
#include "state/OrbitSettings.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/data/DataPanel.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/training/TrainingPanel.hpp"
#include "window/predict/PredictPanel.hpp"
#include "window/group/DistributionEditor.hpp"
#include "widgets/ParameterControl.hpp"
#include "window/sweep/SweepControl.hpp"
#include "window/lessons/LessonDock.hpp"
#include "state/Lessons.hpp"

#include "GapEvents.hpp"
#include "Heartbeat.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QSlider>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace orbitui;

namespace {

TimedApplication* timedApp = nullptr;
bool gapEvents = false;  // --gap-events

struct Row {
    std::string action;
    double callMs, gapMs, busyMs, totalMs;
    bool settled;
};

std::vector<Row> rows;

/// Runs `act` (synchronous GUI-thread calls), then spins until `settled` (or the timeout).
void measure(Heartbeat& hb, const std::string& name, const std::function<void()>& act,
             const std::function<bool()>& settled, int timeoutMs = 120000)
{
    spin(50);
    hb.reset();
    timedApp->reset();
    QElapsedTimer t;
    t.start();
    act();
    const double call = t.nsecsElapsed() * 1e-6;
    const bool ok = waitUntil(settled, timeoutMs);
    spin(30);  // the drawing that follows the last answer
    rows.push_back({name, call, hb.maxGapMs(), hb.maxBusyMs(), t.nsecsElapsed() * 1e-6, ok});
    std::printf("  %-46s max gap %7.1f ms  busy %7.1f ms  (call %7.1f ms, total %7.0f ms)%s\n", name.c_str(),
                rows.back().gapMs, rows.back().busyMs, call, rows.back().totalMs, ok ? "" : "  [did not settle]");
    std::printf("  %-46s slowest event: %s\n", "", timedApp->slowest().c_str());
    if (gapEvents)
        std::printf("  %-46s busiest gap: %s\n", "", timedApp->busiestGap().c_str());
    std::fflush(stdout);
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(p * double(v.size())) - 1));
    return v[i];
}

/// Plays `sweep` with `plan` until `frames` frames settled; the heartbeat is reset at every settled
/// frame, so each frame's gap and busy time cover applying it, computing and drawing it.
void playFrames(Heartbeat& hb, const std::string& name, SweepControl* sweep, const SweepPlan& plan, int frames)
{
    if (!sweep) {
        std::printf("  (no sweep for %s)\n", name.c_str());
        return;
    }
    spin(50);
    sweep->setPlan(plan);
    std::vector<double> gaps, busy, periods;
    QElapsedTimer t, frameClock;
    auto c = QObject::connect(sweep, &SweepControl::frameSettled, [&](int, double) {
        gaps.push_back(hb.maxGapMs());
        busy.push_back(hb.maxBusyMs());
        periods.push_back(frameClock.nsecsElapsed() * 1e-6);
        frameClock.restart();
        hb.reset();
    });
    hb.reset();
    timedApp->reset();
    t.start();
    frameClock.start();
    sweep->play();
    const bool ok = waitUntil([&] { return int(gaps.size()) >= frames; }, 300000);
    sweep->stop();
    QObject::disconnect(c);
    const double total = t.nsecsElapsed() * 1e-6;
    const double worstGap = gaps.empty() ? 0.0 : *std::max_element(gaps.begin(), gaps.end());
    const double worstBusy = busy.empty() ? 0.0 : *std::max_element(busy.begin(), busy.end());
    rows.push_back({name, 0.0, worstGap, worstBusy, total, ok});
    std::printf("  %-46s %zu frames, per frame: max gap %6.1f ms (p95 %6.1f), busy max %6.1f ms (p95 %6.1f), "
                "frame period median %6.0f ms%s\n",
                name.c_str(), gaps.size(), worstGap, percentile(gaps, 0.95), worstBusy, percentile(busy, 0.95),
                percentile(periods, 0.5), ok ? "" : "  [did not reach the frames]");
    std::printf("  %-46s slowest event: %s\n", "", timedApp->slowest().c_str());
    std::fflush(stdout);
}

/// The sweeps a teacher plays: κ on the Group and Orbits panels, r on Orbits, κ with the Kernels
/// panel following (N = 60).
void playActions(Heartbeat& hb, MainWindow& w)
{
    // Log-spaced, back and forth, each frame as soon as the last one settled.
    const auto bounce = [](double from, double to, int frames) {
        return SweepPlan{.from = from, .to = to, .frames = frames, .spacing = SweepPlan::Spacing::Log,
                         .mode = SweepPlan::Mode::Bounce, .intervalMs = 0};
    };
    const SweepPlan kappa = bounce(0.25, 32, 15);
    auto sweepOf = [](ParameterControl* c) { return c ? c->findChild<SweepControl*>() : nullptr; };
    w.showPanel("group");
    playFrames(hb, "play: κ sweep on the group panel", sweepOf(w.groupPanel()->editor()->parameterControl("rotation", "kappa")),
               kappa, 30);
    w.showPanel("orbits");
    DistributionEditor* orbits = w.orbitsPanel()->editor();
    playFrames(hb, "play: κ sweep on the orbits panel", sweepOf(orbits->parameterControl("rotation", "kappa")), kappa, 30);
    playFrames(hb, "play: r sweep 1..256 on the orbits panel", sweepOf(orbits->rControl()), bounce(1, 256, 9), 16);
    const KernelsSettings before = w.kernelsPanel()->settings();
    KernelsSettings ks = before;
    ks.n = 60;
    w.kernelsPanel()->applySettings(ks);
    w.showPanel("kernels");
    waitUntil([&] { return w.isIdle(); }, 120000);
    playFrames(hb, "play: κ sweep, kernels panel (N = 60) follows", sweepOf(orbits->parameterControl("rotation", "kappa")),
               kappa, 30);
    w.kernelsPanel()->applySettings(before);  // the later rows keep their usual N
    w.showPanel("orbits");
    waitUntil([&] { return w.isIdle(); }, 120000);
}

/// The Predict panel on the Training panel's last run, row 3000 (a 6): 36 slider steps of 5 degrees
/// a hand apart (30 ms). Per step: the GUI thread's time in the step itself (the slider's value, the
/// chart's marker, the request), the largest gap and GUI-thread CPU until its answer is drawn, and
/// the time from the step to its answer on screen. The bars: 16 ms per step, 100 ms to the answer.
void predictActions(Heartbeat& hb, MainWindow& w)
{
    PredictPanel* p = w.predictPanel();
    w.state()->setSelectedIndex(3000);
    w.showPanel("predict");
    measure(hb, "predict: the last run's model and its sweep", [] {}, [&] { return w.isIdle(); }, 300000);
    if (!p->answer()) {
        std::printf("  (predict: no answer: %s)\n", qPrintable(p->errorText()));
        return;
    }
    std::vector<double> calls, callCpu, gaps, busy, latency;
    QElapsedTimer clock;
    const auto threadCpuMs = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
    };
    for (int step = 1; step <= 36; ++step) {
        spin(30);
        hb.reset();
        const int before = p->answerCount();
        clock.start();
        const double cpu0 = threadCpuMs();
        p->slider()->setValue(p->slider()->value() + 5);  // 5 degrees: the slider's step is 1 degree
        callCpu.push_back(threadCpuMs() - cpu0);
        calls.push_back(clock.nsecsElapsed() * 1e-6);
        waitUntil([&] { return p->answerCount() > before && p->isIdle(); }, 10000);
        latency.push_back(clock.nsecsElapsed() * 1e-6);
        gaps.push_back(hb.maxGapMs());
        busy.push_back(hb.maxBusyMs());
    }
    const auto worst = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
    std::printf("  %-46s 36 steps: GUI call max %5.2f ms (p95 %5.2f; its CPU max %5.2f ms), max gap %5.1f ms, busy max %5.1f ms "
                "(p95 %5.1f), answer after median %5.1f ms (max %5.1f)\n",
                "predict: slider steps of 5 degrees", worst(calls), percentile(calls, 0.95), worst(callCpu), worst(gaps),
                worst(busy), percentile(busy, 0.95), percentile(latency, 0.5), worst(latency));
    std::fflush(stdout);
    rows.push_back({"predict: slider steps", worst(calls), worst(gaps), worst(busy), 0.0, true});
}

/// The window's own actions that the random-click run found slowest: presentation mode on and off,
/// resizes, each panel shown, each lesson started (digits loaded, nothing computing).
void shellActions(Heartbeat& hb, MainWindow& w, bool lessonsOnly)
{
    auto idle = [&] { return w.isIdle(); };
    if (!lessonsOnly) {
        for (const char* panel : {"data", "group", "orbits", "kernels", "approximation", "training"})
            measure(hb, std::string("show panel ") + panel, [&] { w.showPanel(panel); }, idle);
        for (const char* panel : {"orbits", "training"}) {
            w.showPanel(panel);
            waitUntil(idle, 120000);
            measure(hb, std::string("presentation on (") + panel + " shown)", [&] { w.presentationAction()->setChecked(true); }, idle);
            measure(hb, std::string("presentation off (") + panel + " shown)", [&] { w.presentationAction()->setChecked(false); }, idle);
            measure(hb, std::string("resize 1400x900 -> 1100x700 (") + panel + " shown)", [&] { w.resize(1100, 700); }, idle);
            measure(hb, std::string("resize 1100x700 -> 1400x900 (") + panel + " shown)", [&] { w.resize(1400, 900); }, idle);
        }
    }
    if (!lessonsOnly) {
        // The Orbits panel with many copies (a random-click run's r slider): its embedding chart then
        // holds inputs x r scatter points, and presentation mode, a resize or a show lays them out again.
        OrbitSettings many = w.state()->orbitSettings();
        const OrbitSettings before = many;
        many.r = 400;
        w.showPanel("orbits");
        w.state()->setOrbitSettings(many);
        waitUntil(idle, 120000);
        std::printf("  (orbits: r = 400, %zu embedding inputs)\n", w.state()->embeddingInputs().size());
        measure(hb, "presentation on (orbits shown, r = 400)", [&] { w.presentationAction()->setChecked(true); }, idle);
        if (const QString shots = qEnvironmentVariable("ORBIT_SCREENSHOTS"); !shots.isEmpty())  // to look at
            w.grab().save(shots + "/bench-presentation-orbits-r400.png");
        measure(hb, "presentation off (orbits shown, r = 400)", [&] { w.presentationAction()->setChecked(false); }, idle);
        measure(hb, "resize 1400x900 -> 1100x700 (orbits, r = 400)", [&] { w.resize(1100, 700); }, idle);
        measure(hb, "resize 1100x700 -> 1400x900 (orbits, r = 400)", [&] { w.resize(1400, 900); }, idle);
        w.showPanel("data");
        waitUntil(idle, 120000);
        w.presentationAction()->setChecked(true);
        waitUntil(idle, 120000);
        measure(hb, "show panel orbits (r = 400, presentation on)", [&] { w.showPanel("orbits"); }, idle);
        w.showPanel("data");
        waitUntil(idle, 120000);
        w.presentationAction()->setChecked(false);
        waitUntil(idle, 120000);
        measure(hb, "show panel orbits (r = 400, presentation off)", [&] { w.showPanel("orbits"); }, idle);
        w.state()->setOrbitSettings(before);
        waitUntil(idle, 120000);
    }
    for (int l = 0; l < int(lessons().size()); ++l) {
        measure(hb, "lesson " + std::to_string(l + 1) + " start", [&] { w.lessonDock()->start(l, 0); }, idle, 300000);
        measure(hb, "lesson " + std::to_string(l + 1) + " next", [&] { w.lessonDock()->next(); }, idle, 300000);
        w.trainingPanel()->cancel();
        waitUntil(idle, 120000);
    }
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    timedApp = &app;
    QTemporaryDir dir;
    Settings settings(dir.filePath("bench.ini"));
    MainWindow w(&settings, false);
    w.resize(1400, 900);
    w.show();
    Heartbeat hb;
    gapEvents = app.arguments().contains("--gap-events");
    if (gapEvents)
        app.watchGaps(hb.timer());
    const QString digits = QString::fromUtf8(ORBIT_SOURCE_DIR "/resources/data/digits.png");
    const QString qm7 = QString::fromUtf8(ORBIT_SHARED_DIR "/data/qm7/qm7.extxyz");
    const QString fashion = QString::fromUtf8(ORBIT_FASHION_DIR "/t10k-images-idx3-ubyte.gz");
    auto idle = [&] { return w.isIdle(); };
    auto load = [&](const QString& path) {
        if (!QFileInfo::exists(path)) {
            std::printf("  (no %s: skipped)\n", qPrintable(path));
            return;
        }
        int answers = 0;
        auto c1 = QObject::connect(w.dataPanel(), &DataPanel::loaded, [&] { ++answers; });
        auto c2 = QObject::connect(w.dataPanel(), &DataPanel::loadFailed, [&] { ++answers; });
        measure(hb, "load " + QFileInfo(path).fileName().toStdString() + " (" + w.currentPanel()->objectName().toStdString() + " shown)",
                [&] { w.session()->openData(path); }, [&] { return answers > 0 && w.isIdle(); });
        QObject::disconnect(c1);
        QObject::disconnect(c2);
    };
    auto dragSlider = [&](ParameterControl* c, const std::string& name, std::vector<int> positions) {
        if (!c) {
            std::printf("  (no control for %s)\n", name.c_str());
            return;
        }
        measure(hb, name, [&] {
            for (int pos : positions) {
                c->slider()->setValue(pos);
                spin(30);  // a hand moves a slider in steps a few tens of ms apart
            }
        }, idle);
    };

    std::printf("GUI-thread stalls (heartbeat 5 ms; the bar is 50 ms)\n");
    w.showPanel("data");
    measure(hb, "start-up sample data settles", [] {}, idle);
    load(digits);
    const bool playOnly = app.arguments().contains("--play-only");
    if (app.arguments().contains("--shell-only") || app.arguments().contains("--lessons-only")) {
        shellActions(hb, w, app.arguments().contains("--lessons-only"));
        return 0;
    }
    if (playOnly) {
        playActions(hb, w);
        return 0;
    }
    if (app.arguments().contains("--predict-only")) {
        TrainingSettings ts = w.trainingPanel()->settings();
        ts.s = 2000;  // the size: irf with s = 2000 on the bundled digits
        w.trainingPanel()->setSettings(ts);
        w.showPanel("training");
        measure(hb, "training: run to the end", [&] { w.trainingPanel()->run(); }, idle, 300000);
        predictActions(hb, w);
        return 0;
    }
    w.showPanel("data");
    load(qm7);
    load(fashion);
    load(digits);

    w.showPanel("group");
    DistributionEditor* group = w.groupPanel()->editor();
    dragSlider(group->parameterControl("rotation", "kappa"), "group: drag κ slider (7 steps)", {100, 200, 300, 400, 500, 600, 700});
    dragSlider(group->rControl(), "group: drag r slider (5 steps)", {200, 400, 600, 800, 1000});

    w.showPanel("orbits");
    measure(hb, "switch to orbits (digits)", [] {}, idle);
    DistributionEditor* orbits = w.orbitsPanel()->editor();
    dragSlider(orbits->parameterControl("rotation", "kappa"), "orbits: drag κ slider (7 steps)", {700, 600, 500, 400, 300, 200, 100});
    dragSlider(orbits->rControl(), "orbits: drag r slider (5 steps)", {800, 600, 400, 300, 200});
    playActions(hb, w);

    w.showPanel("kernels");
    measure(hb, "kernels: compute", [&] { w.kernelsPanel()->compute(); }, idle);
    w.showPanel("approximation");
    measure(hb, "approximation: compute", [&] { w.approximationPanel()->compute(); }, idle, 180000);
    w.showPanel("training");
    measure(hb, "training: run, cancel after 3 s", [&] {
        w.trainingPanel()->run();
        spin(3000);
        w.trainingPanel()->cancel();
    }, idle);
    measure(hb, "training: run to the end", [&] { w.trainingPanel()->run(); }, idle, 300000);
    predictActions(hb, w);
    w.showPanel("training");
    // Every learning step moves the distribution in the shared settings: the sliders, the density and
    // (when shown) the orbit gallery redraw on the GUI thread while the worker evaluates.
    measure(hb, "training: learn locality to the end", [&] { w.trainingPanel()->learnLocality(); }, idle, 300000);
    measure(hb, "learn locality watched on the group panel", [&] {
        w.trainingPanel()->learnLocality();
        w.showPanel("group");
    }, idle, 300000);
    measure(hb, "learn locality watched on the orbits panel", [&] {
        w.showPanel("training");
        w.trainingPanel()->learnLocality();
        w.showPanel("orbits");
    }, idle, 300000);
    w.showPanel("training");
    measure(hb, "switch through every panel (150 ms each)", [&] {
        for (Panel* p : w.panels()) {
            w.showPanel(p->objectName());
            spin(150);
        }
    }, idle);
    w.showPanel("orbits");
    load(qm7);
    w.showPanel("kernels");
    measure(hb, "kernels: compute (QM7)", [&] { w.kernelsPanel()->compute(); }, idle);
    w.showPanel("training");
    measure(hb, "training (QM7): run, cancel after 3 s", [&] {
        w.trainingPanel()->run();
        spin(3000);
        w.trainingPanel()->cancel();
    }, idle);
    measure(hb, "training (QM7): learn σ, cancel after 5 s", [&] {
        w.trainingPanel()->learnLocality();
        spin(5000);
        w.trainingPanel()->cancel();
    }, idle);

    double worst = 0, busiest = 0;
    std::string which, whichBusy;
    for (const Row& r : rows) {
        if (r.gapMs > worst) {
            worst = r.gapMs;
            which = r.action;
        }
        if (r.busyMs > busiest) {
            busiest = r.busyMs;
            whichBusy = r.action;
        }
    }
    std::printf("max gap over all actions: %.1f ms (%s); max GUI-thread CPU in one gap: %.1f ms (%s)\n", worst,
                which.c_str(), busiest, whichBusy.c_str());
    return 0;
}

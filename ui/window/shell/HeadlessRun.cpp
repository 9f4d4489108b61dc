#include "window/shell/HeadlessRun.hpp"

#include "render/SafeText.hpp"
#include "state/LabState.hpp"
#include "state/SampleData.hpp"
#include "widgets/Panel.hpp"
#include "window/data/DataPanel.hpp"
#include "window/lessons/LessonDock.hpp"
#include "window/panels/PanelDescriptor.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"
#include "window/shell/WorkingStateKeeper.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/util/SafeText.hpp"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace orbitui {

HeadlessRun::HeadlessRun(MainWindow* window, StartOptions options)
    : QObject(window), window_(window), options_(std::move(options))
{
}

QString HeadlessRun::start()
{
    MainWindow& w = *window_;
    const StartOptions& o = options_;
    if (o.headless() || o.size)
        w.resize(o.size.value_or(QSize(1400, 900)));
    if (!o.session.isEmpty() && !w.session()->openFile(o.session) && o.headless())
        std::fprintf(stderr, "orbitlab: %s: the session could not be opened (shown in the window)\n",
                     qPrintable(safePath(o.session)));
    if (o.setting)
        w.session()->apply(*o.setting);
    if (o.lesson >= 0) {
        if (!w.lessonDock()->start(o.lesson, o.lessonStep))
            return "--lesson: " + w.lessonDock()->text();
    } else if (!o.data.isEmpty()) {
        w.session()->openData(o.data);
    } else if (o.session.isEmpty() && !o.setting) {
        // Where the user left off (or the recovery offer after a crash), else the bundled sample.
        if (!w.keeper() || !w.keeper()->reopen([&w] { w.openSampleData(); }))
            w.openSampleData();
    }
    if (!o.panel.isEmpty() && !w.showPanel(o.panel)) {
        QString names;
        for (const Panel* p : w.panels())
            names += " " + p->name();
        return QStringLiteral("--panel: unknown panel (value %1); panels:%2")
            .arg(QString::fromStdString(orbit::quoteValue(o.panel.toStdString())), names);
    }
    if (!o.exportDir.isEmpty() && !w.currentPanel()->hasCharts()) {
        QString names;
        for (const Panel* p : w.panels())
            if (p->hasCharts())
                names += " " + p->name();
        return QStringLiteral("--export: the %1 panel has no charts; panels with charts:%2").arg(w.currentPanel()->name(), names);
    }
    if (o.presentation)
        w.presentationAction()->setChecked(true);
    w.show();
    if (o.size && w.size() != *o.size)  // its panels do not fit: say what was rendered
        std::fprintf(stderr, "orbitlab: --size: the window needs at least %dx%d; it is %dx%d (value %s)\n",
                     w.minimumWidth(), w.minimumHeight(), w.width(), w.height(),
                     orbit::quoteValue(o.sizeText.toStdString()).c_str());
    if (!o.exportDir.isEmpty()) {
        exportWhenIdle(o.exportDir, o.screenshot);
        return {};
    }
    if (o.screenshot.isEmpty()) {
        if (o.runGiven) {  // the window opens and starts the run, as its button would
            w.showPanel("training");
            w.trainingPanel()->runWhenDataReady(o.learn ? TrainingPanel::Action::Learn : TrainingPanel::Action::Train);
        }
        return {};
    }
    if (w.currentPanel() == w.trainingPanel() || o.runGiven) {
        // A Training screenshot shows results (or the evidence climbing), not settings; with --run
        // on another panel, that panel follows the Training panel's work (e.g. the Group panel's
        // sliders and density during a learn).
        w.trainingPanel()->runWhenDataReady(o.learn ? TrainingPanel::Action::Learn : TrainingPanel::Action::Train);
        connect(w.dataPanel(), &DataPanel::loadFailed, w.trainingPanel(), &TrainingPanel::dropPendingRun);
    }
    if (o.screenshotAt >= 0)
        screenshotAfter(o.screenshot, o.screenshotAt);
    else
        screenshotWhenIdle(o.screenshot, o.learn ? 600000 : 60000);
    return {};
}

void HeadlessRun::whenSettled(int timeoutMs, std::function<void(bool timedOut)> then)
{
    auto* timer = new QTimer(this);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    auto calm = std::make_shared<int>(0);
    connect(timer, &QTimer::timeout, this, [this, timer, clock, calm, timeoutMs, then] {
        *calm = window_->isIdle() ? *calm + 1 : 0;
        const bool timedOut = clock->elapsed() > timeoutMs;
        if (*calm < 4 && !timedOut)  // idle for four ticks in a row: results are drawn
            return;
        timer->stop();
        then(timedOut);
    });
    timer->start(100);
}

void HeadlessRun::screenshotWhenIdle(const QString& path, int timeoutMs)
{
    whenSettled(timeoutMs, [this, path, timeoutMs](bool timedOut) {
        const bool ok = window_->grab().save(path);
        if (!ok)
            qWarning("orbitlab: could not write the screenshot %s", qPrintable(path));
        if (timedOut)
            qWarning("orbitlab: the panels did not settle within %d ms; saved what was shown", timeoutMs);
        QApplication::exit(ok && !timedOut ? 0 : 1);
    });
}

void HeadlessRun::screenshotAfter(const QString& path, int delayMs)
{
    QTimer::singleShot(delayMs, this, [this, path] {
        const bool ok = window_->grab().save(path);
        if (!ok)
            qWarning("orbitlab: could not write the screenshot %s", qPrintable(path));
        QApplication::exit(ok ? 0 : 1);
    });
}

QStringList HeadlessRun::exportPanelCharts(const MainWindow& window, const Panel* p, const QString& dir, QString* error)
{
    QString failure;
    QStringList written;
    const DataPanel* data = window.dataPanel();
    if (!p || !p->hasCharts())
        failure = tr("the %1 panel has no charts").arg(p ? p->name() : QStringLiteral("current"));
    else if (!window.state()->dataset())
        failure = data->hasError() ? tr("no data: %1").arg(data->errorText()) : tr("no data loaded");
    else if (p->hasError())
        failure = tr("the %1 panel shows an error: %2").arg(p->name(), p->errorText());
    else {
        written = p->exportCharts(dir, &failure);
        if (written.isEmpty() && failure.isEmpty())
            failure = tr("the %1 panel drew no chart").arg(p->name());
    }
    if (!failure.isEmpty()) {
        if (error)
            *error = failure.simplified();  // one line
        return {};
    }
    return written;
}

void HeadlessRun::exportWhenIdle(const QString& dir, const QString& screenshot, int timeoutMs)
{
    MainWindow& w = *window_;
    Panel* p = w.currentPanel();
    // What a user would press (Run on Training; Compute where auto-apply is off): the panel's own
    // startForExport, when its registration has one (PanelDescriptor).
    if (const PanelDescriptor* d = p ? panelDescriptor(p->name()) : nullptr; d && d->startForExport) {
        ExportStart start;
        start.whenData = [this](std::function<void()> f) {
            if (window_->state()->dataset())
                f();
            else
                connect(window_->state(), &LabState::datasetChanged, this, std::move(f), Qt::SingleShotConnection);
        };
        start.ifLoadFails = [this, p](std::function<void()> f) {
            connect(window_->dataPanel(), &DataPanel::loadFailed, p, std::move(f));
        };
        d->startForExport(p, start);
    }
    whenSettled(timeoutMs, [this, p, dir, screenshot, timeoutMs](bool timedOut) {
        if (timedOut) {
            std::fprintf(stderr, "orbitlab: --export: the panels did not settle within %d s\n", timeoutMs / 1000);
            QApplication::exit(1);
            return;
        }
        if (!screenshot.isEmpty() && !window_->grab().save(screenshot)) {
            std::fprintf(stderr, "orbitlab: --screenshot: cannot write %s\n", qPrintable(safePath(screenshot)));
            QApplication::exit(1);
            return;
        }
        QString error;
        const QStringList written = exportPanelCharts(*window_, p, dir, &error);
        if (written.isEmpty()) {
            std::fprintf(stderr, "orbitlab: --export: %s\n", qPrintable(error));
            QApplication::exit(1);
            return;
        }
        for (const QString& path : written)
            std::fprintf(stdout, "%s\n", qPrintable(path));
        std::fflush(stdout);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "orbitlab: --export: %s\n", qPrintable(error));
            QApplication::exit(1);
            return;
        }
        QApplication::exit(0);
    });
}

} // namespace orbitui

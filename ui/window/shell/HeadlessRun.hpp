#pragma once
// The window as the command line starts it (StartOptions): the session, setting, lesson or data it
// opens and the panel it shows, and the runs without a user that exit by themselves: --screenshot
// (when the panels have settled, or --screenshot-at a time), --export (the panel's charts as CSV)
// and --run (what the Training panel starts for a screenshot).
#include "window/shell/StartOptions.hpp"

#include <QObject>
#include <QString>
#include <QStringList>

namespace orbitui {

class MainWindow;
class Panel;

class HeadlessRun : public QObject {
    Q_OBJECT
public:
    HeadlessRun(MainWindow* window, StartOptions options);

    /// Opens what the options name, shows the window and starts the screenshot or the export.
    /// Returns empty to go on (QApplication::exec), or the one line to print before exiting with
    /// status 2 (an unknown panel, a lesson that cannot start, an export of a panel without charts).
    QString start();

    /// Waits until idle (and the panels drew), grabs the window into `path` and calls
    /// QApplication::exit(0), or exit(1) if saving fails or nothing settles within `timeoutMs`.
    void screenshotWhenIdle(const QString& path, int timeoutMs = 60000);
    /// Renders the window into `path` after `delayMs`, busy or not (work in progress), and exits.
    void screenshotAfter(const QString& path, int delayMs);
    /// `orbitlab --export DIR --panel NAME` for the current panel (the one shown when it is called,
    /// even if a failed load later shows another): starts what it needs to draw (a Training run;
    /// Kernels and Approximation compute with auto-apply off too), waits until idle, saves the
    /// screenshot when `screenshot` is given, writes the panel's charts into `dir`
    /// (Panel::exportCharts), prints each path on stdout and calls QApplication::exit(0). With no
    /// data, an error shown in the panel, nothing drawn, a file that cannot be written or nothing
    /// settled within `timeoutMs`, it prints one line on stderr and exits with 1.
    void exportWhenIdle(const QString& dir, const QString& screenshot = {}, int timeoutMs = 600000);
    /// What exportWhenIdle writes once idle for `panel` of `window`: the written paths, or an empty
    /// list and `error` set (one line).
    static QStringList exportPanelCharts(const MainWindow& window, const Panel* panel, const QString& dir, QString* error);

private:
    /// Calls `then` once the window has been idle for four ticks in a row (100 ms each), or with
    /// timedOut when `timeoutMs` passes first.
    void whenSettled(int timeoutMs, std::function<void(bool timedOut)> then);

    MainWindow* window_;
    StartOptions options_;
};

} // namespace orbitui

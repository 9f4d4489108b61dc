#pragma once
// What `orbitlab` is started with: its command line, read and checked before the window opens.
//   orbitlab [--data FILE] [--session FILE] [--setting TEXT] [--run train|learn] [--screenshot PNG --panel NAME [--screenshot-at MS]]
//            [--export DIR --panel NAME] [--size WxH] [--presentation] [--lesson N|NAME [--step K]]
#include "state/Session.hpp"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace orbitui {

struct StartOptions {
    QString data;             ///< --data: a dataset to open
    QString session;          ///< --session: a session file to open
    std::optional<SessionState> setting;  ///< --setting, decoded
    QString panel;            ///< --panel: the panel to show
    QString screenshot;       ///< --screenshot: render the window into this PNG and exit
    int screenshotAt = -1;    ///< --screenshot-at: after this many ms, busy or not; -1: when idle
    QString exportDir;        ///< --export: write the panel's charts as CSV into this folder and exit
    bool learn = false;       ///< --run learn (else train): what the window starts (a Training screenshot: first)
    bool runGiven = false;    ///< --run was given: another panel's screenshot watches the run
    std::optional<QSize> size;  ///< --size
    QString sizeText;         ///< --size as given (quoted when the window cannot take that size)
    bool presentation = false;  ///< --presentation
    int lesson = -1;          ///< --lesson, an index of lessons(); -1: none
    int lessonStep = 0;       ///< --step - 1

    /// A screenshot or an export: reproducible, so it neither reads nor writes the saved geometry.
    bool headless() const { return !screenshot.isEmpty() || !exportDir.isEmpty(); }
};

/// Reads `arguments` (the whole argv, read before QApplication takes out what it knows). --help
/// and --version print and exit as QCommandLineParser does. A bad value gives nullopt and `error`,
/// one line naming the option and the value ("--size: expected WIDTHxHEIGHT ... (value '7')").
/// The export folder is created here, so that a folder that cannot be written is refused before
/// anything loads.
std::optional<StartOptions> parseStartOptions(const QStringList& arguments, QString* error);

/// Sets the application's organisation, name and version (QSettings, --help and --version read them);
/// needs only a QCoreApplication.
void nameApplication();
/// nameApplication() and the window icon (QApplication).
void identifyApplication();

} // namespace orbitui

#pragma once
// Nothing lost: the window's working state (state/WorkingState.hpp) captured from every panel,
// autosaved while the user works, written at a clean quit, reopened at the next start or, after an
// unclean exit, offered back; the session file in use and whether the setting differs from it (the
// title's [*]).
#include "state/LearnPicture.hpp"
#include "state/WorkingState.hpp"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QMessageBox;
class QTimer;

namespace orbitui {

class MainWindow;

class WorkingStateKeeper : public QObject {
    Q_OBJECT
public:
    /// Keeps `window`'s state in `directory` (Settings::stateDirectory). Without the folder's lock
    /// (another Orbit Lab runs) it keeps nothing and reopens nothing.
    WorkingStateKeeper(MainWindow* window, const QString& directory);

    StateStore* store() const { return store_; }
    bool active() const { return store_->holdsLock(); }

    /// Everything the window would restore, as it is now.
    WorkingState capture() const;
    /// Restores `state`: the session (a dataset that moved or vanished gets the Data panel's banner
    /// and the rest is kept), the lesson and its step, Learn locality's Undo, the session file.
    void apply(const WorkingState& state);

    /// At a start without --data, --session, --setting or --lesson: reopens what a clean quit left
    /// and returns true (false when it had no data: the caller opens the sample under its settings); after an unclean exit shows the recovery offer (recoveryOffer()) and returns
    /// true, its answer restoring or calling `startClean`; returns false when there is nothing (or a
    /// refused file: its one line is shown in the Data panel and on stderr) and the caller starts clean.
    bool reopen(const std::function<void()>& startClean);
    /// The recovery offer while it is shown (tests, screenshots).
    QMessageBox* recoveryOffer() const;

    /// The session file in use, its setting as opened or saved; the title follows.
    void setSessionFile(const QString& path, const SessionState& saved);
    QString sessionFile() const { return sessionFile_; }
    /// True when a session file is in use and the setting differs from it.
    bool isSessionModified() const;
    /// Forgets the session file (File ▸ New).
    void clearSessionFile();

    /// Checks for changes now (the timer does it every 500 ms): updates [*] and schedules an autosave
    /// when the state changed.
    void poll();
    /// The clean quit: stops the autosave and writes the state with cleanExit set.
    void finish();

private:
    void updateTitle();

    MainWindow* window_;
    StateStore* store_;
    QTimer* timer_;
    QString sessionFile_;
    std::optional<SessionState> savedSession_;
    QByteArray lastContent_;  ///< the content of the last state scheduled (without its time)
    qint64 changedAtMs_ = -1; ///< when an unsaved change was first seen (debounce)
    QByteArray seenContent_;
    QString learned_;         ///< the last learn's result in words (kept across restarts)
    QDateTime learnedAt_;
    LearnPicture learnPicture_;  ///< its chart as data
    QString trained_;            ///< the training result in words restored from an earlier session
    QPointer<QMessageBox> offer_;
    bool finished_ = false;
};

} // namespace orbitui

#pragma once
// The working state: what the window keeps across quit and crash. It is written into the per-user
// settings location (Settings::stateDirectory) atomically, while the user works (autosave, off the GUI
// thread) and once more at a clean quit; the next start reopens it, or after an unclean exit offers it
// back (window/shell/WorkingStateKeeper.hpp).
#include "state/AtomicWrite.hpp"
#include "state/LearnPicture.hpp"
#include "state/Session.hpp"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QLockFile>
#include <QObject>
#include <QString>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace orbitui {

/// Everything the window restores: the session (dataset path, every panel's setting, the A/B pin, the
/// panel), the session file in use and its content as last saved (so the title's [*] survives a
/// restart), the lesson and its step, the orbit settings Undo of Learn locality puts back, and the
/// last results: the learned values and evidence in words with the learn's chart as data, and the
/// training's metrics in words.
/// The Data panel's thumbnail sizes, in pixels (its slider's range).
inline constexpr int kMinThumbnailSize = 40;
inline constexpr int kMaxThumbnailSize = 200;

struct WorkingState {
    SessionState session;
    QString sessionFile;                  ///< the session file opened or saved last; empty: none
    std::optional<SessionState> savedSession;  ///< that file's setting as opened or saved
    int lesson = -1;                      ///< the lesson under way (an index of lessons()); -1: none
    int lessonStep = 0;
    std::optional<OrbitSettings> learnUndo;  ///< the orbit settings before the last learn
    QString learned;                      ///< the last learn's result (or a running one's best point)
    QDateTime learnedAt;                  ///< when it was reached (UTC); invalid: no learn
    LearnPicture learnPicture;            ///< its chart (a one-locality learn); empty: none
    QString trained;                      ///< the last training run's result, in words
    QString groupFactor;                  ///< the Group panel's plotted factor (affine); empty: the first
    int thumbnailSize = 0;                ///< the Data panel's thumbnail size in pixels; 0: the default
    QDateTime savedAt;                    ///< when this state was written (UTC)
    bool cleanExit = false;               ///< written by a clean quit (else by the autosave)

    /// True when a session file is in use and the setting differs from it (the panel shown aside).
    bool sessionModified() const;
};

/// {"format": "orbitlab-working-state", "version": 1, "session": {...a session...}, "session_file": ...,
/// "saved_session": {...}, "lesson": {"index", "step"}, "learn_undo": {...a session's orbit...},
/// "learned": {"text", "at", "picture": {...LearnPicture...}}, "trained": ..., "view": {"group_factor", "thumbnail_size"}, "saved_at":
/// ISO 8601, "clean_exit": bool}.
QJsonObject toJson(const WorkingState& w);
/// Throws orbit::SpecError naming the field ("session.orbit.r", "saved_at") and the value.
WorkingState workingStateFromJson(const QJsonObject& json);
/// The recovery offer's line: "digits.png, rotation, vonmises κ=7.5, r=16; learned 2 min before the
/// end" (the end: the last autosave, a few seconds before the crash at most).
QString describe(const WorkingState& w);

/// The working state's file in a folder of the per-user settings location, the lock that keeps a
/// second Orbit Lab from writing it at the same time, and the writer thread of the autosave.
///
/// Guarantees: the file is only ever replaced whole (writeAtomically); schedule() returns at once and
/// the newest scheduled state is written by the writer thread (older ones not yet written are
/// skipped); writeNow() returns once its state is on the disk.
class StateStore : public QObject {
    Q_OBJECT
public:
    explicit StateStore(QString directory, QObject* parent = nullptr);
    ~StateStore() override;  ///< waits for the write in progress

    QString directory() const { return directory_; }
    /// directory()/working-state.json
    QString filePath() const;

    /// Takes the folder's lock (creating the folder). False when another running Orbit Lab holds it:
    /// this one then neither reads nor writes the state.
    bool acquire();
    bool holdsLock() const { return lock_ && lock_->isLocked(); }

    /// What the last run left.
    struct Previous {
        enum class Kind { None, Clean, Unclean, Refused } kind = Kind::None;
        WorkingState state;
        QString message;  ///< Refused: one line naming the file and what is wrong
    };
    /// Reads the file (after acquire). A file that is not a readable working state is Refused and
    /// moved aside to working-state.json.bad, so the next start is clean.
    Previous readPrevious();

    /// Writes `state` on the writer thread, soon (latest wins).
    void schedule(const WorkingState& state);
    /// Writes `state` now and returns when it is on the disk (or failed: the message). After a state
    /// with cleanExit, schedule() writes nothing more.
    QString writeNow(const WorkingState& state);
    /// Completed writes (tests).
    int writes() const;

signals:
    /// An autosave could not be written (from the writer thread; queued to the receiver's).
    void writeFailed(const QString& message);

private:
    void writerLoop();

    QString directory_;
    std::unique_ptr<QLockFile> lock_;
    mutable std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::optional<QByteArray> pending_;
    bool writing_ = false, stop_ = false;
    bool sealed_ = false;  ///< GUI thread only
    int writes_ = 0;
    std::thread writer_;
};

} // namespace orbitui

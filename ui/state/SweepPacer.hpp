#pragma once
// The clock of parameter sweeps, one per LabState (of()): it knows which sweep is playing (one at a
// time: starting one stops the other) and which panels follow it. A panel that follows registers a
// "busy" test (follow()); the sweep applies its next frame only once every follower has drawn the
// last one, or computed it when the follower is hidden (Panel::isSweepFrameDone; whenSettled), so
// frames never pile up: a slow frame makes the animation wait.
#include <QObject>
#include <QPointer>

#include <functional>
#include <vector>

namespace orbitui {

class LabState;

class SweepPacer : public QObject {
    Q_OBJECT
public:
    /// The pacer of `state` (created on first use, a child of it).
    static SweepPacer* of(LabState* state);

    /// `busy` returns true while `owner` is still computing or drawing the last frame. Removed
    /// with `owner`.
    void follow(QObject* owner, std::function<bool()> busy);
    /// True when no follower is busy.
    bool isSettled() const;
    /// Calls `then` once every follower is settled (now when they are; else as soon as they are,
    /// checked every few ms, a PassScheduler job). A later call replaces an earlier one still waiting.
    void whenSettled(std::function<void()> then);
    /// Drops a waiting whenSettled callback.
    void cancelWait();

    bool isPlaying() const { return player_ != nullptr; }
    /// The sweep playing (a SweepControl), or null.
    QObject* player() const { return player_; }
    /// Marks `player` as the one playing (stops the previous one through stopRequested) or, with
    /// null, none.
    void setPlayer(QObject* player);

signals:
    /// A sweep started (true) or stopped (false).
    void playingChanged(bool playing);
    /// Asks `player` to stop (another sweep starts).
    void stopRequested(QObject* player);
    /// A frame of a sweep was applied and every follower drew it (value: the parameter's value).
    void frameSettled(QObject* player, int frame, double value);

private:
    explicit SweepPacer(QObject* parent);
    void poll();

    struct Follower {
        QPointer<QObject> owner;
        std::function<bool()> busy;
    };
    std::vector<Follower> followers_;
    std::function<void()> waiting_;
    QPointer<QObject> player_;
};

} // namespace orbitui

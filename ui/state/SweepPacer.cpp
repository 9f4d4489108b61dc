#include "state/SweepPacer.hpp"

#include "state/LabState.hpp"
#include "state/workers/PassScheduler.hpp"

namespace orbitui {

namespace {
constexpr int kPollMs = 5;
}

SweepPacer* SweepPacer::of(LabState* state)
{
    if (auto* p = state->findChild<SweepPacer*>(QString(), Qt::FindDirectChildrenOnly))
        return p;
    return new SweepPacer(state);
}

SweepPacer::SweepPacer(QObject* parent) : QObject(parent) {}

void SweepPacer::follow(QObject* owner, std::function<bool()> busy)
{
    followers_.push_back({owner, std::move(busy)});
}

bool SweepPacer::isSettled() const
{
    for (const Follower& f : followers_)
        if (f.owner && f.busy())
            return false;
    return true;
}

void SweepPacer::whenSettled(std::function<void()> then)
{
    waiting_ = std::move(then);
    PassScheduler::instance()->cancel(this, 0);
    poll();
}

void SweepPacer::cancelWait()
{
    waiting_ = nullptr;
    PassScheduler::instance()->cancel(this, 0);
}

void SweepPacer::poll()
{
    if (!waiting_)
        return;
    if (!isSettled()) {  // checked again in a few ms (the followers' work is paced by the same scheduler)
        PassScheduler::instance()->post(this, 0, [this] { poll(); }, kPollMs);
        return;
    }
    auto then = std::move(waiting_);
    waiting_ = nullptr;
    then();
}

void SweepPacer::setPlayer(QObject* player)
{
    if (player == player_)
        return;
    QObject* old = player_;
    player_ = player;
    if (old && player)
        emit stopRequested(old);  // the old sweep stops its clock; it no longer owns the pacer
    if ((old != nullptr) != (player != nullptr))
        emit playingChanged(player != nullptr);
}

} // namespace orbitui

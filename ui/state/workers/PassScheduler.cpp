#include "state/workers/PassScheduler.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <climits>

namespace orbitui {

namespace {

QPointer<PassScheduler> theScheduler;

/// Whether `object` is `scope` or lies under it.
bool isWithin(const QObject* object, const QObject* scope)
{
    for (const QObject* o = object; o; o = o->parent())
        if (o == scope)
            return true;
    return false;
}

} // namespace

PassScheduler* PassScheduler::instance()
{
    if (!theScheduler)
        theScheduler = new PassScheduler(QCoreApplication::instance());
    return theScheduler;
}

PassScheduler* PassScheduler::existing() { return theScheduler; }

PassScheduler::PassScheduler(QObject* parent) : QObject(parent), timer_(new QTimer(this))
{
    timer_->setSingleShot(true);
    // A due job runs in a pass of posted events after the timer's dispatch: what it posts (a chart's
    // scene updates) then comes in a later pass, with the event loop's timers between.
    connect(timer_, &QTimer::timeout, this, &PassScheduler::sweep);
}

qint64 PassScheduler::now()
{
    static QElapsedTimer clock;
    if (!clock.isValid())
        clock.start();
    return clock.elapsed();
}

void PassScheduler::post(QObject* owner, int slot, std::function<void()> job, int delayMs, Due due, int maxWaitMs)
{
    const qint64 t = now(), at = t + std::max(0, delayMs);
    if (slot != kAppend) {
        auto it = std::find_if(jobs_.begin(), jobs_.end(), [&](const Job& j) {
            return j.key == owner && j.slot == slot && j.owner;
        });
        if (it != jobs_.end()) {
            it->work = std::move(job);
            if (due == Due::Restart) {
                it->due = std::min(at, it->latest);
                it->ready = false;
                sweep();
            }
            return;
        }
    }
    const qint64 latest = maxWaitMs >= 0 ? t + maxWaitMs : LLONG_MAX;
    jobs_.push_back(Job{owner, owner, slot, std::min(at, latest), latest, 0, false, std::move(job)});
    sweep();
}

void PassScheduler::cancel(const QObject* owner, int slot)
{
    jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(),
                               [&](const Job& j) { return j.key == owner && (j.slot == slot || !j.owner); }),
                jobs_.end());
}

void PassScheduler::cancelAll(const QObject* owner)
{
    jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(), [&](const Job& j) { return j.key == owner || !j.owner; }),
                jobs_.end());
}

void PassScheduler::runNow(const QObject* owner)
{
    // Taken out first: a job that reads what its owner drew (Panel::drawn) must not run itself again.
    std::vector<Job> mine;
    for (auto it = jobs_.begin(); it != jobs_.end();) {
        if (it->key == owner && it->owner) {
            mine.push_back(std::move(*it));
            it = jobs_.erase(it);
        } else {
            ++it;
        }
    }
    std::stable_sort(mine.begin(), mine.end(), [](const Job& a, const Job& b) { return a.slot < b.slot; });
    for (Job& j : mine)
        if (j.owner)
            j.work();
}

bool PassScheduler::isPending(const QObject* owner, int slot) const
{
    return std::any_of(jobs_.begin(), jobs_.end(), [&](const Job& j) {
        return j.owner && j.key == owner && (slot == kAppend || j.slot == slot);
    });
}

bool PassScheduler::isIdle(const QObject* scope, const QObject* except) const
{
    for (const Job& j : jobs_)
        if (j.owner && isWithin(j.owner, scope) && !(except && isWithin(j.owner, except)))
            return false;
    for (const QPointer<const QObject>& r : busy_)
        if (r && isWithin(r, scope))
            return false;
    return true;
}

void PassScheduler::setBusy(const QObject* runner, bool busy)
{
    busy_.erase(std::remove_if(busy_.begin(), busy_.end(), [&](const QPointer<const QObject>& r) {
                    return !r || r == runner;
                }),
                busy_.end());
    if (busy)
        busy_.emplace_back(runner);
}

bool PassScheduler::hasBudget() const { return !charged_ || spentNs_ < budgetNs_; }

void PassScheduler::spend(const std::function<void()>& work)
{
    QElapsedTimer clock;
    clock.start();
    work();
    charge(clock.nsecsElapsed());
}

void PassScheduler::charge(qint64 ns)
{
    if (!charged_ && !resetPosted_) {
        // The first work of this pass: the next pass starts with a fresh budget (this reset is posted
        // before anything the pass posts from now on, so it runs first there).
        resetPosted_ = true;
        QMetaObject::invokeMethod(this, [this] {
            resetPosted_ = false;
            charged_ = false;
            spentNs_ = 0;
        }, Qt::QueuedConnection);
    }
    charged_ = true;
    spentNs_ += ns;
}

void PassScheduler::sweep()
{
    const qint64 t = now();
    // Due in the order of their time, the earlier first.
    std::vector<Job*> due;
    qint64 next = LLONG_MAX;
    for (Job& j : jobs_) {
        if (j.ready || !j.owner)
            continue;
        if (j.due <= t)
            due.push_back(&j);
        else
            next = std::min(next, j.due);
    }
    std::stable_sort(due.begin(), due.end(), [](const Job* a, const Job* b) { return a->due < b->due; });
    for (Job* j : due) {
        j->ready = true;
        j->order = nextOrder_++;
    }
    if (!due.empty())
        postPass();
    if (next == LLONG_MAX)
        timer_->stop();
    else
        timer_->start(static_cast<int>(std::max<qint64>(0, next - t)));
}

void PassScheduler::postPass()
{
    if (passPosted_)
        return;
    passPosted_ = true;
    QMetaObject::invokeMethod(this, &PassScheduler::runPass, Qt::QueuedConnection);
}

void PassScheduler::runPass()
{
    passPosted_ = false;
    jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(), [](const Job& j) { return !j.owner; }), jobs_.end());
    if (!hasBudget()) {  // the workers' answers spent this pass: the jobs wait for the next
        postPass();
        return;
    }
    // The jobs due when the pass began, in order; those they post wait for a later pass.
    std::vector<quint64> orders;
    for (const Job& j : jobs_)
        if (j.ready)
            orders.push_back(j.order);
    std::sort(orders.begin(), orders.end());
    if (!orders.empty())
        ++passes_;
    bool ran = false;
    for (quint64 order : orders) {
        if (ran && !hasBudget())
            break;
        auto it = std::find_if(jobs_.begin(), jobs_.end(), [&](const Job& j) { return j.ready && j.order == order; });
        if (it == jobs_.end() || !it->owner)  // cancelled (or its owner gone) meanwhile
            continue;
        std::function<void()> work = std::move(it->work);
        jobs_.erase(it);
        spend(work);
        ran = true;
    }
    if (std::any_of(jobs_.begin(), jobs_.end(), [](const Job& j) { return j.ready; }))
        postPass();
}

} // namespace orbitui

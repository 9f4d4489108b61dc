#pragma once
// The one way the window puts GUI-thread work off (issue 45 item 6): a job runs in a later pass of
// the event loop, and the passes are paced. Each pass spends at most about 5 ms of the GUI thread on
// jobs and on the workers' answers (TaskRunner charges its deliveries to the same budget); what is
// left waits for the next pass, with the event loop's timers, input and paints between. A job never
// is split: one job may start below the budget and run over it.
//
// A job belongs to an owner (a QObject) and, unless it is an `append` job, to a slot of it: posting
// to a busy slot replaces the job waiting there (the latest result is the one drawn). A job may wait
// `delayMs` before it is due; due jobs run in the order they became due, those of a pass in the order
// they were there when the pass began (a job posted by a job runs in a later pass).
//
// The scheduler also knows which TaskRunners are busy, so that isIdle(scope) is the one answer to
// "does anything under this object still have work pending": its jobs, its runners' requests and
// the draws its panels keep (Panel::whenInSight). There is one scheduler per application, on the
// GUI thread.
#include <QObject>
#include <QPointer>

#include <functional>
#include <vector>

class QTimer;

namespace orbitui {

class PassScheduler : public QObject {
    Q_OBJECT
public:
    /// The application's scheduler (a child of the QCoreApplication, created on first use).
    static PassScheduler* instance();
    /// The scheduler when there is one (null before the first use and after the application).
    static PassScheduler* existing();

    /// What a repeated post of the same slot does with the time the waiting job is due.
    enum class Due {
        Keep,     ///< keeps it: a steady stream of posts still runs (a kept draw)
        Restart,  ///< starts the delay again: posts within the delay coalesce (a debounce)
    };
    /// The slot of jobs that never replace one another (each answer of a stream).
    static constexpr int kAppend = -1;

    /// Runs `job` in a later pass, `delayMs` from now or later. With `slot` >= 0 it replaces the job
    /// waiting in (owner, slot), its due time as `due` says; a restarted job is due `maxWaitMs` after
    /// it was first posted at the latest (when >= 0), so that posts in a steady stream cannot put it
    /// off for ever. Dropped with `owner`.
    void post(QObject* owner, int slot, std::function<void()> job, int delayMs = 0, Due due = Due::Keep,
              int maxWaitMs = -1);
    /// Drops the job waiting in (owner, slot).
    void cancel(const QObject* owner, int slot);
    /// Drops every job of `owner`.
    void cancelAll(const QObject* owner);
    /// Runs every job of `owner` now, in order (those they post wait for a later pass).
    void runNow(const QObject* owner);
    /// Whether a job waits in (owner, slot); with kAppend, whether any job of `owner` waits.
    bool isPending(const QObject* owner, int slot = kAppend) const;

    /// Whether `scope` and everything under it (its QObject children, recursively) has nothing left
    /// to do: no waiting job and no busy TaskRunner. Jobs owned by `except` (or under it) are not
    /// counted.
    bool isIdle(const QObject* scope, const QObject* except = nullptr) const;
    /// A TaskRunner's busy state (TaskRunner::setBusy reports it).
    void setBusy(const QObject* runner, bool busy);

    /// Whether the current pass still has budget left.
    bool hasBudget() const;
    /// Runs `work` now and charges its GUI-thread time to the current pass.
    void spend(const std::function<void()>& work);
    /// The GUI-thread time one pass may spend (5 ms; tests set 0: one job per pass).
    void setPassBudget(qint64 nanoseconds) { budgetNs_ = nanoseconds; }
    qint64 passBudget() const { return budgetNs_; }
    static constexpr qint64 kDefaultPassBudgetNs = 5'000'000;
    /// How many passes have run jobs (diagnostics, tests).
    int passCount() const { return passes_; }

private:
    explicit PassScheduler(QObject* parent);

    struct Job {
        QPointer<QObject> owner;
        const QObject* key;  ///< the owner's address, to match after it is gone
        int slot;
        qint64 due;          ///< ms on clock(); ready once passed
        qint64 latest;       ///< the latest a restart may make `due`
        quint64 order;       ///< when it became due (ready jobs run by this)
        bool ready;
        std::function<void()> work;
    };
    static qint64 now();
    /// Marks the jobs whose time has come as ready, posts a pass when one is, and sets the timer
    /// for the next due job.
    void sweep();
    void postPass();
    void runPass();
    void charge(qint64 ns);

    std::vector<Job> jobs_;
    std::vector<QPointer<const QObject>> busy_;
    QTimer* timer_;
    quint64 nextOrder_ = 0;
    bool passPosted_ = false;
    bool resetPosted_ = false;
    bool charged_ = false;  ///< the current pass has spent something
    qint64 spentNs_ = 0;
    qint64 budgetNs_ = kDefaultPassBudgetNs;
    int passes_ = 0;
};

} // namespace orbitui

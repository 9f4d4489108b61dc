#pragma once
// The one worker pattern for all long work: a QObject on its own QThread runs tasks (a config
// struct captured by value in a callable), reports progress(id, fraction, text) and typed partial
// results partial(id, value) while it runs, and answers finished(id, result) or failed(id, message,
// field) (field: the core's name of the setting at fault, orbit::SpecError::field(), else empty);
// a cancel is announced as cancelled(id). TaskRunner, the GUI-side handle, gives every
// request an id, cancels the previous one through its std::atomic<bool>, and forwards only the
// answer of the latest request: a stale result never overwrites a newer one.
// Everything that crosses the two threads (requests one way, progress and answers the other)
// passes through one std::mutex-guarded Mailbox; the queued calls between the threads only wake
// the other side and carry no data. So the hand-off is a synchronisation our own code performs,
// visible to ThreadSanitizer (Qt's event-queue lock lives in an uninstrumented library).
#include "orbit/util/Progress.hpp"

#include <QObject>
#include <QString>
#include <QThread>
#include <QVariant>

#include <atomic>
#include <functional>
#include <memory>

namespace orbitui {

/// What a running task sees: its id, its cancel flag, a progress reporter and a way to hand over
/// partial results (each reaches the GUI as partial(id, value), in order, before the final answer).
struct TaskContext {
    quint64 id = 0;
    const std::atomic<bool>* cancelFlag = nullptr;
    std::function<void(double fraction, const QString& text)> progress;
    std::function<void(QVariant value)> partial;

    bool cancelled() const { return cancelFlag && cancelFlag->load(std::memory_order_relaxed); }
    /// Throws orbit::Cancelled when the request was cancelled or superseded.
    void throwIfCancelled() const;
    /// The core's progress callback for this task: the core's fraction f shows as lo + (hi - lo) f
    /// with the core's words, and it asks the core to stop when the task is cancelled. It refers to
    /// this context, so it must not outlive the task.
    orbit::Progress coreProgress(double lo = 0.0, double hi = 1.0) const;
};

/// A unit of long work. Runs on the worker thread; returns its result in a QVariant (throw to fail).
using Task = std::function<QVariant(const TaskContext&)>;

/// Requests and answers in flight between a TaskRunner and its Worker (defined in Worker.cpp).
struct Mailbox;

/// Lives on its own thread; runs one task at a time, in submission order. It takes requests from
/// the Mailbox it shares with its TaskRunner and posts progress and answers back to it.
class Worker : public QObject {
    Q_OBJECT
public:
    Worker(std::shared_ptr<Mailbox> mailbox, QObject* runner);
    /// Runs `task` unless `cancel` is already set; a cancelled task answers as cancelled, never as failed.
    void run(quint64 id, const Task& task, const std::shared_ptr<std::atomic<bool>>& cancel);

private slots:
    /// Takes the oldest request from the mailbox and runs it (one queued call per request).
    void runNext();

private:
    std::shared_ptr<Mailbox> mailbox_;
    QObject* runner_;  // the TaskRunner to wake; it outlives this thread's event loop
};

/// GUI-thread handle of one Worker and its thread. Latest request wins.
class TaskRunner : public QObject {
    Q_OBJECT
public:
    explicit TaskRunner(const QString& name, QObject* parent = nullptr);
    ~TaskRunner() override;

    /// Queues `task`, cancels the previous request and returns the new request id.
    quint64 submit(Task task);
    /// Cancels the latest request (emits cancelled(id) when one was running); its answer will be
    /// dropped, the partial results already delivered stay the receiver's.
    void cancel();
    /// True while the latest request has not been answered.
    bool busy() const { return busy_; }
    quint64 latestId() const { return latest_; }
    /// How many answers were dropped as stale (diagnostics, tests).
    int droppedCount() const { return dropped_; }

signals:
    void started(quint64 id);
    void progress(quint64 id, double fraction, const QString& text);
    /// A partial result of the latest request (only while it runs).
    void partial(quint64 id, const QVariant& value);
    /// The latest request was cancelled by cancel().
    void cancelled(quint64 id);
    void finished(quint64 id, const QVariant& result);
    /// `field` names the setting at fault in the core's words (orbit::SpecError::field(), e.g.
    /// "features.s"), so that the panel can point at its control; empty for other failures.
    void failed(quint64 id, const QString& message, const QString& field);
    /// Emitted whenever the busy state changes.
    void busyChanged(bool busy);

private slots:
    /// Takes the oldest answer from the mailbox (one queued call per answer) and forwards it
    /// when it belongs to the latest request. Its GUI-thread time is charged to the pass's budget
    /// (PassScheduler): an answer that comes later in a pass whose budget is spent waits for the
    /// next pass (the GUI thread stays responsive when many arrive at once), none is dropped.
    void deliver();

private:
    void deliverNext();
    bool isCurrent(quint64 id);
    void setBusy(bool busy);

    std::shared_ptr<Mailbox> mailbox_;
    QThread thread_;
    Worker* worker_ = nullptr;
    quint64 latest_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_;
    bool busy_ = false;
    int dropped_ = 0;
};

} // namespace orbitui

#include "state/workers/Worker.hpp"

#include "state/workers/PassScheduler.hpp"

#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>

#if defined(__linux__)
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace orbitui {

/// Requests (GUI -> worker) and answers (worker -> GUI), each in submission order.
/// Guarantees: both queues are touched only under `mutex`, so everything a request or an answer
/// carries is handed over with a happens-before edge of our own (not only Qt's event-queue lock).
struct Mailbox {
    struct Request {
        quint64 id;
        Task task;
        std::shared_ptr<std::atomic<bool>> cancel;
    };
    enum class Kind { Progress, Partial, Finished, Failed, Cancelled };
    struct Answer {
        Kind kind;
        quint64 id;
        double fraction = 0.0;
        QString text;
        QVariant result;
        QString field;  ///< Failed: the SpecError's field, if any
    };

    std::mutex mutex;
    std::deque<Request> requests;
    std::deque<Answer> answers;
};

namespace {

/// Takes the front of `queue` under the mailbox lock; empty when there is nothing.
template <class T>
std::optional<T> takeFront(Mailbox& box, std::deque<T>& queue)
{
    std::lock_guard<std::mutex> lock(box.mutex);
    if (queue.empty())
        return std::nullopt;
    std::optional<T> front(std::move(queue.front()));
    queue.pop_front();
    return front;
}

/// Appends `item` under the mailbox lock, then wakes `receiver` with a queued call of `slot`
/// (by name: Qt builds and frees that call inside its own library; it carries no data).
template <class T>
void putBack(Mailbox& box, std::deque<T>& queue, T item, QObject* receiver, const char* slot)
{
    {
        std::lock_guard<std::mutex> lock(box.mutex);
        queue.push_back(std::move(item));
    }
    QMetaObject::invokeMethod(receiver, slot, Qt::QueuedConnection);
}

} // namespace

void TaskContext::throwIfCancelled() const
{
    if (cancelled())
        throw orbit::Cancelled();
}

orbit::Progress TaskContext::coreProgress(double lo, double hi) const
{
    return [this, lo, hi](double fraction, const std::string& what) {
        progress(lo + (hi - lo) * fraction, QString::fromStdString(what));
        return cancelled();
    };
}

Worker::Worker(std::shared_ptr<Mailbox> mailbox, QObject* runner) : mailbox_(std::move(mailbox)), runner_(runner)
{
}

void Worker::runNext()
{
    if (std::optional<Mailbox::Request> request = takeFront(*mailbox_, mailbox_->requests))
        run(request->id, request->task, request->cancel);
}

void Worker::run(quint64 id, const Task& task, const std::shared_ptr<std::atomic<bool>>& cancel)
{
    using Kind = Mailbox::Kind;
    const auto answer = [this, id](Kind kind, double fraction, const QString& text, QVariant result,
                                   const QString& field = {}) {
        putBack(*mailbox_, mailbox_->answers, Mailbox::Answer{kind, id, fraction, text, std::move(result), field},
                runner_, "deliver");
    };
    if (cancel->load()) {
        answer(Kind::Cancelled, 0.0, {}, {});
        return;
    }
    TaskContext ctx;
    ctx.id = id;
    ctx.cancelFlag = cancel.get();
    ctx.progress = [answer](double fraction, const QString& text) { answer(Kind::Progress, fraction, text, {}); };
    ctx.partial = [answer](QVariant value) { answer(Kind::Partial, 0.0, {}, std::move(value)); };
    try {
        // Panels computing at once split the cores (orbit/util/ComputeBudget.hpp).
        const orbit::ComputeShare share;
        answer(Kind::Finished, 0.0, {}, task(ctx));
    } catch (const orbit::Cancelled&) {
        answer(Kind::Cancelled, 0.0, {}, {});
    } catch (const orbit::SpecError& e) {
        answer(Kind::Failed, 0.0, QString::fromUtf8(e.what()), {}, QString::fromStdString(e.field()));
    } catch (const std::exception& e) {
        answer(Kind::Failed, 0.0, QString::fromUtf8(e.what()), {});
    } catch (...) {
        answer(Kind::Failed, 0.0, QStringLiteral("unknown error"), {});
    }
}

namespace {

constexpr int kWorkerNiceIncrement = 4;

/// Raises the calling thread's nice value by `increment` (Linux: nice is per thread). Best effort.
void lowerThreadPriority(int increment)
{
#if defined(__linux__)
    const pid_t tid = static_cast<pid_t>(::syscall(SYS_gettid));
    errno = 0;
    const int current = ::getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
    if (errno == 0)
        ::setpriority(PRIO_PROCESS, static_cast<id_t>(tid), std::min(19, current + increment));
#else
    (void)increment;
#endif
}

} // namespace

TaskRunner::TaskRunner(const QString& name, QObject* parent)
    : QObject(parent), mailbox_(std::make_shared<Mailbox>())
{
    thread_.setObjectName(name);
    worker_ = new Worker(mailbox_, this);
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    // Runs on the new thread: a worker (and the OpenMP threads it starts, which inherit its nice
    // value) yields a core to the GUI thread whenever both want one.
    connect(&thread_, &QThread::started, worker_, [] { lowerThreadPriority(kWorkerNiceIncrement); }, Qt::DirectConnection);
    thread_.start();
}

TaskRunner::~TaskRunner()
{
    if (PassScheduler* scheduler = PassScheduler::existing())
        scheduler->setBusy(this, false);
    if (cancel_)
        cancel_->store(true);
    thread_.quit();
    thread_.wait();
}

void TaskRunner::deliver()
{
    PassScheduler* scheduler = PassScheduler::instance();
    if (!scheduler->hasBudget()) {
        // The answer stays first in the mailbox; busy() stays true until it is delivered.
        QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
        return;
    }
    scheduler->spend([this] { deliverNext(); });
}

void TaskRunner::deliverNext()
{
    const std::optional<Mailbox::Answer> answer = takeFront(*mailbox_, mailbox_->answers);
    if (!answer)
        return;
    switch (answer->kind) {
    case Mailbox::Kind::Progress:
        if (answer->id == latest_ && busy_)
            emit progress(answer->id, answer->fraction, answer->text);
        break;
    case Mailbox::Kind::Partial:
        if (answer->id == latest_ && busy_)
            emit partial(answer->id, answer->result);
        break;
    case Mailbox::Kind::Finished:
        if (isCurrent(answer->id)) {
            setBusy(false);
            emit finished(answer->id, answer->result);
        }
        break;
    case Mailbox::Kind::Failed:
        if (isCurrent(answer->id)) {
            setBusy(false);
            emit failed(answer->id, answer->text, answer->field);
        }
        break;
    case Mailbox::Kind::Cancelled:  // stopped by its own flag (cancel() has already announced it) or by the task
        if (isCurrent(answer->id)) {
            setBusy(false);
            emit cancelled(answer->id);
        }
        break;
    }
}

bool TaskRunner::isCurrent(quint64 id)
{
    if (id == latest_ && busy_)
        return true;
    ++dropped_;
    return false;
}

quint64 TaskRunner::submit(Task task)
{
    if (cancel_)
        cancel_->store(true);
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const quint64 id = ++latest_;
    putBack(*mailbox_, mailbox_->requests, Mailbox::Request{id, std::move(task), cancel_}, worker_, "runNext");
    setBusy(true);
    emit started(id);
    return id;
}

void TaskRunner::cancel()
{
    if (cancel_)
        cancel_->store(true);
    const bool wasRunning = busy_;
    setBusy(false);
    if (wasRunning)
        emit cancelled(latest_);
}

void TaskRunner::setBusy(bool busy)
{
    if (busy == busy_)
        return;
    busy_ = busy;
    PassScheduler::instance()->setBusy(this, busy);
    emit busyChanged(busy);
}

} // namespace orbitui

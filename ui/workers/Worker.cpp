#include "workers/Worker.hpp"

#include "orbit/util/Error.hpp"

#include <exception>

namespace orbitui {

void TaskContext::throwIfCancelled() const
{
    if (cancelled())
        throw orbit::Cancelled();
}

void Worker::run(quint64 id, const Task& task, std::shared_ptr<std::atomic<bool>> cancel)
{
    if (cancel->load()) {
        emit failed(id, QStringLiteral("cancelled"));
        return;
    }
    TaskContext ctx;
    ctx.id = id;
    ctx.cancelFlag = cancel.get();
    ctx.progress = [this, id](double fraction, const QString& text) { emit progress(id, fraction, text); };
    try {
        QVariant result = task(ctx);
        emit finished(id, result);
    } catch (const orbit::Cancelled&) {
        emit failed(id, QStringLiteral("cancelled"));
    } catch (const std::exception& e) {
        emit failed(id, QString::fromUtf8(e.what()));
    } catch (...) {
        emit failed(id, QStringLiteral("unknown error"));
    }
}

TaskRunner::TaskRunner(const QString& name, QObject* parent) : QObject(parent)
{
    thread_.setObjectName(name);
    worker_ = new Worker;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &Worker::progress, this, [this](quint64 id, double f, const QString& text) {
        if (id == latest_ && busy_)
            emit progress(id, f, text);
    });
    connect(worker_, &Worker::finished, this, [this](quint64 id, const QVariant& result) {
        if (isCurrent(id)) {
            setBusy(false);
            emit finished(id, result);
        }
    });
    connect(worker_, &Worker::failed, this, [this](quint64 id, const QString& message) {
        if (isCurrent(id)) {
            setBusy(false);
            emit failed(id, message);
        }
    });
    thread_.start();
}

TaskRunner::~TaskRunner()
{
    if (cancel_)
        cancel_->store(true);
    thread_.quit();
    thread_.wait();
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
    Worker* worker = worker_;
    QMetaObject::invokeMethod(
        worker, [worker, id, task = std::move(task), flag = cancel_]() { worker->run(id, task, flag); },
        Qt::QueuedConnection);
    setBusy(true);
    emit started(id);
    return id;
}

void TaskRunner::cancel()
{
    if (cancel_)
        cancel_->store(true);
    setBusy(false);
}

void TaskRunner::setBusy(bool busy)
{
    if (busy == busy_)
        return;
    busy_ = busy;
    emit busyChanged(busy);
}

} // namespace orbitui

#pragma once
// The GUI thread's heartbeat (bench_gui_stalls, the random-click driver): a 5 ms timer recording the
// largest gap between its ticks and the largest CPU time the GUI thread itself spent inside one gap
// ("busy": on a loaded machine a gap also holds time the thread waited for a core). And spinning the
// event loop until something is done.
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <ctime>
#include <functional>

namespace {

/// CPU time of the calling thread (ns).
qint64 threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// The heartbeat: a 5 ms timer on the GUI thread recording the largest gap between its ticks, and
/// the largest CPU time the GUI thread itself spent inside one gap (on a loaded machine a gap also
/// contains time the thread waited for a core; the CPU time is the work that blocked it).
class Heartbeat {
public:
    Heartbeat()
    {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(5);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const qint64 now = clock_.nsecsElapsed(), cpu = threadCpuNs();
            maxGap_ = std::max(maxGap_, now - last_);
            maxCpu_ = std::max(maxCpu_, cpu - lastCpu_);
            last_ = now;
            lastCpu_ = cpu;
        });
        clock_.start();
        timer_.start();
    }
    void reset()
    {
        last_ = clock_.nsecsElapsed();
        lastCpu_ = threadCpuNs();
        maxGap_ = maxCpu_ = 0;
    }
    /// Largest gap so far, including the one still open.
    double maxGapMs() const { return 1e-6 * double(std::max(maxGap_, clock_.nsecsElapsed() - last_)); }
    /// Largest GUI-thread CPU time inside one gap.
    double maxBusyMs() const { return 1e-6 * double(maxCpu_); }
    /// The timer whose timeouts are the ticks (what closes a gap, for an event log).
    const QObject* timer() const { return &timer_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0, maxGap_ = 0, lastCpu_ = 0, maxCpu_ = 0;
};

/// Spins the event loop (no sleeping outside it) until `done` or `timeoutMs`.
bool waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs) return false;
        QEventLoop loop;
        QTimer::singleShot(2, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

void spin(int ms)
{
    waitUntil([] { return false; }, ms);
}

} // namespace

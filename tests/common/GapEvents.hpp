#pragma once
// What a GUI-thread stall was made of (bench_gui_stalls, the random-click driver): an application
// that times the events the GUI thread delivers, and with a Heartbeat's timer also keeps the events
// of the busiest heartbeat gap by receiver and event type.
#include "Heartbeat.hpp"

#include <QApplication>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

/// Times every top-level event the GUI thread delivers (other threads' events pass through) (nested notify() calls count in their
/// parent) and keeps the slowest one since reset(): what a stall was made of. With watchGaps(heartbeat timer) it also keeps
/// the events of the heartbeat gap with the most GUI-thread CPU since reset(), by receiver and event type: a gap often
/// holds one batch of posted events, many small ones. setTiming(false) lets every event pass untimed.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override
    {
        if (!timing_ || QThread::currentThread() != thread()) return QApplication::notify(receiver, event);  // workers' events
        if (depth_++ > 0) {
            const bool r = QApplication::notify(receiver, event);
            --depth_;
            return r;
        }
        if (heartbeat_ && receiver == heartbeat_ && event->type() == QEvent::Timer)
            closeGap();
        // Named before delivery: the receiver may delete itself while handling the event.
        const char* className = receiver->metaObject()->className();
        const QString name = receiver->objectName().isEmpty() ? namedAncestor(receiver) : receiver->objectName();
        const int type = int(event->type());
        const qint64 t0 = threadCpuNs();
        const bool r = QApplication::notify(receiver, event);
        --depth_;
        const qint64 dt = threadCpuNs() - t0;
        const auto describe = [&] { return std::string(className) + " \"" + name.toStdString() + "\" event " + std::to_string(type); };
        if (dt > slowestNs_) {
            slowestNs_ = dt;
            slowest_ = describe();
        }
        if (heartbeat_) {
            auto& [count, ns] = gap_[describe()];
            ++count;
            ns += dt;
            gapNs_ += dt;
        }
        return r;
    }
    /// Keeps the events of the busiest gap between two timer events of `heartbeat` (the Heartbeat's timer).
    void watchGaps(const QObject* heartbeat) { heartbeat_ = heartbeat; }
    void setTiming(bool on) { timing_ = on; }
    void reset()
    {
        slowestNs_ = 0;
        slowest_.clear();
        gap_.clear();
        worstGap_.clear();
        gapNs_ = worstGapNs_ = 0;
    }
    std::string slowest() const { return slowest_ + " " + std::to_string(slowestNs_ / 100000 / 10.0).substr(0, 5) + " ms"; }
    /// The busiest gap's events: how many, their CPU time, and the `top` receivers and types with the most.
    std::string busiestGap(std::size_t top = 5)
    {
        closeGap();
        std::vector<std::pair<qint64, std::string>> byTime;
        int events = 0;
        for (const auto& [what, countNs] : worstGap_) {
            events += countNs.first;
            byTime.push_back({countNs.second, what + " x" + std::to_string(countNs.first)});
        }
        std::sort(byTime.rbegin(), byTime.rend());
        char head[96];
        std::snprintf(head, sizeof head, "%d events, %.1f ms:", events, worstGapNs_ * 1e-6);
        std::string out = head;
        for (std::size_t i = 0; i < std::min(top, byTime.size()); ++i) {
            char ms[32];
            std::snprintf(ms, sizeof ms, " %.1f ms ", byTime[i].first * 1e-6);
            out += (i ? ";" : "") + std::string(ms) + byTime[i].second;
        }
        return out;
    }

private:
    /// "in <name>" of the nearest of the 12 ancestors with an object name (which chart or panel an
    /// unnamed scene or widget belongs to), or "". Bounded: while an object is being reparented (a
    /// ChildAdded event in a chart's construction) its chain of parents can loop.
    static QString namedAncestor(const QObject* o)
    {
        int up = 0;
        for (const QObject* p = o->parent(); p && up < 12; p = p->parent(), ++up)
            if (!p->objectName().isEmpty())
                return "in " + p->objectName();
        return {};
    }

    void closeGap()
    {
        if (gapNs_ > worstGapNs_) {
            worstGapNs_ = gapNs_;
            worstGap_ = gap_;
        }
        gap_.clear();
        gapNs_ = 0;
    }

    bool timing_ = true;
    int depth_ = 0;
    qint64 slowestNs_ = 0;
    std::string slowest_;
    const QObject* heartbeat_ = nullptr;
    std::map<std::string, std::pair<int, qint64>> gap_, worstGap_;  // receiver and type -> events, CPU ns
    qint64 gapNs_ = 0, worstGapNs_ = 0;
};

} // namespace

// The worker pattern: tasks run off the GUI thread, a newer request cancels the older one, and
// only the latest request's answer reaches the GUI (a stale result never overwrites a newer one).
#include "state/workers/Worker.hpp"

#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSemaphore>
#include <QSignalSpy>
#include <QThread>
#include <QTest>
#include <QObject>
#include <QString>
#include <QVariant>
#include <omp.h>

#if defined(__linux__)
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <vector>

using namespace orbitui;

class TestWorker : public QObject {
    Q_OBJECT
private slots:
    void runsOffTheGuiThreadAndAnswers()
    {
        TaskRunner runner("test");
        QSignalSpy finished(&runner, &TaskRunner::finished);
        QThread* gui = QThread::currentThread();
        std::atomic<bool> offThread{false};
        const quint64 id = runner.submit([&](const TaskContext&) {
            offThread = QThread::currentThread() != gui;
            return QVariant(42);
        });
        QVERIFY(runner.busy());
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(offThread.load());
        QCOMPARE(finished[0][0].toULongLong(), id);
        QCOMPARE(finished[0][1].toInt(), 42);
        QVERIFY(!runner.busy());
    }
#if defined(__linux__)
    // A worker thread (and the OpenMP threads it starts) runs at a higher nice value than the GUI
    // thread, so the GUI gets a core first when both want one.
    void workerYieldsTheCoreToTheGui()
    {
        auto niceOfThisThread = [] {
            errno = 0;
            return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
        };
        const int gui = niceOfThisThread();
        TaskRunner runner("test");
        QSignalSpy finished(&runner, &TaskRunner::finished);
        std::atomic<int> worker{-100}, openmp{-100};
        runner.submit([&](const TaskContext&) {
            worker = niceOfThisThread();
#pragma omp parallel num_threads(2)
            if (omp_get_thread_num() == 1) openmp = niceOfThisThread();
            return QVariant();
        });
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(worker.load(), std::min(19, gui + 4));
        if (openmp.load() != -100)  // a second OpenMP thread ran (always, unless OpenMP is limited to one)
            QCOMPARE(openmp.load(), worker.load());
    }
#endif

    // Two panels computing at once share the process's threads instead of each starting a full
    // OpenMP team: while both tasks run, each region starts budget / 2 threads.
    void concurrentTasksShareTheComputeBudget()
    {
        orbit::setComputeBudget(4);
        TaskRunner a("a"), b("b");
        QSignalSpy doneA(&a, &TaskRunner::finished), doneB(&b, &TaskRunner::finished);
        std::atomic<int> bothRunning{0};
        auto task = [&](const TaskContext&) {
            omp_set_num_threads(8);  // this thread's own cap above the budget: the share decides
            ++bothRunning;
            for (int i = 0; i < 2000 && bothRunning.load() < 2; ++i) QThread::msleep(5);
            int team = 0;
#pragma omp parallel num_threads(orbit::teamSize())
            {
#pragma omp single
                team = omp_get_num_threads();
            }
            const QVariantList seen{orbit::activeComputations(), orbit::teamSize(), team};
            ++bothRunning;  // keep the share until the other task has measured too
            for (int i = 0; i < 2000 && bothRunning.load() < 4; ++i) QThread::msleep(5);
            return QVariant(seen);
        };
        a.submit(task);
        b.submit(task);
        QTRY_COMPARE_WITH_TIMEOUT(doneA.count() + doneB.count(), 2, 20000);
        for (const QSignalSpy* done : {&doneA, &doneB}) {
            const QVariantList seen = done->at(0).at(1).toList();
            QCOMPARE(seen.at(0).toInt(), 2);  // both shares alive
            QCOMPARE(seen.at(1).toInt(), 2);  // 4 threads between two computations
#ifdef _OPENMP
            QCOMPARE(seen.at(2).toInt(), 2);  // and the region really started 2
#else
            // A build without OpenMP (the ThreadSanitizer tree, ORBIT_OPENMP=OFF: libgomp is not
            // instrumented) compiles the region out: it runs on the calling thread alone.
            QCOMPARE(seen.at(2).toInt(), 1);
#endif
        }
        QTRY_COMPARE(orbit::activeComputations(), 0);  // shares end with their tasks
        orbit::setComputeBudget(0);
    }

    void staleResultIsDropped()
    {
        // The first request is running when the second arrives; it ignores its cancel flag and
        // finishes late. Only the second answer may come through.
        TaskRunner runner("test");
        QSignalSpy finished(&runner, &TaskRunner::finished);
        QSignalSpy failed(&runner, &TaskRunner::failed);
        QSemaphore started, gate;
        std::atomic<int> ran{0};
        const quint64 first = runner.submit([&](const TaskContext&) {
            started.release();
            gate.acquire();
            ++ran;
            return QVariant(QStringLiteral("old"));
        });
        QVERIFY(started.tryAcquire(1, 5000));
        const quint64 second = runner.submit([&](const TaskContext&) {
            ++ran;
            return QVariant(QStringLiteral("new"));
        });
        QVERIFY(second > first);
        gate.release();
        QTRY_COMPARE(finished.count(), 1);
        QTRY_COMPARE(ran.load(), 2);
        QTest::qWait(50);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished[0][0].toULongLong(), second);
        QCOMPARE(finished[0][1].toString(), QString("new"));
        QCOMPARE(failed.count(), 0);
        QVERIFY(runner.droppedCount() >= 1);
    }
    void supersededQueuedRequestsNeverRun()
    {
        TaskRunner runner("test");
        QSignalSpy finished(&runner, &TaskRunner::finished);
        QSemaphore started, gate;
        std::atomic<int> middleRan{0};
        runner.submit([&](const TaskContext&) {
            started.release();
            gate.acquire();
            return QVariant(1);
        });
        QVERIFY(started.tryAcquire(1, 5000));
        runner.submit([&](const TaskContext&) {
            ++middleRan;
            return QVariant(2);
        });
        const quint64 last = runner.submit([](const TaskContext&) { return QVariant(3); });
        gate.release();
        QTRY_COMPARE(finished.count(), 1);
        QTest::qWait(50);
        QCOMPARE(middleRan.load(), 0);
        QCOMPARE(finished[0][0].toULongLong(), last);
        QCOMPARE(finished[0][1].toInt(), 3);
    }
    void runningTaskSeesItsCancelFlag()
    {
        TaskRunner runner("test");
        QSignalSpy failed(&runner, &TaskRunner::failed);
        std::atomic<bool> sawCancel{false};
        QSemaphore started;
        runner.submit([&](const TaskContext& ctx) {
            started.release();
            while (!ctx.cancelled())
                QThread::msleep(1);
            sawCancel = true;
            ctx.throwIfCancelled();
            return QVariant();
        });
        QVERIFY(started.tryAcquire(1, 5000));
        runner.cancel();
        QTRY_VERIFY(sawCancel.load());
        QVERIFY(!runner.busy());
        QTest::qWait(50);
        QCOMPARE(failed.count(), 0);  // the cancelled request's answer is dropped too
    }
    void aTaskThatStopsItselfIsCancelledNotFailed()
    {
        // Cancellation is a signal of its own, never a "cancelled" message for panels to compare.
        TaskRunner runner("test");
        QSignalSpy failed(&runner, &TaskRunner::failed);
        QSignalSpy cancelled(&runner, &TaskRunner::cancelled);
        const quint64 id = runner.submit([](const TaskContext&) -> QVariant { throw orbit::Cancelled(); });
        QTRY_COMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled[0][0].toULongLong(), id);
        QVERIFY(!runner.busy());
        QTest::qWait(50);
        QCOMPARE(failed.count(), 0);
        // cancel() announces it once; the worker's own answer that follows is dropped.
        QSemaphore started;
        runner.submit([&](const TaskContext& ctx) {
            started.release();
            while (!ctx.cancelled()) QThread::msleep(1);
            ctx.throwIfCancelled();
            return QVariant();
        });
        QVERIFY(started.tryAcquire(1, 5000));
        runner.cancel();
        QTest::qWait(100);
        QCOMPARE(cancelled.count(), 2);
        QCOMPARE(failed.count(), 0);
    }
    void failuresCarryTheMessage()
    {
        TaskRunner runner("test");
        QSignalSpy failed(&runner, &TaskRunner::failed);
        const quint64 id = runner.submit([](const TaskContext&) -> QVariant {
            throw orbit::SpecError("distribution vonmises.kappa", "must be >= 0", "-1");
        });
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed[0][0].toULongLong(), id);
        const QString message = failed[0][1].toString();
        QVERIFY2(message.contains("vonmises.kappa") && message.contains("-1"), qPrintable(message));
        // The field travels beside the message, for the panel to find its control.
        QCOMPARE(failed[0][2].toString(), QString("distribution vonmises.kappa"));
        // Other failures name no field.
        runner.submit([](const TaskContext&) -> QVariant { throw std::runtime_error("disk full"); });
        QTRY_COMPARE(failed.count(), 2);
        QCOMPARE(failed[1][1].toString(), QString("disk full"));
        QVERIFY(failed[1][2].toString().isEmpty());
    }
    void progressOfTheLatestRequestIsForwarded()
    {
        TaskRunner runner("test");
        QSignalSpy progress(&runner, &TaskRunner::progress);
        QSignalSpy finished(&runner, &TaskRunner::finished);
        runner.submit([](const TaskContext& ctx) {
            ctx.progress(0.5, "half");
            return QVariant(true);
        });
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(progress.count(), 1);
        QCOMPARE(progress[0][1].toDouble(), 0.5);
        QCOMPARE(progress[0][2].toString(), QString("half"));
    }
    // Answers that arrive together (a lesson start: every panel's) are not all handled in one pass of
    // the GUI thread's event loop: once a pass has spent its budget (5 ms) on answers, the next answer
    // waits for the next pass, with timers and paints between them. None is lost or reordered, and the
    // runner stays busy until its answer is delivered.
    void answersBeyondAPassBudgetWaitForTheNextPass()
    {
        TaskRunner slow("slow"), second("second"), third("third");
        QSemaphore answered;
        auto quick = [&](int value) {
            return [&answered, value](const TaskContext&) {
                answered.release();
                return QVariant(value);
            };
        };
        std::vector<int> order;
        connect(&slow, &TaskRunner::finished, this, [&](quint64, const QVariant& v) {
            QElapsedTimer spin;  // a draw that takes 8 ms of the GUI thread
            spin.start();
            while (spin.nsecsElapsed() < 8'000'000) {
            }
            order.push_back(v.toInt());
        });
        for (TaskRunner* r : {&second, &third})
            connect(r, &TaskRunner::finished, this, [&](quint64, const QVariant& v) { order.push_back(v.toInt()); });
        QCoreApplication::sendPostedEvents();  // nothing of an earlier pass left
        slow.submit(quick(1));
        QVERIFY(answered.tryAcquire(1, 10000));
        QThread::msleep(50);  // the slow runner's answer is posted first
        second.submit(quick(2));
        third.submit(quick(3));
        QVERIFY(answered.tryAcquire(2, 10000));
        QThread::msleep(200);  // the answers are posted right after their tasks return
        QCoreApplication::sendPostedEvents();  // one pass: the slow answer spends the budget
        QCOMPARE(order, std::vector<int>{1});
        QVERIFY(!slow.busy());
        QVERIFY(second.busy());
        QVERIFY(third.busy());
        // Later passes (the next one, unless a loaded machine posted an answer late).
        QTRY_VERIFY(!second.busy() && !third.busy());
        std::sort(order.begin() + 1, order.end());  // the two quick workers answer in either order
        QCOMPARE(order, (std::vector<int>{1, 2, 3}));
        QVERIFY(!second.busy());
        QVERIFY(!third.busy());
    }
};

QTEST_GUILESS_MAIN(TestWorker)
#include "test_worker.moc"

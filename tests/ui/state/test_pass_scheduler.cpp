// The one way the window defers GUI-thread work (PassScheduler, issue 45 item 6): jobs run in a later
// pass of the event loop, in the order they became due; the passes are paced by a budget shared with
// the workers' answers; a slot's job is replaced by a newer one; cancelled jobs and the jobs of a
// destroyed owner never run; isIdle(scope) is false while anything under the scope is pending (a job,
// a busy TaskRunner) and true after. One call of QCoreApplication::sendPostedEvents() is one pass: it
// delivers the events posted before it began.
#include "state/workers/PassScheduler.hpp"
#include "state/workers/Worker.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QObject>
#include <QSemaphore>
#include <QTest>

#include <memory>
#include <string>

using namespace orbitui;

class TestPassScheduler : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        QCoreApplication::sendPostedEvents();  // nothing of an earlier test left
        scheduler()->setPassBudget(PassScheduler::kDefaultPassBudgetNs);
    }

    void jobsRunInALaterPassInTheOrderPosted()
    {
        QObject a, b;
        std::string log;
        scheduler()->post(&a, 0, [&] { log += "a0 "; });
        scheduler()->post(&b, PassScheduler::kAppend, [&] { log += "b "; });
        scheduler()->post(&a, 1, [&] { log += "a1 "; });
        scheduler()->post(&b, PassScheduler::kAppend, [&] { log += "b' "; });  // appended, not replaced
        QCOMPARE(log, std::string());  // never at once
        QVERIFY(scheduler()->isPending(&a, 0));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(log, std::string("a0 b a1 b' "));
        QVERIFY(!scheduler()->isPending(&a));
        QVERIFY(!scheduler()->isPending(&b));
    }

    void aSlotKeepsOnlyTheLatestJobInItsPlace()
    {
        QObject a, b;
        std::string log;
        scheduler()->post(&a, 0, [&] { log += "old "; });
        scheduler()->post(&b, 0, [&] { log += "b "; });
        scheduler()->post(&a, 0, [&] { log += "new "; });  // replaces "old", keeps its turn
        QCoreApplication::sendPostedEvents();
        QCOMPARE(log, std::string("new b "));
    }

    void aJobPostedByAJobWaitsForTheNextPass()
    {
        QObject a;
        std::string log;
        scheduler()->post(&a, 0, [&] {
            log += "first ";
            scheduler()->post(&a, 1, [&] { log += "second "; });
        });
        QCoreApplication::sendPostedEvents();
        QCOMPARE(log, std::string("first "));
        QVERIFY(scheduler()->isPending(&a, 1));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(log, std::string("first second "));
    }

    // A pass runs jobs until its budget is spent (at least one), the rest in later passes: with a
    // budget of 0, one job per pass.
    void passesArePacedByTheBudget()
    {
        scheduler()->setPassBudget(0);
        QObject a;
        int ran = 0;
        for (int slot = 0; slot < 3; ++slot)
            scheduler()->post(&a, slot, [&] { ++ran; });
        const int passes = scheduler()->passCount();
        for (int pass = 1; pass <= 3; ++pass) {
            QCoreApplication::sendPostedEvents();
            QCOMPARE(ran, pass);
        }
        QCOMPARE(scheduler()->passCount(), passes + 3);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(ran, 3);
        QVERIFY(!scheduler()->isPending(&a));
    }

    // The default budget (5 ms): a job that spends more keeps the next for a later pass.
    void aSlowJobSpendsThePass()
    {
        QObject a;
        std::string log;
        scheduler()->post(&a, 0, [&] {
            QElapsedTimer spin;  // a draw that takes 8 ms of the GUI thread
            spin.start();
            while (spin.nsecsElapsed() < 8'000'000) {
            }
            log += "slow ";
        });
        scheduler()->post(&a, 1, [&] { log += "quick "; });
        QCoreApplication::sendPostedEvents();
        QCOMPARE(log, std::string("slow "));
        QTRY_COMPARE(log, std::string("slow quick "));
    }

    // The workers' answers spend the same budget: a job waits for a pass the answers left budget in.
    void answersAndJobsShareThePass()
    {
        QObject a;
        TaskRunner runner("answer");
        QSemaphore answered;
        bool jobRan = false, answerFirst = false;
        connect(&runner, &TaskRunner::finished, this, [&] {
            QElapsedTimer spin;
            spin.start();
            while (spin.nsecsElapsed() < 8'000'000) {
            }
            answerFirst = !jobRan;
        });
        runner.submit([&answered](const TaskContext&) {
            answered.release();
            return QVariant(1);
        });
        QVERIFY(answered.tryAcquire(1, 10000));
        QThread::msleep(100);  // the answer is posted right after the task returns
        scheduler()->post(&a, 0, [&] { jobRan = true; });
        QCoreApplication::sendPostedEvents();  // the answer, then the job finds the pass spent
        QVERIFY(!runner.busy());
        QVERIFY(answerFirst);
        QVERIFY(!jobRan);
        QTRY_VERIFY(jobRan);
    }

    void cancelledJobsAndThoseOfADestroyedOwnerNeverRun()
    {
        QObject a;
        auto gone = std::make_unique<QObject>();
        std::string log;
        scheduler()->post(&a, 0, [&] { log += "a0 "; });
        scheduler()->post(&a, 1, [&] { log += "a1 "; });
        scheduler()->post(&a, 2, [&] { log += "a2 "; });
        scheduler()->post(gone.get(), 0, [&] { log += "gone "; });
        scheduler()->cancel(&a, 1);
        gone.reset();
        QCoreApplication::sendPostedEvents();
        QCOMPARE(log, std::string("a0 a2 "));
        scheduler()->post(&a, 0, [&] { log += "x "; });
        scheduler()->post(&a, 1, [&] { log += "y "; });
        scheduler()->cancelAll(&a);
        QVERIFY(!scheduler()->isPending(&a));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(log, std::string("a0 a2 "));
    }

    // runNow (Panel::drawKept): the owner's jobs at once, by slot; others wait.
    void runNowRunsAnOwnersJobsAtOnce()
    {
        QObject a, b;
        std::string log;
        scheduler()->post(&a, 2, [&] { log += "a2 "; });
        scheduler()->post(&b, 0, [&] { log += "b "; });
        scheduler()->post(&a, 1, [&] { log += "a1 "; }, 600000);  // not due for ten minutes
        scheduler()->runNow(&a);
        QCOMPARE(log, std::string("a1 a2 "));
        QVERIFY(!scheduler()->isPending(&a));
        QVERIFY(scheduler()->isPending(&b));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(log, std::string("a1 a2 b "));
    }

    // A delay: the job is due only after it. Due::Restart moves the time on with each post (a
    // debounce), Due::Keep does not (a steady stream still runs).
    void delayedJobsRunOnceDue()
    {
        QObject a;
        int kept = 0, debounced = 0;
        scheduler()->post(&a, 0, [&] { ++kept; }, 600000, PassScheduler::Due::Keep);
        scheduler()->post(&a, 1, [&] { ++debounced; }, 20, PassScheduler::Due::Restart);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(kept + debounced, 0);
        scheduler()->post(&a, 1, [&] { debounced += 10; }, 20, PassScheduler::Due::Restart);
        QTRY_COMPARE(debounced, 10);  // the later job alone
        QCOMPARE(kept, 0);
        QVERIFY(scheduler()->isPending(&a, 0));
        scheduler()->cancel(&a, 0);
    }

    // A restarted job with a longest wait: posts that each restart a ten-minute delay still let it
    // run once 100 ms have passed since the first post; without a longest wait they keep it waiting.
    void aSteadyStreamOfRestartsStillRunsAfterTheLongestWait()
    {
        QObject a;
        int capped = 0, uncapped = 0;
        QElapsedTimer clock;
        clock.start();
        qint64 ranAt = -1;
        auto postBoth = [&] {
            scheduler()->post(&a, 0, [&] { ++capped; ranAt = clock.elapsed(); }, 600000, PassScheduler::Due::Restart, 100);
            scheduler()->post(&a, 1, [&] { ++uncapped; }, 600000, PassScheduler::Due::Restart);
        };
        postBoth();
        while (capped == 0 && clock.elapsed() < 10000) {
            QTest::qWait(5);
            if (capped == 0)
                postBoth();
        }
        QCOMPARE(capped, 1);
        // The scheduler's clock counts whole milliseconds from its own start: a job posted at 5.9 ms
        // (read as 5) with a 100 ms cap is due at 105.0, 99.1 ms later. One millisecond is the clock's grain.
        QVERIFY2(ranAt >= 99, qPrintable(QString::number(ranAt)));
        QCOMPARE(uncapped, 0);
        QVERIFY(scheduler()->isPending(&a, 1));
        scheduler()->cancelAll(&a);
    }

    void isIdleWaitsOnEverythingUnderTheScope()
    {
        QObject panel;
        auto* child = new QObject(&panel);
        auto* runner = new TaskRunner("idle", child);
        QObject elsewhere;
        QVERIFY(scheduler()->isIdle(&panel));
        // A job of something under the scope.
        scheduler()->post(child, 0, [] {});
        scheduler()->post(&elsewhere, 0, [] {}, 600000);
        QVERIFY(!scheduler()->isIdle(&panel));
        QVERIFY(!scheduler()->isIdle(child));
        QCoreApplication::sendPostedEvents();
        QVERIFY(scheduler()->isIdle(&panel));  // the other object's job is not the panel's
        QVERIFY(!scheduler()->isIdle(&elsewhere));
        scheduler()->cancelAll(&elsewhere);
        // A busy runner under the scope, until its answer is delivered.
        QSemaphore go;
        runner->submit([&go](const TaskContext&) {
            go.acquire();
            return QVariant(1);
        });
        QVERIFY(!scheduler()->isIdle(&panel));
        go.release();
        QTRY_VERIFY(!runner->busy());
        QVERIFY(scheduler()->isIdle(&panel));
        // Cancelled: idle at once.
        runner->submit([](const TaskContext& ctx) {
            while (!ctx.cancelled())
                QThread::msleep(1);
            return QVariant();
        });
        QVERIFY(!scheduler()->isIdle(&panel));
        runner->cancel();
        QVERIFY(scheduler()->isIdle(&panel));
    }

private:
    static PassScheduler* scheduler() { return PassScheduler::instance(); }
};

QTEST_MAIN(TestPassScheduler)
#include "test_pass_scheduler.moc"

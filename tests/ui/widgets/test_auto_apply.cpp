// The Auto-apply toggle: a change recomputes once, shortly after, in sight or not (Panel::whenInSight);
// the recomputation, a PassScheduler job, runs in a pass of posted events after the timer's dispatch (what it posts, the charts'
// scene updates, then waits for a later pass, with the GUI thread's heartbeat between them, issue 32),
// and the control counts as scheduled until it has run.
#include "widgets/AutoApplyControl.hpp"

#include "state/workers/PassScheduler.hpp"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QObject>
#include <QPushButton>
#include <QWidget>

using namespace orbitui;

namespace {

/// Marks the delivery of a timer's Timer events: `delivering` is true from the event until the next
/// pass of posted events (what the timer's handler posts runs after the mark is cleared).
class TimerWatch : public QObject {
public:
    bool delivering = false;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Timer) {
            delivering = true;
            QMetaObject::invokeMethod(this, [this] { delivering = false; }, Qt::QueuedConnection);
        }
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

class TestAutoApply : public QObject {
    Q_OBJECT
private slots:
    void aChangeRecomputesOnceAfterTheTimersDispatch()
    {
        QWidget host;
        auto* control = new AutoApplyControl(&host, 20, &host);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        QTimer* timer = PassScheduler::instance()->findChild<QTimer*>();
        QVERIFY(timer);
        TimerWatch watch;
        timer->installEventFilter(&watch);
        int computed = 0;
        bool inTimerDispatch = false, scheduledUntilRun = true;
        connect(control, &AutoApplyControl::applyRequested, this, [&] {
            ++computed;
            inTimerDispatch = watch.delivering;
        });
        control->markChanged();
        control->markChanged();  // coalesced
        QVERIFY(control->isScheduled());
        QVERIFY(QTest::qWaitFor([&] {
            if (computed == 0 && !control->isScheduled())
                scheduledUntilRun = false;
            return computed > 0;
        }, 5000));
        QTest::qWait(60);
        QCOMPARE(computed, 1);
        QVERIFY(!inTimerDispatch);
        QVERIFY(scheduledUntilRun);
        QVERIFY(!control->isScheduled());
        QVERIFY(!control->isStale());
    }

    void computeBeforeThePostedRunRunsOnce()
    {
        QWidget host;
        auto* control = new AutoApplyControl(&host, 1, &host);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        int computed = 0;
        connect(control, &AutoApplyControl::applyRequested, this, [&] { ++computed; });
        control->markChanged();
        QTimer* timer = PassScheduler::instance()->findChild<QTimer*>();
        QVERIFY(timer && timer->isActive());
        // The timer's dispatch alone (its timeout, no pass of posted events after it): the
        // recomputation is posted, not run.
        timer->stop();
        QThread::msleep(5);  // past the 1 ms delay
        QVERIFY(QMetaObject::invokeMethod(timer, "timeout", Qt::DirectConnection));
        QCOMPARE(computed, 0);
        QVERIFY(control->isScheduled());
        control->computeButton()->click();  // the user's Compute first
        QCOMPARE(computed, 1);
        QVERIFY(!control->isScheduled());
        QCoreApplication::sendPostedEvents();
        QCOMPARE(computed, 1);  // the posted run found nothing to do
    }

    // The one rule for hidden panels: a hidden host recomputes too (its draws wait, Panel::whenInSight).
    void aHiddenHostRecomputes()
    {
        QWidget host;
        auto* control = new AutoApplyControl(&host, 1, &host);
        int computed = 0;
        connect(control, &AutoApplyControl::applyRequested, this, [&] { ++computed; });
        QVERIFY(!host.isVisible());
        control->markChanged();
        QVERIFY(control->isScheduled());
        QVERIFY(!PassScheduler::instance()->isIdle(&host));
        QTRY_COMPARE(computed, 1);
        QVERIFY(PassScheduler::instance()->isIdle(&host));
        control->applyNow();  // a sweep's frame: at once, hidden or not
        QCOMPARE(computed, 2);
    }
};

QTEST_MAIN(TestAutoApply)
#include "test_auto_apply.moc"

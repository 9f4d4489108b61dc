// Background work as a panel shows it: the bar and Cancel of TaskProgress show only for work that
// runs for a moment (no flicker while a slider redraws), and Cancel (or Esc) says so; a hidden
// panel keeps its workers' results as draws that run when it is shown, when the drawn state is read,
// or after a delay, paced over passes of the event loop (Panel::whenInSight, PassScheduler).
#include "state/workers/PassScheduler.hpp"
#include "widgets/FractionBar.hpp"
#include "widgets/Panel.hpp"
#include "widgets/TaskProgress.hpp"

#include <QKeySequence>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QObject>
#include <QString>
#include <QVBoxLayout>
#include <QWidget>

#include <vector>

using namespace orbitui;

namespace {

/// A panel whose draws record themselves: `shown` is what a draw put on screen, in order.
class RecordingPanel : public Panel {
public:
    RecordingPanel() : Panel("recording", "Recording") {}
    std::vector<QString> shown;
    /// Whether a pass of posted events ran between the last two draws.
    std::vector<bool> passBetween;
    bool passEnded = true;
    void result(int slot, const QString& what)
    {
        whenInSight(slot, [this, what] {
            shown.push_back(what);
            passBetween.push_back(passEnded);
            passEnded = false;
            QMetaObject::invokeMethod(this, [this] { passEnded = true; }, Qt::QueuedConnection);
        });
    }
    void failure(int slot) { dropKept(slot); }
    const std::vector<QString>& drawnState() const { return drawn(shown); }
};

} // namespace

class TestTaskProgress : public QObject {
    Q_OBJECT
private slots:
    void quickWorkNeverShowsTheBarLongWorkDoes()
    {
        QWidget host;
        auto* progress = new TaskProgress("Stop it.", true);
        (new QVBoxLayout(&host))->addWidget(progress);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        QVERIFY(!progress->isVisible());
        // Work that ends within the delay: the bar never shows.
        progress->setRunning(true);
        QTest::qWait(TaskProgress::kShowDelayMs / 5);
        progress->setRunning(false);
        QTest::qWait(2 * TaskProgress::kShowDelayMs);
        QVERIFY(!progress->isVisible());
        // Work that runs on: shown after the delay, at 0, then the worker's fraction and words.
        progress->setRunning(true);
        QVERIFY(!progress->isVisible());
        QTRY_VERIFY(progress->isVisible());
        QCOMPARE(progress->bar()->fraction(), 0.0);
        progress->setFraction(0.25, "drawing 1/4");
        QCOMPARE(progress->bar()->fraction(), 0.25);
        QCOMPARE(progress->bar()->toolTip(), QString("drawing 1/4"));
        QVERIFY(progress->cancelButton()->toolTip().contains("Esc"));
        // Cancel and Esc ask; the owner stops the work and says it is over.
        QSignalSpy cancel(progress, &TaskProgress::cancelClicked);
        QTest::mouseClick(progress->cancelButton(), Qt::LeftButton);
        QCOMPARE(cancel.count(), 1);
        QCOMPARE(progress->cancelButton()->shortcut(), QKeySequence(QKeySequence::Cancel));
        progress->setRunning(false);
        QVERIFY(!progress->isVisible());
    }

    void aHiddenPanelKeepsTheLatestDrawPerSlotUntilShown()
    {
        QWidget window;
        auto* panel = new RecordingPanel;
        (new QVBoxLayout(&window))->addWidget(panel);
        panel->setKeptDrawDelay(600000);  // only shown or read
        panel->hide();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        panel->result(0, "orbit 1");
        panel->result(0, "orbit 2");  // replaces orbit 1
        panel->result(1, "probe 1");
        QVERIFY(panel->hasKeptDraws());
        QVERIFY(panel->shown.empty());
        panel->show();  // the kept draws run before it is painted, in slot order
        QCOMPARE(panel->shown, (std::vector<QString>{"orbit 2", "probe 1"}));
        QVERIFY(!panel->hasKeptDraws());
        // In sight: drawn at once.
        panel->result(0, "orbit 3");
        QCOMPARE(panel->shown.back(), QString("orbit 3"));
        // Hidden again: reading the drawn state runs the kept draws first; a failure drops its slot's.
        panel->hide();
        panel->result(0, "orbit 4");
        panel->result(1, "probe 2");
        panel->failure(1);
        QCOMPARE(panel->drawnState().back(), QString("orbit 4"));
        QCOMPARE(panel->shown.size(), std::size_t(4));
        QVERIFY(!panel->hasKeptDraws());
    }

    // Paced by the PassScheduler: with a budget of 0, one job per pass (a real chart's draw, 8-40 ms,
    // spends the 5 ms budget alone).
    void keptDrawsRunAfterTheDelayOnePerPass()
    {
        PassScheduler::instance()->setPassBudget(0);
        QWidget window;
        auto* panel = new RecordingPanel;
        (new QVBoxLayout(&window))->addWidget(panel);
        panel->setKeptDrawDelay(20);
        panel->hide();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        panel->result(0, "orbit");
        panel->result(1, "probe");
        panel->result(2, "gallery");
        QVERIFY(panel->hasKeptDraws());
        QTRY_COMPARE(panel->shown.size(), std::size_t(3));
        QCOMPARE(panel->shown, (std::vector<QString>{"orbit", "probe", "gallery"}));
        // Each in a pass of its own: what one posts (its chart's scene updates) runs before the next.
        QCOMPARE(panel->passBetween, (std::vector<bool>{true, true, true}));
        QVERIFY(!panel->isVisible());
        QVERIFY(!panel->hasKeptDraws());
        PassScheduler::instance()->setPassBudget(PassScheduler::kDefaultPassBudgetNs);
    }
};

QTEST_MAIN(TestTaskProgress)
#include "test_task_progress.moc"

// The one rule for hidden panels (Panel::whenInSight, issue 45 item 6): a panel out of sight computes
// when its settings change, as one in sight does, and keeps the draw of its result until it is shown
// (or its drawn state is read, or the kept-draw delay passes); the window is not idle while a kept
// draw or a computation is pending, and is once all are drawn. For each panel that computes on a
// setting change: Group, Orbits, Kernels and Approximation.
#include "state/LabState.hpp"
#include "state/OrbitSettings.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/Tasks.hpp"
#include "state/workers/Worker.hpp"
#include "widgets/AutoApplyControl.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/shell/MainWindow.hpp"

#include "WindowFixture.hpp"

#include <QLineSeries>
#include <QObject>
#include <QTest>

#include <algorithm>
#include <vector>

using namespace orbitui;
using namespace orbittest;  // WindowFixture, loadAndSettle, digitsPng

namespace {

double kappaOf(const OrbitSettings& s) { return s.dist.value("kappa"); }

/// Whether `panel` has computed: no runner under it busy and no recomputation scheduled.
bool computed(const Panel* panel)
{
    for (const TaskRunner* r : panel->findChildren<TaskRunner*>())
        if (r->busy())
            return false;
    for (const AutoApplyControl* a : panel->findChildren<AutoApplyControl*>())
        if (a->isScheduled())
            return false;
    return true;
}

} // namespace

class TestInSight : public QObject {
    Q_OBJECT
private slots:
    void aHiddenPanelComputesAndDrawsItsResultWhenShown()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(loadAndSettle(w, digitsPng()));
        w.showPanel("data");
        GroupPanel* group = w.groupPanel();
        OrbitsPanel* orbits = w.orbitsPanel();
        KernelsPanel* kernels = w.kernelsPanel();
        ApproximationPanel* approximation = w.approximationPanel();
        const std::vector<Panel*> panels{group, orbits, kernels, approximation};
        for (Panel* p : panels) {
            p->setKeptDrawDelay(600000);  // only shown or read
            QVERIFY(!p->isVisible());
            QVERIFY(p->isIdle());
        }
        OrbitSettings s = w.state()->orbitSettings();
        const double kappa = kappaOf(s) + 2.0;
        s.dist.setValue("kappa", kappa);
        w.state()->setOrbitSettings(s);
        // Every hidden panel computes and keeps its draw; none is idle meanwhile, nor the window.
        QVERIFY(!w.isIdle());
        for (Panel* p : panels)
            QVERIFY2(!p->isIdle(), qPrintable(p->name()));
        const bool allKept = QTest::qWaitFor([&] {
            return std::all_of(panels.begin(), panels.end(), [](Panel* p) { return computed(p) && p->hasKeptDraws(); });
        }, 120000);
        for (Panel* p : panels)
            if (!computed(p) || !p->hasKeptDraws())
                qWarning("%s: %s %s", qPrintable(p->name()), computed(p) ? "nothing kept" : "still computing",
                         qPrintable(p->errorText()));
        QVERIFY(allKept);
        for (Panel* p : panels)
            QVERIFY2(!p->isIdle(), qPrintable(p->name()));  // its kept draw
        QVERIFY(!w.isIdle());
        // Shown: drawn before it is painted.
        for (Panel* p : panels) {
            QVERIFY(w.showPanel(p->name()));
            QVERIFY2(!p->hasKeptDraws(), qPrintable(p->name()));
            QVERIFY2(p->isIdle(), qPrintable(p->name()));
        }
        // What each drew is the result of the new setting.
        QCOMPARE(kappaOf(group->lastResult()->request.settings), kappa);
        QCOMPARE(group->densitySeries()->points(), group->lastResult()->curve);
        QCOMPARE(kappaOf(orbits->lastResult()->request.settings), kappa);
        QCOMPARE(kappaOf(kernels->lastResult()->request.settings), kappa);
        QCOMPARE(kappaOf(approximation->lastResult()->request.settings), kappa);
        QCOMPARE(approximation->rows().size(), approximation->lastResult()->rows.size());
        QTRY_VERIFY_WITH_TIMEOUT(w.isIdle(), 60000);
    }
};

QTEST_MAIN(TestInSight)
#include "test_in_sight.moc"

// Presentation mode staged over event-loop turns (issue 32: no GUI-thread stall over 50 ms): the toggle
// scales what is in sight; a hidden part (a panel of a tab widget) keeps its fonts and charts until its
// own turn or until it is shown, whichever comes first. Whatever the order of toggles, turns and
// shows, the end state is the one the mode reaches without staging, and turning it off restores
// every font (value, resolve mask, own-font attribute), pen, marker, axis and visibility exactly.
#include "widgets/PresentationMode.hpp"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QObject>
#include <QPushButton>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QValueAxis>
#include <QVBoxLayout>

#include <memory>

using namespace orbitui;

namespace {

/// A window like the main one: a bold title with a font of its own, and tabs whose panels hold
/// labels, a bold label, an export button (secondary) and a chart.
struct Window {
    std::unique_ptr<QWidget> top = std::make_unique<QWidget>();
    QTabWidget* tabs = nullptr;
    QList<QWidget*> panels;
    PresentationMode* mode = nullptr;

    explicit Window(bool staged)
    {
        auto* layout = new QVBoxLayout(top.get());
        auto* title = new QLabel("Title");
        QFont bold = title->font();
        bold.setBold(true);
        title->setFont(bold);
        layout->addWidget(title);
        tabs = new QTabWidget;
        QFont tabFont = tabs->tabBar()->font();
        tabFont.setPointSizeF(tabFont.pointSizeF() + 1);
        tabs->tabBar()->setFont(tabFont);
        layout->addWidget(tabs);
        for (int i = 0; i < 3; ++i) {
            auto* panel = new QWidget;
            panel->setObjectName(QString("panel-%1").arg(i));
            auto* v = new QVBoxLayout(panel);
            for (int j = 0; j < 4; ++j)
                v->addWidget(new QLabel(QString("label %1.%2").arg(i).arg(j)));
            auto* heading = new QLabel("heading");
            heading->setFont(bold);
            v->addWidget(heading);
            auto* exportButton = new QPushButton("PNG…");
            exportButton->setObjectName("export-png");
            v->addWidget(exportButton);
            auto* chart = new QChart;
            chart->setTitle("chart");
            auto* series = new QLineSeries;
            series->append({{0, 1}, {1, 2}, {2, 0.5}});
            series->setPointsVisible(true);
            chart->addSeries(series);
            auto* x = new QValueAxis;
            auto* y = new QValueAxis;
            x->setTitleText("x");
            chart->addAxis(x, Qt::AlignBottom);
            chart->addAxis(y, Qt::AlignLeft);
            series->attachAxis(x);
            series->attachAxis(y);
            v->addWidget(new QChartView(chart));
            tabs->addTab(panel, QString("panel %1").arg(i));
            panels.append(panel);
        }
        mode = new PresentationMode(top.get());
        if (staged)
            mode->setStagedParts(panels);
        top->resize(700, 500);
    }

    QLabel* label(int panel) const { return panels[panel]->findChild<QLabel*>(); }
    QChart* chart(int panel) const { return panels[panel]->findChild<QChartView*>()->chart(); }
};

/// Everything presentation mode touches, widget by widget and chart by chart, as text.
QStringList snapshot(const Window& w)
{
    QStringList out;
    QList<QWidget*> widgets{w.top.get()};
    widgets += w.top->findChildren<QWidget*>();
    for (QWidget* widget : widgets) {
        const QFont f = widget->font();
        out << QString("%1 %2 font %3 mask %4 own %5 hidden %6")
                   .arg(widget->metaObject()->className(), widget->objectName(), f.toString())
                   .arg(f.resolveMask())
                   .arg(widget->testAttribute(Qt::WA_SetFont))
                   .arg(widget->isHidden());
    }
    for (QChartView* view : w.top->findChildren<QChartView*>()) {
        QChart* chart = view->chart();
        out << "chart title " + chart->titleFont().toString() + " legend " + chart->legend()->font().toString();
        for (QAbstractSeries* s : chart->series())
            if (auto* line = qobject_cast<QLineSeries*>(s))
                out << QString("series pen %1 marker %2").arg(line->pen().widthF()).arg(line->markerSize());
        for (QAbstractAxis* axis : chart->axes())
            out << QString("axis %1 %2 truncate %3").arg(axis->labelsFont().toString(), axis->titleFont().toString())
                       .arg(axis->truncateLabels());
    }
    out.sort();  // showing a tab raises it: the order of the children is not the mode's
    return out;
}

bool settled(const Window& w)
{
    return QTest::qWaitFor([&] { return w.mode->isSettled(); }, 5000);
}

} // namespace

class TestPresentationMode : public QObject {
    Q_OBJECT
private slots:
    void theToggleLeavesHiddenPanelsForLaterTurns()
    {
        Window w(true);
        w.top->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.top.get()));
        const double before = w.label(2)->font().pointSizeF();
        const double titleBefore = w.chart(2)->titleFont().pointSizeF();
        w.mode->setOn(true);
        // In sight: scaled by the toggle itself.
        QCOMPARE(w.label(0)->font().pointSizeF(), before * PresentationMode::fontScale());
        // Hidden: untouched until its turn.
        QVERIFY(!w.mode->isSettled());
        QCOMPARE(w.label(2)->font().pointSizeF(), before);
        QCOMPARE(w.chart(2)->titleFont().pointSizeF(), titleBefore);
        QVERIFY(settled(w));
        QCOMPARE(w.label(2)->font().pointSizeF(), before * PresentationMode::fontScale());
        QCOMPARE(w.chart(2)->titleFont().pointSizeF(), titleBefore * PresentationMode::chartFontScale());
    }

    void aPanelShownBeforeItsTurnIsScaledAlready()
    {
        Window w(true);
        w.top->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.top.get()));
        const double before = w.label(2)->font().pointSizeF();
        const double pen = qobject_cast<QLineSeries*>(w.chart(2)->series().front())->pen().widthF();
        w.mode->setOn(true);
        w.tabs->setCurrentIndex(2);  // no event-loop turn in between
        QCOMPARE(w.label(2)->font().pointSizeF(), before * PresentationMode::fontScale());
        QCOMPARE(qobject_cast<QLineSeries*>(w.chart(2)->series().front())->pen().widthF(),
                 std::max(1.0, pen) * PresentationMode::lineScale());
        QVERIFY(w.panels[2]->findChild<QPushButton*>("export-png")->isHidden());
        // And when turned off, the panel in sight is restored at once.
        w.mode->setOn(false);
        QCOMPARE(w.label(2)->font().pointSizeF(), before);
        QCOMPARE(qobject_cast<QLineSeries*>(w.chart(2)->series().front())->pen().widthF(), pen);
    }

    void offRestoresEverythingExactly_data()
    {
        QTest::addColumn<bool>("shown");
        QTest::addColumn<bool>("turnsBetween");  // the staged turns ran before the mode was turned off
        QTest::addColumn<int>("switchTo");       // a tab shown while on (-1: none)
        QTest::newRow("off before any turn ran") << true << false << -1;
        QTest::newRow("off after every turn") << true << true << -1;
        QTest::newRow("a pending panel shown, off before the other turns") << true << false << 1;
        QTest::newRow("a settled panel shown, then off") << true << true << 2;
        QTest::newRow("turned on and off before the window is shown") << false << false << -1;
    }
    void offRestoresEverythingExactly()
    {
        QFETCH(bool, shown);
        QFETCH(bool, turnsBetween);
        QFETCH(int, switchTo);
        Window w(true);
        if (shown) {
            w.top->show();
            QVERIFY(QTest::qWaitForWindowExposed(w.top.get()));
        }
        const QStringList before = snapshot(w);
        w.mode->setOn(true);
        if (turnsBetween)
            QVERIFY(settled(w));
        if (switchTo >= 0) {
            w.tabs->setCurrentIndex(switchTo);
            w.tabs->setCurrentIndex(0);
        }
        w.mode->setOn(false);
        QVERIFY(settled(w));
        QCOMPARE(snapshot(w), before);
        // And once more: a second round restores to the same state.
        w.mode->setOn(true);
        w.mode->setOn(false);
        w.mode->setOn(true);
        QVERIFY(settled(w));
        w.mode->setOn(false);
        QVERIFY(settled(w));
        QCOMPARE(snapshot(w), before);
    }

    void stagedEndsWhereTheModeWithoutStagingDoes_data()
    {
        QTest::addColumn<bool>("showTabs");  // every tab shown in turn while on
        QTest::newRow("settled by turns") << false;
        QTest::newRow("every tab shown before its turn") << true;
    }
    void stagedEndsWhereTheModeWithoutStagingDoes()
    {
        QFETCH(bool, showTabs);
        Window staged(true), eager(false);
        for (Window* w : {&staged, &eager}) {
            w->top->show();
            QVERIFY(QTest::qWaitForWindowExposed(w->top.get()));
            w->mode->setOn(true);
            if (showTabs)
                for (int i : {1, 2, 0})
                    w->tabs->setCurrentIndex(i);
        }
        QVERIFY(!staged.mode->isSettled() || showTabs);
        QVERIFY(settled(staged));
        QTest::qWait(100);  // the layouts (a tab bar's scroll buttons) follow the fonts
        QVERIFY(eager.mode->isSettled());
        QCOMPARE(snapshot(staged), snapshot(eager));
        for (Window* w : {&staged, &eager})
            w->mode->setOn(false);
        QVERIFY(settled(staged));
        QTest::qWait(100);
        QCOMPARE(snapshot(staged), snapshot(eager));
    }
};

QTEST_MAIN(TestPresentationMode)
#include "test_presentation_mode.moc"

// "Fits the room": the main window on a 1280 x 720 projector. The suite runs on an offscreen
// screen of 1280 x 720 (main() below) and checks, with the bundled digits loaded, that every
// panel's primary actions (the table primaryActions(): a new panel adds its row) are shown,
// enabled where expected and not clipped by the window or a scroll area, and that its pictures
// keep a usable size, at 1280 x 720 and 1366 x 768, in normal and in presentation mode. Also:
// presentation mode enlarges fonts and chart lines, hides the export buttons and restores all of
// it; the window opens inside the screen and a saved geometry larger than it or off it is
// clamped; `orbitlab --size WxH` renders at that size and refuses bad sizes.
#include "state/LabState.hpp"
#include "state/Lessons.hpp"
#include "state/Settings.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/HeatmapView.hpp"
#include "widgets/ImageGrid.hpp"
#include "widgets/PresentationMode.hpp"
#include "widgets/ScoreBars.hpp"
#include "widgets/WindowFit.hpp"
#include "window/group/DistributionEditor.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/inspect/LinkedViews.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/lessons/LessonDock.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/predict/PredictPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/LocalityView.hpp"
#include "window/training/TrainingPanel.hpp"

#include "AppRunner.hpp"
#include "TestPaths.hpp"
#include "WindowFixture.hpp"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QLineSeries>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QSlider>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QFile>
#include <QFont>
#include <QGuiApplication>
#include <QIODevice>
#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QPoint>
#include <QRect>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>

using namespace orbitui;
using namespace orbittest;

namespace {

/// The smallest side a chart or heatmap keeps: still readable from a lecture room.
constexpr int kUsablePicture = 150;

/// What must stay usable on a panel: its primary actions (enabled while idle, or disabled while
/// idle, such as Cancel) and its pictures.
struct PanelFit {
    std::function<QList<QWidget*>(MainWindow&)> enabled;
    std::function<QList<QWidget*>(MainWindow&)> idleDisabled;
    std::function<QList<QWidget*>(MainWindow&)> pictures;
};

/// The buttons of `panel` labelled `text` (mnemonic ampersands ignored).
QList<QWidget*> buttons(QWidget* panel, const QString& text)
{
    QList<QWidget*> out;
    for (QAbstractButton* b : panel->findChildren<QAbstractButton*>())
        if (QString(b->text()).remove('&') == text)
            out.append(b);
    return out;
}

/// The widgets of type T that `parent` shows: those a panel hides on purpose until asked (a
/// sweep's range row, the A/B heatmaps while nothing is pinned) are not on screen to be clipped.
template <typename T>
QList<QWidget*> all(QWidget* parent)
{
    QList<QWidget*> out;
    for (T* w : parent->findChildren<T*>())
        if (w->isVisibleTo(parent))
            out.append(w);
    return out;
}

QList<QWidget*> none(MainWindow&) { return {}; }

/// Every panel's primary actions and pictures, in one place.
const std::map<QString, PanelFit>& primaryActions()
{
    static const std::map<QString, PanelFit> table = {
        {"data",
         {[](MainWindow& w) { return buttons(w.panel("data"), "Open data…"); }, none,
          [](MainWindow& w) { return all<QListView>(w.panel("data")); }}},
        {"group",
         {[](MainWindow& w) {
              QList<QWidget*> out = all<QComboBox>(w.panel("group")->findChild<DistributionEditor*>());
              out += all<QSlider>(w.panel("group"));
              return out;
          },
          none, [](MainWindow& w) { return QList<QWidget*>{w.groupPanel()->densityChart()->view()}; }}},
        {"orbits",
         {[](MainWindow& w) {
              QList<QWidget*> out = buttons(w.panel("orbits"), "Add input x");
              out += all<QSlider>(w.panel("orbits"));
              return out;
          },
          none,
          [](MainWindow& w) {
              return QList<QWidget*>{w.orbitsPanel()->gallery(), w.orbitsPanel()->embeddingChart()->view(),
                                     w.orbitsPanel()->probeChart()->view()};
          }}},
        {"kernels",
         {[](MainWindow& w) { return buttons(w.panel("kernels"), "Compute") + buttons(w.panel("kernels"), "Auto-apply"); },
          none, [](MainWindow& w) { return all<HeatmapView>(w.panel("kernels")); }}},
        {"approximation",
         {[](MainWindow& w) { return buttons(w.panel("approximation"), "Compute") + buttons(w.panel("approximation"), "Auto-apply"); },
          [](MainWindow& w) { return buttons(w.panel("approximation"), "Cancel"); },
          [](MainWindow& w) {
              QList<QWidget*> out;
              for (ChartBox* c : w.panel("approximation")->findChildren<ChartBox*>())
                  out.append(c->view());
              return out;
          }}},
        {"training",
         {[](MainWindow& w) {
              return buttons(w.panel("training"), "Run") + buttons(w.panel("training"), "Learn locality") +
                     buttons(w.panel("training"), "Per class");
          },
          [](MainWindow& w) { return buttons(w.panel("training"), "Cancel") + buttons(w.panel("training"), "Undo"); },
          [](MainWindow& w) {
              QList<QWidget*> out{w.trainingPanel()->scoreChart()->view(), w.trainingPanel()->learningCurveChart()->view()};
              for (HeatmapView* h : w.trainingPanel()->findChildren<HeatmapView*>())
                  if (h->isVisible())
                      out.append(h);  // the confusion matrix
              return out;
          }}},
        {"predict",
         {[](MainWindow& w) {
              QList<QWidget*> out = buttons(w.panel("predict"), "Open model…") + all<QSlider>(w.panel("predict"));
              out += all<QComboBox>(w.panel("predict"));
              return out;
          },
          none, [](MainWindow& w) { return QList<QWidget*>{w.predictPanel()->chart()->view(), w.predictPanel()->bars()}; }}},
    };
    return table;
}

/// The part of `w` that is on screen: its rectangle in window coordinates, clipped by every
/// parent (a scroll area's viewport, a splitter, the window).
QRect shownRect(const QWidget* w, const QWidget* window)
{
    QRect r(w->mapTo(window, QPoint(0, 0)), w->size());
    for (const QWidget* p = w->parentWidget(); p && p != window; p = p->parentWidget())
        r &= QRect(p->mapTo(window, QPoint(0, 0)), p->size());
    return r & window->rect();
}

/// Why `w` is not fully usable in `window`, or empty.
QString unusable(const QWidget* w, const QWidget* window)
{
    const QRect full(w->mapTo(window, QPoint(0, 0)), w->size());
    const QString name = w->metaObject()->className() + QString(" \"%1\"").arg(
                             qobject_cast<const QAbstractButton*>(w) ? qobject_cast<const QAbstractButton*>(w)->text() : w->objectName());
    if (!w->isVisible())
        return name + " is hidden";
    if (w->width() <= 0 || w->height() <= 0)
        return name + " has no size";
    if (shownRect(w, window) != full)
        return QString("%1 at (%2,%3) %4x%5 is cut to %6x%7")
            .arg(name)
            .arg(full.x())
            .arg(full.y())
            .arg(full.width())
            .arg(full.height())
            .arg(shownRect(w, window).width())
            .arg(shownRect(w, window).height());
    return {};
}

/// Runs `w`'s event loop until its layouts have settled at its size.
void settle(MainWindow& w)
{
    for (int i = 0; i < 5; ++i) {
        QApplication::processEvents();
        QTest::qWait(20);
    }
    (void)w;
}

} // namespace

class TestFitsTheRoom : public QObject {
    Q_OBJECT

    WindowFixture fx_;

    MainWindow& window() { return *fx_.window; }

private slots:
    void initTestCase()
    {
        QScreen* screen = QGuiApplication::primaryScreen();
        QVERIFY(screen);
        QCOMPARE(screen->size(), QSize(1280, 720));  // the projector of main()
        MainWindow& w = window();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(loadAndSettle(w, digitsPng()));
        // A small training run, so the Training panel shows its charts.
        TrainingSettings t = w.trainingPanel()->settings();
        t.subset = 300;
        t.s = 100;
        t.r = 4;
        w.trainingPanel()->setSettings(t);
        QVERIFY(w.trainingPanel()->run());
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && w.trainingPanel()->lastResult() != nullptr; }, 120000));
        QVERIFY(!w.trainingPanel()->hasError());
    }

    void cleanup()
    {
        window().presentationAction()->setChecked(false);  // also after a failed check
        window().lessonDock()->hide();
        window().linkedViews()->dock()->hide();
    }

    void everyPanelHasItsPrimaryActions()
    {
        // A new panel adds its row to primaryActions().
        for (Panel* p : window().panels()) {
            QVERIFY2(primaryActions().count(p->name()), qPrintable(p->name() + " has no row in primaryActions()"));
            QVERIFY2(!primaryActions().at(p->name()).enabled(window()).isEmpty(), qPrintable(p->name()));
        }
    }

    void panelsAreUsableAtProjectorSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("presentation");
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QString>("side");  // a side area open beside the panel: lesson, inspector or none
        for (const QSize size : {QSize(1280, 720), QSize(1366, 768)})
            for (const bool presentation : {false, true})
                for (const QString& side : {QString(), QString("lesson"), QString("inspector")})
                    for (Panel* p : window().panels())
                        QTest::addRow("%dx%d%s%s %s", size.width(), size.height(), presentation ? " presenting" : "",
                                      side.isEmpty() ? "" : qPrintable(" with " + side), qPrintable(p->name()))
                            << size << presentation << p->name() << side;
    }

    void panelsAreUsableAtProjectorSizes()
    {
        QFETCH(QSize, size);
        QFETCH(bool, presentation);
        QFETCH(QString, panel);
        QFETCH(QString, side);
        MainWindow& w = window();
        w.presentationAction()->setChecked(presentation);
        if (side == "lesson")
            w.lessonDock()->show();
        if (side == "inspector")
            w.linkedViews()->dock()->show();
        QVERIFY(w.showPanel(panel));
        w.resize(size);
        settle(w);
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle(); }, 120000));  // shown: auto-apply computes
        settle(w);
        // The window shrank to the projector: nothing in it demands more.
        QCOMPARE(w.size(), size);
        const PanelFit& fit = primaryActions().at(panel);
        const QList<QWidget*> enabled = fit.enabled(w);
        QVERIFY(!enabled.isEmpty());
        for (QWidget* c : enabled) {
            QVERIFY2(unusable(c, &w).isEmpty(), qPrintable(unusable(c, &w)));
            QVERIFY2(c->isEnabled(), qPrintable(unusable(c, &w) + c->metaObject()->className()));
        }
        for (QWidget* c : fit.idleDisabled(w)) {
            QVERIFY2(unusable(c, &w).isEmpty(), qPrintable(unusable(c, &w)));
            QVERIFY(!c->isEnabled());  // nothing runs
        }
        const QList<QWidget*> pictures = fit.pictures(w);
        QVERIFY(!pictures.isEmpty());
        for (QWidget* pic : pictures) {
            QVERIFY2(unusable(pic, &w).isEmpty(), qPrintable(unusable(pic, &w)));
            QVERIFY2(pic->width() >= kUsablePicture && pic->height() >= kUsablePicture,
                     qPrintable(QString("%1 is %2x%3").arg(pic->metaObject()->className()).arg(pic->width()).arg(pic->height())));
        }
        w.presentationAction()->setChecked(false);
    }

    void theLocalityPaneIsUsableAtProjectorSizes()
    {
        MainWindow& w = window();
        QVERIFY(w.showPanel("training"));
        QTabWidget* tabs = nullptr;
        for (QTabWidget* t : w.trainingPanel()->findChildren<QTabWidget*>())
            if (t->indexOf(w.trainingPanel()->locality()->resultsWidget()) >= 0)
                tabs = t;
        QVERIFY(tabs);
        tabs->setCurrentWidget(w.trainingPanel()->locality()->resultsWidget());
        for (const QSize size : {QSize(1280, 720), QSize(1366, 768)}) {
            w.resize(size);
            settle(w);
            QCOMPARE(w.size(), size);
            QPushButton* learn = w.trainingPanel()->locality()->learnButton();
            QVERIFY2(unusable(learn, &w).isEmpty(), qPrintable(unusable(learn, &w)));
            QVERIFY(learn->isEnabled());
            QWidget* view = w.trainingPanel()->locality()->view();
            QVERIFY2(unusable(view, &w).isEmpty(), qPrintable(unusable(view, &w)));
            QVERIFY(view->width() >= kUsablePicture && view->height() >= kUsablePicture);
            // The Learn the locality settings are reachable (scrolled into view).
            QWidget* settings = w.trainingPanel()->locality()->settingsWidget();
            QVERIFY(settings->isVisible());
        }
        tabs->setCurrentIndex(0);
    }

    void lessonTwosPerClassBoxIsInSight()
    {
        // Lesson 2's reveal step says "Per class (beside the Learn locality button) is now ticked":
        // with the lesson beside the panel, the box is on screen, ticked, whole and unscrolled.
        MainWindow& w = window();
        const Lesson& lesson = lessons()[std::size_t(findLesson("locality"))];
        const int reveal = int(lesson.steps.size()) - 1;
        QVERIFY(lesson.steps[std::size_t(reveal)].text.contains("beside the Learn locality button"));
        QVERIFY(w.lessonDock()->start(findLesson("locality"), reveal));
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle(); }, 120000));
        for (const QSize size : {QSize(1280, 720), QSize(1366, 768)}) {
            w.resize(size);
            settle(w);
            QCheckBox* box = w.trainingPanel()->locality()->perClassBox();
            QVERIFY(box->isChecked());
            QVERIFY2(unusable(box, &w).isEmpty(), qPrintable(unusable(box, &w)));
            QVERIFY(!box->visibleRegion().isEmpty());
            QCOMPARE(box->visibleRegion().boundingRect(), box->rect());
        }
    }

    void presentationModeEnlargesHidesAndRestores()
    {
        MainWindow& w = window();
        QVERIFY(w.showPanel("group"));
        w.resize(1366, 768);
        settle(w);
        const QList<QWidget*> computeButtons = buttons(w.kernelsPanel(), "Compute");
        QVERIFY(!computeButtons.isEmpty());
        QWidget* compute = computeButtons.front();
        const double computeFont = compute->font().pointSizeF();
        QTabBar* tabBar = w.findChild<QTabWidget*>()->tabBar();  // a font of its own (larger)
        const double tabFont = tabBar->font().pointSizeF();
        // The density curve of the Group panel, and the export buttons shown now.
        QLineSeries* density = nullptr;
        for (QAbstractSeries* s : w.groupPanel()->densityChart()->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(s); line && line->isVisible() && !line->points().isEmpty())
                density = line;
        QVERIFY(density);
        const double penWidth = density->pen().widthF();
        const QFont axisFont = w.groupPanel()->densityChart()->chart()->axes().front()->labelsFont();
        QList<QWidget*> exports;
        for (QWidget* b : w.findChildren<QWidget*>())
            if (b->objectName().startsWith("export-") && !b->isHidden())
                exports.append(b);
        QVERIFY(exports.size() >= 10);  // every chart's PNG/SVG/CSV, the Kernels matrix buttons
        QVERIFY(!w.statusBar()->isHidden());
        const QList<QWidget*> shownBefore = exports;

        w.presentationAction()->trigger();  // what the menu and Ctrl+Shift+P do
        QVERIFY(w.presentation()->isOn());
        settle(w);
        QVERIFY(compute->font().pointSizeF() >= computeFont * 1.3);
        QVERIFY(tabBar->font().pointSizeF() >= tabFont * 1.3);
        QVERIFY(density->pen().widthF() >= penWidth * 1.9);
        QVERIFY(w.groupPanel()->densityChart()->chart()->axes().front()->labelsFont().pointSizeF() >=
                axisFont.pointSizeF() * 1.2);
        for (QAbstractAxis* axis : w.groupPanel()->densityChart()->chart()->axes())
            QVERIFY(!axis->truncateLabels());  // enlarged tick labels are drawn whole, never "0.…"
        for (QWidget* b : exports)
            QVERIFY2(b->isHidden(), qPrintable(b->objectName()));
        QVERIFY(w.statusBar()->isHidden());
        // A redraw replaces the series: the new curve is drawn thick too.
        OrbitSettings s = w.state()->orbitSettings();
        s.dist.setValue("kappa", s.dist.value("kappa") + 1.0);
        w.state()->setOrbitSettings(s);
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle(); }, 60000));
        settle(w);
        for (QAbstractSeries* series : w.groupPanel()->densityChart()->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(series); line && line->isVisible() && !line->points().isEmpty())
                QVERIFY(line->pen().widthF() >= penWidth * 1.9);

        w.presentationAction()->trigger();
        QVERIFY(!w.presentation()->isOn());
        settle(w);
        QCOMPARE(compute->font().pointSizeF(), computeFont);
        QCOMPARE(tabBar->font().pointSizeF(), tabFont);
        QCOMPARE(w.groupPanel()->densityChart()->chart()->axes().front()->labelsFont().pointSizeF(), axisFont.pointSizeF());
        for (QAbstractAxis* axis : w.groupPanel()->densityChart()->chart()->axes())
            QVERIFY(axis->truncateLabels());
        for (QAbstractSeries* series : w.groupPanel()->densityChart()->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(series); line && line->isVisible() && !line->points().isEmpty())
                QCOMPARE(line->pen().widthF(), penWidth);
        for (QWidget* b : shownBefore)
            QVERIFY2(!b->isHidden(), qPrintable(b->objectName()));
        QVERIFY(!w.statusBar()->isHidden());
    }

    void presentationModeIsInTheViewMenuAndRemembered()
    {
        QTemporaryDir dir;
        Settings settings(dir.filePath("s.ini"));
        {
            MainWindow w(&settings, true);
            QAction* a = w.presentationAction();
            QVERIFY(a->isCheckable());
            QCOMPARE(a->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
            bool inViewMenu = false;
            for (QAction* menu : w.menuBar()->actions())
                if (QString(menu->text()).remove('&') == "View" && menu->menu()->actions().contains(a))
                    inViewMenu = true;
            QVERIFY(inViewMenu);
            QVERIFY(!a->isChecked());
            a->trigger();
            QVERIFY(settings.presentationMode());
        }
        {
            MainWindow w(&settings, true);
            QVERIFY(w.presentationAction()->isChecked());
            QVERIFY(w.presentation()->isOn());
            w.presentationAction()->trigger();
            QVERIFY(!settings.presentationMode());
        }
    }

    void fitIntoAreaShrinksAndMovesInside()
    {
        const QRect screen(0, 0, 1280, 720);
        // Inside already: kept as it is.
        QCOMPARE(fitIntoArea(QRect(100, 50, 900, 600), screen), QRect(100, 50, 900, 600));
        // The old fixed 1360 x 860: shrunk to the screen.
        QCOMPARE(fitIntoArea(QRect(0, 0, 1360, 860), screen), screen);
        // From a monitor on the right that is gone: back on this one, same size.
        QCOMPARE(fitIntoArea(QRect(2000, 300, 800, 500), screen), QRect(480, 220, 800, 500));
        // Above and left of the screen.
        QCOMPARE(fitIntoArea(QRect(-400, -100, 800, 500), screen), QRect(0, 0, 800, 500));
        // A second screen at an offset (a projector right of the laptop).
        const QRect projector(1920, 0, 1280, 720);
        QCOMPARE(fitIntoArea(QRect(1800, 100, 1400, 900), projector), QRect(1920, 0, 1280, 720));
        // A window that cannot shrink below its minimum keeps it, its top left on screen.
        QCOMPARE(fitIntoArea(QRect(300, 300, 1600, 1000), screen, QSize(1400, 800)), QRect(0, 0, 1400, 800));
        // The default window: at most the preferred size, inside and centred.
        const QRect d = defaultWindowRect(QSize(1360, 860), screen);
        QVERIFY(screen.contains(d));
        QCOMPARE(d.center(), screen.center());
        QCOMPARE(defaultWindowRect(QSize(1000, 600), QRect(0, 0, 1920, 1080)).size(), QSize(1000, 600));
    }

    void theWindowOpensInsideTheScreen()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        QTemporaryDir dir;
        Settings settings(dir.filePath("s.ini"));
        {
            MainWindow w(&settings, true);  // nothing saved: the default size, within the screen
            QVERIFY2(available.contains(w.geometry()), qPrintable(QString("%1x%2").arg(w.width()).arg(w.height())));
        }
        // A geometry saved on a large monitor, off to the right: clamped into this screen.
        {
            QWidget big;
            big.setGeometry(2200, 900, 2400, 1400);
            settings.setWindowGeometry(big.saveGeometry());
        }
        {
            MainWindow w(&settings, true);
            QVERIFY2(available.contains(w.geometry()), qPrintable(QString("(%1,%2) %3x%4")
                                                                      .arg(w.x())
                                                                      .arg(w.y())
                                                                      .arg(w.width())
                                                                      .arg(w.height())));
        }
        // A geometry that fits is restored as it was (the window remembers its last one).
        {
            MainWindow w(&settings, true);
            w.setGeometry(QRect(60, 40, 1100, 640));
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.close();  // saves the geometry
        }
        {
            MainWindow w(&settings, true);
            QCOMPARE(w.geometry(), QRect(60, 40, 1100, 640));
        }
    }

    void windowSizeParses()
    {
        QCOMPARE(parseWindowSize("1280x720"), std::optional<QSize>(QSize(1280, 720)));
        QCOMPARE(parseWindowSize("1366X768"), std::optional<QSize>(QSize(1366, 768)));
        for (const char* bad : {"0x0", "abc", "100000x5", "1280x", "x720", "1280x720x3", "-1280x720", "1280 720", "", "199x200"})
            QVERIFY2(!parseWindowSize(bad), bad);
    }

    void theApplicationRendersAtTheGivenSize()
    {
        QTemporaryDir dir;
        auto app = [&](const QStringList& args, QString* err) {
            const orbittest::AppRun r = orbittest::runApp(dir.path(), args, 120000);
            *err = r.err;
            return r.status;
        };
        QString err;
        const QString png = dir.filePath("kernels.png");
        QCOMPARE(app({"--data", digitsPng(), "--panel", "kernels", "--size", "1280x720", "--screenshot", png}, &err), 0);
        QCOMPARE(QImage(png).size(), QSize(1280, 720));
        QVERIFY2(!err.contains("--size"), qPrintable(err));  // it fitted
        for (const char* bad : {"0x0", "abc", "100000x5"}) {
            QCOMPARE(app({"--panel", "data", "--size", bad, "--screenshot", dir.filePath("x.png")}, &err), 2);
            const QStringList lines = err.trimmed().split('\n');
            QCOMPARE(lines.size(), 1);
            QVERIFY2(lines.front().contains("--size") && lines.front().contains(QString("'%1'").arg(bad)), qPrintable(err));
            QVERIFY(!QFile::exists(dir.filePath("x.png")));
        }
    }
};

int main(int argc, char** argv)
{
    // An offscreen screen of 1280 x 720: the projector.
    QTemporaryDir dir;
    const QString config = dir.filePath("screen.json");
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly))
        return 1;
    f.write(R"({"synchronousWindowSystemEvents": false, "windowFrameMargins": false,
               "screens": [{"name": "projector", "x": 0, "y": 0, "width": 1280, "height": 720,
                            "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    f.close();
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + config).toLocal8Bit());
    QApplication app(argc, argv);
    TestFitsTheRoom test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_fits_the_room.moc"

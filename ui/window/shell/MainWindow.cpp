#include "window/shell/MainWindow.hpp"

#include "window/compare/CompareActions.hpp"
#include "window/lessons/LessonDock.hpp"
#include "state/Presets.hpp"
#include "render/SafeText.hpp"
#include "window/shell/ShareActions.hpp"
#include "state/Comparison.hpp"
#include "state/LabState.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/compare/ComparisonViews.hpp"
#include "window/data/DataPanel.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/inspect/LinkedViews.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/training/TrainingPanel.hpp"
#include "widgets/PresentationMode.hpp"
#include "widgets/WindowFit.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace orbitui {

MainWindow::MainWindow(Settings* settings, bool restore, QWidget* parent)
    : QMainWindow(parent), settings_(settings), state_(new LabState(this)), tabs_(new QTabWidget),
      datasetLabel_(new QLabel), restoring_(restore)
{
    if (!settings_) {
        ownedSettings_ = std::make_unique<Settings>();
        settings_ = ownedSettings_.get();
    }
    setWindowTitle(tr("Orbit Lab"));
    setAcceptDrops(true);
    tabs_->setDocumentMode(true);
    QFont tabFont = tabs_->tabBar()->font();
    tabFont.setPointSizeF(tabFont.pointSizeF() + 1);
    tabs_->tabBar()->setFont(tabFont);
    setCentralWidget(tabs_);

    dataPanel_ = new DataPanel(state_);
    groupPanel_ = new GroupPanel(state_);
    orbitsPanel_ = new OrbitsPanel(state_);
    addPanel(dataPanel_);
    addPanel(groupPanel_);
    addPanel(orbitsPanel_);
    kernelsPanel_ = new KernelsPanel(state_);
    approximationPanel_ = new ApproximationPanel(state_);
    addPanel(kernelsPanel_);
    addPanel(approximationPanel_);
    trainingPanel_ = new TrainingPanel(state_);  // the last tab
    addPanel(trainingPanel_);
    linkedViews_ = new LinkedViews(this, state_, orbitsPanel_, kernelsPanel_, trainingPanel_);

    datasetLabel_->setTextFormat(Qt::PlainText);
    statusBar()->addPermanentWidget(datasetLabel_);
    connect(state_, &LabState::datasetChanged, this, [this] {
        const auto ds = state_->dataset();
        datasetLabel_->setText(ds ? tr("%1 · %2 samples").arg(safeText(QFileInfo(state_->datasetPath()).fileName())).arg(ds->count())
                                  : QString());
    });
    connect(dataPanel_, &DataPanel::openRequested, this, &MainWindow::openDataDialog);
    connect(dataPanel_, &DataPanel::loaded, this, [this](const QString& path) {
        settings_->addRecentFile(path);
        rebuildRecentMenu();
        if (missingData_) {  // located (or other data chosen): the session has data again
            const QString panel = missingData_->panel;
            missingData_.reset();
            if (!panel.isEmpty())
                showPanel(panel);
        }
    });
    connect(dataPanel_, &DataPanel::loadFailed, this, [this](const QString&, const QString& message) {
        if (missingData_)
            showMissingData(message);  // keep offering to locate the session's file
        if (currentPanel() != dataPanel_)
            showPanel("data");
    });
    presentation_ = new PresentationMode(this);
    PresentationMode::markSecondary(statusBar());
    // A/B comparison: the pinned A and the panels' views of it (the Compare menu: buildMenus).
    comparison_ = new Comparison(state_, this);
    comparisonViews_ = new ComparisonViews(comparison_, state_, groupPanel_, kernelsPanel_, approximationPanel_,
                                           trainingPanel_, this);

    buildMenus();
    lessonDock_ = new LessonDock(this);
    addDockWidget(Qt::RightDockWidgetArea, lessonDock_);
    // One side area for both: at 1280 x 720 the panels keep their width when both are open.
    tabifyDockWidget(linkedViews_->dock(), lessonDock_);
    lessonDock_->hide();
    menuBar()->addMenu(lessonDock_->menu());

    // Within the screen (a 1280 x 720 projector too), at the last geometry when there is one.
    placeWindow(this, restoring_ ? settings_->windowGeometry() : QByteArray(), QSize(1360, 860));
    if (restoring_) {
        restoreState(settings_->windowState());
        showPanel(settings_->currentPanel());
        presentationAction_->setChecked(settings_->presentationMode());
    }
}

MainWindow::~MainWindow() = default;

void MainWindow::addPanel(Panel* panel)
{
    panels_.push_back(panel);
    tabs_->addTab(panel, panel->title());
    connect(panel, &Panel::statusMessage, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });
}

Panel* MainWindow::panel(const QString& name) const
{
    for (Panel* p : panels_)
        if (p->name() == name)
            return p;
    return nullptr;
}

Panel* MainWindow::currentPanel() const { return qobject_cast<Panel*>(tabs_->currentWidget()); }

bool MainWindow::showPanel(const QString& name)
{
    Panel* p = panel(name);
    if (!p)
        return false;
    tabs_->setCurrentWidget(p);
    return true;
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open data…"), this, &MainWindow::openDataDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("Open &session…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), settings_->lastSessionDirectory(),
                                                          tr("Orbit Lab sessions (*.json);;All files (*)"));
        if (!path.isEmpty()) {
            settings_->setLastSessionDirectory(QFileInfo(path).absolutePath());
            openSessionFile(path);
        }
    });
    QAction* save = file->addAction(tr("&Save session…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save session"),
                                                          settings_->lastSessionDirectory() + "/session.json",
                                                          tr("Orbit Lab sessions (*.json)"));
        if (!path.isEmpty()) {
            settings_->setLastSessionDirectory(QFileInfo(path).absolutePath());
            saveSessionFile(path);
        }
    });
    save->setShortcut(QKeySequence::Save);
    share_ = new ShareActions(this, file, menuBar()->addMenu(tr("&Edit")));
    file->addSeparator();
    file->addAction(tr("Save screens&hot…"), this, &MainWindow::saveScreenshotDialog);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* presetMenu = menuBar()->addMenu(tr("&Presets"));
    for (const Preset& preset : presets()) {
        presetMenu->addAction(preset.name, this, [this, preset] {
            OrbitSettings s = preset.settings;
            s.seed = state_->orbitSettings().seed;
            const auto ds = state_->dataset();
            if (ds && !LabState::suits(s, *ds)) {
                currentPanel()->showError(tr("The preset “%1” needs data its group can act on (%2); the current "
                                             "data are %3. Open matching data first.")
                                              .arg(preset.name, QString::fromStdString(s.groupSpec()),
                                                   QString::fromUtf8(orbit::toString(ds->kind))));
                return;
            }
            currentPanel()->clearError();
            state_->setOrbitSettings(s);
        });
    }

    compare_ = new CompareActions(this, comparison_, menuBar()->addMenu(tr("&Compare")), statusBar());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (std::size_t i = 0; i < panels_.size(); ++i) {
        Panel* p = panels_[i];
        QAction* a = view->addAction(QString(p->title()).replace("&&", "&"), this, [this, p] { tabs_->setCurrentWidget(p); });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + static_cast<int>(i))));
    }
    view->addSeparator();
    presentationAction_ = view->addAction(tr("&Presentation mode"));
    presentationAction_->setCheckable(true);
    presentationAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    presentationAction_->setToolTip(tr("Larger fonts, lines and markers for the back row; export buttons and the "
                                       "status bar hidden"));
    connect(presentationAction_, &QAction::toggled, this, [this](bool on) {
        presentation_->setOn(on);
        if (restoring_)
            settings_->setPresentationMode(on);
    });
    QAction* inspector = linkedViews_->dock()->toggleViewAction();
    inspector->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    inspector->setToolTip(tr("The samples behind a clicked heatmap cell, embedding point or confusion cell"));
    view->addAction(inspector);
}

void MainWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = settings_->recentFiles();
    for (const QString& path : files)
        recentMenu_->addAction(safeText(QFileInfo(path).fileName()) + "  —  " + safePath(QFileInfo(path).absolutePath()), this,
                               [this, path] { openData(path); });
    if (!files.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear list"), this, [this] {
            settings_->clearRecentFiles();
            rebuildRecentMenu();
        });
    }
    recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::openDataDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open data"), settings_->lastDirectory(),
        tr("Datasets (*.gz *-ubyte *.idx *.bin *.amat *.png *.jpg *.jpeg *.bmp *.pgm *.mat *.xyz *.extxyz *.csv);;"
           "All files (*)"));
    if (path.isEmpty())
        return;
    settings_->setLastDirectory(QFileInfo(path).absolutePath());
    openData(path);
}

void MainWindow::openData(const QString& path) { dataPanel_->open(path); }

SessionState MainWindow::captureSession() const
{
    SessionState s;
    s.dataPath = state_->datasetPath();
    s.selectedIndex = state_->selectedIndex();
    s.embeddingInputs = state_->embeddingInputs();
    if (missingData_ && !state_->dataset()) {  // saved again before the file was located: keep it
        s.dataPath = missingData_->path;
        s.selectedIndex = missingData_->selectedIndex;
        s.embeddingInputs = missingData_->embeddingInputs;
    }
    s.orbit = state_->orbitSettings();
    s.training = trainingPanel_->settings();
    s.kernels = kernelsPanel_->settings();
    s.approximation = approximationPanel_->settings();
    if (Panel* p = currentPanel())
        s.panel = p->name();
    s.pinned = comparison_->pinned();
    return s;
}

void MainWindow::applySession(const SessionState& session)
{
    if (missingData_) {  // an earlier session's missing file is no longer the question
        missingData_.reset();
        dataPanel_->clearError();
    }
    state_->setOrbitSettings(session.orbit);
    trainingPanel_->setSettings(session.training);
    kernelsPanel_->applySettings(session.kernels);
    approximationPanel_->applySettings(session.approximation);
    comparison_->setPinned(session.pinned);
    if (!session.dataPath.isEmpty() && !QFileInfo::exists(session.dataPath)) {
        // Moved or renamed: no data rather than the wrong data under the session's settings.
        missingData_ = MissingData{session.dataPath, session.selectedIndex, session.embeddingInputs, session.panel};
        state_->setDataset(nullptr, QString());
        showMissingData();
        return;
    }
    if (!session.dataPath.isEmpty() && QFileInfo(session.dataPath) != QFileInfo(state_->datasetPath())) {
        state_->setPendingSelection(session.selectedIndex, session.embeddingInputs);
        openData(session.dataPath);
    } else {
        state_->setSelectedIndex(session.selectedIndex);
        state_->setEmbeddingInputs(session.embeddingInputs);
    }
    if (!session.panel.isEmpty())
        showPanel(session.panel);
}

QString MainWindow::missingDataPath() const { return missingData_ ? missingData_->path : QString(); }

void MainWindow::showMissingData(const QString& failure)
{
    if (!missingData_)
        return;
    QString text = tr("The session’s dataset %1 is not there any more (moved, renamed or on a disk that is not "
                      "connected). The session’s settings are kept: locate the file to load it.")
                       .arg(safePath(missingData_->path));
    if (!failure.isEmpty())
        text += " " + tr("The file chosen could not be loaded: %1").arg(failure);
    dataPanel_->showError(text, tr("Locate…"), [this] { locateMissingData(); });
    showPanel("data");
}

void MainWindow::locateMissingData()
{
    if (!missingData_)
        return;
    // Start in the nearest folder of the old path that still exists.
    QDir dir = QFileInfo(missingData_->path).absoluteDir();
    while (!dir.exists() && dir.cdUp()) {
    }
    const QString start = dir.exists() ? dir.path() : settings_->lastDirectory();
    const QString name = QFileInfo(missingData_->path).fileName();
    const QString path = QFileDialog::getOpenFileName(this, tr("Locate %1").arg(safeText(name)), start,
                                                      tr("The session’s file (%1);;All files (*)").arg(name));
    if (!path.isEmpty())
        openLocatedData(path);
}

void MainWindow::openLocatedData(const QString& path)
{
    if (missingData_)
        state_->setPendingSelection(missingData_->selectedIndex, missingData_->embeddingInputs);
    settings_->setLastDirectory(QFileInfo(path).absolutePath());
    openData(path);
}

bool MainWindow::openSessionFile(const QString& path)
{
    QString error;
    // Opening a named pipe would block the GUI thread until something writes to it.
    if (const QFileInfo info(path); info.exists() && !info.isFile()) {
        currentPanel()->showError(tr("Could not open the session: %1: not a regular file").arg(path));
        return false;
    }
    const auto session = loadSession(path, &error);
    if (!session) {
        currentPanel()->showError(tr("Could not open the session: %1").arg(error));
        return false;
    }
    currentPanel()->clearError();
    applySession(*session);
    statusBar()->showMessage(tr("Session %1 opened").arg(safeText(QFileInfo(path).fileName())), 8000);
    return true;
}

bool MainWindow::saveSessionFile(const QString& path)
{
    const QString error = saveSession(path, captureSession());
    if (!error.isEmpty()) {
        currentPanel()->showError(tr("Could not save the session: %1").arg(error));
        return false;
    }
    statusBar()->showMessage(tr("Session saved to %1").arg(safePath(path)), 8000);
    return true;
}

bool MainWindow::isIdle() const
{
    for (Panel* p : panels_)
        if (!p->isIdle())
            return false;
    return comparisonViews_->isIdle();
}

void MainWindow::screenshotWhenIdle(const QString& path, int timeoutMs)
{
    auto* timer = new QTimer(this);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    auto calm = std::make_shared<int>(0);
    connect(timer, &QTimer::timeout, this, [this, timer, clock, calm, path, timeoutMs] {
        *calm = isIdle() ? *calm + 1 : 0;
        const bool timedOut = clock->elapsed() > timeoutMs;
        if (*calm < 4 && !timedOut)  // idle for four ticks in a row: results are drawn
            return;
        timer->stop();
        const bool ok = grab().save(path);
        if (!ok)
            qWarning("orbitlab: could not write the screenshot %s", qPrintable(path));
        if (timedOut)
            qWarning("orbitlab: the panels did not settle within %d ms; saved what was shown", timeoutMs);
        QApplication::exit(ok && !timedOut ? 0 : 1);
    });
    timer->start(100);
}

void MainWindow::screenshotAfter(const QString& path, int delayMs)
{
    QTimer::singleShot(delayMs, this, [this, path] {
        const bool ok = grab().save(path);
        if (!ok)
            qWarning("orbitlab: could not write the screenshot %s", qPrintable(path));
        QApplication::exit(ok ? 0 : 1);
    });
}

QStringList MainWindow::exportPanelCharts(const Panel* p, const QString& dir, QString* error) const
{
    QString failure;
    QStringList written;
    if (!p || !p->hasCharts())
        failure = tr("the %1 panel has no charts").arg(p ? p->name() : QStringLiteral("current"));
    else if (!state_->dataset())
        failure = dataPanel_->hasError() ? tr("no data: %1").arg(dataPanel_->errorText()) : tr("no data loaded");
    else if (p->hasError())
        failure = tr("the %1 panel shows an error: %2").arg(p->name(), p->errorText());
    else {
        written = p->exportCharts(dir, &failure);
        if (written.isEmpty() && failure.isEmpty())
            failure = tr("the %1 panel drew no chart").arg(p->name());
    }
    if (!failure.isEmpty()) {
        if (error)
            *error = failure.simplified();  // one line
        return {};
    }
    return written;
}

void MainWindow::exportWhenIdle(const QString& dir, const QString& screenshot, int timeoutMs)
{
    Panel* p = currentPanel();
    // What a user would press: Run on Training; Compute where auto-apply is off.
    auto whenData = [this](auto compute) {
        if (state_->dataset())
            compute();
        else
            connect(state_, &LabState::datasetChanged, this, compute, Qt::SingleShotConnection);
    };
    if (p == trainingPanel_) {
        trainingPanel_->runWhenDataReady();
        connect(dataPanel_, &DataPanel::loadFailed, trainingPanel_, &TrainingPanel::dropPendingRun);
    } else if (p == kernelsPanel_ && !kernelsPanel_->settings().autoApply) {
        whenData([this] { kernelsPanel_->compute(); });
    } else if (p == approximationPanel_ && !approximationPanel_->settings().autoApply) {
        whenData([this] { approximationPanel_->compute(); });
    }
    auto* timer = new QTimer(this);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    auto calm = std::make_shared<int>(0);
    connect(timer, &QTimer::timeout, this, [this, p, timer, clock, calm, dir, screenshot, timeoutMs] {
        *calm = isIdle() ? *calm + 1 : 0;
        const bool timedOut = clock->elapsed() > timeoutMs;
        if (*calm < 4 && !timedOut)  // idle for four ticks in a row: results are drawn
            return;
        timer->stop();
        if (timedOut) {
            std::fprintf(stderr, "orbitlab: --export: the panels did not settle within %d s\n", timeoutMs / 1000);
            QApplication::exit(1);
            return;
        }
        if (!screenshot.isEmpty() && !grab().save(screenshot)) {
            std::fprintf(stderr, "orbitlab: --screenshot: cannot write %s\n", qPrintable(safePath(screenshot)));
            QApplication::exit(1);
            return;
        }
        QString error;
        const QStringList written = exportPanelCharts(p, dir, &error);
        if (written.isEmpty()) {
            std::fprintf(stderr, "orbitlab: --export: %s\n", qPrintable(error));
            QApplication::exit(1);
            return;
        }
        for (const QString& path : written)
            std::fprintf(stdout, "%s\n", qPrintable(path));
        std::fflush(stdout);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "orbitlab: --export: %s\n", qPrintable(error));
            QApplication::exit(1);
            return;
        }
        QApplication::exit(0);
    });
    timer->start(100);
}

void MainWindow::saveScreenshotDialog()
{
    const QString name = currentPanel() ? currentPanel()->name() : QStringLiteral("window");
    const QString path = QFileDialog::getSaveFileName(this, tr("Save screenshot"), settings_->lastDirectory() + "/orbitlab-" + name + ".png",
                                                      tr("PNG image (*.png)"));
    if (!path.isEmpty() && !grab().save(path))
        currentPanel()->showError(tr("Could not write the screenshot %1").arg(path));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (restoring_) {
        settings_->setWindowGeometry(saveGeometry());
        settings_->setWindowState(saveState());
        if (Panel* p = currentPanel())
            settings_->setCurrentPanel(p->name());
        settings_->sync();
    }
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile())
        return;
    const QString path = urls.front().toLocalFile();
    if (path.endsWith(".json", Qt::CaseInsensitive))
        openSessionFile(path);
    else
        openData(path);
    event->acceptProposedAction();
}

} // namespace orbitui

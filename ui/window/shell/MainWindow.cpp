#include "window/shell/MainWindow.hpp"

#include "render/SafeText.hpp"
#include "state/Comparison.hpp"
#include "state/LabState.hpp"
#include "state/Presets.hpp"
#include "state/Settings.hpp"
#include "widgets/PresentationMode.hpp"
#include "widgets/WindowFit.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/compare/CompareActions.hpp"
#include "window/compare/ComparisonViews.hpp"
#include "window/data/DataPanel.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/inspect/LinkedViews.hpp"
#include "window/inspect/SampleInspector.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/lessons/LessonDock.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/panels/PanelDescriptor.hpp"
#include "window/predict/PredictPanel.hpp"
#include "window/shell/PanelTabs.hpp"
#include "window/shell/SessionController.hpp"
#include "state/SampleData.hpp"
#include "state/workers/Worker.hpp"
#include "window/training/TrainingComparison.hpp"
#include "window/shell/ShareActions.hpp"
#include "window/shell/WorkingStateKeeper.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/TrainingPanel.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStatusBar>

namespace orbitui {

MainWindow::MainWindow(Settings* settings, bool restore, QWidget* parent)
    : QMainWindow(parent), settings_(settings), state_(new LabState(this)), tabs_(new PanelTabs),
      datasetLabel_(new QLabel), restoring_(restore)
{
    if (!settings_) {
        ownedSettings_ = std::make_unique<Settings>();
        settings_ = ownedSettings_.get();
    }
    setWindowTitle(tr("Orbit Lab"));
    setAcceptDrops(true);
    setCentralWidget(tabs_);
    connect(tabs_, &PanelTabs::statusMessage, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });

    // The registered panels in their order (window/shell/PanelList.cpp); the features that link
    // panels to each other (the inspector, Predict's runs, the session's data) take them by class.
    for (const PanelDescriptor& d : panelDescriptors())
        tabs_->add(d.create(state_));
    dataPanel_ = findPanel<DataPanel>();
    groupPanel_ = findPanel<GroupPanel>();
    orbitsPanel_ = findPanel<OrbitsPanel>();
    kernelsPanel_ = findPanel<KernelsPanel>();
    approximationPanel_ = findPanel<ApproximationPanel>();
    trainingPanel_ = findPanel<TrainingPanel>();
    predictPanel_ = findPanel<PredictPanel>();
    linkedViews_ = new LinkedViews(this, state_, orbitsPanel_, kernelsPanel_, trainingPanel_);
    // A/B comparison: the pinned A and the panels' views of it (the Compare menu: buildMenus).
    comparison_ = new Comparison(state_, this);
    comparisonViews_ = new ComparisonViews(comparison_, state_, panels(), this);
    // The Predict panel's models of runs: B the Training panel's last run, A Compare's pinned A.
    predictPanel_->setRunSources([this] { return trainingPanel_->lastResult(); },
                                 [this] { return comparisonViews_->training()->resultA(); });
    connect(trainingPanel_->runner(), &TaskRunner::finished, predictPanel_, &PredictPanel::runsChanged, Qt::QueuedConnection);
    connect(comparisonViews_->training(), &TrainingComparison::resultAChanged, predictPanel_, &PredictPanel::runsChanged);
    session_ = new SessionController({.state = state_, .settings = settings_, .tabs = tabs_, .data = dataPanel_,
                                      .group = groupPanel_, .training = trainingPanel_, .comparison = comparison_},
                                     this);
    connect(session_, &SessionController::statusMessage, this,
            [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); });

    datasetLabel_->setTextFormat(Qt::PlainText);
    statusBar()->addPermanentWidget(datasetLabel_);
    connect(state_, &LabState::datasetChanged, this, [this] {
        const auto ds = state_->dataset();
        datasetLabel_->setText(ds ? tr("%1 · %2 samples").arg(safeText(QFileInfo(state_->datasetPath()).fileName())).arg(ds->count())
                                  : QString());
    });
    connect(dataPanel_, &DataPanel::openRequested, this, &MainWindow::openDataDialog);
    connect(session_, &SessionController::dataLoaded, this, [this](const QString& path) {
        settings_->addRecentFile(path);
        rebuildRecentMenu();
    });
    presentation_ = new PresentationMode(this);
    PresentationMode::markSecondary(statusBar());

    buildMenus();
    lessonDock_ = new LessonDock(session_, this);
    addDockWidget(Qt::RightDockWidgetArea, lessonDock_);
    // One side area for both: at 1280 x 720 the panels keep their width when both are open.
    tabifyDockWidget(linkedViews_->dock(), lessonDock_);
    lessonDock_->hide();
    menuBar()->addMenu(lessonDock_->menu());
    // Presentation mode scales the panel in sight and the window's chrome at once, hidden panels and
    // docks one per event-loop turn: no single turn rescales every widget of the window.
    QList<QWidget*> staged{linkedViews_->dock(), lessonDock_};
    for (Panel* p : panels())
        staged.append(p);
    presentation_->setStagedParts(staged);

    // Within the screen (a 1280 x 720 projector too), at the last geometry when there is one.
    placeWindow(this, restoring_ ? settings_->windowGeometry() : QByteArray(), QSize(1360, 860));
    if (restoring_) {
        restoreState(settings_->windowState());
        showPanel(settings_->currentPanel());
        presentationAction_->setChecked(settings_->presentationMode());
        keeper_ = new WorkingStateKeeper(this, settings_->stateDirectory());
    }
}

MainWindow::~MainWindow() = default;

const std::vector<Panel*>& MainWindow::panels() const { return tabs_->panels(); }

Panel* MainWindow::panel(const QString& name) const { return tabs_->panel(name); }

template <typename T>
T* MainWindow::findPanel() const
{
    for (Panel* p : panels())
        if (auto* t = qobject_cast<T*>(p))
            return t;
    return nullptr;
}

Panel* MainWindow::currentPanel() const { return tabs_->current(); }

bool MainWindow::showPanel(const QString& name) { return tabs_->show(name); }

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* fresh = file->addAction(tr("&New"), this, &MainWindow::startClean);
    fresh->setShortcut(QKeySequence::New);
    fresh->setToolTip(tr("The default setting on the bundled data: no lesson, nothing pinned, no session file"));
    QAction* open = file->addAction(tr("&Open data…"), this, &MainWindow::openDataDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("Open &session…"), this, &MainWindow::openSessionDialog);
    QAction* save = file->addAction(tr("&Save session…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save session"),
                                                          settings_->lastSessionDirectory() + "/session.json",
                                                          tr("Orbit Lab sessions (*.json)"));
        if (!path.isEmpty()) {
            settings_->setLastSessionDirectory(QFileInfo(path).absolutePath());
            session_->saveFile(path);
        }
    });
    save->setShortcut(QKeySequence::Save);
    share_ = new ShareActions(session_, file, menuBar()->addMenu(tr("&Edit")));
    share_->setAskFirst([this] { return maybeSaveSession(); });  // a setting replaces the session, as Open data does
    file->addSeparator();
    file->addAction(tr("Save screens&hot…"), this, &MainWindow::saveScreenshotDialog);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* presetMenu = menuBar()->addMenu(tr("&Presets"));
    for (const Preset& preset : presets())
        presetMenu->addAction(preset.name, this, [this, preset] { session_->applyPreset(preset); });

    compare_ = new CompareActions(session_, menuBar()->addMenu(tr("&Compare")), statusBar());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (std::size_t i = 0; i < panels().size(); ++i) {
        Panel* p = panels()[i];
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
                               [this, path] {
                                   if (maybeSaveSession())
                                       session_->openData(path);
                               });
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
    if (!maybeSaveSession())
        return;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open data"), settings_->lastDirectory(),
        tr("Datasets (*.gz *-ubyte *.idx *.bin *.amat *.png *.jpg *.jpeg *.bmp *.pgm *.mat *.xyz *.extxyz *.csv);;"
           "All files (*)"));
    if (path.isEmpty())
        return;
    settings_->setLastDirectory(QFileInfo(path).absolutePath());
    session_->openData(path);
}

void MainWindow::openSessionDialog()
{
    if (!maybeSaveSession())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), settings_->lastSessionDirectory(),
                                                      tr("Orbit Lab sessions (*.json);;All files (*)"));
    if (!path.isEmpty()) {
        settings_->setLastSessionDirectory(QFileInfo(path).absolutePath());
        session_->openFile(path);
    }
}

void MainWindow::openSampleData()
{
    const QString sample = findSampleData(defaultSampleFile());
    if (!sample.isEmpty())
        session_->openData(sample);
    else
        dataPanel_->showError(tr("The bundled sample data were not found in %1. Open a dataset with File ▸ Open data….")
                                  .arg(sampleDataDirectories().join(", ")));
}

bool MainWindow::startClean()
{
    if (!maybeSaveSession())
        return false;
    trainingPanel_->cancel();
    lessonDock_->hide();
    SessionState clean;
    clean.panel = QStringLiteral("data");
    session_->apply(clean);
    trainingPanel_->locality()->setUndoSettings(std::nullopt);
    if (keeper_)
        keeper_->clearSessionFile();
    openSampleData();
    return true;
}

bool MainWindow::maybeSaveSession()
{
    if (!keeper_ || !keeper_->isSessionModified())
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Save the session?"),
                    tr("The setting differs from the session %1.").arg(safeText(QFileInfo(keeper_->sessionFile()).fileName())),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName("saveQuestion");
    box.setTextFormat(Qt::PlainText);
    const WorkingState now = keeper_->capture();
    QStringList changed = sessionDifferences(*now.savedSession, now.session);
    changed.removeAll("panel");
    if (changed.size() > 4)
        changed = changed.mid(0, 4) << "…";
    box.setInformativeText(tr("Changed: %1.\nSave the changes to the session file, discard them, or cancel and go on working?")
                               .arg(changed.join(", ")));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return session_->saveFile(keeper_->sessionFile());
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

bool MainWindow::confirmStopRuns()
{
    const bool learning = trainingPanel_->locality()->busy();
    if (!learning && !trainingPanel_->runner()->busy())
        return true;
    QMessageBox box(QMessageBox::Question, tr("Quit while working?"),
                    learning ? tr("Learn locality is still running.") : tr("A training run is still running."),
                    QMessageBox::Cancel, this);
    box.setObjectName("runningQuestion");
    box.setTextFormat(Qt::PlainText);
    box.setInformativeText(learning ? tr("Quitting stops it. The best point so far and Undo are kept and come back at "
                                         "the next start.")
                                    : tr("Quitting stops it; the setting is kept and comes back at the next start."));
    QPushButton* quit = box.addButton(tr("Stop and quit"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == quit;
}

bool MainWindow::isIdle() const
{
    for (Panel* p : panels())
        if (!p->isIdle())
            return false;
    return comparisonViews_->isIdle() && linkedViews_->inspector()->isIdle() && presentation_->isSettled();
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
    if (keeper_ && (!confirmStopRuns() || !maybeSaveSession())) {
        event->ignore();
        return;
    }
    if (restoring_) {
        settings_->setWindowGeometry(saveGeometry());
        settings_->setWindowState(saveState());
        if (Panel* p = currentPanel())
            settings_->setCurrentPanel(p->name());
        settings_->sync();
    }
    if (keeper_) {
        keeper_->finish();  // the best point of a running learn is captured before it stops
        trainingPanel_->cancel();
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
    if (!maybeSaveSession())
        return;
    if (path.endsWith(".json", Qt::CaseInsensitive))
        session_->openFile(path);
    else
        session_->openData(path);
    event->acceptProposedAction();
}

} // namespace orbitui

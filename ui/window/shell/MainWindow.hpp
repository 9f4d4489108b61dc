#pragma once
// The main window assembles the features: the panels in a switcher (PanelTabs), the inspector and
// the lessons in docks, the menus, the status bar and drag-and-drop. What the user set is the
// SessionController's; a run without a user (--screenshot, --export) is HeadlessRun's.
#include <QMainWindow>

#include <memory>
#include <vector>

class QLabel;
class QMenu;

namespace orbitui {

class ApproximationPanel;
class CompareActions;
class Comparison;
class ComparisonViews;
class DataPanel;
class GroupPanel;
class KernelsPanel;
class LabState;
class LessonDock;
class LinkedViews;
class OrbitsPanel;
class Panel;
class PanelTabs;
class PredictPanel;
class PresentationMode;
class SessionController;
class Settings;
class ShareActions;
class TrainingPanel;
class WorkingStateKeeper;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `settings` may be null (the application's default settings); `restore` reapplies the
    /// saved geometry, window state and panel.
    explicit MainWindow(Settings* settings = nullptr, bool restore = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    LabState* state() const { return state_; }
    /// The session: capture, apply, open and save it; the data it names.
    SessionController* session() const { return session_; }
    DataPanel* dataPanel() const { return dataPanel_; }
    GroupPanel* groupPanel() const { return groupPanel_; }
    OrbitsPanel* orbitsPanel() const { return orbitsPanel_; }
    KernelsPanel* kernelsPanel() const { return kernelsPanel_; }
    ApproximationPanel* approximationPanel() const { return approximationPanel_; }
    TrainingPanel* trainingPanel() const { return trainingPanel_; }
    PredictPanel* predictPanel() const { return predictPanel_; }
    /// Copy setting, Open setting…, Copy as command (ShareActions.hpp).
    ShareActions* share() const { return share_; }
    /// The guided lessons' side panel (hidden until a lesson starts; the Lessons menu).
    LessonDock* lessonDock() const { return lessonDock_; }
    /// The inspector and the links to it from the Kernels, Orbits and Training panels.
    LinkedViews* linkedViews() const { return linkedViews_; }
    /// Presentation mode (View menu, Ctrl+Shift+P): larger fonts and lines, secondary controls hidden.
    PresentationMode* presentation() const { return presentation_; }
    QAction* presentationAction() const { return presentationAction_; }
    /// The A/B comparison: the pinned setting A and the panels' views of it.
    Comparison* comparison() const { return comparison_; }
    ComparisonViews* comparisonViews() const { return comparisonViews_; }
    /// Compare ▸ Pin as A / Unpin A and the status bar's "A: …" (CompareActions.hpp).
    CompareActions* compare() const { return compare_; }

    const std::vector<Panel*>& panels() const;
    Panel* panel(const QString& name) const;
    Panel* currentPanel() const;
    /// Shows the panel called `name`; false when there is none.
    bool showPanel(const QString& name);

    /// True when no panel, A/B view or the inspector waits for a worker, and presentation mode has
    /// reached every hidden panel (PresentationMode::isSettled).
    bool isIdle() const;

    /// The working state kept across quit and crash (a window that restores only; else null).
    WorkingStateKeeper* keeper() const { return keeper_; }
    /// Opens the bundled sample data (or says in the Data panel where they were looked for).
    void openSampleData();
    /// File ▸ New: after the Save / Discard / Cancel question, the default setting on the bundled
    /// data, no lesson, nothing pinned, no session file. False when the user cancelled.
    bool startClean();
    /// Before throwing the setting away (quit, another session or dataset, New): when a session file
    /// is in use and the setting differs from it, asks Save / Discard / Cancel (the "saveQuestion"
    /// message box). True to go on (saved or discarded), false when cancelled or the save failed.
    bool maybeSaveSession();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    /// The registered panel of class T (the first), or null.
    template <typename T>
    T* findPanel() const;
    void buildMenus();
    void rebuildRecentMenu();
    void openDataDialog();
    void saveScreenshotDialog();
    void openSessionDialog();
    /// At quit, while a training run or a learn is under way: asks whether to stop it (the
    /// "runningQuestion" message box). True to quit.
    bool confirmStopRuns();

    std::unique_ptr<Settings> ownedSettings_;
    Settings* settings_;
    LabState* state_;
    PanelTabs* tabs_;
    QMenu* recentMenu_ = nullptr;
    PresentationMode* presentation_ = nullptr;
    QAction* presentationAction_ = nullptr;
    QLabel* datasetLabel_;
    DataPanel* dataPanel_;
    GroupPanel* groupPanel_;
    OrbitsPanel* orbitsPanel_;
    KernelsPanel* kernelsPanel_;
    ApproximationPanel* approximationPanel_;
    TrainingPanel* trainingPanel_;
    PredictPanel* predictPanel_;
    SessionController* session_ = nullptr;
    ShareActions* share_ = nullptr;
    LessonDock* lessonDock_ = nullptr;
    LinkedViews* linkedViews_ = nullptr;
    bool restoring_;
    Comparison* comparison_ = nullptr;
    ComparisonViews* comparisonViews_ = nullptr;
    CompareActions* compare_ = nullptr;
    WorkingStateKeeper* keeper_ = nullptr;
};

} // namespace orbitui

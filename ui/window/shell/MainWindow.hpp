#pragma once
// The main window: menus, a panel switcher, the status bar, drag-and-drop, sessions and the
// screenshot mode. The panels live in their own files; add one with addPanel().
#include "state/Session.hpp"
#include "state/Settings.hpp"

#include <QMainWindow>

#include <optional>
#include <vector>

class QLabel;
class QMenu;
class QTabWidget;

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
class PresentationMode;
class ShareActions;
class TrainingPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `settings` may be null (the application's default settings); `restore` reapplies the
    /// saved geometry, window state and panel.
    explicit MainWindow(Settings* settings = nullptr, bool restore = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    LabState* state() const { return state_; }
    DataPanel* dataPanel() const { return dataPanel_; }
    GroupPanel* groupPanel() const { return groupPanel_; }
    OrbitsPanel* orbitsPanel() const { return orbitsPanel_; }
    KernelsPanel* kernelsPanel() const { return kernelsPanel_; }
    ApproximationPanel* approximationPanel() const { return approximationPanel_; }
    TrainingPanel* trainingPanel() const { return trainingPanel_; }
    /// Copy setting, Open setting…, Copy as command (ShareActions.hpp).
    ShareActions* share() const { return share_; }
    /// The guided lessons' side panel (hidden until a lesson starts; the Lessons menu).
    LessonDock* lessonDock() const { return lessonDock_; }
    /// The inspector and the links to it from the Kernels, Orbits and Training panels.
    LinkedViews* linkedViews() const { return linkedViews_; }
    const std::vector<Panel*>& panels() const { return panels_; }
    /// Presentation mode (View menu, Ctrl+Shift+P): larger fonts and lines, secondary controls hidden.
    PresentationMode* presentation() const { return presentation_; }
    QAction* presentationAction() const { return presentationAction_; }
    /// The A/B comparison: the pinned setting A and the panels' views of it.
    Comparison* comparison() const { return comparison_; }
    ComparisonViews* comparisonViews() const { return comparisonViews_; }
    /// Compare ▸ Pin as A / Unpin A and the status bar's "A: …" (CompareActions.hpp).
    CompareActions* compare() const { return compare_; }
    Panel* panel(const QString& name) const;
    Panel* currentPanel() const;
    /// Shows the panel called `name`; false when there is none.
    bool showPanel(const QString& name);

    void openData(const QString& path);
    /// Everything the user set, as a session.
    SessionState captureSession() const;
    /// Applies a session: settings now, the dataset (and its selection) when it has loaded. A
    /// dataset that is no longer where the session says (moved, renamed, on an unplugged disk) leaves
    /// the data empty and the Data panel offering to locate it; the session's settings, dataset path
    /// and selection are kept (captureSession returns them) until other data are loaded.
    void applySession(const SessionState& session);
    /// The session's dataset path while it is missing, else empty.
    QString missingDataPath() const;
    /// Loads `path` in place of the session's missing dataset, with the session's selection and
    /// panel (what "Locate…" does once a file is chosen).
    void openLocatedData(const QString& path);
    /// Loads a session file; errors go to the current panel's message strip. Returns success.
    bool openSessionFile(const QString& path);
    bool saveSessionFile(const QString& path);

    /// True when no panel waits for a worker.
    bool isIdle() const;
    /// Waits until idle (and the panels drew), grabs the window into `path` and calls
    /// QApplication::exit(0), or exit(1) if saving fails or nothing settles within `timeoutMs`.
    void screenshotWhenIdle(const QString& path, int timeoutMs = 60000);
    /// Renders the window into `path` after `delayMs`, busy or not (work in progress), and exits.
    void screenshotAfter(const QString& path, int delayMs);
    /// The export mode of `orbitlab --export DIR --panel NAME` for the current panel (the one shown
    /// when it is called, even if a failed load later shows another): starts what it
    /// needs to draw (a Training run; Kernels and Approximation compute with auto-apply off too),
    /// waits until idle, saves the screenshot when `screenshot` is given, writes the panel's charts
    /// into `dir` (Panel::exportCharts), prints each path on stdout and calls QApplication::exit(0).
    /// With no data, an error shown in the panel, nothing drawn, a file that cannot be written or
    /// nothing settled within `timeoutMs`, it prints one line on stderr and exits with 1.
    void exportWhenIdle(const QString& dir, const QString& screenshot = {}, int timeoutMs = 600000);
    /// What exportWhenIdle writes once idle for `panel`: the written paths, or an empty list and
    /// `error` set (one line).
    QStringList exportPanelCharts(const Panel* panel, const QString& dir, QString* error) const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void addPanel(Panel* panel);
    void buildMenus();
    void rebuildRecentMenu();
    void openDataDialog();
    void saveScreenshotDialog();
    void showMissingData(const QString& failure = {});
    void locateMissingData();

    std::unique_ptr<Settings> ownedSettings_;
    Settings* settings_;
    LabState* state_;
    QTabWidget* tabs_;
    QMenu* recentMenu_ = nullptr;
    PresentationMode* presentation_ = nullptr;
    QAction* presentationAction_ = nullptr;
    QLabel* datasetLabel_;
    std::vector<Panel*> panels_;
    DataPanel* dataPanel_;
    GroupPanel* groupPanel_;
    OrbitsPanel* orbitsPanel_;
    KernelsPanel* kernelsPanel_;
    ApproximationPanel* approximationPanel_;
    TrainingPanel* trainingPanel_;
    ShareActions* share_ = nullptr;
    LessonDock* lessonDock_ = nullptr;
    LinkedViews* linkedViews_ = nullptr;
    bool restoring_;
    /// A session's dataset that was not found: what it needs once the file is located.
    struct MissingData {
        QString path;
        int selectedIndex = 0;
        std::vector<int> embeddingInputs;
        QString panel;
    };
    std::optional<MissingData> missingData_;
    Comparison* comparison_ = nullptr;
    ComparisonViews* comparisonViews_ = nullptr;
    CompareActions* compare_ = nullptr;
};

} // namespace orbitui

#pragma once
// The window's session: everything the user set, read from the LabState and the panels and written
// back to them, on disk as a session file, and the dataset a session names when it is missing. The
// window's actions (Share, Compare, Lessons, Presets) take this instead of the window.
#include "state/commands/CliCommand.hpp"
#include "state/Presets.hpp"
#include "state/Session.hpp"

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

namespace orbitui {

class Comparison;
class DataPanel;
class GroupPanel;
class LabState;
class Panel;
class PanelTabs;
class Settings;
class TrainingPanel;

class SessionController : public QObject {
    Q_OBJECT
public:
    /// What a session is read from and applied to: the LabState, and each panel of `tabs` that keeps
    /// a part of the session (PanelDescriptor::capture and apply); the Data panel loads the data,
    /// the Group and Training panels give the command's context.
    struct Parts {
        LabState* state = nullptr;
        Settings* settings = nullptr;
        PanelTabs* tabs = nullptr;
        DataPanel* data = nullptr;
        GroupPanel* group = nullptr;
        TrainingPanel* training = nullptr;
        Comparison* comparison = nullptr;
    };
    explicit SessionController(const Parts& parts, QObject* parent = nullptr);

    LabState* state() const { return parts_.state; }
    Comparison* comparison() const { return parts_.comparison; }
    /// The panel shown now: where the actions' messages go.
    Panel* currentPanel() const;
    /// Says `text` in the status bar for a while.
    void showStatus(const QString& text, int milliseconds = 8000);

    /// Everything the user set, as a session.
    SessionState capture() const;
    /// Applies a session: settings now, the dataset (and its selection) when it has loaded. A
    /// dataset that is no longer where the session says (moved, renamed, on an unplugged disk) leaves
    /// the data empty and the Data panel offering to locate it; the session's settings, dataset path
    /// and selection are kept (capture returns them) until other data are loaded.
    void apply(const SessionState& session);
    /// Applies a preset's orbit settings (keeping the seed); refuses, in the current panel, data its
    /// group cannot act on. True when applied.
    bool applyPreset(const Preset& preset);

    /// Loads a dataset into the Data panel (and so into every panel).
    void openData(const QString& path);
    /// True while a dataset loads.
    bool isLoading() const;
    /// The session's dataset path while it is missing, else empty.
    QString missingDataPath() const;
    /// Loads `path` in place of the session's missing dataset, with the session's selection and
    /// panel (what "Locate…" does once a file is chosen).
    void openLocatedData(const QString& path);
    /// Loads a session file; errors go to the current panel's message strip. Returns success.
    bool openFile(const QString& path);
    bool saveFile(const QString& path);

    /// What the current panel's command depends on beyond the session (dataset size, the Group
    /// panel's factor, whether the Training panel shows the learned locality).
    CommandContext commandContext() const;

signals:
    /// A short message for the status bar.
    void statusMessage(const QString& text, int milliseconds);
    /// A dataset finished loading, or failed to (after the controller handled a missing one).
    void dataLoaded(const QString& path);
    void dataLoadFailed(const QString& path, const QString& message);
    /// A session file was opened or saved: its path and the setting it holds (the title's [*]).
    void sessionFileUsed(const QString& path, const SessionState& state);

private:
    void showMissingData(const QString& failure = {});
    void locateMissingData();

    Parts parts_;
    /// A session's dataset that was not found: what it needs once the file is located.
    struct MissingData {
        QString path;
        int selectedIndex = 0;
        std::vector<int> embeddingInputs;
        QString panel;
    };
    std::optional<MissingData> missingData_;
};

} // namespace orbitui

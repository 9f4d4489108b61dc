#pragma once
// The main window's Share and reproduce actions: Edit ▸ Copy setting (Ctrl+Shift+C), File ▸ Open
// setting… (Ctrl+Shift+O), Edit ▸ Copy as command (Ctrl+Alt+C), Copy as mpirun command and Copy as
// Python (the Training panel's run with the Python module). The
// encoding is state/Share.hpp, the command lines state/commands/CliCommand.hpp; this class only wires
// them to the session (clipboard, dialog, message strip, status bar).
#include "state/commands/CliCommand.hpp"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QAction;
class QMenu;

namespace orbitui {

class SessionController;

class ShareActions : public QObject {
    Q_OBJECT
public:
    /// Adds "Open setting…" to `file` and the copy actions to `edit`.
    ShareActions(SessionController* session, QMenu* file, QMenu* edit);

    /// The setting text of the session now (encodeSetting(SessionController::capture())).
    QString settingText() const;
    /// Puts settingText() on the clipboard.
    void copySetting();
    /// Decodes `text` and applies it as a session (SessionController::apply). On a malformed text
    /// the current panel's message strip says what is wrong, the session is kept, and false is returned.
    bool openSetting(const QString& text);
    /// The dialog of File ▸ Open setting…: a line edit, pre-filled from the clipboard when it holds
    /// a setting; OK opens it with openSetting. First asks `askFirst` (setAskFirst), which may
    /// decline: nothing opens then.
    void openSettingDialog();
    /// What Open setting… asks before it replaces the session (the window's Save / Discard /
    /// Cancel on a modified session); false stops it.
    void setAskFirst(std::function<bool()> askFirst) { askFirst_ = std::move(askFirst); }

    /// The line of Copy as command (processes 0) or Copy as mpirun command (mpirun -np processes
    /// for the commands that scale out); nullopt with the reason in the panel's message strip.
    std::optional<QString> commandText(int processes = 0) const;
    void copyCommand(int processes = 0);
    /// Copy as Python: the Training panel's run as Python lines (trainingPython), whichever panel is
    /// shown but the Predict panel, whose sweep it gives (predictPython); nullopt with the reason in the panel's message strip (no data file).
    std::optional<QString> pythonText() const;
    void copyPython();
    /// The -np of Copy as mpirun command: the machine's cores.
    static int mpiProcesses();

    QAction* copySettingAction() const { return copySetting_; }
    QAction* openSettingAction() const { return openSetting_; }
    QAction* copyCommandAction() const { return copyCommand_; }
    QAction* copyMpiCommandAction() const { return copyMpiCommand_; }
    QAction* copyPythonAction() const { return copyPython_; }

private:
    /// Enables Copy as mpirun command only on a panel whose command scales out.
    void updateActions();

    SessionController* session_;
    std::function<bool()> askFirst_;
    QAction* copySetting_;
    QAction* openSetting_;
    QAction* copyCommand_;
    QAction* copyMpiCommand_;
    QAction* copyPython_;
};

} // namespace orbitui

#include "window/shell/ShareActions.hpp"

#include "state/PanelRegistry.hpp"
#include "state/Share.hpp"
#include "widgets/Panel.hpp"
#include "window/shell/SessionController.hpp"

#include "orbit/util/Error.hpp"

#include <QAction>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

namespace orbitui {

ShareActions::ShareActions(SessionController* session, QMenu* file, QMenu* edit) : QObject(session), session_(session)
{
    openSetting_ = file->addAction(tr("Open se&tting…"), this, &ShareActions::openSettingDialog);
    openSetting_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openSetting_->setToolTip(tr("Paste a setting someone copied (Edit ▸ Copy setting) to see what they saw"));

    copySetting_ = edit->addAction(tr("Copy &setting"), this, &ShareActions::copySetting);
    copySetting_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copySetting_->setToolTip(tr("One line of text that restores the whole setting: data, group, distribution, r, seeds "
                                "and every panel's settings"));
    edit->addSeparator();
    copyCommand_ = edit->addAction(tr("Copy as &command"), this, [this] { copyCommand(0); });
    copyCommand_->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_C));
    copyCommand_->setToolTip(tr("The orbitlab-cli line that recomputes what this panel shows"));
    copyMpiCommand_ = edit->addAction(tr("Copy as &mpirun command (-np %1)").arg(mpiProcesses()), this,
                                      [this] { copyCommand(mpiProcesses()); });
    copyMpiCommand_->setToolTip(tr("The same line under mpirun, for the commands that run spread over processes "
                                   "(train, learn)"));
    copyPython_ = edit->addAction(tr("Copy as &Python"), this, &ShareActions::copyPython);
    copyPython_->setToolTip(tr("The Python lines (module orbitlab, the same core) that redo the Training panel's run "
                               "and print its numbers"));
    connect(edit, &QMenu::aboutToShow, this, &ShareActions::updateActions);
    updateActions();
}

int ShareActions::mpiProcesses() { return std::max(1, QThread::idealThreadCount()); }

QString ShareActions::settingText() const { return encodeSetting(session_->capture()); }

void ShareActions::copySetting()
{
    const QString text = settingText();
    QGuiApplication::clipboard()->setText(text);
    session_->showStatus(
        tr("Setting copied (%1 characters): paste it into File ▸ Open setting… or orbitlab --setting").arg(text.size()));
}

bool ShareActions::openSetting(const QString& text)
{
    SessionState session;
    try {
        session = decodeSetting(text);
    } catch (const std::exception& e) {
        // "setting: the text is cut short" reads "Could not open the setting: the text is cut short";
        // a field keeps its name ("orbit.r: expected …").
        QString what = QString::fromUtf8(e.what());
        if (what.startsWith("setting: "))
            what.remove(0, 9);
        else if (what.startsWith("setting "))
            what.remove(0, 8);
        session_->currentPanel()->showError(tr("Could not open the setting: %1").arg(what));
        return false;
    }
    session_->currentPanel()->clearError();
    session_->apply(session);
    session_->showStatus(tr("Setting opened"));
    return true;
}

void ShareActions::openSettingDialog()
{
    if (askFirst_ && !askFirst_())
        return;
    QDialog dialog(session_->currentPanel()->window());
    dialog.setObjectName("openSettingDialog");
    dialog.setWindowTitle(tr("Open setting"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* hint = new QLabel(tr("Paste a setting (the line Edit ▸ Copy setting gives, starting with %1):")
                                .arg(QString::fromLatin1(kSettingPrefix)));
    hint->setWordWrap(true);
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(QString::fromLatin1(kSettingPrefix) + QString::number(kSettingVersion) + ":…");
    edit->setClearButtonEnabled(true);
    edit->setMinimumWidth(520);
    const QString clip = QGuiApplication::clipboard()->text();
    if (looksLikeSetting(clip))
        edit->setText(clip.trimmed());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
    auto* open = buttons->button(QDialogButtonBox::Open);
    open->setEnabled(!edit->text().trimmed().isEmpty());
    connect(edit, &QLineEdit::textChanged, open, [open](const QString& t) { open->setEnabled(!t.trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(hint);
    layout->addWidget(edit);
    layout->addWidget(buttons);
    if (dialog.exec() == QDialog::Accepted)
        openSetting(edit->text());
}

std::optional<QString> ShareActions::commandText(int processes) const
{
    Panel* panel = session_->currentPanel();
    try {
        const CliCommand command = panelCommand(session_->capture(), panel->name().toStdString(), session_->commandContext());
        return QString::fromStdString(commandLine(command, "orbitlab-cli", processes));
    } catch (const std::exception& e) {
        panel->showError(tr("Could not write the command: %1").arg(QString::fromUtf8(e.what())));
        return std::nullopt;
    }
}

void ShareActions::copyCommand(int processes)
{
    const auto text = commandText(processes);
    if (!text)
        return;
    QGuiApplication::clipboard()->setText(*text);
    session_->showStatus(tr("Command copied: %1").arg(*text));
}

std::optional<QString> ShareActions::pythonText() const
{
    try {
        const SessionState s = session_->capture();
        // The panel's own lines when its registration has them (Predict's sweep), else the Training run's.
        const PanelEntry* panel = registeredPanel(session_->currentPanel()->name());
        if (panel && panel->python)
            return QString::fromStdString(panel->python(s, session_->commandContext()));
        return QString::fromStdString(trainingPython(s, session_->commandContext()));
    } catch (const std::exception& e) {
        session_->currentPanel()->showError(tr("Could not write the Python lines: %1").arg(QString::fromUtf8(e.what())));
        return std::nullopt;
    }
}

void ShareActions::copyPython()
{
    const auto text = pythonText();
    if (!text)
        return;
    QGuiApplication::clipboard()->setText(*text);
    session_->showStatus(tr("Python copied (%1 lines): paste it into a notebook or run it with "
                            "PYTHONPATH=build/python python3")
                             .arg(text->count('\n')));
}

void ShareActions::updateActions()
{
    bool scales = false;
    try {
        scales = panelCommand(session_->capture(), session_->currentPanel()->name().toStdString(), session_->commandContext())
                     .scalesOut;
    } catch (const std::exception&) {
    }
    copyMpiCommand_->setEnabled(scales);
}

} // namespace orbitui

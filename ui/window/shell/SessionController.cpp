#include "window/shell/SessionController.hpp"

#include "render/SafeText.hpp"
#include "state/Comparison.hpp"
#include "state/LabState.hpp"
#include "state/Settings.hpp"
#include "window/data/DataPanel.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/panels/PanelDescriptor.hpp"
#include "window/shell/PanelTabs.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/TrainingPanel.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStackedWidget>

namespace orbitui {

SessionController::SessionController(const Parts& parts, QObject* parent) : QObject(parent), parts_(parts)
{
    connect(parts_.data, &DataPanel::loaded, this, [this](const QString& path) {
        if (missingData_) {  // located (or other data chosen): the session has data again
            const QString panel = missingData_->panel;
            missingData_.reset();
            if (!panel.isEmpty())
                parts_.tabs->show(panel);
        }
        emit dataLoaded(path);
    });
    connect(parts_.data, &DataPanel::loadFailed, this, [this](const QString& path, const QString& message) {
        if (missingData_)
            showMissingData(message);  // keep offering to locate the session's file
        if (currentPanel() != parts_.data)
            parts_.tabs->show("data");
        emit dataLoadFailed(path, message);
    });
}

Panel* SessionController::currentPanel() const { return parts_.tabs->current(); }

void SessionController::showStatus(const QString& text, int milliseconds) { emit statusMessage(text, milliseconds); }

SessionState SessionController::capture() const
{
    const LabState* state = parts_.state;
    SessionState s;
    s.dataPath = state->datasetPath();
    s.selectedIndex = state->selectedIndex();
    s.embeddingInputs = state->embeddingInputs();
    if (missingData_ && !state->dataset()) {  // saved again before the file was located: keep it
        s.dataPath = missingData_->path;
        s.selectedIndex = missingData_->selectedIndex;
        s.embeddingInputs = missingData_->embeddingInputs;
    }
    s.orbit = state->orbitSettings();
    for (Panel* p : parts_.tabs->panels())
        if (const PanelDescriptor* d = panelDescriptor(p->name()); d && d->capture)
            d->capture(p, s);
    if (Panel* p = currentPanel())
        s.panel = p->name();
    s.pinned = parts_.comparison->pinned();
    return s;
}

void SessionController::apply(const SessionState& session)
{
    LabState* state = parts_.state;
    if (missingData_) {  // an earlier session's missing file is no longer the question
        missingData_.reset();
        parts_.data->clearError();
    }
    state->setOrbitSettings(session.orbit);
    for (Panel* p : parts_.tabs->panels())
        if (const PanelDescriptor* d = panelDescriptor(p->name()); d && d->apply)
            d->apply(p, session);
    parts_.comparison->setPinned(session.pinned);
    if (!session.dataPath.isEmpty() && !QFileInfo::exists(session.dataPath)) {
        // Moved or renamed: no data rather than the wrong data under the session's settings.
        missingData_ = MissingData{session.dataPath, session.selectedIndex, session.embeddingInputs, session.panel};
        state->setDataset(nullptr, QString());
        showMissingData();
        return;
    }
    if (!session.dataPath.isEmpty() && QFileInfo(session.dataPath) != QFileInfo(state->datasetPath())) {
        state->setPendingSelection(session.selectedIndex, session.embeddingInputs);
        openData(session.dataPath);
    } else {
        state->setSelectedIndex(session.selectedIndex);
        state->setEmbeddingInputs(session.embeddingInputs);
    }
    if (!session.panel.isEmpty())
        parts_.tabs->show(session.panel);
}

bool SessionController::applyPreset(const Preset& preset)
{
    OrbitSettings s = preset.settings;
    s.seed = parts_.state->orbitSettings().seed;
    const auto ds = parts_.state->dataset();
    if (ds && !LabState::suits(s, *ds)) {
        currentPanel()->showError(tr("The preset “%1” needs data its group can act on (%2); the current "
                                     "data are %3. Open matching data first.")
                                      .arg(preset.name, QString::fromStdString(s.groupSpec()),
                                           QString::fromUtf8(orbit::toString(ds->kind))));
        return false;
    }
    currentPanel()->clearError();
    parts_.state->setOrbitSettings(s);
    return true;
}

void SessionController::openData(const QString& path) { parts_.data->open(path); }

bool SessionController::isLoading() const { return parts_.data->isLoading(); }

QString SessionController::missingDataPath() const { return missingData_ ? missingData_->path : QString(); }

void SessionController::showMissingData(const QString& failure)
{
    if (!missingData_)
        return;
    QString text = tr("The session’s dataset %1 is not there any more (moved, renamed or on a disk that is not "
                      "connected). The session’s settings are kept: locate the file to load it.")
                       .arg(safePath(missingData_->path));
    if (!failure.isEmpty())
        text += " " + tr("The file chosen could not be loaded: %1").arg(failure);
    parts_.data->showError(text, tr("Locate…"), [this] { locateMissingData(); });
    parts_.tabs->show("data");
}

void SessionController::locateMissingData()
{
    if (!missingData_)
        return;
    // Start in the nearest folder of the old path that still exists.
    QDir dir = QFileInfo(missingData_->path).absoluteDir();
    while (!dir.exists() && dir.cdUp()) {
    }
    const QString start = dir.exists() ? dir.path() : parts_.settings->lastDirectory();
    const QString name = QFileInfo(missingData_->path).fileName();
    const QString path = QFileDialog::getOpenFileName(parts_.tabs->window(), tr("Locate %1").arg(safeText(name)), start,
                                                      tr("The session’s file (%1);;All files (*)").arg(name));
    if (!path.isEmpty())
        openLocatedData(path);
}

void SessionController::openLocatedData(const QString& path)
{
    if (missingData_)
        parts_.state->setPendingSelection(missingData_->selectedIndex, missingData_->embeddingInputs);
    parts_.settings->setLastDirectory(QFileInfo(path).absolutePath());
    openData(path);
}

bool SessionController::openFile(const QString& path)
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
    apply(*session);
    emit sessionFileUsed(QFileInfo(path).absoluteFilePath(), *session);
    showStatus(tr("Session %1 opened").arg(safeText(QFileInfo(path).fileName())));
    return true;
}

bool SessionController::saveFile(const QString& path)
{
    const SessionState state = capture();
    const QString error = saveSession(path, state);
    if (!error.isEmpty()) {
        currentPanel()->showError(tr("Could not save the session: %1").arg(error));
        return false;
    }
    emit sessionFileUsed(QFileInfo(path).absoluteFilePath(), state);
    showStatus(tr("Session saved to %1").arg(safePath(path)));
    return true;
}

CommandContext SessionController::commandContext() const
{
    CommandContext c;
    if (const auto ds = parts_.state->dataset())
        c.samples = ds->count();
    c.densityFactor = parts_.group->densityFactor();
    // The Learned locality tab shows what the training panel draws (TrainingPanel's result tabs).
    QWidget* locality = parts_.training->locality()->resultsWidget();
    if (const auto* tabs = qobject_cast<const QStackedWidget*>(locality->parentWidget()))
        c.learn = tabs->currentWidget() == locality;
    return c;
}

} // namespace orbitui

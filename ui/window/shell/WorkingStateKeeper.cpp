#include "window/shell/WorkingStateKeeper.hpp"

#include "render/SafeText.hpp"
#include "widgets/Panel.hpp"
#include "window/data/DataPanel.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/lessons/LessonDock.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/TrainingPanel.hpp"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

#include <cstdio>

namespace orbitui {

namespace {

/// How long a run of changes may postpone its autosave.
constexpr qint64 kMostBehindMs = 3000;

QByteArray contentOf(WorkingState w)
{
    w.savedAt = {};
    w.cleanExit = false;
    return QJsonDocument(toJson(w)).toJson(QJsonDocument::Compact);
}

} // namespace

WorkingStateKeeper::WorkingStateKeeper(MainWindow* window, const QString& directory)
    : QObject(window), window_(window), store_(new StateStore(directory, this)), timer_(new QTimer(this))
{
    store_->acquire();
    connect(store_, &StateStore::writeFailed, this, [this](const QString& message) {
        window_->session()->showStatus(tr("Autosave failed: %1").arg(message), 15000);
    });
    connect(window_->session(), &SessionController::sessionFileUsed, this, &WorkingStateKeeper::setSessionFile);
    LocalityPane* locality = window_->trainingPanel()->locality();
    connect(locality, &LocalityPane::stopped, this, [this, locality] {
        if (!locality->undoSettings())
            return;  // failed, or cancelled before a first step: nothing was learned
        learned_ = locality->summaryText();
        learnedAt_ = QDateTime::currentDateTimeUtc();
        learnPicture_ = locality->picture();
    });
    connect(timer_, &QTimer::timeout, this, &WorkingStateKeeper::poll);
    timer_->start(500);
    updateTitle();
}

WorkingState WorkingStateKeeper::capture() const
{
    WorkingState w;
    w.session = window_->session()->capture();
    w.sessionFile = sessionFile_;
    w.savedSession = savedSession_;
    if (const LessonDock* lessons = window_->lessonDock(); lessons->lessonIndex() >= 0 && lessons->isVisible()) {
        w.lesson = lessons->lessonIndex();
        w.lessonStep = lessons->stepIndex();
    }
    const LocalityPane* locality = window_->trainingPanel()->locality();
    w.learnUndo = locality->undoSettings();
    if (const auto best = locality->bestSoFar()) {  // a learn under way: its best point so far
        w.session.orbit = *best;
        w.learned = locality->summaryText();
        w.learnedAt = QDateTime::currentDateTimeUtc();
        w.learnPicture = locality->picture();
    } else if (!learned_.isEmpty()) {
        w.learned = learned_;
        w.learnedAt = learnedAt_;
        w.learnPicture = learnPicture_;
    }
    w.trained = window_->trainingPanel()->lastResult() ? window_->trainingPanel()->resultText() : trained_;
    w.groupFactor = QString::fromStdString(window_->groupPanel()->densityFactor());
    w.thumbnailSize = window_->dataPanel()->thumbnailSize();
    return w;
}

void WorkingStateKeeper::apply(const WorkingState& state)
{
    if (state.lesson >= 0)
        window_->lessonDock()->start(state.lesson, state.lessonStep);
    window_->session()->apply(state.session);
    window_->trainingPanel()->locality()->setUndoSettings(state.learnUndo);
    if (!state.groupFactor.isEmpty())  // after the session: its group names the factors there are
        window_->groupPanel()->setDensityFactor(state.groupFactor.toStdString());
    if (state.thumbnailSize > 0)
        window_->dataPanel()->setThumbnailSize(state.thumbnailSize);
    learned_ = state.learned;
    learnedAt_ = state.learnedAt;
    learnPicture_ = state.learnPicture;
    trained_ = state.trained;
    window_->trainingPanel()->showRestored(trained_, learned_, learnPicture_);
    sessionFile_ = state.sessionFile;
    savedSession_ = state.savedSession;
    updateTitle();
}

bool WorkingStateKeeper::reopen(const std::function<void()>& startClean)
{
    if (!active())
        return false;
    const StateStore::Previous previous = store_->readPrevious();
    switch (previous.kind) {
    case StateStore::Previous::Kind::None:
        return false;
    case StateStore::Previous::Kind::Refused:
        std::fprintf(stderr, "orbitlab: %s\n", qPrintable(previous.message));
        window_->session()->showStatus(previous.message, 30000);
        return false;
    case StateStore::Previous::Kind::Clean:
        apply(previous.state);
        window_->session()->showStatus(tr("Reopened where you left off: %1").arg(safeText(describe(previous.state))), 10000);
        return !previous.state.session.dataPath.isEmpty();  // no data then: the caller opens the sample
    case StateStore::Previous::Kind::Unclean:
        break;
    }
    // Nothing is autosaved while the question is open: the file still holds what it offers.
    timer_->stop();
    offer_ = new QMessageBox(window_);
    offer_->setObjectName("recoveryOffer");
    offer_->setAttribute(Qt::WA_DeleteOnClose);
    offer_->setIcon(QMessageBox::Question);
    offer_->setWindowTitle(tr("Restore your work?"));
    offer_->setTextFormat(Qt::PlainText);
    const QString when = previous.state.savedAt.isValid()
                             ? previous.state.savedAt.toLocalTime().toString("yyyy-MM-dd HH:mm:ss")
                             : tr("an unknown time");
    offer_->setText(tr("Orbit Lab did not close properly last time (last autosave %1). Restore what was there?").arg(when));
    offer_->setInformativeText(safeText(describe(previous.state)));
    QPushButton* restore = offer_->addButton(tr("Restore"), QMessageBox::AcceptRole);
    offer_->addButton(tr("Start clean"), QMessageBox::RejectRole);
    offer_->setDefaultButton(restore);
    const WorkingState state = previous.state;
    connect(offer_, &QMessageBox::finished, this, [this, restore, state, startClean] {
        const bool restoring = offer_ && offer_->clickedButton() == restore;
        if (restoring)
            apply(state);
        else
            startClean();
        if (!finished_)
            timer_->start(500);
    });
    QTimer::singleShot(0, offer_, [this] {
        if (offer_)
            offer_->open();
    });
    return true;
}

QMessageBox* WorkingStateKeeper::recoveryOffer() const { return offer_.data(); }

void WorkingStateKeeper::setSessionFile(const QString& path, const SessionState& saved)
{
    sessionFile_ = path;
    savedSession_ = saved;
    updateTitle();
}

void WorkingStateKeeper::clearSessionFile()
{
    sessionFile_.clear();
    savedSession_.reset();
    learned_.clear();
    learnedAt_ = {};
    learnPicture_ = {};
    trained_.clear();
    updateTitle();
}

bool WorkingStateKeeper::isSessionModified() const { return capture().sessionModified(); }

void WorkingStateKeeper::updateTitle()
{
    window_->setWindowTitle(sessionFile_.isEmpty() ? tr("Orbit Lab")
                                                   : tr("%1[*] — Orbit Lab").arg(safeText(QFileInfo(sessionFile_).fileName())));
    window_->setWindowModified(isSessionModified());
}

void WorkingStateKeeper::poll()
{
    if (finished_ || offer_)
        return;
    window_->setWindowModified(isSessionModified());
    if (!active())
        return;
    WorkingState w = capture();
    const QByteArray content = contentOf(w);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (content == lastContent_) {
        changedAtMs_ = -1;
        return;
    }
    if (content != seenContent_) {  // still changing: wait for a quiet tick, a few seconds at most
        seenContent_ = content;
        if (changedAtMs_ < 0)
            changedAtMs_ = now;
        if (now - changedAtMs_ < kMostBehindMs)
            return;
    }
    w.savedAt = QDateTime::currentDateTimeUtc();
    store_->schedule(w);
    lastContent_ = content;
    changedAtMs_ = -1;
}

void WorkingStateKeeper::finish()
{
    if (finished_)
        return;
    finished_ = true;
    timer_->stop();
    if (!active() || offer_)  // an unanswered offer: the crash's state stays on offer
        return;
    WorkingState w = capture();
    w.savedAt = QDateTime::currentDateTimeUtc();
    w.cleanExit = true;
    const QString error = store_->writeNow(w);
    if (!error.isEmpty())
        std::fprintf(stderr, "orbitlab: the working state was not kept: %s\n", qPrintable(error));
}

} // namespace orbitui

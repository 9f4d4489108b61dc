#include "window/compare/CompareActions.hpp"

#include "state/Comparison.hpp"
#include "window/shell/SessionController.hpp"

#include <QAction>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QStatusBar>

namespace orbitui {

CompareActions::CompareActions(SessionController* session, QMenu* compare, QStatusBar* status)
    : QObject(session), session_(session), comparison_(session->comparison()), status_(status), label_(new QLabel)
{
    label_->setTextFormat(Qt::PlainText);
    label_->setObjectName("pinIndicator");
    label_->setStyleSheet("QLabel { background: #fff3c4; border: 1px solid #d9b84a; padding: 1px 6px; }");
    label_->setToolTip(tr("The setting pinned as A; the current setting is B. Compare ▸ Unpin A to go back."));
    label_->hide();
    status_->addPermanentWidget(label_);

    QAction* pin = compare->addAction(tr("&Pin as A"), this, &CompareActions::pinCurrentAsA);
    pin->setObjectName("pinAction");
    pin->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    pin->setToolTip(tr("Keep the current setting as A; change anything, and the panels show A beside B"));
    unpin_ = compare->addAction(tr("&Unpin A"), this, &CompareActions::unpinA);
    unpin_->setObjectName("unpinAction");
    unpin_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
    unpin_->setEnabled(false);

    connect(comparison_, &Comparison::pinnedChanged, this, [this] {
        label_->setText(comparison_->label() + tr("  ·  B: the current setting"));
        label_->setVisible(comparison_->isPinned());
        unpin_->setEnabled(comparison_->isPinned());
    });
    connect(comparison_, &Comparison::message, this, [this](const QString& text) { status_->showMessage(text, 12000); });
}

void CompareActions::pinCurrentAsA()
{
    const SessionState s = session_->capture();
    comparison_->pin(pinnedOf(s));
    status_->showMessage(tr("Pinned as %1. Change anything: the panels show A beside B.").arg(comparison_->label()), 8000);
}

void CompareActions::unpinA() { comparison_->unpin(tr("A unpinned.")); }

} // namespace orbitui

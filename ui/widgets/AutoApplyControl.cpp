#include "widgets/AutoApplyControl.hpp"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QPushButton>
#include <QTimer>

namespace orbitui {

AutoApplyControl::AutoApplyControl(QWidget* host, int delayMs, QWidget* parent)
    : QWidget(parent), host_(host), check_(new QCheckBox(tr("Auto-apply"))), compute_(new QPushButton(tr("Compute"))),
      timer_(new QTimer(this))
{
    check_->setChecked(true);
    check_->setToolTip(tr("Recompute automatically whenever a setting changes; turn off to change several settings "
                          "and press Compute once."));
    compute_->setToolTip(tr("Compute the results for the current settings now."));
    compute_->setObjectName("compute");
    timer_->setSingleShot(true);
    timer_->setInterval(delayMs);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(check_);
    layout->addWidget(compute_);
    // The recomputation runs in the next pass of posted events, not in the timer's own dispatch: what
    // it posts (the charts' scene updates, its layout requests) then waits for a later pass, with the
    // event loop's timers between, instead of following it in the same stretch of the GUI thread.
    connect(timer_, &QTimer::timeout, this, [this] {
        posted_ = true;
        QMetaObject::invokeMethod(this, [this] {
            if (posted_)  // not fired meanwhile (Compute)
                fire();
        }, Qt::QueuedConnection);
    });
    connect(compute_, &QPushButton::clicked, this, &AutoApplyControl::fire);
    connect(check_, &QCheckBox::toggled, this, [this](bool on) {
        if (on && stale_)
            schedule();
    });
    host_->installEventFilter(this);
}

bool AutoApplyControl::autoApply() const { return check_->isChecked(); }
void AutoApplyControl::setAutoApply(bool on) { check_->setChecked(on); }
bool AutoApplyControl::isScheduled() const { return timer_->isActive() || posted_; }

void AutoApplyControl::markChanged()
{
    stale_ = true;
    if (autoApply())
        schedule();
}

void AutoApplyControl::applyNow()
{
    if (autoApply() && host_->isVisible())
        fire();
    else
        markChanged();
}

void AutoApplyControl::schedule()
{
    if (host_->isVisible())
        timer_->start();
}

void AutoApplyControl::fire()
{
    timer_->stop();
    posted_ = false;
    stale_ = false;
    emit applyRequested();
}

bool AutoApplyControl::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == host_ && event->type() == QEvent::Show && stale_ && autoApply())
        schedule();
    return QWidget::eventFilter(watched, event);
}

} // namespace orbitui

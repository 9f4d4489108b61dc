#include "widgets/AutoApplyControl.hpp"

#include "state/workers/PassScheduler.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QPushButton>

namespace orbitui {

AutoApplyControl::AutoApplyControl(QWidget* host, int delayMs, QWidget* parent)
    : QWidget(parent), host_(host), check_(new QCheckBox(tr("Auto-apply"))), compute_(new QPushButton(tr("Compute"))),
      delayMs_(delayMs)
{
    check_->setChecked(true);
    check_->setToolTip(tr("Recompute automatically whenever a setting changes; turn off to change several settings "
                          "and press Compute once."));
    compute_->setToolTip(tr("Compute the results for the current settings now."));
    compute_->setObjectName("compute");
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(check_);
    layout->addWidget(compute_);
    connect(compute_, &QPushButton::clicked, this, &AutoApplyControl::fire);
    connect(check_, &QCheckBox::toggled, this, [this](bool on) {
        if (on && stale_)
            schedule();
    });
}

bool AutoApplyControl::autoApply() const { return check_->isChecked(); }
void AutoApplyControl::setAutoApply(bool on) { check_->setChecked(on); }
bool AutoApplyControl::isScheduled() const { return PassScheduler::instance()->isPending(this); }

void AutoApplyControl::markChanged()
{
    stale_ = true;
    if (autoApply())
        schedule();
}

void AutoApplyControl::applyNow()
{
    if (autoApply())
        fire();
    else
        markChanged();
}

void AutoApplyControl::schedule()
{
    // Runs in a paced pass of the event loop once the delay has passed without another change: what
    // it posts (the charts' scene updates, its layout requests) then waits for a later pass.
    PassScheduler::instance()->post(this, 0, [this] { fire(); }, delayMs_, PassScheduler::Due::Restart);
}

void AutoApplyControl::fire()
{
    PassScheduler::instance()->cancel(this, 0);
    stale_ = false;
    emit applyRequested();
}

} // namespace orbitui

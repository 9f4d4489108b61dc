#include "widgets/TaskProgress.hpp"

#include "widgets/FractionBar.hpp"

#include <QHBoxLayout>
#include <QKeySequence>
#include <QPushButton>
#include <QTimer>

namespace orbitui {

TaskProgress::TaskProgress(const QString& cancelTip, bool escape, QWidget* parent)
    : QWidget(parent), bar_(new FractionBar), cancel_(new QPushButton(tr("Cancel"))), showDelay_(new QTimer(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar_);
    layout->addWidget(cancel_);
    bar_->setMaximumWidth(220);
    bar_->setMinimumWidth(60);  // beside a title: what it asks for at the least is small
    bar_->setFormat(QStringLiteral("%p%"));  // a bar at 0 (a first step under way) reads "0%", not as an empty field
    cancel_->setToolTip(escape ? tr("%1 (Esc)").arg(cancelTip) : cancelTip);
    if (escape)
        cancel_->setShortcut(QKeySequence(QKeySequence::Cancel));
    connect(cancel_, &QPushButton::clicked, this, &TaskProgress::cancelClicked);
    // As wide as the bar and the button need, never stretched across a dock or a column.
    cancel_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    // Shown once the work has run for a moment: a slider's live redraws (tens of milliseconds each)
    // would otherwise make the bar and button flicker beside the title.
    showDelay_->setSingleShot(true);
    showDelay_->setInterval(kShowDelayMs);
    connect(showDelay_, &QTimer::timeout, this, [this] { setVisible(running_); });
    hide();
}

void TaskProgress::setRunning(bool running)
{
    if (running == running_)  // a second worker of the same panel starting or still running
        return;
    running_ = running;
    bar_->setFraction(0);
    bar_->setToolTip(QString());
    if (running) {
        if (!isVisible() && !showDelay_->isActive())
            showDelay_->start();
    } else {
        showDelay_->stop();
        hide();
    }
}

void TaskProgress::setFraction(double fraction, const QString& text)
{
    bar_->setFraction(fraction);
    bar_->setToolTip(text);
}

} // namespace orbitui

#include "widgets/TaskProgress.hpp"

#include "widgets/FractionBar.hpp"

#include <QHBoxLayout>
#include <QKeySequence>
#include <QPushButton>

namespace orbitui {

TaskProgress::TaskProgress(const QString& cancelTip, bool escape, QWidget* parent)
    : QWidget(parent), bar_(new FractionBar), cancel_(new QPushButton(tr("Cancel")))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar_);
    layout->addWidget(cancel_);
    bar_->setMaximumWidth(220);
    bar_->setFormat(QStringLiteral("%p%"));  // a bar at 0 (a first step under way) reads "0%", not as an empty field
    cancel_->setToolTip(escape ? tr("%1 (Esc)").arg(cancelTip) : cancelTip);
    if (escape)
        cancel_->setShortcut(QKeySequence(QKeySequence::Cancel));
    connect(cancel_, &QPushButton::clicked, this, &TaskProgress::cancelClicked);
    // Keeps its place in a layout while hidden: the controls beside it do not jump as work starts.
    QSizePolicy policy = sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    setSizePolicy(policy);
    hide();
}

void TaskProgress::setRunning(bool running)
{
    running_ = running;
    bar_->setFraction(0);
    bar_->setToolTip(QString());
    setVisible(running);
}

void TaskProgress::setFraction(double fraction, const QString& text)
{
    bar_->setFraction(fraction);
    bar_->setToolTip(text);
}

} // namespace orbitui

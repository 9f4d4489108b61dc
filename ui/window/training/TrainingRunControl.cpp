#include "window/training/TrainingRunControl.hpp"

#include "widgets/FractionBar.hpp"

#include <QLabel>
#include <QPushButton>

namespace orbitui {

QString durationText(double s)
{
    if (s < 60)
        return QStringLiteral("%1 s").arg(s, 0, 'f', s < 10 ? 1 : 0);
    return QStringLiteral("%1 min %2 s").arg(int(s) / 60).arg(int(s) % 60);
}

TrainingRunControl::TrainingRunControl(QObject* parent)
    : QObject(parent), run_(new QPushButton(tr("Run"))), cancel_(new QPushButton(tr("Cancel"))),
      progress_(new FractionBar), status_(new QLabel(tr("Press Run (Ctrl+R) to train.")))
{
    run_->setDefault(true);
    run_->setToolTip(tr("Train and evaluate with these settings on the worker (Ctrl+R)."));
    cancel_->setToolTip(tr("Stop the running training (Esc); the results already shown stay."));
    progress_->setTextVisible(false);
    progress_->setToolTip(tr("How much of the run is done."));
    status_->setWordWrap(true);
    status_->setToolTip(tr("What the run is doing, with the elapsed time and an estimate of the time left."));
    connect(run_, &QPushButton::clicked, this, &TrainingRunControl::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &TrainingRunControl::cancelRequested);
}

QString TrainingRunControl::statusText() const { return status_->text(); }

void TrainingRunControl::setBusy(bool busy)
{
    run_->setEnabled(!busy);
    cancel_->setEnabled(busy);
}

void TrainingRunControl::start(const QString& text)
{
    progress_->setFraction(0);
    status_->setText(text);
    status_->setToolTip({});  // a restored result's full text (TrainingPanel::showRestored) is gone
    clock_.start();
}

void TrainingRunControl::report(double fraction, const QString& what, bool estimate)
{
    progress_->setFraction(fraction);
    const double elapsed = clock_.elapsed() / 1000.0;
    QString eta;
    if (estimate && fraction > 0.02 && elapsed > 0.5)
        eta = tr(" · about %1 left").arg(durationText(elapsed * (1.0 - fraction) / fraction));
    status_->setText(tr("%1\n%2 % · %3 elapsed%4").arg(what, QString::number(int(100 * fraction)), durationText(elapsed), eta));
}

void TrainingRunControl::stop(double fraction, const QString& text)
{
    progress_->setFraction(fraction);
    status_->setText(text);
}

QString TrainingRunControl::elapsedText() const { return durationText(clock_.elapsed() / 1000.0); }

} // namespace orbitui

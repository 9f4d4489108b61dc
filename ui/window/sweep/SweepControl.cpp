#include "window/sweep/SweepControl.hpp"

#include "state/SweepPacer.hpp"
#include "state/workers/PassScheduler.hpp"
#include "widgets/ParameterControl.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace orbitui {

namespace {

QToolButton* toolButton(QStyle::StandardPixmap icon, const QString& text, const QString& tip)
{
    auto* b = new QToolButton;
    b->setIcon(b->style()->standardIcon(icon));
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

QString number(double v) { return QString::number(v, 'g', 6); }

} // namespace

SweepControl::SweepControl(ParameterControl* target, SweepPacer* pacer)
    : QWidget(target), target_(target), pacer_(pacer),
      back_(toolButton(QStyle::SP_MediaSeekBackward, tr("Step back"), tr("One frame back (stops at the range's start)"))),
      play_(toolButton(QStyle::SP_MediaPlay, tr("Play"), {})),
      forward_(toolButton(QStyle::SP_MediaSeekForward, tr("Step forward"), tr("One frame forward (stops at the range's end)"))),
      range_(new QToolButton), row_(new QWidget), from_(new QLineEdit), to_(new QLineEdit), frames_(new QSpinBox),
      stepText_(new QLabel), spacing_(new QComboBox), mode_(new QComboBox), interval_(new QSpinBox),
      export_(new QPushButton(tr("Export…"))), message_(new QLabel), timer_(new QTimer(this))
{
    const QString name = target_->label();
    setObjectName(target_->objectName() + "/sweep");
    range_->setText(tr("Range"));
    range_->setCheckable(true);
    range_->setAutoRaise(true);
    range_->setToolTip(tr("The range the buttons sweep %1 over: from, to, frames, spacing, loop or bounce, interval").arg(name));
    auto* buttons = new QHBoxLayout(this);
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->setSpacing(0);
    for (QToolButton* b : {back_, play_, forward_, range_})
        buttons->addWidget(b);
    target_->header()->addWidget(this);

    from_->setToolTip(tr("The first frame's value of %1").arg(name));
    to_->setToolTip(tr("The last frame's value of %1").arg(name));
    frames_->setRange(2, 1000);
    frames_->setToolTip(tr("How many values from 'from' to 'to', both included"));
    spacing_->addItem(tr("linear"), int(SweepPlan::Spacing::Linear));
    spacing_->addItem(tr("log"), int(SweepPlan::Spacing::Log));
    spacing_->setToolTip(tr("Linear: equal steps; log: equal ratios (for scale parameters such as κ)"));
    mode_->addItem(tr("bounce"), int(SweepPlan::Mode::Bounce));
    mode_->addItem(tr("loop"), int(SweepPlan::Mode::Loop));
    mode_->setToolTip(tr("At the end: run back (bounce) or start again (loop)"));
    interval_->setRange(0, 10000);
    interval_->setSuffix(tr(" ms"));
    interval_->setToolTip(tr("The least time between frames; a frame that takes longer to compute makes the play wait"));
    export_->setToolTip(tr("Record frames 'from' to 'to' once as an animated GIF or numbered PNGs, for slides"));
    message_->setWordWrap(true);
    message_->setStyleSheet("color: #b00020;");
    message_->hide();
    for (QLineEdit* e : {from_, to_})
        e->setMaximumWidth(80);
    auto* grid = new QGridLayout(row_);
    grid->setContentsMargins(0, 0, 0, 4);
    grid->setHorizontalSpacing(4);
    grid->setVerticalSpacing(2);
    grid->addWidget(new QLabel(tr("from")), 0, 0);
    grid->addWidget(from_, 0, 1);
    grid->addWidget(new QLabel(tr("to")), 0, 2);
    grid->addWidget(to_, 0, 3);
    grid->addWidget(new QLabel(tr("frames")), 0, 4);
    grid->addWidget(frames_, 0, 5);
    grid->addWidget(spacing_, 1, 0, 1, 2);
    grid->addWidget(mode_, 1, 2, 1, 2);
    grid->addWidget(new QLabel(tr("every")), 1, 4);
    grid->addWidget(interval_, 1, 5);
    grid->addWidget(stepText_, 2, 0, 1, 4);
    grid->addWidget(export_, 2, 4, 1, 2);
    grid->addWidget(message_, 3, 0, 1, 6);
    row_->hide();
    if (auto* layout = qobject_cast<QVBoxLayout*>(target_->layout()))
        layout->addWidget(row_);

    SweepPlan initial;
    initial.from = target_->sliderMinimum();
    initial.to = target_->sliderMaximum();
    initial.spacing = target_->logScale() && initial.from > 0 ? SweepPlan::Spacing::Log : SweepPlan::Spacing::Linear;
    setPlan(initial);

    timer_->setSingleShot(true);
    connect(timer_, &QTimer::timeout, this, &SweepControl::advance);
    connect(range_, &QToolButton::toggled, row_, &QWidget::setVisible);
    connect(play_, &QToolButton::clicked, this, [this] {
        if (isPlaying())
            stop();
        else
            play();
    });
    connect(back_, &QToolButton::clicked, this, [this] { step(-1); });
    connect(forward_, &QToolButton::clicked, this, [this] { step(+1); });
    connect(export_, &QPushButton::clicked, this, &SweepControl::exportRequested);
    for (QLineEdit* e : {from_, to_})
        connect(e, &QLineEdit::textEdited, this, &SweepControl::updateStepText);
    connect(frames_, &QSpinBox::valueChanged, this, &SweepControl::updateStepText);
    connect(spacing_, &QComboBox::currentIndexChanged, this, &SweepControl::updateStepText);
    if (pacer_)
        connect(pacer_, &SweepPacer::stopRequested, this, [this](QObject* player) {
            if (player == this)
                stop();
        });
    updateButtons();
}

SweepControl::~SweepControl()
{
    if (pacer_ && pacer_->player() == this) {
        pacer_->cancelWait();
        pacer_->setPlayer(nullptr);
    }
}

SweepPlan SweepControl::plan() const
{
    SweepPlan p;
    bool ok = false;
    p.from = from_->text().trimmed().toDouble(&ok);
    if (!ok)
        p.from = std::nan("");
    p.to = to_->text().trimmed().toDouble(&ok);
    if (!ok)
        p.to = std::nan("");
    p.frames = frames_->value();
    p.spacing = static_cast<SweepPlan::Spacing>(spacing_->currentData().toInt());
    p.mode = static_cast<SweepPlan::Mode>(mode_->currentData().toInt());
    p.intervalMs = interval_->value();
    return p;
}

void SweepControl::setPlan(const SweepPlan& p)
{
    from_->setText(number(p.from));
    to_->setText(number(p.to));
    frames_->setValue(p.frames);
    spacing_->setCurrentIndex(spacing_->findData(int(p.spacing)));
    mode_->setCurrentIndex(mode_->findData(int(p.mode)));
    interval_->setValue(p.intervalMs);
    updateStepText();
}

QString SweepControl::validationError() const
{
    for (auto [field, edit] : {std::pair{"from", from_}, std::pair{"to", to_}}) {
        bool ok = false;
        edit->text().trimmed().toDouble(&ok);
        if (!ok)
            return tr("Sweep of %1: %2 = '%3' is not a number").arg(target_->label(), field, edit->text().left(40));
    }
    return plan().validate(target_->label(), target_->minimum(), target_->maximum());
}

void SweepControl::showMessage(const QString& text)
{
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
    if (!text.isEmpty())
        range_->setChecked(true);  // the fields at fault are in the range row
}

bool SweepControl::checkPlan()
{
    const QString error = validationError();
    showMessage(error);
    return error.isEmpty();
}

void SweepControl::updateStepText()
{
    const SweepPlan p = plan();
    if (!p.validate(target_->label(), -INFINITY, INFINITY).isEmpty()) {
        stepText_->clear();
        return;
    }
    stepText_->setText(p.spacing == SweepPlan::Spacing::Log ? tr("× %1 per frame").arg(number(p.step()))
                                                            : tr("step %1").arg(number(p.step())));
}

bool SweepControl::isPlaying() const { return playing_; }

int SweepControl::frameOfCurrentValue(int direction) const
{
    const SweepPlan p = plan();
    const double v = target_->value();
    // The value this control applied (rounded by the spin box): its frame, not the rounded position.
    if (frame_ >= 0 && v == appliedValue_)
        return std::clamp(frame_ + direction, 0, p.frames - 1);
    return p.stepFrom(v, direction);
}

void SweepControl::apply(int frame)
{
    const SweepPlan p = plan();
    frame_ = frame;
    target_->spinBox()->setValue(p.value(frame));  // emits valueChanged: the editors apply it
    appliedValue_ = target_->value();
}

bool SweepControl::step(int direction)
{
    stop();
    if (!checkPlan())
        return false;
    apply(frameOfCurrentValue(direction > 0 ? 1 : -1));
    updateButtons();
    return true;
}

bool SweepControl::play()
{
    if (playing_)
        return true;
    if (!checkPlan())
        return false;
    playing_ = true;
    direction_ = 1;
    if (pacer_)
        pacer_->setPlayer(this);
    updateButtons();
    emit playingChanged(true);
    advance();
    return true;
}

void SweepControl::stop()
{
    timer_->stop();
    if (pacer_ && pacer_->player() == this) {
        pacer_->cancelWait();
        pacer_->setPlayer(nullptr);
    }
    const bool was = playing_;
    playing_ = false;
    if (recordDone_)
        finishRecord(tr("Sweep of %1: the recording was stopped at frame %2").arg(target_->label()).arg(frame_));
    updateButtons();
    if (was)
        emit playingChanged(false);
}

void SweepControl::advance()
{
    if (!playing_)
        return;
    const SweepPlan p = plan();
    int next;
    if (recordDone_) {
        next = frame_ + 1;
    } else {
        const double v = target_->value();
        const bool onFrame = frame_ >= 0 && v == appliedValue_;
        if (onFrame) {
            next = p.next(frame_, direction_);
        } else {  // moved by hand (or first frame): go on from the value shown
            next = p.stepFrom(v, direction_ >= 0 ? 1 : -1);
            if (p.mode == SweepPlan::Mode::Loop && p.position(v) >= p.frames - 1 - 1e-6)
                next = 0;
        }
    }
    apply(next);
    if (pacer_)
        pacer_->whenSettled([this] { afterSettled(); });
    else
        afterSettled();
}

void SweepControl::afterSettled()
{
    ++settled_;
    emit frameSettled(frame_, target_->value());
    if (pacer_)
        emit pacer_->frameSettled(this, frame_, target_->value());
    if (recordDone_) {
        recordFrame_(frame_);
        if (frame_ >= plan().frames - 1) {
            playing_ = false;
            if (pacer_ && pacer_->player() == this)
                pacer_->setPlayer(nullptr);
            finishRecord({});
            updateButtons();
            emit playingChanged(false);
            return;
        }
        // The work onFrame started (a file written on a worker) follows the pacer: wait for it too.
        if (pacer_) {
            pacer_->whenSettled([this] { advance(); });
            return;
        }
        PassScheduler::instance()->post(this, 0, [this] { advance(); });  // in a later, paced pass
        return;
    }
    if (playing_)
        timer_->start(plan().intervalMs);
}

void SweepControl::record(std::function<void(int)> onFrame, std::function<void(const QString&)> done)
{
    stop();
    if (!checkPlan()) {
        done(validationError());
        return;
    }
    recordFrame_ = std::move(onFrame);
    recordDone_ = std::move(done);
    frame_ = -1;
    playing_ = true;
    if (pacer_)
        pacer_->setPlayer(this);
    updateButtons();
    emit playingChanged(true);
    // Let the followers finish what they were doing before frame 0 is applied.
    if (pacer_)
        pacer_->whenSettled([this] { advance(); });
    else
        advance();
}

void SweepControl::finishRecord(const QString& error)
{
    auto done = std::move(recordDone_);
    recordDone_ = nullptr;
    recordFrame_ = nullptr;
    if (done)
        done(error);
}

void SweepControl::updateButtons()
{
    play_->setIcon(style()->standardIcon(playing_ ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    play_->setText(playing_ ? tr("Pause") : tr("Play"));
    play_->setToolTip(playing_ ? tr("Stop the sweep of %1 (the value shown stays)").arg(target_->label())
                               : tr("Sweep %1 over the range, frame by frame").arg(target_->label()));
    export_->setEnabled(!playing_);
}

} // namespace orbitui

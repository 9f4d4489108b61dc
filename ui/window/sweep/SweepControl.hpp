#pragma once
// Play, step back and step forward for one ParameterControl: sweeps its value over a range the
// user sets (SweepPlan: from, to, frames, linear or log spacing, loop or bounce, a frame interval).
// Each frame is applied through the control's spin box, as if typed, so every editor and panel
// sees an ordinary change; the next frame waits until the panels that follow the sweep (the
// LabState's SweepPacer) have drawn the last one. The range fields sit in a row that the "Range"
// button shows; an invalid range is reported in that row, naming the field.
#include "state/SweepPacer.hpp"
#include "state/SweepPlan.hpp"

#include <QPointer>
#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;
class QToolButton;
class QPushButton;

namespace orbitui {

class ParameterControl;

class SweepControl : public QWidget {
    Q_OBJECT
public:
    /// Puts the play/step buttons into `target`'s header and the range row below it. The range
    /// starts as the target's slider span (log spacing when its slider is logarithmic).
    SweepControl(ParameterControl* target, SweepPacer* pacer);
    ~SweepControl() override;

    ParameterControl* target() const { return target_; }
    SweepPacer* pacer() const { return pacer_; }
    /// The plan as the range fields say (not validated).
    SweepPlan plan() const;
    void setPlan(const SweepPlan& plan);
    /// validate() of plan() for this parameter: "" or the one-line message shown in the row.
    QString validationError() const;

    bool isPlaying() const;
    /// Starts playing from the current value (false, with the message shown, for an invalid range).
    bool play();
    /// Stops; the value last applied stays.
    void stop();
    /// One frame forward (+1) or back (-1) from the current value, clamped to the range; stops a
    /// play first. False for an invalid range.
    bool step(int direction);
    /// The frame last applied by this control (-1 before any).
    int frame() const { return frame_; }
    /// Frames applied and drawn by every follower since construction.
    int settledFrames() const { return settled_; }

    /// Plays frames 0 .. frames-1 once, with no interval; after each frame settled, calls
    /// `onFrame(frame)` (work it starts on a worker holds the next frame back when its owner
    /// follows the pacer); then `done("")`, or `done(message)` for an invalid range or a stop.
    void record(std::function<void(int frame)> onFrame, std::function<void(const QString& error)> done);
    bool isRecording() const { return static_cast<bool>(recordDone_); }

    QToolButton* playButton() const { return play_; }
    QToolButton* backButton() const { return back_; }
    QToolButton* forwardButton() const { return forward_; }
    QToolButton* rangeButton() const { return range_; }
    QPushButton* exportButton() const { return export_; }
    QLineEdit* fromEdit() const { return from_; }
    QLineEdit* toEdit() const { return to_; }
    QSpinBox* framesBox() const { return frames_; }
    QComboBox* spacingBox() const { return spacing_; }
    QComboBox* modeBox() const { return mode_; }
    QSpinBox* intervalBox() const { return interval_; }
    QLabel* messageLabel() const { return message_; }

signals:
    void playingChanged(bool playing);
    /// A frame was applied and every follower drew it.
    void frameSettled(int frame, double value);
    /// The user asked to export the sweep (the "Export…" button).
    void exportRequested();

private:
    bool checkPlan();
    void showMessage(const QString& text);
    void apply(int frame);
    void advance();
    void afterSettled();
    void finishRecord(const QString& error);
    void updateButtons();
    void updateStepText();
    int frameOfCurrentValue(int direction) const;

    ParameterControl* target_;
    QPointer<SweepPacer> pacer_;
    QToolButton* back_;
    QToolButton* play_;
    QToolButton* forward_;
    QToolButton* range_;
    QWidget* row_;
    QLineEdit* from_;
    QLineEdit* to_;
    QSpinBox* frames_;
    QLabel* stepText_;
    QComboBox* spacing_;
    QComboBox* mode_;
    QSpinBox* interval_;
    QPushButton* export_;
    QLabel* message_;
    QTimer* timer_;
    bool playing_ = false;
    int frame_ = -1;
    double appliedValue_ = 0.0;
    int direction_ = 1;
    int settled_ = 0;
    std::function<void(int)> recordFrame_;
    std::function<void(const QString&)> recordDone_;
};

} // namespace orbitui

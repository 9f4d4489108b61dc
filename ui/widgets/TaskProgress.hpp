#pragma once
// The progress of a panel's background work beside its controls: a FractionBar and a Cancel button,
// both shown only while the work runs (setRunning) and has run for kShowDelayMs, so an idle panel
// shows neither and quick work does not flicker them. The bar's tooltip says what the worker does now.
#include <QWidget>

class QPushButton;
class QTimer;

namespace orbitui {

class FractionBar;

class TaskProgress : public QWidget {
    Q_OBJECT
public:
    /// `cancelTip` says what Cancel stops and what stays; `escape`: Esc clicks Cancel while shown
    /// (one per window: two visible buttons with one shortcut would both be ignored).
    explicit TaskProgress(const QString& cancelTip, bool escape, QWidget* parent = nullptr);

    /// How long work runs before the bar and button show.
    static constexpr int kShowDelayMs = 250;

    /// Shows the bar at 0 and the button after kShowDelayMs unless stopped before (true), or hides
    /// both (false); the same state again changes nothing.
    void setRunning(bool running);
    bool isRunning() const { return running_; }
    /// The fraction done in [0, 1] and what the worker does now (the bar's tooltip).
    void setFraction(double fraction, const QString& text);
    FractionBar* bar() const { return bar_; }
    QPushButton* cancelButton() const { return cancel_; }

signals:
    /// The user clicked Cancel (or pressed Esc).
    void cancelClicked();

private:
    FractionBar* bar_;
    QPushButton* cancel_;
    QTimer* showDelay_;
    bool running_ = false;
};

} // namespace orbitui

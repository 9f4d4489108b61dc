#pragma once
// The Auto-apply toggle and Compute button of a panel with expensive results. When auto-apply is
// on, a change recomputes shortly after (changes within `delayMs` coalesce), but only while the
// host panel is visible: a hidden panel remembers the change and recomputes when it is shown.
// When off, Compute applies the changes.
#include <QWidget>

class QCheckBox;
class QPushButton;
class QTimer;

namespace orbitui {

class AutoApplyControl : public QWidget {
    Q_OBJECT
public:
    AutoApplyControl(QWidget* host, int delayMs = 250, QWidget* parent = nullptr);

    bool autoApply() const;
    void setAutoApply(bool on);
    /// The settings changed: recompute soon (auto-apply, host visible) or remember.
    void markChanged();
    /// The settings changed and the change should show at once (a frame of a parameter sweep):
    /// recompute now when auto-apply is on and the host visible, else as markChanged().
    void applyNow();
    /// True while a change waits to be applied (a recomputation is scheduled or wanted).
    bool isStale() const { return stale_; }
    /// True while a scheduled recomputation has not started.
    bool isScheduled() const;
    QPushButton* computeButton() const { return compute_; }
    QCheckBox* checkBox() const { return check_; }

signals:
    /// Recompute now.
    void applyRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void schedule();
    void fire();

    QWidget* host_;
    QCheckBox* check_;
    QPushButton* compute_;
    QTimer* timer_;
    bool stale_ = false;
    bool posted_ = false;  // the timer fired: the recomputation waits in the posted events
};

} // namespace orbitui

#pragma once
// The Auto-apply toggle and Compute button of a panel with expensive results. When auto-apply is
// on, a change recomputes shortly after (changes within `delayMs` coalesce), in sight or not: a
// hidden panel computes too and keeps its draws until it is shown (Panel::whenInSight). The
// recomputation waits in the PassScheduler, so the host's isIdle() is false meanwhile. When off,
// Compute applies the changes.
#include <QWidget>

class QCheckBox;
class QPushButton;

namespace orbitui {

class AutoApplyControl : public QWidget {
    Q_OBJECT
public:
    AutoApplyControl(QWidget* host, int delayMs = 250, QWidget* parent = nullptr);

    bool autoApply() const;
    void setAutoApply(bool on);
    /// The settings changed: recompute soon (auto-apply) or remember.
    void markChanged();
    /// The settings changed and the change should show at once (a frame of a parameter sweep):
    /// recompute now when auto-apply is on, else as markChanged().
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

private:
    void schedule();
    void fire();

    QWidget* host_;
    QCheckBox* check_;
    QPushButton* compute_;
    int delayMs_;
    bool stale_ = false;
};

} // namespace orbitui

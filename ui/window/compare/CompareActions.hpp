#pragma once
// The main window's A/B actions: Compare ▸ Pin as A (Ctrl+P) and Unpin A (Ctrl+Shift+U), and the
// status bar's "A: …" label while A is pinned. The pinned setting is state/Comparison.hpp, the
// panels' views of it ComparisonViews.hpp; this class only wires them to the session.
#include <QObject>

class QAction;
class QLabel;
class QMenu;
class QStatusBar;

namespace orbitui {

class Comparison;
class SessionController;

class CompareActions : public QObject {
    Q_OBJECT
public:
    /// Adds Pin as A and Unpin A to `compare` and the "A: …" label to `status`.
    CompareActions(SessionController* session, QMenu* compare, QStatusBar* status);

    /// Pins the current setting (without the data path) as A.
    void pinCurrentAsA();
    void unpinA();
    /// "A: …" while A is pinned, hidden otherwise.
    QLabel* indicator() const { return label_; }

private:
    SessionController* session_;
    Comparison* comparison_;
    QStatusBar* status_;
    QLabel* label_;
    QAction* unpin_;  ///< enabled while A is pinned
};

} // namespace orbitui

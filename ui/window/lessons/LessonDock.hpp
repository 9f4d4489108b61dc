#pragma once
// The lessons' side panel: a dock on the right with the current lesson's step (its title and text),
// Back and Next, and the Lessons menu that starts them (state/Lessons.hpp holds the table). Next
// applies the step's one change to the window's current session; Back puts back the session from
// before that Next.
#include "state/Session.hpp"

#include <QDockWidget>

#include <vector>

class QLabel;
class QMenu;
class QPushButton;

namespace orbitui {

class SessionController;

class LessonDock : public QDockWidget {
    Q_OBJECT
public:
    /// A dock of `window` whose steps change `session`.
    LessonDock(SessionController* session, QWidget* window);

    /// "Lessons": one entry per lesson, then the dock's show/hide toggle.
    QMenu* menu() const { return menu_; }
    /// Starts lesson `lesson` (an index of lessons()) at step `step` (0: the first): loads its data,
    /// applies the step's session and shows the dock. False (with the reason in the dock) when the
    /// lesson's data file is not found or the indices are out of range.
    bool start(int lesson, int step = 0);
    /// Next and Back, as the buttons do (ignored while the data load or at either end).
    void next();
    void back();

    int lessonIndex() const { return lesson_; }
    int stepIndex() const { return step_; }
    QPushButton* nextButton() const { return next_; }
    QPushButton* backButton() const { return back_; }
    QString text() const;

private:
    void refresh();
    bool loading() const;

    SessionController* session_;
    QMenu* menu_;
    QLabel* heading_;
    QLabel* text_;
    QPushButton* back_;
    QPushButton* next_;
    int lesson_ = -1;
    int step_ = 0;
    std::vector<SessionState> history_;  ///< the session before each Next of the current lesson
};

} // namespace orbitui

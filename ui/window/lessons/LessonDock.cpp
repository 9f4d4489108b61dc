#include "window/lessons/LessonDock.hpp"

#include "state/Lessons.hpp"
#include "state/SampleData.hpp"
#include "widgets/CachedHeightLabel.hpp"
#include "window/shell/SessionController.hpp"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace orbitui {

LessonDock::LessonDock(SessionController* session, QWidget* window)
    : QDockWidget(tr("Lesson"), window), session_(session), menu_(new QMenu(tr("&Lessons"), window)),
      // Rich text that wraps: the scroll area's layout asks for its height at the same widths many
      // times per pass, each a layout of the whole step's text (a lesson start's 18 ms, issue 32).
      heading_(new CachedHeightLabel(QString())), text_(new CachedHeightLabel(QString())),
      back_(new QPushButton(tr("◀ Back"))), next_(new QPushButton(tr("Next ▶")))
{
    setObjectName("lessonDock");
    setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    heading_->setObjectName("lessonHeading");
    heading_->setTextFormat(Qt::RichText);
    heading_->setWordWrap(true);
    text_->setObjectName("lessonText");
    text_->setTextFormat(Qt::RichText);
    text_->setWordWrap(true);
    text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    back_->setObjectName("lessonBack");
    next_->setObjectName("lessonNext");
    next_->setDefault(true);

    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(text_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(back_);
    buttons->addStretch();
    buttons->addWidget(next_);
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->addWidget(heading_);
    layout->addWidget(scroll, 1);
    layout->addLayout(buttons);
    body->setMinimumWidth(240);
    setWidget(body);

    connect(next_, &QPushButton::clicked, this, &LessonDock::next);
    connect(back_, &QPushButton::clicked, this, &LessonDock::back);
    connect(session_, &SessionController::dataLoaded, this, &LessonDock::refresh);
    connect(session_, &SessionController::dataLoadFailed, this, &LessonDock::refresh);

    const auto& all = lessons();
    for (std::size_t i = 0; i < all.size(); ++i)
        menu_->addAction(all[i].title, this, [this, i] { start(static_cast<int>(i)); });
    menu_->addSeparator();
    QAction* toggle = toggleViewAction();
    toggle->setText(tr("Show the lesson panel"));
    menu_->addAction(toggle);
    refresh();
}

bool LessonDock::loading() const { return session_->isLoading(); }

bool LessonDock::start(int lesson, int step)
{
    const auto& all = lessons();
    show();
    raise();
    if (lesson < 0 || lesson >= static_cast<int>(all.size()) || step < 0 ||
        step >= static_cast<int>(all[static_cast<std::size_t>(lesson)].steps.size())) {
        lesson_ = -1;
        refresh();
        return false;
    }
    const Lesson& l = all[static_cast<std::size_t>(lesson)];
    const QString path = findSampleData(l.dataFile);
    lesson_ = lesson;
    step_ = step;
    history_.clear();
    if (path.isEmpty()) {
        lesson_ = -1;
        refresh();
        text_->setText(tr("<p>The lesson “%1” needs the bundled file %2, which was not found in %3.</p>")
                           .arg(l.title.toHtmlEscaped(), l.dataFile.toHtmlEscaped(),
                                sampleDataDirectories().join(", ").toHtmlEscaped()));
        return false;
    }
    for (int i = 0; i < step; ++i)
        history_.push_back(sessionAt(l, i, path));
    session_->apply(sessionAt(l, step, path));
    refresh();
    return true;
}

void LessonDock::next()
{
    if (lesson_ < 0 || loading())
        return;
    const Lesson& l = lessons()[static_cast<std::size_t>(lesson_)];
    if (step_ + 1 >= static_cast<int>(l.steps.size()))
        return;
    const SessionState before = session_->capture();
    SessionState after = before;
    l.steps[static_cast<std::size_t>(step_ + 1)].change(after);
    history_.push_back(before);
    ++step_;
    session_->apply(after);
    refresh();
}

void LessonDock::back()
{
    if (lesson_ < 0 || loading() || step_ == 0 || history_.empty())
        return;
    const SessionState before = history_.back();
    history_.pop_back();
    --step_;
    session_->apply(before);
    refresh();
}

QString LessonDock::text() const { return text_->text(); }

void LessonDock::refresh()
{
    if (lesson_ < 0) {
        heading_->setText(tr("<b>Lessons</b>"));
        text_->setText(tr("<p>Choose a lesson from the Lessons menu. Each one loads its data and settings, and "
                          "Next changes one setting at a time.</p>"));
        back_->setEnabled(false);
        next_->setEnabled(false);
        return;
    }
    const Lesson& l = lessons()[static_cast<std::size_t>(lesson_)];
    const LessonStep& s = l.steps[static_cast<std::size_t>(step_)];
    heading_->setText(tr("<b>%1</b><br>Step %2 of %3: %4")
                          .arg(l.title.toHtmlEscaped())
                          .arg(step_ + 1)
                          .arg(l.steps.size())
                          .arg(s.title.toHtmlEscaped()));
    text_->setText(s.text);
    back_->setEnabled(step_ > 0 && !loading());
    next_->setEnabled(step_ + 1 < static_cast<int>(l.steps.size()) && !loading());
}

} // namespace orbitui

#pragma once
// Guided lessons: the papers' presets grown into short walks through the panels. A lesson is a
// session (data, group, distribution, r, panel, panel settings) and a few steps of text; each step
// after the first changes exactly one setting of the session (a named field) and says what to look
// for. Each lesson is a file in resources/lessons/ (its README says how one is written), compiled into
// the program and read and checked at the first call of lessons(); LessonDock shows them beside the panels.
#include "state/Session.hpp"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace orbitui {

/// One step: its text (simple rich text: <p>, <i>, <b>, entities) and, for every step but the
/// first, the one change it makes to the previous step's session: the field it sets (named as
/// sessionDifferences names it, e.g. "orbit.distribution.kappa", "panel", "approximation.method") and the
/// function that sets it.
struct LessonStep {
    QString title;
    QString text;
    QString field;                               ///< empty for the first step (it loads the lesson)
    std::function<void(SessionState&)> change;   ///< null for the first step
    /// A step that opens another bundled data file ({"set": {"data": "g2.extxyz"}}, field
    /// "data.path"): its name (found with findSampleData when the step is taken), and the session
    /// parts its "with" object sets together with it (the settings that suit the new data: "orbit",
    /// "training", "predict", "panel", ...), which it may change besides `field`. Empty otherwise.
    QString dataFile;
    QStringList with;
};

/// A lesson: a short name for the command line (`orbitlab --lesson orbit`), a title for the menu,
/// the bundled file it opens (resources/data, found with findSampleData), the session of its first
/// step but for the data path, and its steps.
struct Lesson {
    QString name;
    QString title;
    QString dataFile;
    SessionState start;  ///< dataPath empty: filled in by sessionAt from dataFile
    std::vector<LessonStep> steps;
};

/// The lessons of resources/lessons/, in the order of their file names (01-orbit.json, ...). Every group, distribution, parameter and value, feature map,
/// learner, evaluation, sweep axis and panel of every step's session is checked against the core's
/// registry (and the panels' names); every step after the first must change exactly the field it
/// names. std::logic_error naming the lesson and step otherwise.
const std::vector<Lesson>& lessons();
/// The checks lessons() makes on each lesson of its table (std::logic_error naming the lesson, the
/// step and the name or value the registry does not have).
void checkLesson(const Lesson& lesson);

/// The lesson of a lesson file's text (`file` names it in errors): its name, title, data file, the
/// session fields of its first step over a default session, and its steps, each after the first
/// setting exactly one session field ({"orbit.distribution.kappa": 1}) or opening another bundled data
/// file with the settings that suit it ({"set": {"data": "g2.extxyz"}, "with": {"orbit": {...}}});
/// checkLesson'd. Throws
/// std::logic_error naming the file, the place in it and what is wrong.
Lesson parseLesson(const QByteArray& bytes, const QString& file);

/// The index of the lesson called `nameOrNumber` ("orbit", or "1" for the first); -1 when none.
int findLesson(const QString& nameOrNumber);

/// The session of step `step` (0-based) of `lesson`: its start with the data path `dataPath`, then
/// the changes of steps 1..step in order.
SessionState sessionAt(const Lesson& lesson, int step, const QString& dataPath);

/// The names of the registered panels (registeredPanelNames, state/PanelRegistry.hpp), as
/// Panel::name() gives them: a lesson's `panel` must be one of them, so lessons() is first called
/// after the window registered its panels (at static initialisation, window/shell/PanelList.cpp).
QStringList lessonPanelNames();

} // namespace orbitui

#include "window/shell/StartOptions.hpp"

#include "state/Lessons.hpp"
#include "state/Share.hpp"
#include "widgets/WindowFit.hpp"
#include "window/panels/PanelDescriptor.hpp"

#include "orbit/util/SafeText.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>

namespace orbitui {

namespace {

/// "--option: what (value 'v')" with the value quoted as the core quotes values.
QString refused(const QString& option, const QString& what, const QString& value)
{
    return QStringLiteral("%1: %2 (value %3)").arg(option, what, QString::fromStdString(orbit::quoteValue(value.toStdString())));
}

} // namespace

void nameApplication()
{
    QCoreApplication::setOrganizationName("OrbitLab");
    QCoreApplication::setOrganizationDomain("orbitlab.invalid");
    QCoreApplication::setApplicationName("Orbit Lab");
    QCoreApplication::setApplicationVersion(ORBITLAB_VERSION);
}

void identifyApplication()
{
    nameApplication();
    QApplication::setWindowIcon(QIcon(":/icons/orbitlab.svg"));
}

std::optional<StartOptions> parseStartOptions(const QStringList& arguments, QString* error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription("Explore local group-invariant kernel representations.");
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption data("data", "Open this dataset (any format the core loads).", "FILE");
    const QCommandLineOption session("session", "Open this session (JSON).", "FILE");
    const QCommandLineOption setting("setting", "Open this setting: the line Edit ▸ Copy setting gives (orbitlab-setting:1:…).",
                                     "TEXT");
    const QCommandLineOption screenshot("screenshot", "Render the window into PNG and exit.", "PNG");
    QStringList panelNames;
    for (const PanelDescriptor& d : panelDescriptors())  // the registered panels (window/shell/PanelList.cpp)
        panelNames << d.name();
    const QCommandLineOption panel("panel", "The panel to show: " + panelNames.join(", ") + ".", "NAME");
    const QCommandLineOption exportDir("export",
                                       "Compute the panel's charts, write each as the CSV its \"Data CSV…\" button writes "
                                       "into DIR (created if missing), print the paths and exit.",
                                       "DIR");
    const QCommandLineOption run("run", "Start a training run (train) or Learn locality (learn) once the data are loaded. With "
                                        "--screenshot: what the Training panel runs first (train by default on the training "
                                        "panel); another --panel watches it.", "ACTION");
    const QCommandLineOption at("screenshot-at", "Take the screenshot after MS milliseconds, busy or not (work in "
                                                 "progress), instead of when the panels settle.", "MS");
    const QCommandLineOption size("size", "The window's size in pixels, e.g. 1280x720 (a projector): what --screenshot "
                                          "renders (default 1400x900), or the window's size when it opens.", "WxH");
    const QCommandLineOption presentation("presentation", "Start in presentation mode (View > Presentation mode): larger "
                                                          "fonts and lines, export buttons hidden.");
    // The lessons' names and count from their files (resources/lessons/), not written here.
    QStringList lessonNames;
    for (const Lesson& l : lessons())
        lessonNames << l.name;
    const QCommandLineOption lesson("lesson",
                                    QString("Start a guided lesson (its number, 1-%1, or its name: %2); it loads its own data.")
                                        .arg(lessonNames.size())
                                        .arg(lessonNames.join(", ")),
                                    "N|NAME");
    const QCommandLineOption lessonStep("step", "With --lesson: start at this step (1 = the first).", "K");
    parser.addOptions({data, session, setting, screenshot, panel, exportDir, run, at, size, presentation, lesson, lessonStep});
    parser.addPositionalArgument("FILE", "A dataset to open, as with --data.", "[FILE]");
    parser.process(arguments);

    StartOptions o;
    auto fail = [error](const QString& line) {
        if (error)
            *error = line;
        return std::nullopt;
    };
    if (parser.isSet(size)) {
        o.sizeText = parser.value(size);
        o.size = parseWindowSize(o.sizeText);
        if (!o.size)
            return fail(refused("--size", "expected WIDTHxHEIGHT in pixels, each from 200 to 10000", parser.value(size)));
    }
    if (parser.isSet(lesson)) {
        o.lesson = findLesson(parser.value(lesson));
        if (o.lesson < 0) {
            QString names;
            for (const Lesson& l : lessons())
                names += " " + l.name;
            return fail(refused("--lesson", "no such lesson", parser.value(lesson)) + "; lessons:" + names);
        }
        if (parser.isSet(data) || parser.isSet(session) || parser.isSet(setting))
            return fail("--lesson: a lesson loads its own data and settings; leave out --data, --session and --setting");
        const int steps = static_cast<int>(lessons()[static_cast<std::size_t>(o.lesson)].steps.size());
        bool ok = true;
        o.lessonStep = parser.isSet(lessonStep) ? parser.value(lessonStep).toInt(&ok) - 1 : 0;
        if (!ok || o.lessonStep < 0 || o.lessonStep >= steps)
            return fail(refused("--step", QStringLiteral("expected 1 to %1 for this lesson").arg(steps), parser.value(lessonStep)));
    } else if (parser.isSet(lessonStep)) {
        return fail("--step: only used with --lesson");
    }
    o.screenshot = parser.value(screenshot);
    if (parser.isSet(exportDir)) {
        // Refused before anything loads: a missing panel, or a folder that cannot be written.
        if (!parser.isSet(panel))
            return fail("--export: needs --panel NAME (group, orbits, kernels, approximation, training, predict)");
        o.exportDir = parser.value(exportDir);
        if (o.exportDir.isEmpty() || !QDir().mkpath(o.exportDir) || !QFileInfo(o.exportDir).isDir() ||
            !QFileInfo(o.exportDir).isWritable())
            return fail(refused("--export", "cannot write into the folder", o.exportDir));
    }
    if (parser.isSet(setting)) {
        try {
            o.setting = decodeSetting(parser.value(setting));
        } catch (const std::exception& e) {
            QString what = QString::fromUtf8(e.what());
            if (what.startsWith("setting"))
                what = "--" + what;  // the core's field "setting ..." is this flag
            return fail(what);
        }
    }
    const QString action = parser.value(run).isEmpty() ? QStringLiteral("train") : parser.value(run);
    if (action != "train" && action != "learn")
        return fail(refused("--run", "expected train or learn", action));
    o.learn = action == "learn";
    o.runGiven = parser.isSet(run);
    bool delayOk = true;
    o.screenshotAt = parser.isSet(at) ? parser.value(at).toInt(&delayOk) : -1;
    if (!delayOk || (parser.isSet(at) && o.screenshotAt < 0))
        return fail(refused("--screenshot-at", "expected milliseconds >= 0", parser.value(at)));
    o.data = parser.value(data);
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1) {
        QStringList quoted;
        for (const QString& f : files) quoted << QString::fromStdString(orbit::quoteValue(f.toStdString()));
        return fail(QStringLiteral("%1 files given (%2): give one dataset, alone or with --data, and a session with --session")
                        .arg(files.size())
                        .arg(quoted.join(", ")));
    }
    if (!files.isEmpty()) {
        if (parser.isSet(data) || parser.isSet(lesson))
            return fail(QStringLiteral("%1: a dataset is given once, alone or with --data, and a lesson loads its own")
                            .arg(QString::fromStdString(orbit::quoteValue(files.front().toStdString()))));
        o.data = files.front();
    }
    o.session = parser.value(session);
    o.panel = parser.value(panel);
    o.presentation = parser.isSet(presentation);
    return o;
}

} // namespace orbitui

// orbitlab: the Orbit Lab desktop application.
//   orbitlab [--data FILE] [--session FILE] [--setting TEXT] [--screenshot PNG --panel NAME [--run train|learn] [--screenshot-at MS]]
//            [--export DIR --panel NAME] [--size WxH] [--presentation] [--lesson N|NAME [--step K]]
#include "window/lessons/LessonDock.hpp"
#include "window/shell/MainWindow.hpp"
#include "state/SampleData.hpp"
#include "render/SafeText.hpp"
#include "state/Share.hpp"
#include "state/Lessons.hpp"
#include "window/data/DataPanel.hpp"
#include "window/training/TrainingPanel.hpp"
#include "widgets/WindowFit.hpp"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>

#include <cstdio>
#include <optional>
#include <string>

int main(int argc, char** argv)
{
    // QGuiApplication swallows "-session"/"--session" (X11 session management): read our
    // arguments before it sees them.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    QApplication app(argc, argv);
    QApplication::setOrganizationName("OrbitLab");
    QApplication::setOrganizationDomain("orbitlab.invalid");
    QApplication::setApplicationName("Orbit Lab");
    QApplication::setApplicationVersion(ORBITLAB_VERSION);
    QApplication::setWindowIcon(QIcon(":/icons/orbitlab.svg"));

    QCommandLineParser parser;
    parser.setApplicationDescription("Explore local group-invariant kernel representations.");
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption data("data", "Open this dataset (any format the core loads).", "FILE");
    const QCommandLineOption session("session", "Open this session (JSON).", "FILE");
    const QCommandLineOption setting("setting", "Open this setting: the line Edit ▸ Copy setting gives (orbitlab-setting:1:…).",
                                     "TEXT");
    const QCommandLineOption screenshot("screenshot", "Render the window into PNG and exit.", "PNG");
    const QCommandLineOption panel("panel", "The panel to show: data, group, orbits, kernels, approximation, training.", "NAME");
    const QCommandLineOption exportDir("export",
                                       "Compute the panel's charts, write each as the CSV its \"Data CSV…\" button writes "
                                       "into DIR (created if missing), print the paths and exit.",
                                       "DIR");
    const QCommandLineOption run("run", "With --screenshot: what the Training panel runs first, train (the default on the training "
                                        "panel) or learn (Learn locality); another --panel watches it.", "ACTION");
    const QCommandLineOption at("screenshot-at", "Take the screenshot after MS milliseconds, busy or not (work in "
                                                 "progress), instead of when the panels settle.", "MS");
    const QCommandLineOption size("size", "The window's size in pixels, e.g. 1280x720 (a projector): what --screenshot "
                                          "renders (default 1400x900), or the window's size when it opens.", "WxH");
    const QCommandLineOption presentation("presentation", "Start in presentation mode (View > Presentation mode): larger "
                                                          "fonts and lines, export buttons hidden.");
    const QCommandLineOption lesson("lesson", "Start a guided lesson (its number, 1-6, or its name: orbit, locality, kernels, "
                                              "features, molecules, evidence); it loads its own data.", "N|NAME");
    const QCommandLineOption lessonStep("step", "With --lesson: start at this step (1 = the first).", "K");
    parser.addOptions({data, session, setting, screenshot, panel, exportDir, run, at, size, presentation, lesson, lessonStep});
    parser.process(arguments);

    std::optional<QSize> windowSize;
    if (parser.isSet(size)) {
        windowSize = orbitui::parseWindowSize(parser.value(size));
        if (!windowSize) {
            std::fprintf(stderr, "orbitlab: --size: expected WIDTHxHEIGHT in pixels, each from 200 to 10000 (value %s)\n",
                         orbit::quoteValue(parser.value(size).toStdString()).c_str());
            return 2;
        }
    }

    int lessonIndex = -1, lessonAt = 0;
    if (parser.isSet(lesson)) {
        lessonIndex = orbitui::findLesson(parser.value(lesson));
        if (lessonIndex < 0) {
            std::fprintf(stderr, "orbitlab: --lesson: no such lesson (value %s); lessons:",
                         orbit::quoteValue(parser.value(lesson).toStdString()).c_str());
            for (const orbitui::Lesson& l : orbitui::lessons())
                std::fprintf(stderr, " %s", qPrintable(l.name));
            std::fprintf(stderr, "\n");
            return 2;
        }
        if (parser.isSet(data) || parser.isSet(session) || parser.isSet(setting)) {
            std::fprintf(stderr, "orbitlab: --lesson: a lesson loads its own data and settings; leave out --data, --session and --setting\n");
            return 2;
        }
        const int steps = static_cast<int>(orbitui::lessons()[static_cast<std::size_t>(lessonIndex)].steps.size());
        bool ok = true;
        lessonAt = parser.isSet(lessonStep) ? parser.value(lessonStep).toInt(&ok) - 1 : 0;
        if (!ok || lessonAt < 0 || lessonAt >= steps) {
            std::fprintf(stderr, "orbitlab: --step: expected 1 to %d for this lesson (value %s)\n", steps,
                         orbit::quoteValue(parser.value(lessonStep).toStdString()).c_str());
            return 2;
        }
    } else if (parser.isSet(lessonStep)) {
        std::fprintf(stderr, "orbitlab: --step: only used with --lesson\n");
        return 2;
    }

    const bool shooting = parser.isSet(screenshot);
    const bool exporting = parser.isSet(exportDir);
    if (exporting) {
        // Refused before anything loads: a missing panel, or a folder that cannot be written.
        if (!parser.isSet(panel)) {
            std::fprintf(stderr, "orbitlab: --export: needs --panel NAME (group, orbits, kernels, approximation, training)\n");
            return 2;
        }
        const QString dir = parser.value(exportDir);
        if (dir.isEmpty() || !QDir().mkpath(dir) || !QFileInfo(dir).isDir() || !QFileInfo(dir).isWritable()) {
            std::fprintf(stderr, "orbitlab: --export: cannot write into the folder (value %s)\n",
                         orbit::quoteValue(dir.toStdString()).c_str());
            return 2;
        }
    }
    // A malformed setting is refused before anything loads: one line naming what is wrong.
    std::optional<orbitui::SessionState> shared;
    if (parser.isSet(setting)) {
        try {
            shared = orbitui::decodeSetting(parser.value(setting));
        } catch (const std::exception& e) {
            std::string what = e.what();
            if (what.rfind("setting", 0) == 0)
                what = "--" + what;  // the core's field "setting ..." is this flag
            std::fprintf(stderr, "orbitlab: %s\n", what.c_str());
            return 2;
        }
    }
    // A screenshot or an export is reproducible: it ignores and keeps the saved window geometry.
    orbitui::MainWindow window(nullptr, !shooting && !exporting);
    if (shooting || exporting || windowSize)
        window.resize(windowSize.value_or(QSize(1400, 900)));

    if (parser.isSet(session) && !window.openSessionFile(parser.value(session)) && (shooting || exporting))
        std::fprintf(stderr, "orbitlab: %s: the session could not be opened (shown in the window)\n",
                     qPrintable(orbitui::safePath(parser.value(session))));
    if (shared)
        window.applySession(*shared);
    if (lessonIndex >= 0) {
        if (!window.lessonDock()->start(lessonIndex, lessonAt)) {
            std::fprintf(stderr, "orbitlab: --lesson: %s\n", qPrintable(window.lessonDock()->text()));
            return 2;
        }
    } else if (parser.isSet(data)) {
        window.openData(parser.value(data));
    } else if (!parser.isSet(session) && !shared) {
        const QString sample = orbitui::findSampleData(orbitui::defaultSampleFile());
        if (!sample.isEmpty())
            window.openData(sample);
        else
            window.dataPanel()->showError(QObject::tr("The bundled sample data were not found in %1. Open a dataset "
                                                      "with File ▸ Open data….")
                                              .arg(orbitui::sampleDataDirectories().join(", ")));
    }
    if (parser.isSet(panel) && !window.showPanel(parser.value(panel))) {
        std::fprintf(stderr, "orbitlab: --panel: unknown panel (value %s); panels:",
                     orbit::quoteValue(parser.value(panel).toStdString()).c_str());
        for (auto* p : window.panels())
            std::fprintf(stderr, " %s", qPrintable(p->name()));
        std::fprintf(stderr, "\n");
        return 2;
    }
    if (exporting && !window.currentPanel()->hasCharts()) {
        std::fprintf(stderr, "orbitlab: --export: the %s panel has no charts; panels with charts:",
                     qPrintable(window.currentPanel()->name()));
        for (auto* p : window.panels())
            if (p->hasCharts())
                std::fprintf(stderr, " %s", qPrintable(p->name()));
        std::fprintf(stderr, "\n");
        return 2;
    }
    const QString action = parser.value(run).isEmpty() ? QStringLiteral("train") : parser.value(run);
    if (action != "train" && action != "learn") {
        std::fprintf(stderr, "orbitlab: --run: expected train or learn (value %s)\n",
                     orbit::quoteValue(action.toStdString()).c_str());
        return 2;
    }
    bool delayOk = true;
    const int delayMs = parser.isSet(at) ? parser.value(at).toInt(&delayOk) : -1;
    if (!delayOk || (parser.isSet(at) && delayMs < 0)) {
        std::fprintf(stderr, "orbitlab: --screenshot-at: expected milliseconds >= 0 (value %s)\n",
                     orbit::quoteValue(parser.value(at).toStdString()).c_str());
        return 2;
    }
    if (parser.isSet(presentation))
        window.presentationAction()->setChecked(true);
    window.show();
    if (windowSize && window.size() != *windowSize)  // its panels do not fit: say what was rendered
        std::fprintf(stderr, "orbitlab: --size: the window needs at least %dx%d; it is %dx%d (value %s)\n",
                     window.minimumWidth(), window.minimumHeight(), window.width(), window.height(),
                     orbit::quoteValue(parser.value(size).toStdString()).c_str());
    if (exporting) {
        window.exportWhenIdle(parser.value(exportDir), shooting ? parser.value(screenshot) : QString());
        return QApplication::exec();
    }
    if (shooting && (window.currentPanel() == window.trainingPanel() || parser.isSet(run))) {
        // A Training screenshot shows results (or the evidence climbing), not settings; with --run
        // on another panel, that panel follows the Training panel's work (e.g. the Group panel's
        // sliders and density during a learn).
        window.trainingPanel()->runWhenDataReady(action == "learn" ? orbitui::TrainingPanel::Action::Learn
                                                                   : orbitui::TrainingPanel::Action::Train);
        QObject::connect(window.dataPanel(), &orbitui::DataPanel::loadFailed, window.trainingPanel(),
                         &orbitui::TrainingPanel::dropPendingRun);
    }
    if (shooting && delayMs >= 0)
        window.screenshotAfter(parser.value(screenshot), delayMs);
    else if (shooting)
        window.screenshotWhenIdle(parser.value(screenshot), action == "learn" ? 600000 : 60000);
    return QApplication::exec();
}

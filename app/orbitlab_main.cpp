// orbitlab: the Orbit Lab desktop application. Its options are window/shell/StartOptions.hpp;
// what they open and run, window/shell/HeadlessRun.hpp.
#include "window/shell/HeadlessRun.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/StartOptions.hpp"

#include "orbit/util/Allocator.hpp"

#include <QApplication>

#include <cstdio>

int main(int argc, char** argv)
{
    // The window lives for hours and its workers free large matrices: one malloc arena per core
    // keeps what they freed from piling up resident in an arena per thread (util/Allocator.hpp).
    orbit::limitAllocatorArenasToCores();
    // QGuiApplication swallows "-session"/"--session" (X11 session management): read our
    // arguments before it sees them.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    // The options are read before the window system is: --help, --version and a bad option need no
    // display (QCommandLineParser prints and exits inside parseStartOptions).
    QString error;
    std::optional<orbitui::StartOptions> options;
    {
        QCoreApplication parsing(argc, argv);
        orbitui::nameApplication();
        options = orbitui::parseStartOptions(arguments, &error);
    }
    if (!options) {
        std::fprintf(stderr, "orbitlab: %s\n", qPrintable(error));
        return 2;
    }
    QApplication app(argc, argv);
    orbitui::identifyApplication();
    orbitui::MainWindow window(nullptr, !options->headless());
    orbitui::HeadlessRun run(&window, *options);
    error = run.start();
    if (!error.isEmpty()) {
        std::fprintf(stderr, "orbitlab: %s\n", qPrintable(error));
        return 2;
    }
    return QApplication::exec();
}

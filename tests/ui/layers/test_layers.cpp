// ui/ is four layers (ui/CMakeLists.txt): render under state and widgets, the window over both. The
// targets link only downwards, so most wrong includes already fail to compile (a state file has no
// QtWidgets on its include path) or to link (the render, state and widgets suites link their layer
// alone); this suite reads every #include of ui/ and app/ and names each one that runs upward,
// including those a header-only use would let through.
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <QTest>

#include <map>

namespace {

/// The layer of a path under ui/ ("render", "state", "widgets", "window/<feature>", ...).
QString layerOf(const QString& path)
{
    const QStringList parts = path.split('/');
    if (parts.size() >= 3 && parts[0] == "window")
        return "window/" + parts[1];
    if (parts.size() >= 3 && parts[0] == "state")
        return "state/" + parts[1];  // state/workers, state/commands
    return parts.value(0);
}

/// True for a header of Qt Widgets or a module built on it (<QWidget>, <QtWidgets/QLabel>, <QChart>).
bool isWidgetsHeader(const QString& name)
{
    const QString headers = QStringLiteral(ORBIT_QT_HEADERS);
    const QString base = name.section('/', -1);
    for (const char* module : {"QtWidgets", "QtCharts", "QtSvgWidgets", "QtOpenGLWidgets"})
        if (name.startsWith(QString::fromLatin1(module) + "/") || QFile::exists(headers + "/" + module + "/" + base))
            return true;
    return false;
}

/// Why `file` (a path under ui/, or "app/...") may not include `target` (an include written from
/// ui/), or empty when it may.
QString violation(const QString& file, const QString& target)
{
    const QString from = layerOf(file);
    const bool system = target.startsWith('<');
    const QString name = system ? target.mid(1, target.size() - 2) : target;
    const QString to = system ? QString() : layerOf(name);
    const QString top = from.section('/', 0, 0);
    if (system) {
        if ((top == "render" || top == "state") && isWidgetsHeader(name))
            return top + " is below the widgets: no Qt Widgets or Charts header";
        return {};
    }
    if (!name.contains('/') || name.startsWith("orbit/"))
        return {};  // a header of the same folder, or the core's
    const QString toTop = to.section('/', 0, 0);
    static const std::map<QString, QStringList> below{
        {"render", {"render"}},
        {"state", {"render", "state"}},
        {"widgets", {"render", "widgets"}},
        {"window", {"render", "state", "widgets", "window"}},
        {"app", {"render", "state", "widgets", "window"}}};
    // The one scheduler of deferred work (orbitpace, QtCore only) is under the widgets too: a
    // panel's kept draws and Auto-apply wait in it.
    if (top == "widgets" && name == "state/workers/PassScheduler.hpp")
        return {};
    const auto allowed = below.find(top);
    if (allowed == below.end())
        return "not a layer of ui/: " + top;
    if (!allowed->second.contains(toTop))
        return top + " may include only " + allowed->second.join(", ") + ", not " + toTop;
    // The features are below the shell; the actions among them (Compare, Lessons) take the session
    // controller, whose header names no panel.
    if (top == "window" && to == "window/shell" && from != "window/shell" && name != "window/shell/SessionController.hpp")
        return "a feature of the window is below its shell (it may take the SessionController)";
    if (top == "app" && toTop == "window" && to != "window/shell")
        return "main takes the window from its shell";
    if (from == "state/workers" && to == "state/commands")
        return "the workers are below the command builders";
    return {};
}

struct Include {
    QString file, target;
};

/// Every #include of the .hpp and .cpp files under `dir` (relative paths prefixed by `prefix`).
std::vector<Include> includesUnder(const QString& dir, const QString& prefix)
{
    static const QRegularExpression line(QStringLiteral("^\\s*#\\s*include\\s*([<\"][^>\"]+[>\"])"));
    std::vector<Include> out;
    QDirIterator it(dir, {"*.hpp", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QString rel = prefix + QDir(dir).relativeFilePath(path);
        for (const QByteArray& raw : f.readAll().split('\n')) {
            const auto m = line.match(QString::fromUtf8(raw));
            if (!m.hasMatch())
                continue;
            QString t = m.captured(1);
            out.push_back({rel, t.startsWith('"') ? t.mid(1, t.size() - 2) : t});
        }
    }
    return out;
}

} // namespace

class LayersTest : public QObject {
    Q_OBJECT
private slots:
    void theRuleNamesWhatRunsUpward_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("widgets -> state") << "widgets/HeatmapView.cpp" << "state/LabState.hpp" << false;
        QTest::newRow("widgets -> window") << "widgets/Panel.cpp" << "window/shell/MainWindow.hpp" << false;
        QTest::newRow("widgets -> worker") << "widgets/Panel.cpp" << "state/workers/Worker.hpp" << false;
        QTest::newRow("state -> widgets") << "state/workers/Tasks.cpp" << "widgets/ChartBox.hpp" << false;
        QTest::newRow("state -> QWidget") << "state/LabState.hpp" << "<QWidget>" << false;
        QTest::newRow("render -> state") << "render/SampleImage.cpp" << "state/OrbitSettings.hpp" << false;
        QTest::newRow("render -> QChart") << "render/ColorMap.cpp" << "<QChart>" << false;
        QTest::newRow("feature -> shell") << "window/lessons/LessonDock.cpp" << "window/shell/MainWindow.hpp" << false;
        QTest::newRow("feature -> session") << "window/lessons/LessonDock.cpp" << "window/shell/SessionController.hpp" << true;
        QTest::newRow("workers -> commands") << "state/workers/KernelTasks.cpp" << "state/commands/CliCommand.hpp" << false;
        QTest::newRow("app -> a panel") << "app/orbitlab_main.cpp" << "window/training/TrainingPanel.hpp" << false;
        QTest::newRow("widgets -> scheduler") << "widgets/Panel.cpp" << "state/workers/PassScheduler.hpp" << true;
        QTest::newRow("widgets -> render") << "widgets/HeatmapView.hpp" << "render/ColorMap.hpp" << true;
        QTest::newRow("state -> render") << "state/workers/Tasks.cpp" << "render/SampleImage.hpp" << true;
        QTest::newRow("state -> QImage") << "state/workers/Tasks.hpp" << "<QImage>" << true;
        QTest::newRow("commands -> workers") << "state/commands/CliCommand.cpp" << "state/workers/KernelTasks.hpp" << true;
        QTest::newRow("shell -> feature") << "window/shell/MainWindow.cpp" << "window/kernels/KernelsPanel.hpp" << true;
        QTest::newRow("feature -> feature") << "window/orbits/OrbitsPanel.cpp" << "window/group/DistributionEditor.hpp" << true;
        QTest::newRow("app -> shell") << "app/orbitlab_main.cpp" << "window/shell/HeadlessRun.hpp" << true;
    }
    void theRuleNamesWhatRunsUpward()
    {
        QFETCH(QString, file);
        QFETCH(QString, target);
        QFETCH(bool, allowed);
        QCOMPARE(violation(file, target).isEmpty(), allowed);
    }

    void noFileOfUiOrAppIncludesUpward()
    {
        const QString root = QStringLiteral(ORBIT_SOURCE_DIR);
        std::vector<Include> all = includesUnder(root + "/ui", QString());
        for (const Include& i : includesUnder(root + "/app", "app/"))
            all.push_back(i);
        std::map<QString, int> perLayer;
        QStringList wrong;
        for (const Include& i : all) {
            ++perLayer[i.file.section('/', 0, 0)];
            const QString why = violation(i.file, i.target);
            if (!why.isEmpty())
                wrong << QStringLiteral("%1 includes %2: %3").arg(i.file, i.target, why);
        }
        for (const char* layer : {"render", "state", "widgets", "window", "app"})
            QVERIFY2(perLayer[layer] > 0, qPrintable(QStringLiteral("no include read under %1: is ORBIT_SOURCE_DIR right?").arg(layer)));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join('\n')));
    }
};

QTEST_GUILESS_MAIN(LayersTest)
#include "test_layers.moc"

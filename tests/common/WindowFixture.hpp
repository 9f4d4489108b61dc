#pragma once
// Helpers of the GUI suites (tests/ui/*, which link orbitui): the bundled sample files, a main
// window with a settings file of its own, loading a file until every panel has settled, and the
// message a malformed session is rejected with.
#include "state/Session.hpp"
#include "state/Settings.hpp"
#include "window/data/DataPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"
#include "window/shell/SessionController.hpp"

#include "orbit/util/Error.hpp"

#include "TestPaths.hpp"

#include <QJsonObject>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace orbittest {

/// A file of resources/data (the sample data the application bundles).
inline QString bundled(const char* name) { return QString::fromStdString(source(std::string("resources/data/") + name)); }
inline QString digitsPng() { return bundled("digits.png"); }
inline QString g2Xyz() { return bundled("g2.extxyz"); }

/// A main window with its own settings file (in a temporary folder), restoring nothing.
struct WindowFixture {
    QTemporaryDir dir;
    std::unique_ptr<orbitui::Settings> settings = std::make_unique<orbitui::Settings>(dir.filePath("s.ini"));
    std::unique_ptr<orbitui::MainWindow> window = std::make_unique<orbitui::MainWindow>(settings.get(), false);
};

/// Opens `path` in `w` and waits (up to a minute each) for the load to end and every panel to be idle.
/// True when the file loaded; false when it failed or the wait timed out.
inline bool loadAndSettle(orbitui::MainWindow& w, const QString& path)
{
    QSignalSpy loaded(w.dataPanel(), &orbitui::DataPanel::loaded);
    QSignalSpy failed(w.dataPanel(), &orbitui::DataPanel::loadFailed);
    w.session()->openData(path);
    if (!QTest::qWaitFor([&] { return loaded.count() + failed.count() > 0; }, 60000))
        return false;
    return QTest::qWaitFor([&] { return w.isIdle(); }, 60000) && loaded.count() == 1 && failed.count() == 0;
}

/// The message of the SpecError sessionFromJson(json) throws, or "" when it accepts `json`.
inline QString sessionRejection(const QJsonObject& json)
{
    try {
        orbitui::sessionFromJson(json);
    } catch (const orbit::SpecError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace orbittest

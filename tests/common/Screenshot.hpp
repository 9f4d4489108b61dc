#pragma once
// Pictures of states only a click reaches (the inspector on a heatmap cell, a sweep's open range),
// for the README: with ORBIT_SCREENSHOTS=DIR in the environment a GUI suite saves the window it drove
// as DIR/NAME at 1400 x 900 (scripts/screenshots.sh runs the suites that way); without it, nothing.
#include <QDir>
#include <QString>
#include <QTest>
#include <QWidget>

namespace orbittest {

/// Saves `window` as $ORBIT_SCREENSHOTS/name at 1400 x 900 and puts its size back; true when it was
/// saved or not asked for.
inline bool saveScreenshot(QWidget& window, const QString& name)
{
    const QString dir = qEnvironmentVariable("ORBIT_SCREENSHOTS");
    if (dir.isEmpty()) return true;
    const QSize before = window.size();
    window.resize(1400, 900);
    QTest::qWait(300);  // the layouts and charts follow the new size
    const bool ok = QDir().mkpath(dir) && window.grab().save(QDir(dir).filePath(name));
    window.resize(before);
    return ok;
}

} // namespace orbittest

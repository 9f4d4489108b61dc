#pragma once
// The one place that knows the QSettings keys of Orbit Lab. Organisation and application names
// are set in main(); tests pass their own QSettings file.
#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>

#include <memory>

namespace orbitui {

/// Every persistent key, defined once.
namespace SettingsKey {
inline constexpr char WindowGeometry[] = "window/geometry";
inline constexpr char WindowState[] = "window/state";
inline constexpr char CurrentPanel[] = "window/panel";
inline constexpr char RecentFiles[] = "files/recent";
inline constexpr char LastDirectory[] = "files/lastDirectory";
inline constexpr char LastSessionDirectory[] = "files/lastSessionDirectory";
inline constexpr char PresentationMode[] = "view/presentation";
} // namespace SettingsKey

/// Typed access to the application's persistent settings.
///
/// Guarantees: recentFiles() holds at most maxRecentFiles() distinct absolute paths, newest first.
class Settings {
public:
    /// Uses the application's default QSettings (names set in main()).
    Settings();
    /// Uses the INI file at `path` (tests).
    explicit Settings(const QString& path);

    static constexpr int maxRecentFiles() { return 10; }
    /// All keys above, for tests and diagnostics.
    static QStringList allKeys();

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);
    QString currentPanel() const;
    void setCurrentPanel(const QString& name);

    QStringList recentFiles() const;
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);
    void clearRecentFiles();

    QString lastDirectory() const;
    void setLastDirectory(const QString& dir);
    QString lastSessionDirectory() const;
    void setLastSessionDirectory(const QString& dir);
    /// Whether the window was last left in presentation mode (View menu).
    bool presentationMode() const;
    void setPresentationMode(bool on);

    /// The folder of the working state (state/WorkingState.hpp), beside the settings file: for
    /// ~/.config/OrbitLab/Orbit Lab.conf it is ~/.config/OrbitLab/Orbit Lab.state; a test's s.ini has s.state.
    QString stateDirectory() const;

    void sync();

private:
    std::unique_ptr<QSettings> settings_;
};

} // namespace orbitui

#include "state/Settings.hpp"

#include <QDir>
#include <QFileInfo>

namespace orbitui {

Settings::Settings() : settings_(std::make_unique<QSettings>()) {}

Settings::Settings(const QString& path) : settings_(std::make_unique<QSettings>(path, QSettings::IniFormat)) {}

QStringList Settings::allKeys()
{
    using namespace SettingsKey;
    return {WindowGeometry, WindowState, CurrentPanel, RecentFiles, LastDirectory, LastSessionDirectory, PresentationMode};
}

QByteArray Settings::windowGeometry() const { return settings_->value(SettingsKey::WindowGeometry).toByteArray(); }
void Settings::setWindowGeometry(const QByteArray& g) { settings_->setValue(SettingsKey::WindowGeometry, g); }
QByteArray Settings::windowState() const { return settings_->value(SettingsKey::WindowState).toByteArray(); }
void Settings::setWindowState(const QByteArray& s) { settings_->setValue(SettingsKey::WindowState, s); }
QString Settings::currentPanel() const { return settings_->value(SettingsKey::CurrentPanel).toString(); }
void Settings::setCurrentPanel(const QString& name) { settings_->setValue(SettingsKey::CurrentPanel, name); }

QStringList Settings::recentFiles() const
{
    QStringList files = settings_->value(SettingsKey::RecentFiles).toStringList();
    files.removeDuplicates();
    while (files.size() > maxRecentFiles())
        files.removeLast();
    return files;
}

void Settings::addRecentFile(const QString& path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > maxRecentFiles())
        files.removeLast();
    settings_->setValue(SettingsKey::RecentFiles, files);
}

void Settings::removeRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    files.removeAll(path);
    settings_->setValue(SettingsKey::RecentFiles, files);
}

void Settings::clearRecentFiles() { settings_->remove(SettingsKey::RecentFiles); }

QString Settings::lastDirectory() const { return settings_->value(SettingsKey::LastDirectory, QDir::homePath()).toString(); }
void Settings::setLastDirectory(const QString& dir) { settings_->setValue(SettingsKey::LastDirectory, dir); }
QString Settings::lastSessionDirectory() const
{
    return settings_->value(SettingsKey::LastSessionDirectory, lastDirectory()).toString();
}
void Settings::setLastSessionDirectory(const QString& dir) { settings_->setValue(SettingsKey::LastSessionDirectory, dir); }

bool Settings::presentationMode() const { return settings_->value(SettingsKey::PresentationMode, false).toBool(); }
void Settings::setPresentationMode(bool on) { settings_->setValue(SettingsKey::PresentationMode, on); }

QString Settings::stateDirectory() const
{
    const QFileInfo file(settings_->fileName());
    return file.absoluteDir().filePath(file.completeBaseName() + ".state");
}

void Settings::sync() { settings_->sync(); }

} // namespace orbitui

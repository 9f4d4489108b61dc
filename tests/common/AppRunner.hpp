#pragma once
// Runs the application binary (ORBITLAB_APP, defined by the suites that depend on target orbitlab)
// offscreen, with settings and runtime folders of its own, capturing its exit status and output.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace orbittest {

struct AppRun {
    int status = -1;  ///< the exit code; -1 when it crashed or timed out
    QString out, err;
};

/// Runs `orbitlab args...` offscreen with XDG_CONFIG_HOME = home/config and XDG_RUNTIME_DIR =
/// home/runtime (so it reads no user settings), killed after timeoutMs.
inline AppRun runApp(const QString& home, const QStringList& args, int timeoutMs)
{
    const QString runtime = home + "/runtime";
    QDir().mkpath(runtime);
    QFile::setPermissions(runtime, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("XDG_CONFIG_HOME", home + "/config");
    env.insert("XDG_RUNTIME_DIR", runtime);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ORBITLAB_APP), args);
    AppRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace orbittest

// `orbitlab --help` and `--version` without a display (QT_QPA_PLATFORM unset, no DISPLAY, no
// WAYLAND_DISPLAY): they print and exit 0, as a bad option prints its one line and exits 2, before
// the window system is asked for anything.
#include "window/shell/StartOptions.hpp"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>
#include <QStringList>

namespace {

struct Run {
    int status = -1;
    QString out, err;
};

Run runWithoutDisplay(const QStringList& args)
{
    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE"})
        env.remove(name);
    env.insert("XDG_CONFIG_HOME", home.filePath("config"));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ORBITLAB_APP), args);
    Run r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestStart : public QObject {
    Q_OBJECT
private slots:
    void helpWithoutADisplay()
    {
        const Run r = runWithoutDisplay({"--help"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("Usage:") && r.out.contains("--session <FILE>") && r.out.contains("--screenshot <PNG>"),
                 qPrintable(r.out));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));  // no "could not connect to display"
    }

    void versionWithoutADisplay()
    {
        const Run r = runWithoutDisplay({"--version"});
        QCOMPARE(r.status, 0);
        QCOMPARE(r.out.trimmed(), QString("Orbit Lab " ORBITLAB_VERSION));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    }

    void aBadOptionIsOneLineWithoutADisplay()
    {
        const Run r = runWithoutDisplay({"--size", "7"});
        QCOMPARE(r.status, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith("orbitlab: --size:"), qPrintable(r.err));
    }

    // A file given without an option opens as the dataset (orbitlab FILE, as a file manager starts
    // it); two files, or one beside --data or --lesson, are refused in one line.
    void aFileWithoutAnOptionIsTheDataset()
    {
        QString error;
        const auto o = orbitui::parseStartOptions({"orbitlab", "molecules.extxyz", "--panel", "data"}, &error);
        QVERIFY2(o.has_value(), qPrintable(error));
        QCOMPARE(o->data, QString("molecules.extxyz"));
        QCOMPARE(o->panel, QString("data"));
        for (const QStringList& args : {QStringList{"a.png", "b.png"}, QStringList{"--data", "a.png", "b.png"},
                                        QStringList{"--lesson", "1", "b.png"}}) {
            const Run r = runWithoutDisplay(args);
            QCOMPARE(r.status, 2);
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY2(r.err.startsWith("orbitlab: ") && r.err.contains("b.png"), qPrintable(r.err));
        }
    }
};

QTEST_GUILESS_MAIN(TestStart)
#include "test_start.moc"

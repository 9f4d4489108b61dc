// The settings facade: every key defined once, values round-trip, the recent-files list is
// bounded, newest first and free of duplicates.
#include "state/OrbitSettings.hpp"
#include "state/Settings.hpp"

#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QByteArray>
#include <QFileInfo>
#include <QObject>
#include <QSettings>
#include <QString>
#include <QStringList>

using namespace orbitui;

class TestSettings : public QObject {
    Q_OBJECT
private slots:
    void learnedValuesReadWithFourDigits()
    {
        using orbitui::readableSpec;
        QCOMPARE(readableSpec("vonmises:kappa=8.610594855191643"), std::string("vonmises:kappa=8.611"));
        QCOMPARE(readableSpec("vonmises:kappa=999.9999999999989"), std::string("vonmises:kappa=1000"));
        QCOMPARE(readableSpec("rotation=uniform:a=0.3216001,translation=gaussian:sigma=0.5,scale=delta"),
                 std::string("rotation=uniform:a=0.3216,translation=gaussian:sigma=0.5,scale=delta"));
        QCOMPARE(readableSpec("lognormal:sigma=0.3,mu=-0.000012345678"), std::string("lognormal:sigma=0.3,mu=-1.235e-05"));
        QCOMPARE(readableSpec("haar"), std::string("haar"));
        QCOMPARE(readableSpec("uniform:a=12345678"), std::string("uniform:a=1.235e+07"));
    }
    void keysAreDefinedOnceAndDistinct()
    {
        const QStringList keys = Settings::allKeys();
        QVERIFY(keys.size() >= 6);
        QCOMPARE(QSet<QString>(keys.begin(), keys.end()).size(), keys.size());
        for (const QString& k : keys)
            QVERIFY2(k.contains('/'), qPrintable(k));  // grouped, never a bare top-level key
    }
    void valuesRoundTripThroughTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("orbitlab.ini");
        {
            Settings s(path);
            s.setWindowGeometry(QByteArray("geom\x01\x02", 6));
            s.setWindowState(QByteArray("state"));
            s.setCurrentPanel("orbits");
            s.setLastDirectory("/tmp/data");
            s.setLastSessionDirectory("/tmp/sessions");
            s.sync();
        }
        Settings s(path);
        QCOMPARE(s.windowGeometry(), QByteArray("geom\x01\x02", 6));
        QCOMPARE(s.windowState(), QByteArray("state"));
        QCOMPARE(s.currentPanel(), QString("orbits"));
        QCOMPARE(s.lastDirectory(), QString("/tmp/data"));
        QCOMPARE(s.lastSessionDirectory(), QString("/tmp/sessions"));
        // Every value lives under one of the declared keys.
        QSettings raw(path, QSettings::IniFormat);
        for (const QString& k : raw.allKeys())
            QVERIFY2(Settings::allKeys().contains(k), qPrintable(k));
    }
    void recentFilesAreNewestFirstBoundedAndUnique()
    {
        QTemporaryDir dir;
        Settings s(dir.filePath("orbitlab.ini"));
        QVERIFY(s.recentFiles().isEmpty());
        const int n = Settings::maxRecentFiles() + 3;
        for (int i = 0; i < n; ++i)
            s.addRecentFile(dir.filePath(QString("f%1.idx").arg(i)));
        QCOMPARE(s.recentFiles().size(), Settings::maxRecentFiles());
        QCOMPARE(s.recentFiles().front(), dir.filePath(QString("f%1.idx").arg(n - 1)));
        // Re-opening an older file moves it to the front instead of duplicating it.
        s.addRecentFile(dir.filePath("f5.idx"));
        QCOMPARE(s.recentFiles().front(), dir.filePath("f5.idx"));
        QCOMPARE(s.recentFiles().count(dir.filePath("f5.idx")), 1);
        QCOMPARE(s.recentFiles().size(), Settings::maxRecentFiles());
        s.removeRecentFile(dir.filePath("f5.idx"));
        QVERIFY(!s.recentFiles().contains(dir.filePath("f5.idx")));
        s.clearRecentFiles();
        QVERIFY(s.recentFiles().isEmpty());
    }
    void relativePathsAreStoredAbsolute()
    {
        QTemporaryDir dir;
        Settings s(dir.filePath("orbitlab.ini"));
        s.addRecentFile("relative/data.csv");
        QVERIFY(QFileInfo(s.recentFiles().front()).isAbsolute());
    }
};

QTEST_APPLESS_MAIN(TestSettings)
#include "test_settings.moc"

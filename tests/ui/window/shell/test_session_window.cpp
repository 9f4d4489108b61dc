// The main window with sessions and files that are not what they were: a session whose dataset moved
// opens with the data missing, the settings kept and a "Locate…" button; a named pipe is refused, not
// waited on; error banners show hostile file content escaped, as plain text.
#include "WindowFixture.hpp"

#include "state/LabState.hpp"
#include "widgets/Panel.hpp"

#include "orbit/util/SafeText.hpp"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QTest>
#include <QObject>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>

#include <sys/stat.h>

using orbittest::WindowFixture;

class TestSessionWindow : public QObject {
    Q_OBJECT
private slots:
    void movedDatasetKeepsTheSettingsAndOffersToLocateIt()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath("before") && QDir(dir.path()).mkpath("after"));
        const QString before = dir.filePath("before/mol.extxyz"), after = dir.filePath("after/mol.extxyz");
        QVERIFY(QFile::copy(orbittest::g2Xyz(), before));

        // A session on the file: molecules, a chosen sample, settings away from their defaults.
        struct {
            orbitui::SessionState state;
        } saved;
        {
            WindowFixture fx;
            QVERIFY(orbittest::loadAndSettle(*fx.window, before));
            orbitui::OrbitSettings o = fx.window->state()->orbitSettings();
            o.r = 33;
            o.seed = 77;
            fx.window->state()->setOrbitSettings(o);
            fx.window->state()->setSelectedIndex(5);
            saved.state = fx.window->session()->capture();
            QVERIFY(fx.window->session()->saveFile(dir.filePath("s.json")));
        }
        QCOMPARE(saved.state.dataPath, before);
        QVERIFY(QFile::rename(before, after));  // the user tidies up their folders

        WindowFixture fx;
        orbitui::MainWindow& w = *fx.window;
        QVERIFY(w.session()->openFile(dir.filePath("s.json")));
        QVERIFY(!w.state()->dataset());  // no data rather than the wrong data
        QCOMPARE(w.session()->missingDataPath(), before);
        QCOMPARE(w.currentPanel(), static_cast<orbitui::Panel*>(w.dataPanel()));
        const QString banner = w.dataPanel()->errorText();
        QVERIFY2(banner.contains(before) && banner.contains("not there any more") && banner.contains("settings are kept"),
                 qPrintable(banner));
        QCOMPARE(w.dataPanel()->errorActionText(), QString("Locate…"));

        // Nothing of the session is lost: captured (and saved) again, it is the same session.
        orbitui::SessionState now = w.session()->capture();
        now.panel = saved.state.panel;
        QVERIFY(now == saved.state);
        QVERIFY(w.session()->saveFile(dir.filePath("again.json")));
        QString error;
        const auto again = orbitui::loadSession(dir.filePath("again.json"), &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(again->dataPath, before);
        QCOMPARE(again->selectedIndex, 5);
        QCOMPARE(again->orbit.r, 33);

        // A wrong file chosen: its error, and the offer to locate the right one stays.
        QSignalSpy failed(w.dataPanel(), &orbitui::DataPanel::loadFailed);
        w.session()->openLocatedData(dir.filePath("after"));  // a folder without images
        QVERIFY(failed.wait(60000));
        QVERIFY2(w.dataPanel()->errorText().contains("could not be loaded"), qPrintable(w.dataPanel()->errorText()));
        QCOMPARE(w.dataPanel()->errorActionText(), QString("Locate…"));
        QCOMPARE(w.session()->missingDataPath(), before);

        // Located: the data load with the session's selection and settings, the banner goes.
        QSignalSpy loaded(w.dataPanel(), &orbitui::DataPanel::loaded);
        w.session()->openLocatedData(after);
        QVERIFY(loaded.wait(60000));
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle(); }, 60000));
        QVERIFY(w.state()->dataset());
        QCOMPARE(w.state()->dataset()->count(), std::size_t(144));
        QCOMPARE(w.state()->selectedIndex(), 5);
        QCOMPARE(w.state()->orbitSettings().r, 33);
        QCOMPARE(w.state()->orbitSettings().seed, std::uint64_t(77));
        QVERIFY(!w.dataPanel()->hasError());
        QVERIFY(w.session()->missingDataPath().isEmpty());
        QCOMPARE(w.session()->capture().dataPath, after);
    }

    void namedPipeIsRefusedNotWaitedOn()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("data.csv");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        WindowFixture fx;
        QSignalSpy failed(fx.window->dataPanel(), &orbitui::DataPanel::loadFailed);
        fx.window->session()->openData(fifo);
        QVERIFY(failed.wait(60000));  // a blocked open would never report
        const QString text = fx.window->dataPanel()->errorText();
        QVERIFY2(text.contains("named pipe"), qPrintable(text));

        // A session "file" that is a pipe: refused on the GUI thread without opening it.
        const QString sessionFifo = dir.filePath("session.json");
        QCOMPARE(::mkfifo(sessionFifo.toLocal8Bit().constData(), 0600), 0);
        QVERIFY(!fx.window->session()->openFile(sessionFifo));
        QVERIFY2(fx.window->currentPanel()->errorText().contains("not a regular file"),
                 qPrintable(fx.window->currentPanel()->errorText()));
    }

    void bannersShowHostileTextEscapedAsPlainText()
    {
        WindowFixture fx;
        orbitui::Panel* panel = fx.window->dataPanel();
        panel->showError(QString::fromUtf8("<b>bold</b> \x1b[2J\x1b]0;owned\x07 \xe2\x80\xae" "txt"));
        auto* label = panel->findChild<QLabel*>("errorText");
        QVERIFY(label);
        QCOMPARE(label->textFormat(), Qt::PlainText);
        QCOMPARE(panel->errorText(), QString("<b>bold</b> \\x1b[2J\\x1b]0;owned\\x07 \\u202etxt"));

        // A file whose count line carries an escape sequence: the banner shows it escaped.
        QSignalSpy failed(fx.window->dataPanel(), &orbitui::DataPanel::loadFailed);
        fx.window->session()->openData(QString::fromStdString(orbittest::fixture("data/unsafe/ansi-header.extxyz")));
        QVERIFY(failed.wait(60000));
        const QString text = panel->errorText();
        QVERIFY2(text.contains("\\x1b[2J\\x1b]0;owned\\x07"), qPrintable(text));
        QVERIFY(orbit::isSafeText(text.toStdString()));

        // The button of a message does what it offers, and goes with the message.
        int clicked = 0;
        panel->showError("try again", "Retry", [&] { ++clicked; });
        QCOMPARE(panel->errorActionText(), QString("Retry"));
        panel->triggerErrorAction();
        QCOMPARE(clicked, 1);
        panel->clearError();
        QVERIFY(panel->errorActionText().isEmpty());
        panel->triggerErrorAction();
        QCOMPARE(clicked, 1);
    }
};

QTEST_MAIN(TestSessionWindow)
#include "test_session_window.moc"

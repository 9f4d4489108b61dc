// Copy setting / Open setting / orbitlab --setting: a session as one line of text. The line restores
// an identical session (the saved session file has the same bytes before and after, on the digits
// and on G2 with settings away from their defaults in several panels); a malformed line is refused
// with one message naming what is wrong, and the session in force stays.
#include "AppRunner.hpp"
#include "FileBytes.hpp"
#include "state/AnalysisSettings.hpp"
#include "state/Share.hpp"
#include "window/shell/ShareActions.hpp"
#include "WindowFixture.hpp"

#include "state/LabState.hpp"
#include "widgets/Panel.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/util/Error.hpp"

#include <QAction>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTimer>
#include <QTest>
#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <zlib.h>

using orbittest::fileBytes;
using orbittest::WindowFixture;

namespace {

/// The message decodeSetting refuses `text` with, or "" when it accepts it.
QString rejection(const QString& text)
{
    try {
        orbitui::decodeSetting(text);
    } catch (const orbit::SpecError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

/// A setting around `payload` bytes (compressed as encodeSetting does): for malformed insides.
QString wrap(const QByteArray& payload, int version = 1)
{
    uLongf size = compressBound(static_cast<uLong>(payload.size()));
    QByteArray z(static_cast<qsizetype>(size), '\0');
    compress2(reinterpret_cast<Bytef*>(z.data()), &size, reinterpret_cast<const Bytef*>(payload.constData()),
              static_cast<uLong>(payload.size()), 9);
    z.truncate(static_cast<qsizetype>(size));
    return QString("orbitlab-setting:%1:").arg(version) +
           QString::fromLatin1(z.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

/// Settings away from the defaults in the orbit settings and three panels.
orbitui::SessionState changed(orbitui::SessionState s, bool molecules)
{
    s.orbit.seed = 4242;
    s.orbit.r = 17;
    if (molecules) {
        s.orbit.dist.setValue("sigma", 0.35);
    } else {
        s.orbit.dist.name = "uniform";
        s.orbit.dist.setValue("a", 0.75);
        s.training.localityAxis = "a";  // the sweep the Training panel offers for a uniform window
        s.training.locality = {0.2, 0.9};
        s.training.learn = {"a"};       // and Learn locality its parameter
    }
    orbitui::KernelsSettings& kernels = s.part<orbitui::KernelsSettings>();
    kernels.n = 37;
    kernels.s = 123;
    kernels.method = "nystrom";
    kernels.bandwidth = 1.5;
    kernels.autoApply = false;
    orbitui::ApproximationSettings& approximation = s.part<orbitui::ApproximationSettings>();
    approximation.sList = {10, 30};
    approximation.rList = {2, 8};
    approximation.repeats = 2;
    approximation.autoApply = false;
    s.training.preset = "irf";
    s.training.s = 321;
    s.training.lambdas = {0.5, 5.0};
    s.training.learner = "ridge";
    s.training.eval = "kfold";
    s.training.k = 4;
    s.training.subset = 250;
    s.training.seed = 99;
    s.selectedIndex = 7;
    s.panel = "kernels";
    return s;
}

} // namespace

class TestShareSetting : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    /// Loads `data` in a window, applies settings away from the defaults, copies the setting (the
    /// Edit menu's action), opens it in a second window (File ▸ Open setting… with the clipboard
    /// pre-filled) and compares the two saved session files byte for byte.
    void roundTrip(const QString& data, bool molecules, const QString& tag)
    {
        WindowFixture a;
        QVERIFY(orbittest::loadAndSettle(*a.window, data));
        const orbitui::SessionState wanted = changed(a.window->session()->capture(), molecules);
        a.window->session()->apply(wanted);
        QVERIFY(QTest::qWaitFor([&] { return a.window->isIdle(); }, 60000));
        const QString before = dir_.filePath(tag + "-before.json");
        QVERIFY(a.window->session()->saveFile(before));
        // Every changed field reached the panels.
        const QStringList got = QString(QJsonDocument(orbitui::toJson(a.window->session()->capture())).toJson()).split('\n');
        const QStringList want = QString(QJsonDocument(orbitui::toJson(wanted)).toJson()).split('\n');
        for (qsizetype i = 0; i < std::min(got.size(), want.size()); ++i)
            QVERIFY2(got[i] == want[i], qPrintable(QString("line %1: %2 instead of %3").arg(i).arg(got[i], want[i])));
        QCOMPARE(got.size(), want.size());

        QGuiApplication::clipboard()->clear();
        a.window->share()->copySettingAction()->trigger();
        const QString text = QGuiApplication::clipboard()->text();
        QVERIFY2(QRegularExpression("^orbitlab-setting:1:[A-Za-z0-9_-]+$").match(text).hasMatch(), qPrintable(text));

        WindowFixture b;
        QVERIFY(orbittest::loadAndSettle(*b.window, orbittest::digitsPng()));  // something else first
        bool prefilled = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = b.window->findChild<QDialog*>("openSettingDialog");
            QVERIFY(dialog);
            auto* edit = dialog->findChild<QLineEdit*>();
            prefilled = edit->text() == text;
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Open)->click();
        });
        b.window->share()->openSettingAction()->trigger();
        QVERIFY(prefilled);
        QVERIFY(!b.window->currentPanel()->hasError());
        QVERIFY(QTest::qWaitFor([&] { return b.window->state()->dataset() && b.window->isIdle(); }, 60000));
        QTest::qWait(200);
        QVERIFY(QTest::qWaitFor([&] { return b.window->isIdle(); }, 60000));
        const QString after = dir_.filePath(tag + "-after.json");
        QVERIFY(b.window->session()->saveFile(after));
        QCOMPARE(fileBytes(after), fileBytes(before));
        QCOMPARE(b.window->currentPanel()->name(), QString("kernels"));
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // The encoding alone: one line of the URL-safe alphabet that decodes to the same session.
    void encodeDecodeIsTheIdentity()
    {
        orbitui::SessionState s = changed({}, false);
        s.dataPath = "/data/my digits/it's \"here\".png";
        s.embeddingInputs = {3, 14, 15};
        s.orbit.group = "affine";
        s.orbit.factorDists.at("rotation").setValue("kappa", 0.125);
        s.orbit.seed = 18446744073709551615ull;  // 64 bits survive (a JSON double would not)
        const QString text = orbitui::encodeSetting(s);
        QVERIFY2(QRegularExpression("^orbitlab-setting:1:[A-Za-z0-9_-]+$").match(text).hasMatch(), qPrintable(text));
        QCOMPARE(orbitui::decodeSetting(text), s);
        // Wrapped by a mail client, or pasted with a newline: the same session.
        QString wrapped = text;
        for (qsizetype i = 60; i < wrapped.size(); i += 61)
            wrapped.insert(i, '\n');
        QCOMPARE(orbitui::decodeSetting("  " + wrapped + "\r\n"), s);
        QVERIFY(orbitui::looksLikeSetting(" " + text + "\n"));
        QVERIFY(!orbitui::looksLikeSetting("hello"));
    }

    // Every way a pasted line can be wrong gives one line naming it.
    void malformedTextSaysWhat_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("says");
        const QString good = orbitui::encodeSetting(changed({}, false));
        const QString payload = good.mid(QString("orbitlab-setting:1:").size());
        QTest::newRow("empty") << "   " << "setting: empty";
        QTest::newRow("wrong prefix") << "orbitlab-session:1:" + payload << "does not start with orbitlab-setting:";
        QTest::newRow("a URL") << "https://example.org/?s=" + payload << "does not start with orbitlab-setting:";
        QTest::newRow("no version") << QString("orbitlab-setting:") << "no version";
        QTest::newRow("bad version") << "orbitlab-setting:x:" + payload << "expected a version number";
        QTest::newRow("newer version") << "orbitlab-setting:2:" + payload << "version 2 was written by a newer Orbit Lab";
        QTest::newRow("nothing after") << QString("orbitlab-setting:1:") << "nothing after";
        QTest::newRow("standard base64") << "orbitlab-setting:1:" + payload.left(10) + "+/" + payload.mid(10)
                                         << "not base64url: a character outside";
        QTest::newRow("truncated") << good.left(good.size() - 12) << "cut short";
        QTest::newRow("one char lost") << good.left(good.size() - 1) << "setting:";
        QTest::newRow("damaged") << "orbitlab-setting:1:" + payload.left(20) + (payload[20] == 'A' ? "B" : "A") + payload.mid(21)
                                 << "setting:";
        QTest::newRow("trailing bytes") << good + "AAAA" << "after the end";
        QTest::newRow("not JSON") << wrap("{\"format\": ") << "not valid JSON inside";
        QTest::newRow("not an object") << wrap("[1, 2]") << "expected a JSON object";
        QTest::newRow("not a session") << wrap("{\"format\": \"something\"}") << "setting format: not an Orbit Lab session";
        QTest::newRow("malformed field")
            << wrap(R"({"format": "orbitlab-session", "version": 1, "orbit": {"r": "many"}})") << "setting orbit.r: expected";
        QTest::newRow("unknown group")
            << wrap(R"({"format": "orbitlab-session", "version": 1, "orbit": {"group": "spin"}})")
            << "setting orbit.group: unknown group";
    }
    void malformedTextSaysWhat()
    {
        QFETCH(QString, text);
        QFETCH(QString, says);
        const QString message = rejection(text);
        QVERIFY2(!message.isEmpty(), "accepted");
        QVERIFY2(message.contains(says), qPrintable(message));
        QVERIFY2(!message.contains('\n'), qPrintable(message));
    }

    // A setting from an identical session: the saved session files are the same bytes.
    void digitsRoundTrip() { roundTrip(orbittest::digitsPng(), false, "digits"); }
    void g2RoundTrip() { roundTrip(orbittest::g2Xyz(), true, "g2"); }

    // A malformed setting in the GUI: the panel's message strip says what is wrong; nothing changes.
    void malformedSettingKeepsTheSession()
    {
        WindowFixture fx;
        QVERIFY(orbittest::loadAndSettle(*fx.window, orbittest::digitsPng()));
        const orbitui::SessionState before = fx.window->session()->capture();
        const QString good = orbitui::encodeSetting(changed(before, false));
        QVERIFY(!fx.window->share()->openSetting(good.left(good.size() - 12)));
        const QString strip = fx.window->currentPanel()->errorText();
        QVERIFY2(strip.startsWith("Could not open the setting: the text is cut short"), qPrintable(strip));
        QCOMPARE(fx.window->session()->capture(), before);
        // A good one afterwards clears the message and applies.
        QVERIFY(fx.window->share()->openSetting(good));
        QVERIFY(!fx.window->dataPanel()->hasError());
        QCOMPARE(fx.window->session()->capture().orbit.seed, std::uint64_t(4242));
    }

    // The menus: Edit holds the copy actions with shortcuts, File the Open setting… dialog.
    void menus()
    {
        WindowFixture fx;
        QStringList edit, file;
        for (QAction* m : fx.window->menuBar()->actions()) {
            if (!m->menu() || (m->text() != "&Edit" && m->text() != "&File"))
                continue;
            QStringList& names = m->text() == "&Edit" ? edit : file;
            for (QAction* a : m->menu()->actions())
                names << a->text();
        }
        QVERIFY2(edit.contains("Copy &setting") && edit.contains("Copy as &command"), qPrintable(edit.join("|")));
        QVERIFY2(file.contains("Open se&tting…"), qPrintable(file.join("|")));
        QVERIFY(!fx.window->share()->copySettingAction()->shortcut().isEmpty());
        QVERIFY(!fx.window->share()->copyCommandAction()->shortcut().isEmpty());
    }

    // orbitlab --setting TEXT: a malformed one exits 2 with one line on stderr naming the problem.
    void commandLineRefusesMalformedSettings_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("says");
        const QString good = orbitui::encodeSetting(changed({}, false));
        QTest::newRow("wrong prefix") << QString("orbitlab-session:1:abc") << "--setting: does not start with";
        QTest::newRow("truncated") << good.left(good.size() - 12) << "--setting: the text is cut short";
        QTest::newRow("malformed field")
            << wrap(R"({"format": "orbitlab-session", "version": 1, "kernels": {"n": -3}})") << "--setting kernels.n:";
    }
    void commandLineRefusesMalformedSettings()
    {
        QFETCH(QString, text);
        QFETCH(QString, says);
        const orbittest::AppRun r =
            orbittest::runApp(dir_.path(), {"--setting", text, "--screenshot", dir_.filePath("never.png")}, 60000);
        QCOMPARE(r.status, 2);  // finished, and refused
        const QString& err = r.err;
        QStringList ours;
        for (const QString& line : err.split('\n', Qt::SkipEmptyParts))
            if (line.startsWith("orbitlab:"))
                ours << line;
        QVERIFY2(ours.size() == 1 && ours.front().contains(says), qPrintable(err));
        QVERIFY(!QFile::exists(dir_.filePath("never.png")));
    }

    // orbitlab --setting TEXT opens what --session FILE opens: the same export, byte for byte.
    void commandLineOpensASetting()
    {
        orbitui::SessionState s = changed({}, false);
        s.dataPath = orbittest::digitsPng();
        s.selectedIndex = 3000;
        s.panel = "data";
        const QString session = dir_.filePath("cli-session.json");
        QCOMPARE(orbitui::saveSession(session, s), QString());
        const auto exportWith = [&](const QStringList& open, const QString& out) {
            const orbittest::AppRun r =
                orbittest::runApp(dir_.path(), open + QStringList{"--export", dir_.filePath(out), "--panel", "group"}, 120000);
            if (r.status != 0)
                qWarning("%s", qPrintable(r.err));
            return r.status == 0 ? fileBytes(dir_.filePath(out + "/density.csv")) : QByteArray();
        };
        const QByteArray viaSetting = exportWith({"--setting", orbitui::encodeSetting(s)}, "via-setting");
        const QByteArray viaSession = exportWith({"--session", session}, "via-session");
        QVERIFY(!viaSetting.isEmpty());
        QCOMPARE(viaSetting, viaSession);
        // ... and not what the defaults give: the setting's uniform window a = 0.75 is drawn.
        const QByteArray defaults = exportWith({"--data", orbittest::digitsPng()}, "defaults");
        QVERIFY(!defaults.isEmpty());
        QVERIFY(viaSetting != defaults);
    }
};

QTEST_MAIN(TestShareSetting)
#include "test_share_setting.moc"

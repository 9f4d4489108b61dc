// Nothing lost (issue 32): quit and restart restores every panel's setting; a moved data file gets the
// banner and the rest is kept; the recovery offer appears after an unclean exit (the real application
// killed) and not after a clean one; a corrupt working state is refused with one line and a clean
// start; Save / Discard / Cancel on a modified session, with [*] in the title; a running learn asks
// before quitting and its best point and Undo are kept.
#include "AppRunner.hpp"
#include "Screenshot.hpp"
#include "WindowFixture.hpp"

#include "state/AnalysisSettings.hpp"
#include "state/LabState.hpp"
#include "state/LearnPicture.hpp"
#include "state/Share.hpp"
#include "state/WorkingState.hpp"
#include "widgets/Panel.hpp"
#include "window/data/DataPanel.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/shell/ShareActions.hpp"
#include "window/shell/WorkingStateKeeper.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/LocalityView.hpp"
#include "window/training/TrainingPanel.hpp"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFile>
#include <QJsonDocument>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QTimer>
#include <QTest>
#include <QByteArray>
#include <QDir>
#include <QFileInfo>
#include <QIODevice>
#include <QObject>
#include <QPixmap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTemporaryDir>

#include <functional>
#include <memory>

using orbitui::MainWindow;
using orbitui::SessionState;
using orbitui::Settings;
using orbitui::LearnPicture;
using orbitui::LocalityPane;
using orbitui::WorkingState;

namespace {

/// A setting away from every default: each panel's, the selection, the A/B pin and the panel shown.
SessionState everyPanelChanged(const QString& data)
{
    SessionState s;
    s.dataPath = data;
    s.selectedIndex = 17;
    s.embeddingInputs = {3, 1200, 4100};
    s.orbit.setParameter("kappa", 7.5);
    s.orbit.r = 33;
    s.orbit.seed = 4242;
    orbitui::KernelsSettings& kernels = s.part<orbitui::KernelsSettings>();
    kernels.n = 60;
    kernels.s = 123;
    kernels.autoApply = false;
    orbitui::ApproximationSettings& approximation = s.part<orbitui::ApproximationSettings>();
    approximation.n = 70;
    approximation.sList = {50, 100};
    approximation.rList = {2, 4};
    approximation.autoApply = false;
    s.training.learner = "ridge";
    s.training.s = 321;
    s.training.subset = 400;
    s.training.lambdas = {0.5, 5.0};
    s.training.learn = {"kappa"};
    s.training.learnEvaluations = 7;
    s.panel = "kernels";
    orbitui::PinnedSetting a = orbitui::pinnedOf(s);
    a.orbit.setParameter("kappa", 0.25);
    s.pinned = a;
    return s;
}

/// The bundled digits with the Kernels and Approximation panels computing only when asked.
SessionState quietDigits()
{
    SessionState s;
    s.dataPath = orbittest::digitsPng();
    s.part<orbitui::KernelsSettings>().autoApply = false;
    s.part<orbitui::ApproximationSettings>().autoApply = false;
    return s;
}

/// The bundled digits on the Training panel, set up for a learn of `evaluations` evaluations and no
/// landscape points of its own (the two learn tests).
SessionState learnOnDigits(int subset, int s, int evaluations)
{
    SessionState state = quietDigits();
    state.training.subset = subset;
    state.training.s = s;
    state.training.learnEvaluations = evaluations;
    state.training.learnLandscape = 0;
    state.panel = "training";
    return state;
}

/// Answers the next modal question called `name` by clicking `button` (a standard button, or the
/// button with that text). Saves its picture as `shot` under $ORBIT_SCREENSHOTS. A timer of the
/// application's polls for the question every 50 ms and deletes itself once it has answered (a
/// function that rescheduled itself through a shared_ptr to itself was a cycle: LeakSanitizer).
void answerNext(const QString& name, const QString& button, const QString& shot = {})
{
    auto* poll = new QTimer(qApp);
    poll->setInterval(50);
    QObject::connect(poll, &QTimer::timeout, poll, [poll, name, button, shot] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || box->objectName() != name)
            return;
        poll->stop();
        poll->deleteLater();
        if (!shot.isEmpty() && !qEnvironmentVariable("ORBIT_SCREENSHOTS").isEmpty())
            box->grab().save(QDir(qEnvironmentVariable("ORBIT_SCREENSHOTS")).filePath(shot));
        for (QAbstractButton* b : box->buttons())
            if (b->text().remove('&') == button) {
                b->click();
                return;
            }
        box->reject();
    });
    poll->start();
}

bool waitLoaded(MainWindow& w)
{
    return QTest::qWaitFor([&] { return w.state()->dataset() != nullptr && !w.session()->isLoading(); }, 60000) &&
           QTest::qWaitFor([&] { return w.isIdle(); }, 120000);
}

WorkingState readState(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return orbitui::workingStateFromJson(QJsonDocument::fromJson(f.readAll()).object());
}

} // namespace

class TestWorkingState : public QObject {
    Q_OBJECT
private slots:
    void quitAndRestartRestoresEveryPanelsSetting()
    {
        QTemporaryDir dir;
        const SessionState wanted = everyPanelChanged(orbittest::digitsPng());
        orbitui::OrbitSettings undo = wanted.orbit;
        undo.setParameter("kappa", 2.0);
        {
            Settings settings(dir.filePath("s.ini"));
            MainWindow w(&settings, true);
            w.show();
            QVERIFY(w.keeper() && w.keeper()->active());
            w.session()->apply(wanted);
            QVERIFY(waitLoaded(w));
            w.trainingPanel()->locality()->setUndoSettings(undo);
            QCOMPARE(w.session()->capture(), wanted);
            QVERIFY(w.close());
        }
        const WorkingState kept = readState(dir.filePath("s.state/working-state.json"));
        QVERIFY(kept.cleanExit);

        Settings settings(dir.filePath("s.ini"));
        MainWindow w(&settings, true);
        w.show();
        bool clean = false;
        QVERIFY(w.keeper()->reopen([&] { clean = true; }));
        QVERIFY(!w.keeper()->recoveryOffer());  // a clean exit: no question
        QVERIFY(!clean);
        QVERIFY(waitLoaded(w));
        QCOMPARE(w.session()->capture(), wanted);
        QCOMPARE(w.state()->orbitSettings().parameter("kappa"), 7.5);
        QCOMPARE(w.trainingPanel()->locality()->undoSettings(), std::optional(undo));
        QVERIFY(w.trainingPanel()->locality()->undoButton()->isEnabled());
        QCOMPARE(w.currentPanel()->name(), QString("kernels"));
        w.close();
    }

    void viewChoicesAreKept()
    {
        // The Group panel's plotted factor (affine) and the Data panel's thumbnail size are not part
        // of a session, but a restart keeps them too.
        QTemporaryDir dir;
        SessionState s = quietDigits();
        s.orbit.group = "affine";
        s.panel = "group";
        {
            Settings settings(dir.filePath("s.ini"));
            MainWindow w(&settings, true);
            w.show();
            w.session()->apply(s);
            QVERIFY(waitLoaded(w));
            QCOMPARE(w.groupPanel()->densityFactor(), std::string("rotation"));
            w.groupPanel()->setDensityFactor("scale");
            w.dataPanel()->setThumbnailSize(150);
            QCOMPARE(w.groupPanel()->densityFactor(), std::string("scale"));
            QVERIFY(w.close());
        }
        const WorkingState kept = readState(dir.filePath("s.state/working-state.json"));
        QCOMPARE(kept.groupFactor, QString("scale"));
        QCOMPARE(kept.thumbnailSize, 150);
        Settings settings(dir.filePath("s.ini"));
        MainWindow w(&settings, true);
        w.show();
        QVERIFY(w.keeper()->reopen([] {}));
        QVERIFY(waitLoaded(w));
        QCOMPARE(w.groupPanel()->densityFactor(), std::string("scale"));
        QCOMPARE(w.dataPanel()->thumbnailSize(), 150);
        w.close();
    }

    void movedDataFileGetsTheBannerAndTheRestIsKept()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath("digits.png");
        QVERIFY(QFile::copy(orbittest::digitsPng(), data));
        const SessionState wanted = everyPanelChanged(data);
        {
            Settings settings(dir.filePath("s.ini"));
            MainWindow w(&settings, true);
            w.show();
            w.session()->apply(wanted);
            QVERIFY(waitLoaded(w));
            QVERIFY(w.close());
        }
        QVERIFY(QFile::remove(data));
        Settings settings(dir.filePath("s.ini"));
        MainWindow w(&settings, true);
        w.show();
        QVERIFY(w.keeper()->reopen([] {}));
        QVERIFY(!w.state()->dataset());
        QCOMPARE(w.session()->missingDataPath(), data);
        QVERIFY(w.dataPanel()->errorText().contains("not there any more"));
        SessionState now = w.session()->capture();
        now.panel = wanted.panel;  // the banner shows the Data panel
        QCOMPARE(now, wanted);
        w.close();
    }

    void recoveryOfferAfterAnUncleanExitOnly()
    {
        QTemporaryDir home;
        const QString config = home.filePath("config");
        const QString stateFile = config + "/OrbitLab/Orbit Lab.state/working-state.json";
        SessionState s;
        s.dataPath = orbittest::digitsPng();
        s.orbit.setParameter("kappa", 7.5);
        s.panel = "group";

        // The application itself, killed (SIGKILL) once its autosave holds κ = 7.5.
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        env.insert("XDG_CONFIG_HOME", config);
        app.setProcessEnvironment(env);
        app.start(QStringLiteral(ORBITLAB_APP), {"--setting", orbitui::encodeSetting(s)});
        QVERIFY(app.waitForStarted());
        QVERIFY2(QTest::qWaitFor([&] {
                     QFile f(stateFile);
                     return f.open(QIODevice::ReadOnly) && f.readAll().contains("\"kappa\":7.5");
                 }, 60000),
                 "no autosave with kappa 7.5 within a minute");
        app.kill();
        QVERIFY(app.waitForFinished());
        const WorkingState crashed = readState(stateFile);
        QVERIFY(!crashed.cleanExit);

        {
            Settings settings(config + "/OrbitLab/Orbit Lab.conf");
            MainWindow w(&settings, true);
            w.show();
            QVERIFY(w.keeper()->reopen([] {}));
            QVERIFY(QTest::qWaitFor([&] { return w.keeper()->recoveryOffer() && w.keeper()->recoveryOffer()->isVisible(); }));
            QMessageBox* offer = w.keeper()->recoveryOffer();
            QVERIFY2(offer->informativeText().contains("digits.png") && offer->informativeText().contains("κ=7.5"),
                     qPrintable(offer->informativeText()));
            QVERIFY(offer->text().contains("did not close properly"));
            // Nothing overwrites the offered state while the question is open.
            QTest::qWait(1500);
            QVERIFY(!readState(stateFile).cleanExit);
            if (!qEnvironmentVariable("ORBIT_SCREENSHOTS").isEmpty()) {
                w.resize(1400, 900);
                QTest::qWait(300);
                QPixmap shot = w.grab();
                QPainter p(&shot);
                const QPixmap box = offer->grab();
                p.drawPixmap((shot.width() - box.width()) / 2, (shot.height() - box.height()) / 3, box);
                p.end();
                shot.save(QDir(qEnvironmentVariable("ORBIT_SCREENSHOTS")).filePath("recovery-offer.png"));
            }
            for (QAbstractButton* b : offer->buttons())
                if (b->text() == "Restore")
                    b->click();
            QVERIFY(waitLoaded(w));
            QCOMPARE(w.state()->orbitSettings().parameter("kappa"), 7.5);
            QCOMPARE(w.currentPanel()->name(), QString("group"));
            QVERIFY(w.close());
        }
        QVERIFY(readState(stateFile).cleanExit);
        // After the clean exit: reopened without a question.
        Settings settings(config + "/OrbitLab/Orbit Lab.conf");
        MainWindow w(&settings, true);
        w.show();
        QVERIFY(w.keeper()->reopen([] {}));
        QTest::qWait(200);
        QVERIFY(!w.keeper()->recoveryOffer());
        QCOMPARE(w.state()->orbitSettings().parameter("kappa"), 7.5);
        w.close();
    }

    void aSecondWindowNeitherReadsNorWritesTheState()
    {
        QTemporaryDir dir;
        Settings settings(dir.filePath("s.ini"));
        MainWindow first(&settings, true);
        QVERIFY(first.keeper()->active());
        MainWindow second(&settings, true);
        QVERIFY(!second.keeper()->active());
        QVERIFY(!second.keeper()->reopen([] {}));
    }

    void corruptOrHalfWrittenStateIsRefusedWithOneLine()
    {
        for (const QByteArray& bytes :
             {QByteArray("{\"format\":\"orbitlab-working-state\",\"version\":1,\"session\":{\"format\":\"orbitlab-ses"),
              QByteArray("{\"format\":\"orbitlab-working-state\",\"version\":1,\"session\":{\"format\":\"orbitlab-session\","
                         "\"orbit\":{\"r\":-3}},\"saved_at\":\"2026-01-01T00:00:00Z\",\"clean_exit\":false}"),
              QByteArray("\x89PNG\r\n\x1a\n garbage")}) {
            QTemporaryDir dir;
            QVERIFY(QDir().mkpath(dir.filePath("s.state")));
            const QString path = dir.filePath("s.state/working-state.json");
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
            f.close();
            orbitui::StateStore store(dir.filePath("s.state"));
            QVERIFY(store.acquire());
            const auto previous = store.readPrevious();
            QCOMPARE(previous.kind, orbitui::StateStore::Previous::Kind::Refused);
            QVERIFY2(previous.message.contains(path) && !previous.message.contains('\n') && previous.message.contains("starting clean"),
                     qPrintable(previous.message));
            QVERIFY(!QFile::exists(path) && QFile::exists(path + ".bad"));  // moved aside: the next start is clean
            QCOMPARE(store.readPrevious().kind, orbitui::StateStore::Previous::Kind::None);
        }
        // The window then starts clean on the bundled data.
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("s.state")));
        QFile f(dir.filePath("s.state/working-state.json"));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{\"format\":") > 0);
        f.close();
        Settings settings(dir.filePath("s.ini"));
        MainWindow w(&settings, true);
        bool clean = false;
        QVERIFY(!w.keeper()->reopen([&] { clean = true; }));
        QVERIFY(!clean);  // the caller opens the bundled data
    }

    void fileNewStartsClean()
    {
        QTemporaryDir dir;
        Settings settings(dir.filePath("s.ini"));
        MainWindow w(&settings, true);
        w.show();
        w.session()->apply(everyPanelChanged(orbittest::g2Xyz()));
        QVERIFY(waitLoaded(w));
        QVERIFY(w.session()->saveFile(dir.filePath("plan.json")));
        w.trainingPanel()->locality()->setUndoSettings(w.state()->orbitSettings());
        QVERIFY(w.startClean());  // unmodified session: no question
        QVERIFY(waitLoaded(w));
        // What a window that never had a setting shows on the bundled digits.
        orbittest::WindowFixture fresh;
        QVERIFY(orbittest::loadAndSettle(*fresh.window, w.state()->datasetPath()));
        const SessionState clean = fresh.window->session()->capture();
        const SessionState now = w.session()->capture();
        QCOMPARE(QFileInfo(now.dataPath).fileName(), QString("digits.png"));
        QVERIFY(!now.pinned);
        QCOMPARE(now.orbit, clean.orbit);
        QCOMPARE(now.training, clean.training);
        QCOMPARE(now.part<orbitui::KernelsSettings>(), clean.part<orbitui::KernelsSettings>());
        QCOMPARE(now.part<orbitui::ApproximationSettings>(), clean.part<orbitui::ApproximationSettings>());
        QCOMPARE(now.selectedIndex, clean.selectedIndex);
        QCOMPARE(now.embeddingInputs, clean.embeddingInputs);
        QVERIFY(!w.trainingPanel()->locality()->undoSettings());
        QVERIFY(w.keeper()->sessionFile().isEmpty());
        QCOMPARE(w.windowTitle(), QString("Orbit Lab"));
    }

    void saveDiscardCancelOnAModifiedSession()
    {
        QTemporaryDir dir;
        Settings settings(dir.filePath("s.ini"));
        MainWindow w(&settings, true);
        w.show();
        w.session()->apply(quietDigits());
        QVERIFY(waitLoaded(w));
        const QString file = dir.filePath("lesson-plan.json");
        QVERIFY(w.session()->saveFile(file));
        w.keeper()->poll();
        QCOMPARE(w.windowTitle(), QString("lesson-plan.json[*] — Orbit Lab"));
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.maybeSaveSession());  // unmodified: no question

        orbitui::OrbitSettings o = w.state()->orbitSettings();
        o.setParameter("kappa", 7.5);
        w.state()->setOrbitSettings(o);
        w.keeper()->poll();
        QVERIFY(w.isWindowModified());
        orbittest::saveScreenshot(w, "modified-session.png");

        answerNext("saveQuestion", "Cancel", "save-discard-cancel.png");
        QVERIFY(!w.close());  // Cancel: still open, still modified
        QVERIFY(w.isVisible() && w.isWindowModified());

        // File ▸ Open setting… replaces the session too: it asks first, and Cancel opens nothing
        // (without the question its dialog would open: closed here, and the check fails).
        auto dialogOpened = std::make_shared<bool>(false), watching = std::make_shared<bool>(true);
        auto closeDialog = std::make_shared<std::function<void()>>();
        *closeDialog = [dialogOpened, watching, weak = std::weak_ptr<std::function<void()>>(closeDialog)] {
            if (auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget()); d && d->objectName() == "openSettingDialog") {
                *dialogOpened = true;
                d->reject();
            }
            if (*watching)
                if (auto next = weak.lock()) QTimer::singleShot(50, *next);
        };
        QTimer::singleShot(50, *closeDialog);
        answerNext("saveQuestion", "Cancel");
        w.share()->openSettingAction()->trigger();
        *watching = false;
        QVERIFY(!*dialogOpened);
        QVERIFY(w.isWindowModified());

        answerNext("saveQuestion", "Discard");
        QVERIFY(w.maybeSaveSession());  // e.g. before opening another dataset
        QCOMPARE(orbitui::loadSession(file, nullptr)->orbit.parameter("kappa"), 1.0);

        answerNext("saveQuestion", "Save");
        QVERIFY(w.close());
        QCOMPARE(orbitui::loadSession(file, nullptr)->orbit.parameter("kappa"), 7.5);
        QVERIFY(!w.isWindowModified());
    }

    void aFinishedLearnsChartAndTheTrainingResultComeBack()
    {
        // The last results that are cheap to keep: the learn's chart (its own evaluations, the
        // optimiser's path) and the training's metrics come back after a quit, without computing.
        QTemporaryDir dir;
        LearnPicture picture;
        QString trained;
        {
            Settings settings(dir.filePath("s.ini"));
            MainWindow w(&settings, true);
            w.show();
            SessionState s = learnOnDigits(300, 150, 8);
            s.training.r = 6;
            w.session()->apply(s);
            QVERIFY(waitLoaded(w));
            QVERIFY(w.trainingPanel()->learnLocality());
            QVERIFY(QTest::qWaitFor([&] { return w.isIdle(); }, 120000));
            w.trainingPanel()->run();
            QVERIFY(QTest::qWaitFor([&] { return w.trainingPanel()->lastResult() != nullptr && w.isIdle(); }, 120000));
            trained = w.trainingPanel()->resultText();
            QVERIFY2(trained.startsWith("test accuracy 0."), qPrintable(trained));
            picture = w.trainingPanel()->locality()->picture();
            QVERIFY(!picture.empty());
            QVERIFY(picture.path.size() >= 3);
            QVERIFY(picture.learnedLandscape);
            QVERIFY(w.close());
        }
        const WorkingState kept = readState(dir.filePath("s.state/working-state.json"));
        QCOMPARE(kept.learnPicture.path.size(), picture.path.size());
        QCOMPARE(kept.trained, trained);

        Settings settings(dir.filePath("s.ini"));
        MainWindow w(&settings, true);
        w.show();
        QVERIFY(w.keeper()->reopen([] {}));
        QVERIFY(waitLoaded(w));
        LocalityPane* pane = w.trainingPanel()->locality();
        QVERIFY(QTest::qWaitFor([&] { return !pane->picture().empty(); }, 10000));
        const LearnPicture back = pane->picture();
        QCOMPARE(back.parameters, picture.parameters);
        QCOMPARE(back.path.size(), picture.path.size());
        QCOMPARE(back.best, picture.best);
        QCOMPARE(back.landscapePoints.size(), picture.landscapePoints.size());
        for (std::size_t i = 0; i < picture.path.size(); ++i) {
            QCOMPARE(back.path[i].params, picture.path[i].params);
            QCOMPARE(back.path[i].logEvidence, picture.path[i].logEvidence);
        }
        QCOMPARE(pane->view()->pathPoints(), int(picture.path.size()));
        QVERIFY2(pane->summaryText().startsWith("From the last session: Learned"), qPrintable(pane->summaryText()));
        QCOMPARE(w.trainingPanel()->statusText(), "From the last session: " + trained.section('\n', 0, 0));
        orbittest::saveScreenshot(w, "restored-learn.png");
        // Quit again without training: both are still kept (not the marked text, the result itself).
        QVERIFY(w.close());
        const WorkingState again = readState(dir.filePath("s.state/working-state.json"));
        QCOMPARE(again.trained, trained);
        QCOMPARE(again.learnPicture.path.size(), picture.path.size());
        QVERIFY(!again.learned.startsWith("From the last session"));
    }

    void aRunningLearnAsksBeforeQuittingAndKeepsItsBestPoint()
    {
        QTemporaryDir dir;
        orbitui::OrbitSettings before;
        {
            Settings settings(dir.filePath("s.ini"));
            MainWindow w(&settings, true);
            w.show();
            w.session()->apply(learnOnDigits(600, 200, 200));
            QVERIFY(waitLoaded(w));
            before = w.state()->orbitSettings();
            QVERIFY(w.trainingPanel()->learnLocality());
            QVERIFY(QTest::qWaitFor([&] { return w.trainingPanel()->locality()->bestSoFar().has_value(); }, 120000));

            answerNext("runningQuestion", "Cancel", "quit-while-learning.png");
            QVERIFY(!w.close());
            QVERIFY(w.trainingPanel()->locality()->busy());
            answerNext("runningQuestion", "Stop and quit");
            QVERIFY(w.close());
            QVERIFY(QTest::qWaitFor([&] { return w.isIdle(); }, 60000));
        }
        const WorkingState kept = readState(dir.filePath("s.state/working-state.json"));
        QVERIFY(kept.cleanExit);
        QCOMPARE(kept.learnUndo, std::optional(before));
        QVERIFY2(kept.learned.contains("Best so far"), qPrintable(kept.learned));
        QVERIFY(kept.learnedAt.isValid());
    }
};

QTEST_MAIN(TestWorkingState)
#include "test_working_state.moc"

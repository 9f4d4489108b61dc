// Parameter sweeps. The plan: frames from `from` to `to` evenly spaced in the value or its log,
// loop and bounce orders, steps that stop at the ends, and validation messages that name the
// field. Through the real main window (offscreen, bundled digits): pressing play moves the
// κ slider and spin box, and every frame is drawn by the density chart and the orbit gallery with
// that frame's κ before the next one is applied; step forward / back move one frame and stop at
// the ends; an invalid range is refused with a message naming the field; stopping keeps the last
// value; the Kernels matrices follow for small N only; the export writes one PNG per frame and a
// GIF with one image per frame.
#include "render/ParameterLabels.hpp"
#include "state/LabState.hpp"
#include "state/SweepPacer.hpp"
#include "state/SweepPlan.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/Tasks.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ImageGrid.hpp"
#include "widgets/ParameterControl.hpp"
#include "window/group/DistributionEditor.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/sweep/SweepControl.hpp"
#include "window/sweep/SweepRecorder.hpp"

#include "Screenshot.hpp"
#include "WindowFixture.hpp"

#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDoubleSpinBox>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTest>
#include <QByteArray>
#include <QFile>
#include <QImage>
#include <QObject>
#include <QPointer>
#include <QSignalSpy>
#include <QString>
#include <QStringList>

#include <cmath>
#include <vector>

using namespace orbitui;
using namespace orbittest;

namespace {

double kappaOf(const OrbitSettings& s) { return s.factor("rotation").value("kappa"); }

SweepControl* sweepOf(ParameterControl* c) { return c ? c->findChild<SweepControl*>() : nullptr; }

/// κ of the Group panel's editor, on a window showing the digits.
struct Lab {
    WindowFixture fx;
    MainWindow& w = *fx.window;
    ParameterControl* kappa = nullptr;
    SweepControl* sweep = nullptr;

    bool open()
    {
        w.resize(1400, 900);
        w.show();
        w.showPanel("group");
        if (!loadAndSettle(w, digitsPng()))
            return false;
        kappa = w.groupPanel()->editor()->parameterControl("rotation", "kappa");
        sweep = sweepOf(kappa);
        return sweep != nullptr;
    }
    void setRange(const QString& from, const QString& to, int frames, SweepPlan::Spacing spacing,
                  SweepPlan::Mode mode = SweepPlan::Mode::Loop, int intervalMs = 0)
    {
        sweep->rangeButton()->setChecked(true);
        sweep->fromEdit()->setText(from);
        sweep->toEdit()->setText(to);
        sweep->framesBox()->setValue(frames);
        sweep->spacingBox()->setCurrentIndex(sweep->spacingBox()->findData(int(spacing)));
        sweep->modeBox()->setCurrentIndex(sweep->modeBox()->findData(int(mode)));
        sweep->intervalBox()->setValue(intervalMs);
    }
    double stateKappa() const { return kappaOf(w.state()->orbitSettings()); }
};

} // namespace

class TestSweep : public QObject {
    Q_OBJECT
private slots:
    void planSpacesFramesLinearlyOrInLog()
    {
        SweepPlan p;
        p.from = 0.1;
        p.to = 10.0;
        p.frames = 5;
        p.spacing = SweepPlan::Spacing::Log;
        QCOMPARE(p.value(0), 0.1);
        QCOMPARE(p.value(4), 10.0);
        for (int i = 1; i < 5; ++i)  // equal ratios: 10^(1/2) per frame from 0.1 to 10
            QVERIFY(std::abs(p.value(i) / p.value(i - 1) - std::sqrt(10.0)) < 1e-12);
        QVERIFY(std::abs(p.step() - std::sqrt(10.0)) < 1e-12);
        p.spacing = SweepPlan::Spacing::Linear;
        p.from = 5.0;
        p.to = -1.0;  // a falling range is valid when both ends are
        p.frames = 4;
        QCOMPARE(p.value(1), 3.0);
        QCOMPARE(p.value(2), 1.0);
        QCOMPARE(p.step(), -2.0);
        QCOMPARE(p.position(2.0), 1.5);
    }

    void loopAndBounceVisitEveryFrameInOrder()
    {
        SweepPlan p;
        p.frames = 4;
        p.mode = SweepPlan::Mode::Loop;
        int dir = 1, i = 0;
        std::vector<int> seen;
        for (int k = 0; k < 6; ++k)
            seen.push_back(i = p.next(i, dir));
        QCOMPARE(seen, (std::vector<int>{1, 2, 3, 0, 1, 2}));
        p.mode = SweepPlan::Mode::Bounce;
        dir = 1;
        i = 0;
        seen.clear();
        for (int k = 0; k < 8; ++k)
            seen.push_back(i = p.next(i, dir));
        QCOMPARE(seen, (std::vector<int>{1, 2, 3, 2, 1, 0, 1, 2}));
    }

    void stepsMoveOneFrameAndStopAtTheEnds()
    {
        SweepPlan p;
        p.from = 1.0;
        p.to = 4.0;
        p.frames = 4;
        QCOMPARE(p.stepFrom(1.0, +1), 1);
        QCOMPARE(p.stepFrom(2.5, +1), 2);  // between frames: the next one beyond
        QCOMPARE(p.stepFrom(2.5, -1), 1);
        QCOMPARE(p.stepFrom(4.0, +1), 3);  // the end stays the end
        QCOMPARE(p.stepFrom(1.0, -1), 0);
        QCOMPARE(p.stepFrom(-7.0, +1), 0);  // outside the range: onto its first frame
    }

    void invalidPlansNameTheField()
    {
        SweepPlan p;
        p.from = 5;
        p.to = -1;
        QString e = p.validate("κ (concentration)", 0.0, 1e6);
        QVERIFY2(e.contains("κ (concentration)") && e.contains("to = -1") && e.contains("smallest valid value 0"),
                 qPrintable(e));
        p.to = 2e6;
        e = p.validate("κ (concentration)", 0.0, 1e6);
        QVERIFY2(e.contains("to = 2000000") && e.contains("largest valid value 1000000"), qPrintable(e));
        p.to = 5;
        QVERIFY(p.validate("κ", 0.0, 1e6).contains("from = to = 5"));
        p.from = 0;
        p.spacing = SweepPlan::Spacing::Log;
        QVERIFY(p.validate("κ", 0.0, 1e6).contains("log spacing needs from > 0"));
        p.spacing = SweepPlan::Spacing::Linear;
        p.frames = 1;
        QVERIFY(p.validate("κ", 0.0, 1e6).contains("frames = 1"));
        p.frames = 3;
        QVERIFY(p.validate("κ", 0.0, 1e6).isEmpty());
    }

    void playMovesTheSliderAndEveryFrameIsDrawnWithItsValue()
    {
        Lab lab;
        QVERIFY(lab.open());
        lab.setRange("0.5", "8", 5, SweepPlan::Spacing::Log, SweepPlan::Mode::Loop);
        const SweepPlan plan = lab.sweep->plan();
        QVERIFY(lab.sweep->validationError().isEmpty());
        lab.kappa->spinBox()->setValue(plan.value(0));
        QVERIFY(QTest::qWaitFor([&] { return lab.w.isIdle(); }, 30000));
        const int sliderBefore = lab.kappa->slider()->value();

        struct Frame {
            int index;
            double value, density, orbit;
            int galleryDraws;
        };
        std::vector<Frame> frames;
        connect(lab.sweep, &SweepControl::frameSettled, this, [&](int frame, double value) {
            const auto density = lab.w.groupPanel()->lastResult();
            const auto orbit = lab.w.orbitsPanel()->lastResult();
            frames.push_back({frame, value, density ? kappaOf(density->request.settings) : -1.0,
                              orbit ? kappaOf(orbit->request.settings) : -1.0, lab.w.orbitsPanel()->drawCount()});
        });
        QTest::mouseClick(lab.sweep->playButton(), Qt::LeftButton);
        QVERIFY(lab.sweep->isPlaying());
        QVERIFY(SweepPacer::of(lab.w.state())->isPlaying());
        QVERIFY(QTest::qWaitFor([&] { return frames.size() >= 6; }, 120000));
        QTest::mouseClick(lab.sweep->playButton(), Qt::LeftButton);
        QVERIFY(!lab.sweep->isPlaying());
        QVERIFY(!SweepPacer::of(lab.w.state())->isPlaying());

        QVERIFY(lab.kappa->slider()->value() != sliderBefore || frames.back().index == 0);
        for (std::size_t k = 0; k < frames.size(); ++k) {
            const Frame& f = frames[k];
            QCOMPARE(f.index, int((k + 1) % 5));  // loop from frame 0: 1, 2, 3, 4, 0, 1
            QVERIFY2(std::abs(f.value - plan.value(f.index)) < 1e-3 * plan.value(f.index),
                     qPrintable(QString("frame %1: %2").arg(f.index).arg(f.value)));
            // The charts shown at this frame were computed with this frame's κ.
            QCOMPARE(f.density, f.value);
            QCOMPARE(f.orbit, f.value);
            if (k > 0)
                QVERIFY(f.galleryDraws > frames[k - 1].galleryDraws);  // the gallery was redrawn
        }
        QVERIFY(lab.w.groupPanel()->densityChart()->chart()->series().size() > 0);
        QVERIFY(saveScreenshot(lab.w, "sweep.png"));
    }

    void stepForwardAndBackMoveExactlyOneFrame()
    {
        Lab lab;
        QVERIFY(lab.open());
        lab.setRange("1", "4", 4, SweepPlan::Spacing::Linear);
        lab.kappa->spinBox()->setValue(1.0);
        QCOMPARE(lab.stateKappa(), 1.0);
        const std::vector<std::pair<QToolButton*, double>> clicks = {
            {lab.sweep->forwardButton(), 2.0}, {lab.sweep->forwardButton(), 3.0}, {lab.sweep->forwardButton(), 4.0},
            {lab.sweep->forwardButton(), 4.0},  // stops at the end
            {lab.sweep->backButton(), 3.0},     {lab.sweep->backButton(), 2.0},    {lab.sweep->backButton(), 1.0},
            {lab.sweep->backButton(), 1.0},     // and at the start
        };
        for (const auto& [button, expected] : clicks) {
            QTest::mouseClick(button, Qt::LeftButton);
            QCOMPARE(lab.kappa->value(), expected);
            QCOMPARE(lab.stateKappa(), expected);
            QVERIFY(!lab.sweep->isPlaying());
        }
        QVERIFY(QTest::qWaitFor([&] { return lab.w.isIdle(); }, 30000));
        QCOMPARE(kappaOf(lab.w.groupPanel()->lastResult()->request.settings), 1.0);

        // The Orbits panel's editor shows the same κ; r steps through its doubling range.
        ParameterControl* r = lab.w.orbitsPanel()->editor()->rControl();
        QCOMPARE(lab.w.orbitsPanel()->editor()->parameterControl("rotation", "kappa")->value(), 1.0);
        SweepControl* rSweep = sweepOf(r);
        QVERIFY(rSweep);
        r->spinBox()->setValue(1);
        QTest::mouseClick(rSweep->forwardButton(), Qt::LeftButton);
        QCOMPARE(lab.w.state()->orbitSettings().r, 2);
        QTest::mouseClick(rSweep->forwardButton(), Qt::LeftButton);
        QCOMPARE(lab.w.state()->orbitSettings().r, 4);
    }

    void invalidRangesAreRefusedWithTheFieldNamed()
    {
        Lab lab;
        QVERIFY(lab.open());
        const double before = lab.stateKappa();
        lab.setRange("5", "-1", 5, SweepPlan::Spacing::Linear);
        QTest::mouseClick(lab.sweep->playButton(), Qt::LeftButton);
        QVERIFY(!lab.sweep->isPlaying());
        QVERIFY(lab.sweep->messageLabel()->isVisible());
        const QString message = lab.sweep->messageLabel()->text();
        QVERIFY2(message.contains("κ") && message.contains("to = -1"), qPrintable(message));
        QTest::mouseClick(lab.sweep->forwardButton(), Qt::LeftButton);
        QCOMPARE(lab.stateKappa(), before);

        lab.setRange("1", "5000000", 5, SweepPlan::Spacing::Log);  // beyond the registry's range
        QTest::mouseClick(lab.sweep->playButton(), Qt::LeftButton);
        QVERIFY(!lab.sweep->isPlaying());
        QVERIFY2(lab.sweep->messageLabel()->text().contains("to = 5000000"), qPrintable(lab.sweep->messageLabel()->text()));
        lab.setRange("abc", "5", 5, SweepPlan::Spacing::Linear);
        QTest::mouseClick(lab.sweep->playButton(), Qt::LeftButton);
        QVERIFY2(lab.sweep->messageLabel()->text().contains("from = 'abc' is not a number"),
                 qPrintable(lab.sweep->messageLabel()->text()));
        lab.setRange("1", "5", 5, SweepPlan::Spacing::Linear);
        lab.kappa->spinBox()->setValue(2.0);
        QTest::mouseClick(lab.sweep->forwardButton(), Qt::LeftButton);  // valid again: the message goes
        QVERIFY(!lab.sweep->messageLabel()->isVisible());
        QCOMPARE(lab.stateKappa(), 3.0);
    }

    void stoppingKeepsTheLastValueApplied()
    {
        Lab lab;
        QVERIFY(lab.open());
        lab.setRange("2", "6", 5, SweepPlan::Spacing::Linear, SweepPlan::Mode::Bounce, 50);
        lab.kappa->spinBox()->setValue(2.0);
        int settled = 0;
        connect(lab.sweep, &SweepControl::frameSettled, this, [&] { ++settled; });
        QVERIFY(lab.sweep->play());
        QVERIFY(QTest::qWaitFor([&] { return settled >= 2; }, 60000));
        lab.sweep->stop();
        const double last = lab.kappa->value();
        QCOMPARE(last, lab.sweep->plan().value(lab.sweep->frame()));
        QTest::qWait(300);
        QVERIFY(QTest::qWaitFor([&] { return lab.w.isIdle(); }, 30000));
        QCOMPARE(lab.kappa->value(), last);
        QCOMPARE(lab.stateKappa(), last);
        QCOMPARE(kappaOf(lab.w.groupPanel()->lastResult()->request.settings), last);
        QCOMPARE(kappaOf(lab.w.orbitsPanel()->lastResult()->request.settings), last);
    }

    void kernelsFollowForSmallNOnly()
    {
        Lab lab;
        QVERIFY(lab.open());
        // Played from the Orbits panel's editor while the Kernels panel is shown.
        SweepControl* sweep = sweepOf(lab.w.orbitsPanel()->editor()->parameterControl("rotation", "kappa"));
        QVERIFY(sweep);
        KernelsSettings ks = lab.w.kernelsPanel()->settings();
        ks.n = 30;
        ks.s = 64;
        lab.w.kernelsPanel()->applySettings(ks);
        lab.w.showPanel("kernels");
        QVERIFY(QTest::qWaitFor([&] { return lab.w.isIdle() && lab.w.kernelsPanel()->lastResult(); }, 60000));
        sweep->setPlan({1.0, 3.0, 3, SweepPlan::Spacing::Linear, SweepPlan::Mode::Loop, 0});
        std::vector<std::pair<double, double>> seen;  // (frame value, κ of the matrices shown)
        auto c = connect(sweep, &SweepControl::frameSettled, this, [&](int, double v) {
            seen.push_back({v, kappaOf(lab.w.kernelsPanel()->lastResult()->request.settings)});
        });
        QVERIFY(sweep->play());
        QVERIFY(!lab.w.kernelsPanel()->sweepNote()->isVisible());
        QVERIFY(QTest::qWaitFor([&] { return seen.size() >= 3; }, 120000));
        sweep->stop();
        disconnect(c);
        for (const auto& [value, shown] : seen)
            QCOMPARE(shown, value);

        // N above the threshold: the matrices hold still while it plays, and say why.
        QVERIFY(QTest::qWaitFor([&] { return lab.w.isIdle(); }, 60000));
        ks.n = KernelsPanel::kSweepFollowMaxN + 20;
        lab.w.kernelsPanel()->applySettings(ks);
        QVERIFY(QTest::qWaitFor([&] { return lab.w.isIdle(); }, 120000));
        const auto held = lab.w.kernelsPanel()->lastResult();
        int frames = 0;
        c = connect(sweep, &SweepControl::frameSettled, this, [&] { ++frames; });
        QVERIFY(sweep->play());
        QVERIFY(lab.w.kernelsPanel()->sweepNote()->isVisible());
        QVERIFY(lab.w.kernelsPanel()->sweepNote()->text().contains(QString::number(KernelsPanel::kSweepFollowMaxN)));
        QVERIFY(QTest::qWaitFor([&] { return frames >= 2; }, 120000));
        QCOMPARE(lab.w.kernelsPanel()->lastResult(), held);
        sweep->stop();
        disconnect(c);
        QVERIFY(!lab.w.kernelsPanel()->sweepNote()->isVisible());
        // Stopped: recomputed once with the value left.
        QVERIFY(QTest::qWaitFor([&] { return lab.w.isIdle() && lab.w.kernelsPanel()->lastResult() != held; }, 120000));
        QCOMPARE(kappaOf(lab.w.kernelsPanel()->lastResult()->request.settings), lab.stateKappa());
    }

    void pngSequenceHasOneFilePerFrame()
    {
        Lab lab;
        QVERIFY(lab.open());
        lab.setRange("0.5", "20", 4, SweepPlan::Spacing::Log);
        QTemporaryDir dir;
        const QString folder = dir.filePath("frames");
        SweepRecorder recorder;
        QSignalSpy done(&recorder, &SweepRecorder::finished);
        recorder.start(lab.sweep, lab.w.groupPanel()->densityChart(), SweepRecorder::Format::PngSequence, folder);
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 120000));
        QCOMPARE(done.at(0).at(1).toString(), QString());
        const QStringList written = done.at(0).at(0).toStringList();
        QCOMPARE(written.size(), 4);
        QCOMPARE(QDir(folder).entryList({"*.png"}, QDir::Files, QDir::Name),
                 (QStringList{"frame-000.png", "frame-001.png", "frame-002.png", "frame-003.png"}));
        std::vector<QImage> images;
        for (const QString& f : written) {
            images.emplace_back(f);
            QVERIFY2(!images.back().isNull(), qPrintable(f));
        }
        QVERIFY(images.front() != images.back());  // κ = 0.5 and κ = 20 draw different densities
        QCOMPARE(lab.stateKappa(), 20.0);          // the sweep ends on its last frame
        QVERIFY(!lab.sweep->isPlaying());
    }

    void gifHasOneImagePerFrame()
    {
        Lab lab;
        QVERIFY(lab.open());
        lab.setRange("1", "16", 5, SweepPlan::Spacing::Log, SweepPlan::Mode::Bounce, 200);
        lab.w.showPanel("orbits");
        QTemporaryDir dir;
        const QString path = dir.filePath("kappa.gif");
        SweepRecorder recorder;
        QSignalSpy done(&recorder, &SweepRecorder::finished);
        recorder.start(lab.sweep, lab.w.orbitsPanel()->gallery(), SweepRecorder::Format::Gif, path);
        QVERIFY(QTest::qWaitFor([&] { return done.count() == 1; }, 120000));
        QCOMPARE(done.at(0).at(1).toString(), QString());
        QCOMPARE(done.at(0).at(0).toStringList(), QStringList{path});
        QImageReader reader(path);  // Qt's own GIF decoder, not the library that wrote it
        QCOMPARE(reader.format(), QByteArray("gif"));
        QVERIFY(reader.supportsAnimation());
        QCOMPARE(reader.imageCount(), 5);
        std::vector<QImage> decoded;
        for (QImage img; reader.read(&img);)
            decoded.push_back(img);
        QCOMPARE(int(decoded.size()), 5);
        for (const QImage& img : decoded)
            QCOMPARE(img.size(), lab.w.orbitsPanel()->gallery()->size());
        QVERIFY(decoded.front() != decoded.back());  // κ = 1 and κ = 16: different orbits
    }

    void exportOfAnInvalidRangeWritesNothing()
    {
        Lab lab;
        QVERIFY(lab.open());
        lab.setRange("5", "-1", 4, SweepPlan::Spacing::Linear);
        QTemporaryDir dir;
        SweepRecorder recorder;
        QSignalSpy done(&recorder, &SweepRecorder::finished);
        recorder.start(lab.sweep, lab.w.groupPanel(), SweepRecorder::Format::Gif, dir.filePath("x.gif"));
        QCOMPARE(done.count(), 1);
        QVERIFY(done.at(0).at(1).toString().contains("to = -1"));
        QVERIFY(!QFile::exists(dir.filePath("x.gif")));
    }

    // The export dialog records one sweep control's frames; another group builds new controls and
    // the old one goes (a random-click run pressed Record after that and crashed on the dead control):
    // the dialog goes with its control.
    void theExportDialogGoesWithItsSweepControl()
    {
        Lab lab;
        QVERIFY(lab.open());
        emit lab.sweep->exportRequested();
        QPointer<QDialog> dialog;
        for (QDialog* d : lab.w.findChildren<QDialog*>())
            if (d->isVisible() && d->windowTitle().startsWith("Export the sweep"))
                dialog = d;
        QVERIFY(dialog);
        QPointer<SweepControl> sweep(lab.sweep);
        OrbitSettings s = lab.w.state()->orbitSettings();
        s.group = "translation";
        s.dist = DistributionParams::of("gaussian", orbit::GroupKind::Translation);
        lab.w.state()->setOrbitSettings(s);
        QTRY_VERIFY(sweep.isNull());  // the editor built the translation's controls
        QTRY_VERIFY(dialog.isNull() || !dialog->isVisible());
    }
};

QTEST_MAIN(TestSweep)
#include "test_sweep.moc"

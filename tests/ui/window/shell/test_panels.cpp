// The main window end to end, offscreen: loading a file updates every panel; a bad file shows
// an inline error and keeps the previous dataset; moving a parameter slider redraws the orbit
// gallery; a session saved from one window restores every setting in another; targets show their
// unit (summary, thumbnail captions) exactly when the data states one.
#include "state/LabState.hpp"
#include "state/workers/Tasks.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ImageGrid.hpp"
#include "widgets/FractionBar.hpp"
#include "widgets/ParameterControl.hpp"
#include "widgets/TaskProgress.hpp"
#include "window/data/DataPanel.hpp"
#include "window/data/ThumbnailModel.hpp"
#include "window/group/DistributionEditor.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"

#include "Screenshot.hpp"
#include "TestPaths.hpp"
#include "WindowFixture.hpp"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGraphicsEllipseItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QChartView>
#include <QLegend>
#include <QXYSeries>
#include <QLineSeries>
#include <QListView>
#include <QPushButton>
#include <QSlider>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QTest>
#include <QByteArray>
#include <QIODevice>
#include <QImage>
#include <QList>
#include <QObject>
#include <QPixmap>
#include <QSignalSpy>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <algorithm>
#include <memory>

using namespace orbitui;
using namespace orbittest;  // WindowFixture, loadAndSettle, digitsPng, g2Xyz

namespace {

/// Writes an IDX image file whose header promises 10 images of 28 x 28 but holds 100 bytes.
QString writeTruncatedIdx(const QTemporaryDir& dir)
{
    const QString path = dir.filePath("truncated-images-idx3-ubyte");
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    const unsigned char header[16] = {0, 0, 8, 3, 0, 0, 0, 10, 0, 0, 0, 28, 0, 0, 0, 28};
    f.write(reinterpret_cast<const char*>(header), 16);
    f.write(QByteArray(100, '\x7f'));
    return path;
}

} // namespace

class TestPanels : public QObject {
    Q_OBJECT
private slots:
    void loadingAFileUpdatesEveryPanel()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        const auto ds = w.state()->dataset();
        QVERIFY(ds);
        // Data panel: the thumbnails and the summary.
        QCOMPARE(w.dataPanel()->model()->rowCount(), int(ds->count()));
        QVERIFY(w.dataPanel()->summaryText().contains(QString::number(ds->count())));
        QVERIFY(w.dataPanel()->summaryText().contains("10 classes"));
        QVERIFY(!w.dataPanel()->hasError());
        // Group panel: the density of the default distribution was drawn.
        QVERIFY(w.groupPanel()->drawCount() >= 1);
        QVERIFY(!w.groupPanel()->hasError());
        // Orbits panel: a gallery of r copies of the selected input, and the 6-versus-9 embedding.
        auto result = w.orbitsPanel()->lastResult();
        QVERIFY(result);
        QCOMPARE(result->request.dataset.get(), ds.get());
        QCOMPARE(w.orbitsPanel()->gallery()->imageCount(), w.state()->orbitSettings().r);
        QCOMPARE(w.state()->embeddingInputs().size(), std::size_t(2));
        QCOMPARE(ds->labels[std::size_t(w.state()->embeddingInputs()[0])], 6);
        QCOMPARE(ds->labels[std::size_t(w.state()->embeddingInputs()[1])], 9);
        QCOMPARE(result->scores.rows(), Eigen::Index(2 * w.state()->orbitSettings().r));

        // Switching to molecules re-targets every panel: permutation group, heatmap gallery.
        QVERIFY(loadAndSettle(w, g2Xyz()));
        QCOMPARE(w.state()->dataset()->kind, orbit::DataKind::Coulomb);
        QCOMPARE(w.state()->orbitSettings().group, std::string("permutation"));
        QCOMPARE(w.dataPanel()->model()->rowCount(), int(w.state()->dataset()->count()));
        QCOMPARE(w.orbitsPanel()->lastResult()->request.dataset.get(), w.state()->dataset().get());
        QVERIFY(!w.orbitsPanel()->hasError());
        QVERIFY(!w.groupPanel()->hasError());
    }
    // The Group panel out of sight keeps the density that arrives (drawing a hidden chart's axes and
    // ticks cost the GUI thread 8-40 ms per result, issue 32) and draws the latest one when it is
    // shown, when its chart is asked for, or after its kept-draw delay, in a pass of its own: then the
    // chart holds what a panel in sight would have drawn.
    void aHiddenGroupPanelDrawsTheLatestDensityLater()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(loadAndSettle(w, digitsPng()));
        w.showPanel("data");
        GroupPanel* group = w.groupPanel();
        QLineSeries* density = group->densitySeries();  // drawn for the current setting
        const QList<QPointF> before = density->points();
        QVERIFY(!before.isEmpty());
        const int draws = group->drawCount();
        group->setKeptDrawDelay(600000);  // only shown or asked for
        // Sets κ and waits until its density is kept (not drawn: the series itself, no accessor asked).
        auto keepKappa = [&](double kappa) {
            OrbitSettings s = w.state()->orbitSettings();
            s.dist.setValue("kappa", kappa);
            w.state()->setOrbitSettings(s);
            return QTest::qWaitFor([&] {
                return group->keptResult() && group->keptResult()->request.settings.dist.value("kappa") == kappa;
            }, 60000);
        };
        QVERIFY(keepKappa(9.0));
        QVERIFY(keepKappa(11.0));  // two results while hidden: only the latest is drawn
        QVERIFY(!group->isIdle());
        QCOMPARE(density->points(), before);
        w.showPanel("group");
        QCOMPARE(group->drawCount(), draws + 1);
        QVERIFY(!group->keptResult());
        QVERIFY(group->isIdle());
        const auto shown = group->lastResult();
        QCOMPARE(shown->request.settings.dist.value("kappa"), 11.0);
        QCOMPARE(density->points(), shown->curve);
        QCOMPARE(group->densityAxisY()->max(), shown->yMax);
        // Asked for while hidden: drawn first.
        w.showPanel("data");
        QVERIFY(keepKappa(2.0));
        QCOMPARE(density->points(), shown->curve);
        QCOMPARE(group->lastResult()->request.settings.dist.value("kappa"), 2.0);
        QCOMPARE(density->points(), group->lastResult()->curve);
        // Kept past the delay: drawn while still hidden, and the window is idle only then.
        group->setKeptDrawDelay(20);
        OrbitSettings s = w.state()->orbitSettings();
        s.dist.setValue("kappa", 3.0);
        w.state()->setOrbitSettings(s);
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle(); }, 60000));
        QVERIFY(!group->keptResult());
        QVERIFY(!group->isVisible());
        QCOMPARE(group->lastResult()->request.settings.dist.value("kappa"), 3.0);
        QCOMPARE(density->points(), group->lastResult()->curve);
    }
    void targetsShowTheirUnitOnlyWhenTheDataStatesIt()
    {
        // resources/data/README.md says G2's `energy` is in kcal/mol; a copy of the file alone says nothing.
        WindowFixture fx;
        MainWindow& w = *fx.window;
        const QString bare = fx.dir.filePath("g2.extxyz");
        QVERIFY(QFile::copy(g2Xyz(), bare));
        for (const QString& path : {g2Xyz(), bare}) {
            const bool unit = path == g2Xyz();
            QVERIFY(loadAndSettle(w, path));
            const auto ds = w.state()->dataset();
            const auto [lo, hi] = std::minmax_element(ds->targets.begin(), ds->targets.end());
            const QString summary = w.dataPanel()->summaryText();
            const QString range = QString("from %1 to %2").arg(*lo, 0, 'f', 1).arg(*hi, 0, 'f', 1);
            QVERIFY2(summary.contains(range + (unit ? " kcal/mol" : " (mean")), qPrintable(summary));
            QCOMPARE(summary.contains("kcal/mol"), unit);
            // Thumbnail captions: the name, and the target with its unit on a second line.
            ThumbnailModel* model = w.dataPanel()->model();
            const QString caption = model->data(model->index(3), Qt::DisplayRole).toString();
            QVERIFY2(caption.startsWith(QString::fromStdString(ds->names[3])), qPrintable(caption));
            QVERIFY2(caption.contains(QString::number(ds->targets[3], 'f', 1)), qPrintable(caption));
            QCOMPARE(caption.endsWith(" kcal/mol"), unit);
            QCOMPARE(model->captionLines(), unit ? 2 : 1);
            // The grid cell is wide enough for the widest target line.
            QVERIFY(w.dataPanel()->view()->gridSize().width() >= model->captionWidth(w.dataPanel()->view()->fontMetrics()));
        }
    }
    void thumbnailsAreRenderedLazily()
    {
        WindowFixture fx;
        QVERIFY(loadAndSettle(*fx.window, digitsPng()));
        ThumbnailModel* model = fx.window->dataPanel()->model();
        // The window is not shown: no view asked for pictures, so none of the 5000 was rendered.
        QVERIFY(model->renderedCount() < 50);
        const QVariant pixmap = model->data(model->index(17), Qt::DecorationRole);
        QVERIFY(pixmap.value<QPixmap>().width() == model->thumbnailSize());
        QVERIFY(model->renderedCount() < 51);
    }
    void badFileShowsInlineErrorAndKeepsThePreviousDataset()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        const auto before = w.state()->dataset();
        const int draws = w.orbitsPanel()->drawCount();
        const QString bad = writeTruncatedIdx(fx.dir);
        QSignalSpy failed(w.dataPanel(), &DataPanel::loadFailed);
        w.session()->openData(bad);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(w.dataPanel()->hasError());
        const QString text = w.dataPanel()->errorText();
        QVERIFY2(text.contains("truncated-images-idx3-ubyte"), qPrintable(text));
        QVERIFY2(text.contains("digits.png"), qPrintable(text));  // says what is still shown
        QCOMPARE(w.state()->dataset().get(), before.get());
        QCOMPARE(w.state()->datasetPath(), digitsPng());
        QCOMPARE(w.dataPanel()->model()->rowCount(), int(before->count()));
        QCOMPARE(w.orbitsPanel()->drawCount(), draws);  // nothing recomputed from a broken file
        QVERIFY(!fx.settings->recentFiles().contains(bad));
        // The next good load clears the message.
        QVERIFY(loadAndSettle(w, g2Xyz()));
        QVERIFY(!w.dataPanel()->hasError());
    }
    void missingFileShowsInlineError()
    {
        WindowFixture fx;
        QSignalSpy failed(fx.window->dataPanel(), &DataPanel::loadFailed);
        fx.window->session()->openData(fx.dir.filePath("no-such-file.idx"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(fx.window->dataPanel()->errorText().contains("no-such-file.idx"));
        QVERIFY(!fx.window->state()->dataset());
    }
    // Fashion-MNIST (Debian package, MNIST file names) shows its class names wherever labels
    // appear: the summary, the thumbnails' captions and the orbit embedding's legend.
    void fashionMnistShowsClassNames()
    {
        const QString path = QString::fromStdString(orbittest::fashion("t10k-images-idx3-ubyte.gz"));
        if (!QFile::exists(path))
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, path));
        const QStringList names{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
        const QString summary = w.dataPanel()->summaryText();
        QVERIFY2(summary.contains("T-shirt/top") && summary.contains("Ankle boot"), qPrintable(summary));
        const auto ds = w.state()->dataset();
        for (int i : {0, 1, 2, 500}) {
            const QString caption = w.dataPanel()->model()->data(w.dataPanel()->model()->index(i, 0), Qt::DisplayRole).toString();
            QCOMPARE(caption, names[ds->labels[static_cast<std::size_t>(i)]]);
        }
        QTRY_VERIFY_WITH_TIMEOUT(w.orbitsPanel()->embeddingChart()->chart()->series().size() > 0, 30000);
        bool named = false;
        for (QAbstractSeries* s : w.orbitsPanel()->embeddingChart()->chart()->series())
            for (const QString& n : names) named = named || s->name().contains("(" + n.left(13));
        QVERIFY(named);
    }
    // Regression (random-click stalls of 50-80 ms, issue 32): Qt Charts' scatter series made one
    // scene item per point, laid out and painted one by one; the embedding's markers are now painted
    // by one ScatterLayer item, with the series' points kept, in presentation mode too.
    void theOrbitEmbeddingHasNoVisibleItemPerPoint()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        w.showPanel("orbits");
        ChartBox* box = w.orbitsPanel()->embeddingChart();
        QTRY_VERIFY_WITH_TIMEOUT(box->chart()->series().size() > 1 && w.isIdle(), 30000);
        const auto visibleMarkers = [box] {
            int n = 0;
            for (QGraphicsItem* item : box->view()->scene()->items())
                if ((item->type() == QGraphicsEllipseItem::Type || item->type() == QGraphicsRectItem::Type) && item->isVisible() &&
                    item->boundingRect().width() < 40.0 && !box->chart()->legend()->isAncestorOf(item))
                    ++n;
            return n;
        };
        qsizetype points = 0;
        for (QAbstractSeries* s : box->chart()->series())
            points += static_cast<QXYSeries*>(s)->count();
        QVERIFY(points > 64);
        QCOMPARE(visibleMarkers(), 0);
        w.presentationAction()->setChecked(true);  // new marker sizes: Qt Charts makes its items anew
        QTRY_VERIFY_WITH_TIMEOUT(w.isIdle(), 30000);
        QCOMPARE(visibleMarkers(), 0);
        w.presentationAction()->setChecked(false);
    }
    void movingASliderRedrawsTheOrbitGallery()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        ParameterControl* kappa = w.orbitsPanel()->editor()->parameterControl("rotation", "kappa");
        QVERIFY(kappa);
        const int draws = w.orbitsPanel()->drawCount();
        const int paints = w.orbitsPanel()->gallery()->paintCount();
        const auto before = w.orbitsPanel()->lastResult();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showPanel("orbits");
        // Drag the slider through several positions, as a hand would.
        for (int pos = 100; pos <= 700; pos += 100)
            kappa->slider()->setValue(pos);
        const ParameterInfo info = parametersOf("vonmises", "rotation").front();  // the registry's slider span
        const double expected = ParameterControl::toValue(700, info.sliderMinimum, info.sliderMaximum, info.logScale);
        QTRY_VERIFY_WITH_TIMEOUT(w.orbitsPanel()->lastResult() != before && w.isIdle(), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(w.orbitsPanel()->lastResult()->request.settings.dist.value("kappa"),
                                  kappa->spinBox()->value(), 30000);
        QVERIFY(std::abs(w.state()->orbitSettings().dist.value("kappa") - expected) < 1e-3);
        QVERIFY(w.orbitsPanel()->drawCount() > draws);
        QTRY_VERIFY(w.orbitsPanel()->gallery()->paintCount() > paints);
        // The other editor (group panel) follows the shared state.
        ParameterControl* other = w.groupPanel()->editor()->parameterControl("rotation", "kappa");
        QVERIFY(other);
        QCOMPARE(other->value(), kappa->value());
        // The copies differ from those drawn at the old kappa (same seed, same input).
        QVERIFY(!w.orbitsPanel()->lastResult()->gallery.isApprox(before->gallery));
    }
    void aLongOrbitShowsItsProgressAndCancelKeepsWhatIsDrawn()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showPanel("orbits");
        OrbitsPanel* orbits = w.orbitsPanel();
        QTRY_VERIFY_WITH_TIMEOUT(orbits->isIdle(), 30000);
        const auto before = orbits->lastResult();
        QVERIFY(before);
        QVERIFY(!orbits->progress()->isVisible());
        // 6000 Haar-random matrices of the digits' dimension: minutes of drawing if nobody stops it.
        OrbitSettings s = w.state()->orbitSettings();
        s.group = "orthogonal";
        s.groupValues["orthogonal.k"] = 6000;
        s.dist = DistributionParams::of("haar", orbit::GroupKind::Orthogonal);
        QSignalSpy status(orbits, &Panel::statusMessage);
        w.state()->setOrbitSettings(s);
        QTRY_VERIFY_WITH_TIMEOUT(orbits->progress()->isVisible(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(orbits->progress()->bar()->toolTip().contains("drawing orthogonal matrices"), 30000);
        QTRY_VERIFY(orbits->progress()->cancelButton()->isVisible());  // once it has run for a moment
        QVERIFY(orbittest::saveScreenshot(w, "orbits-cancel.png"));
        QTest::mouseClick(orbits->progress()->cancelButton(), Qt::LeftButton);
        // The drawing stops after the team of matrices under way, not after all 6000.
        QTRY_VERIFY_WITH_TIMEOUT(orbits->isIdle(), 60000);
        QVERIFY(!orbits->progress()->isVisible());
        QCOMPARE(orbits->lastResult(), before);  // the gallery and the embedding drawn stay
        QVERIFY(!orbits->hasError());
        bool said = false;
        for (const QList<QVariant>& message : status)
            said = said || message.at(0).toString().contains("Orbit cancelled");
        QVERIFY(said);
    }
    void sessionRestoresEverySettingInANewWindow()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("session.json");
        SessionState saved;
        {
            WindowFixture fx;
            MainWindow& w = *fx.window;
            QVERIFY(loadAndSettle(w, digitsPng()));
            OrbitSettings s = w.state()->orbitSettings();
            s.group = "affine";
            s.factorDists.at("rotation") = {"uniform", {{"a", 0.75}}};
            s.factorDists.at("translation") = {"gaussian", {{"sigma", 1.5}}};
            s.factorDists.at("scale") = {"lognormal", {{"mu", 0.1}, {"sigma", 0.2}}};
            s.r = 12;
            s.seed = 987654321987654321ull;
            w.state()->setOrbitSettings(s);
            w.state()->setSelectedIndex(1234);
            w.state()->setEmbeddingInputs({10, 2020, 4999});
            w.showPanel("group");
            QVERIFY(w.session()->saveFile(path));
            saved = w.session()->capture();
        }
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(w.session()->openFile(path));
        QTRY_VERIFY_WITH_TIMEOUT(w.state()->dataset() && w.isIdle(), 60000);
        const SessionState restored = w.session()->capture();
        QVERIFY(restored == saved);
        QCOMPARE(restored.orbit.seed, 987654321987654321ull);
        QCOMPARE(w.currentPanel()->name(), QString("group"));
        QCOMPARE(w.orbitsPanel()->lastResult()->request.index, 1234);
        QCOMPARE(w.orbitsPanel()->gallery()->imageCount(), 12);
    }
    void badSessionIsReportedInline()
    {
        WindowFixture fx;
        const QString path = fx.dir.filePath("broken.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format":"orbitlab-session","orbit":{"r":0}})");
        f.close();
        const OrbitSettings before = fx.window->state()->orbitSettings();
        QVERIFY(!fx.window->session()->openFile(path));
        QVERIFY(fx.window->currentPanel()->errorText().contains("orbit.r"));
        QVERIFY(fx.window->state()->orbitSettings() == before);
    }
    void chartsExportPngSvgAndCsv()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (ChartBox* box : {w.groupPanel()->densityChart(), w.orbitsPanel()->embeddingChart()}) {
            const QString base = fx.dir.filePath(box->chart()->title().isEmpty() ? "chart" : "c" + QString::number(quintptr(box)));
            QVERIFY(box->exportPng(base + ".png"));
            QVERIFY(QImage(base + ".png").width() > 100);
            QVERIFY(box->exportSvg(base + ".svg"));
            QFile svg(base + ".svg");
            QVERIFY(svg.open(QIODevice::ReadOnly));
            QVERIFY(svg.readAll().contains("<svg"));
            QVERIFY(box->exportCsv(base + ".csv"));
            QFile csv(base + ".csv");
            QVERIFY(csv.open(QIODevice::ReadOnly));
            const QList<QByteArray> lines = csv.readAll().split('\n');
            QCOMPARE(lines.front(), QByteArray("series,x,y"));
            QVERIFY(lines.size() > 10);
        }
        // The embedding CSV holds one row per orbit sample and input: 2 r + 2.
        const QString csv = w.orbitsPanel()->embeddingChart()->csv();
        QCOMPARE(csv.count('\n'), 1 + 2 * w.state()->orbitSettings().r + 2);
    }
};

QTEST_MAIN(TestPanels)
#include "test_panels.moc"

// The Kernels and Approximation panels and the invariance probe, offscreen on the bundled digits.
// Kernel matrices are symmetric and the Gaussian base kernel has k(x, x) = 1; the points come
// ordered by label; the approximation curves fill one point per (r, s) and Cancel keeps what was
// drawn; a stale result never replaces the latest; the panels' settings round-trip a session;
// the invariance probe of an invariant map stays closer to 1 than that of a plain one. Points ordered
// by target (G2) get numeric target ticks where their values fall and the unit in the axis captions;
// classes keep their class labels.
#include "render/SampleImage.hpp"
#include "state/AnalysisSettings.hpp"
#include "state/LabState.hpp"
#include "state/Session.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/Worker.hpp"
#include "widgets/AutoApplyControl.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/HeatmapView.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/data/DataPanel.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"

#include "orbit/data/Loaders.hpp"
#include "orbit/figures/ApproxError.hpp"
#include "orbit/util/Error.hpp"

#include "QuickSettings.hpp"
#include "Screenshot.hpp"
#include "TestPaths.hpp"
#include "WindowFixture.hpp"

#include <QApplication>
#include <QChart>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineSeries>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QByteArray>
#include <QIODevice>
#include <QImage>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>

#include <memory>
#include <numeric>

using namespace orbitui;
using namespace orbittest;  // WindowFixture, loadAndSettle, digitsPng, g2Xyz, smallKernels

namespace {

/// Points of every XY series of a chart.
std::vector<QList<QPointF>> seriesPoints(const ChartBox* box)
{
    std::vector<QList<QPointF>> out;
    for (QAbstractSeries* s : box->chart()->series())
        if (auto* xy = qobject_cast<QXYSeries*>(s))
            out.push_back(xy->points());
    return out;
}

/// Heatmaps of classes: each row and column labelled with its point's class name, no numeric ticks,
/// no axis captions.
void assertClassLabels(const KernelsPanel& panel, const orbit::Dataset& ds)
{
    const auto result = panel.lastResult();
    for (int m = 0; m < 4; ++m) {
        const HeatmapView* view = panel.heatmap(KernelsPanel::Matrix(m));
        QVERIFY(view->rowTicks().empty() && view->columnTicks().empty());
        QCOMPARE(view->rowLabels().size(), int(result->indices.size()));
        QCOMPARE(view->columnLabels(), view->rowLabels());
        for (int i = 0; i < view->rowLabels().size(); ++i)
            QCOMPARE(view->rowLabels()[i], sampleCaption(ds, result->indices[std::size_t(i)]));
        QCOMPARE(view->axisCaptions(), std::make_pair(QString(), QString()));
        QVERIFY2(!view->cellText(0, 1).contains("kcal"), qPrintable(view->cellText(0, 1)));
    }
}

/// Applies `k` and computes; true once the panel is idle with a result (of the current dataset: a
/// new dataset drops the last result).
bool computeAndSettle(KernelsPanel& panel, const KernelsSettings& k)
{
    panel.applySettings(k);
    panel.compute();
    return QTest::qWaitFor([&] { return panel.isIdle() && panel.lastResult(); }, 60000);
}

} // namespace

class TestKernelsPanels : public QObject {
    Q_OBJECT
private slots:
    void kernelHeatmapsAreSymmetricWithUnitBaseDiagonal()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        KernelsPanel* panel = w.kernelsPanel();
        panel->applySettings(smallKernels(40));
        // Auto-apply off: nothing computed for the new settings until asked (hidden or not, Panel::whenInSight).
        QVERIFY(!panel->lastResult() || panel->lastResult()->request.n != 40);
        QVERIFY(panel->isIdle());
        panel->compute();
        QVERIFY(QTest::qWaitFor([&] { return panel->isIdle() && panel->lastResult(); }, 60000));
        QVERIFY2(!panel->hasError(), qPrintable(panel->errorText()));
        const auto result = panel->lastResult();
        QCOMPARE(int(result->indices.size()), 40);
        // Ordered by label: class blocks.
        const auto ds = w.state()->dataset();
        for (std::size_t i = 1; i < result->indices.size(); ++i)
            QVERIFY(ds->labels[result->indices[i - 1]] <= ds->labels[result->indices[i]]);
        for (int m = 0; m < 4; ++m) {
            const Eigen::MatrixXd& M = panel->heatmap(KernelsPanel::Matrix(m))->matrix();
            QCOMPARE(M.rows(), Eigen::Index(40));
            QCOMPARE(M.cols(), Eigen::Index(40));
            // Symmetric up to float32 rounding (the base kernel and the features are float32
            // products); the Monte Carlo kernel is symmetric exactly (one value per pair).
            const double tolerance = m == KernelsPanel::Invariant ? 0.0 : 1e-5;
            QVERIFY2((M - M.transpose()).cwiseAbs().maxCoeff() <= tolerance, qPrintable(QString("matrix %1").arg(m)));
        }
        const Eigen::MatrixXd& base = panel->heatmap(KernelsPanel::Base)->matrix();
        // Gaussian: k(x, x) = 1, 0 < k(x, y) <= 1.
        QVERIFY((base.diagonal().array() - 1.0).abs().maxCoeff() < 1e-5);
        QVERIFY(base.minCoeff() > 0.0 && base.maxCoeff() <= 1.0 + 1e-5);
        // Averaging over the orbit lowers the self-similarity below the base kernel's 1.
        const Eigen::MatrixXd& inv = panel->heatmap(KernelsPanel::Invariant)->matrix();
        QVERIFY(inv.diagonal().maxCoeff() <= 1.0 + 1e-9);
        QVERIFY(inv.diagonal().minCoeff() < 1.0);
        // The difference is approximation minus invariant, and the summary states its size.
        const Eigen::MatrixXd& diff = panel->heatmap(KernelsPanel::Difference)->matrix();
        QVERIFY((diff - (result->approx - result->invariant)).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY(result->frobenius > 0.0);
        QVERIFY(panel->summaryText().contains(QString::number(result->frobenius, 'f', 3)));
        // Tooltip text: i, j, their labels, the value.
        const QString tip = panel->heatmap(KernelsPanel::Base)->cellText(0, 39);
        QVERIFY2(tip.contains("i = 0") && tip.contains("j = 39") && tip.contains("k = "), qPrintable(tip));

        // Exports: CSV with N rows of N values, .npy of N x N float32, the heatmap as PNG.
        const QString csv = fx.dir.filePath("k.csv"), npy = fx.dir.filePath("k.npy"), png = fx.dir.filePath("k.png");
        QCOMPARE(panel->exportMatrix(KernelsPanel::Invariant, csv), QString());
        QCOMPARE(panel->exportMatrix(KernelsPanel::Invariant, npy), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 40);
        QCOMPARE(lines.front().split(',').size(), 40);
        QCOMPARE(QFileInfo(npy).size() % 64, qint64((40 * 40 * 4) % 64));
        QVERIFY(QFileInfo(npy).size() >= 40 * 40 * 4);
        QVERIFY(panel->heatmap(KernelsPanel::Base)->exportPng(png));
        QVERIFY(QImage(png).width() > 50);
        QVERIFY(!panel->exportMatrix(KernelsPanel::Base, fx.dir.filePath("k.txt")).isEmpty());
        // The feature matrix psi: N rows of D values whose Gram matrix is the approximation.
        QCOMPARE(result->features.rows(), Eigen::Index(40));
        QVERIFY(((result->features.cast<double>() * result->features.cast<double>().transpose()) - result->approx)
                    .cwiseAbs()
                    .maxCoeff() < 1e-9);
        const QString fcsv = fx.dir.filePath("psi.csv");
        QCOMPARE(panel->exportFeatures(fcsv), QString());
        QFile ff(fcsv);
        QVERIFY(ff.open(QIODevice::ReadOnly));
        const QList<QByteArray> frows = ff.readAll().trimmed().split('\n');
        QCOMPARE(frows.size(), 40);
        QCOMPARE(frows.front().split(',').size(), int(result->features.cols()));
        QVERIFY(!panel->exportFeatures(fx.dir.filePath("psi.txt")).isEmpty());
    }

    void regressionHeatmapsGetTargetTicksWithTheUnit()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, g2Xyz()));
        QCOMPARE(w.state()->dataset()->targetUnit, std::string("kcal/mol"));  // stated by resources/data/README.md
        KernelsPanel* panel = w.kernelsPanel();
        QVERIFY(computeAndSettle(*panel, smallKernels(40)));
        QVERIFY2(!panel->hasError(), qPrintable(panel->errorText()));
        const auto result = panel->lastResult();
        const auto ds = w.state()->dataset();
        std::vector<double> targets;
        for (std::size_t i : result->indices)
            targets.push_back(ds->targets[i]);
        QVERIFY(std::is_sorted(targets.begin(), targets.end()));
        for (int m = 0; m < 4; ++m) {
            const HeatmapView* view = panel->heatmap(KernelsPanel::Matrix(m));
            for (const auto* ticks : {&view->rowTicks(), &view->columnTicks()}) {
                QVERIFY2(ticks->size() >= 3 && ticks->size() <= 6, qPrintable(QString::number(ticks->size())));
                for (const HeatmapView::AxisTick& t : *ticks) {
                    // Between the centres of the two points whose targets enclose the tick's value.
                    const auto k = std::size_t(std::clamp(std::floor(t.position - 0.5), 0.0, 38.0));
                    QVERIFY2(targets[k] <= t.value + 1e-9 && t.value <= targets[k + 1] + 1e-9,
                             qPrintable(QString("%1 at %2").arg(t.value).arg(t.position)));
                }
            }
            QCOMPARE(view->rowTicks().size(), view->columnTicks().size());
            // The unit where the axes are named, and in the tooltip's labels.
            QCOMPARE(view->axisCaptions(), std::make_pair(QString("target (kcal/mol)"), QString("target (kcal/mol)")));
        }
        const HeatmapView* base = panel->heatmap(KernelsPanel::Base);
        QVERIFY2(base->cellText(0, 1).contains("kcal/mol"), qPrintable(base->cellText(0, 1)));
        QVERIFY(w.dataPanel()->summaryText().contains("kcal/mol"));

        // Back to classes: the ticks go, the class labels return.
        QVERIFY(loadAndSettle(w, digitsPng()));
        QVERIFY(computeAndSettle(*panel, smallKernels(40)));
        QCOMPARE(panel->lastResult()->request.dataset, w.state()->dataset());
        assertClassLabels(*panel, *w.state()->dataset());
    }

    void classificationHeatmapsKeepClassLabels()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        QVERIFY(computeAndSettle(*w.kernelsPanel(), smallKernels(30)));
        assertClassLabels(*w.kernelsPanel(), *w.state()->dataset());
        QVERIFY(!w.dataPanel()->summaryText().contains("kcal/mol"));
    }

    // The one rule for hidden panels (Panel::whenInSight): auto-apply computes hidden or not; a
    // hidden panel keeps the draw until it is shown or the kept-draw delay passes.
    void autoApplyComputesHiddenOrNot()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        w.show();
        QVERIFY(loadAndSettle(w, digitsPng()));
        KernelsPanel* panel = w.kernelsPanel();
        panel->setKeptDrawDelay(600000);  // only shown or read
        KernelsSettings k = smallKernels(24);
        k.autoApply = true;
        panel->applySettings(k);
        QVERIFY(!panel->isVisible());
        QVERIFY(!panel->isIdle());  // scheduled though hidden
        QVERIFY(QTest::qWaitFor([&] { return !panel->runner()->busy() && panel->hasKeptDraws(); }, 60000));
        QVERIFY(!panel->isIdle());  // the kept draw
        QVERIFY(!panel->lastResult() || panel->lastResult()->request.n != 24);
        QVERIFY(w.showPanel("kernels"));
        QVERIFY(panel->isIdle());
        QCOMPARE(panel->lastResult()->request.n, 24);
        // A change recomputes by itself.
        k.n = 30;
        panel->applySettings(k);
        QVERIFY(!panel->isIdle());  // scheduled: a screenshot waits for it
        QVERIFY(QTest::qWaitFor([&] { return panel->isIdle() && panel->lastResult()->request.n == 30; }, 60000));
    }

    void staleKernelResultIsDropped()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        KernelsPanel* panel = w.kernelsPanel();
        panel->applySettings(smallKernels(60));
        panel->compute();
        panel->applySettings(smallKernels(20));
        panel->compute();
        QVERIFY(QTest::qWaitFor([&] { return panel->isIdle() && panel->lastResult(); }, 60000));
        QTest::qWait(200);  // let any late answer of the first request arrive
        QCOMPARE(panel->lastResult()->request.n, 20);
        QCOMPARE(panel->heatmap(KernelsPanel::Base)->matrix().rows(), Eigen::Index(20));
        QVERIFY(panel->runner()->droppedCount() >= 1);
    }

    void cancelStopsAKernelsComputeAndKeepsTheMatricesDrawn()
    {
        // A long Compute (N = 1000, r = 64) could not be stopped but by changing a setting: Cancel
        // (and Esc) stops it, the matrices drawn before stay, and nothing of the cancelled run arrives.
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        w.showPanel("kernels");
        KernelsPanel* panel = w.kernelsPanel();
        QVERIFY(computeAndSettle(*panel, smallKernels(20)));
        QVERIFY(!panel->cancelButton()->isVisibleTo(panel));
        panel->applySettings({.n = 1000, .r = 64, .s = 2000, .autoApply = false});
        QString step;
        const QMetaObject::Connection watch = QObject::connect(
            panel->runner(), &TaskRunner::progress, panel, [&](quint64, double, const QString& text) { step = text; });
        panel->compute();
        QVERIFY(!panel->isIdle());
        QTRY_VERIFY(panel->cancelButton()->isVisibleTo(panel));  // once it has run for a moment
        orbittest::saveScreenshot(w, "kernels-cancel.png");
        // Cancel inside the Monte Carlo kernel's pairs (minutes of work at this size): the core stops
        // there too, so the worker is free again within seconds (its answer arrives, dropped as stale),
        // not when the whole matrix is done; a quit would otherwise wait for it.
        QVERIFY2(QTest::qWaitFor([&] { return step.contains("pairs of points"); }, 60000), qPrintable(step));
        QObject::disconnect(watch);
        const int answered = panel->runner()->droppedCount();
        QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
        QVERIFY(panel->isIdle());
        QVERIFY(!panel->cancelButton()->isVisibleTo(panel));
        bool said = false;
        for (const QLabel* label : panel->findChildren<QLabel*>())
            said = said || label->text().contains("cancelled: press Compute");
        QVERIFY(said);
        QVERIFY2(QTest::qWaitFor([&] { return panel->runner()->droppedCount() > answered; }, 30000),
                 "the cancelled compute still runs on the worker after 30 s");
        QCOMPARE(panel->lastResult()->request.n, 20);
        QCOMPARE(panel->heatmap(KernelsPanel::Base)->matrix().rows(), Eigen::Index(20));
    }

    void approximationFillsOneCurvePerR()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        ApproximationPanel* panel = w.approximationPanel();
        panel->applySettings(manualApproximation(40, {8, 64}, {1, 4}));
        panel->compute();
        QVERIFY(QTest::qWaitFor([&] { return panel->isIdle(); }, 60000));
        QVERIFY2(!panel->hasError(), qPrintable(panel->errorText()));
        QCOMPARE(int(panel->rows().size()), 4);
        for (const ChartBox* chart : {panel->spectralChart(), panel->frobeniusChart()}) {
            const auto curves = seriesPoints(chart);
            QCOMPARE(int(curves.size()), 2);  // one per r
            for (const auto& points : curves) {
                QCOMPARE(points.size(), 2);   // one per s
                QCOMPARE(points[0].x(), 8.0);
                QCOMPARE(points[1].x(), 64.0);
                QVERIFY(points[0].y() > 0.0 && points[1].y() > 0.0);
            }
            QVERIFY(chart->csv().contains("\"r = 4\""));
        }
        // More features approximate better (averaged over r, Frobenius): the figure's message.
        double small = 0, large = 0;
        for (const auto& row : panel->rows())
            (row.s == 8 ? small : large) += row.frobenius;
        QVERIFY(large < small);
    }

    void cancelStopsARunAndKeepsItsCurves()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        ApproximationPanel* panel = w.approximationPanel();
        panel->applySettings(manualApproximation(60, {16, 64, 256, 512}, {1, 8, 32, 64, 128}));
        panel->compute();
        const int total = 20;
        QVERIFY(QTest::qWaitFor([&] { return !panel->rows().empty(); }, 60000));
        QVERIFY(!panel->isIdle());
        panel->cancel();
        QVERIFY(panel->isIdle());
        const int kept = int(panel->rows().size());
        QVERIFY(kept >= 1 && kept < total);
        QTest::qWait(1500);  // nothing of the cancelled run arrives later
        QCOMPARE(int(panel->rows().size()), kept);
        int drawn = 0;
        for (const auto& points : seriesPoints(panel->spectralChart()))
            drawn += int(points.size());
        QCOMPARE(drawn, kept);
        QVERIFY(!panel->hasError());
        QVERIFY(panel->statusText().contains("Cancelled"));
    }

    void rowCallbackMatchesAndCancels()
    {
        // The core overload behind the live curves: the same rows as the batch function, one
        // callback per row, and a Progress returning true stops it with orbit::Cancelled.
        const orbit::Dataset all = orbit::loadDataset(digitsPng().toStdString(), {});
        const orbit::Dataset d = all.subset(orbit::kernelPlotIndices(all, 30, 1));
        const orbit::FeatureContext c = orbit::makeFeatureContext(d, "rotation", "vonmises:kappa=1", "gaussian:median=1", 1);
        orbit::ApproxErrorConfig config;
        config.sList = {8, 32};
        config.rList = {2, 4};
        config.refR = 4;
        config.seed = 3;
        const auto batch = orbit::approximationError(d.X, c, config);
        std::vector<orbit::ApproxErrorRow> seen;
        const auto rows = orbit::approximationError(
            d.X, c, config, [&](const orbit::ApproxErrorRow& r) { seen.push_back(r); }, orbit::Progress{});
        QCOMPARE(rows.size(), batch.size());
        QCOMPARE(seen.size(), batch.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i].frobenius, batch[i].frobenius);
            QCOMPARE(seen[i].spectral, batch[i].spectral);
        }
        int calls = 0;
        bool cancelled = false;
        try {
            orbit::approximationError(
                d.X, c, config, [&](const orbit::ApproxErrorRow&) { ++calls; },
                [&](double, const std::string&) { return calls >= 1; });
        } catch (const orbit::Cancelled&) {
            cancelled = true;
        }
        QVERIFY(cancelled);
        QCOMPARE(calls, 1);
    }

    void sessionRoundTripsPanelSettings()
    {
        WindowFixture fx;
        KernelsSettings k;
        k.n = 77;
        k.r = 0;
        k.method = "gicdf";
        k.s = 33;
        k.bandwidth = 1.7;
        k.autoApply = false;
        ApproximationSettings a;
        a.n = 55;
        a.method = "nystrom";
        a.sList = {5, 50};
        a.rList = {2, 3, 7};
        a.refR = 9;
        a.repeats = 2;
        a.bandwidth = 0.8;
        a.autoApply = false;
        fx.window->kernelsPanel()->applySettings(k);
        fx.window->approximationPanel()->applySettings(a);
        const SessionState s = fx.window->session()->capture();
        QCOMPARE(s.part<KernelsSettings>(), k);
        QCOMPARE(s.part<ApproximationSettings>(), a);
        const QString path = fx.dir.filePath("session.json");
        QCOMPARE(saveSession(path, s), QString());
        QString error;
        const auto loaded = loadSession(path, &error);
        QVERIFY2(loaded, qPrintable(error));
        QCOMPARE(loaded->part<KernelsSettings>(), k);
        QCOMPARE(loaded->part<ApproximationSettings>(), a);
        WindowFixture other;
        other.window->session()->apply(*loaded);
        QCOMPARE(other.window->kernelsPanel()->settings(), k);
        QCOMPARE(other.window->approximationPanel()->settings(), a);

        // Malformed fields are named with their value.
        QJsonObject json = toJson(s);
        QJsonObject approx = json["approximation"].toObject();
        approx["s_list"] = QJsonArray{10, -3};
        json["approximation"] = approx;
        const QString negative = sessionRejection(json);
        QVERIFY2(negative.contains("approximation.s_list[1]") && negative.contains("-3"), qPrintable("message: " + negative));
        json = toJson(s);
        QJsonObject kernels = json["kernels"].toObject();
        kernels["method"] = "svd";
        json["kernels"] = kernels;
        QVERIFY_THROWS_EXCEPTION(orbit::SpecError, sessionFromJson(json));
    }

    void invarianceProbeCurveIsPresent()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        OrbitsPanel* orbits = w.orbitsPanel();
        QVERIFY(QTest::qWaitFor([&] { return orbits->lastProbe() != nullptr; }, 60000));
        const auto probe = orbits->lastProbe();
        const auto curves = seriesPoints(orbits->probeChart());
        QCOMPARE(int(curves.size()), 2);
        QCOMPARE(curves[0].size(), qsizetype(probe->values.size()));
        QVERIFY(probe->values.size() >= 10);
        // At the identity (theta = 0, the middle of the sweep) both maps give similarity 1.
        const std::size_t mid = probe->values.size() / 2;
        QVERIFY(std::abs(probe->values[mid]) < 1e-9);
        QVERIFY(std::abs(probe->invariantSimilarity[mid] - 1.0) < 1e-4);
        QVERIFY(std::abs(probe->plainSimilarity[mid] - 1.0) < 1e-4);
        // Over the whole sweep the invariant map stays closer to psi(x) than the plain one.
        const double inv = std::accumulate(probe->invariantSimilarity.begin(), probe->invariantSimilarity.end(), 0.0);
        const double plain = std::accumulate(probe->plainSimilarity.begin(), probe->plainSimilarity.end(), 0.0);
        QVERIFY2(inv > plain, qPrintable(QString("invariant %1, plain %2").arg(inv).arg(plain)));
    }
};

QTEST_MAIN(TestKernelsPanels)
#include "test_kernels_panels.moc"

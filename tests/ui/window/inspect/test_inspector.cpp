// The linked views, offscreen, through the real widgets. A click at the pixel centre of a Kernels
// heatmap cell opens the inspector on the two dataset rows behind it, with the values of the four
// matrices there; its curve k(g_t x_i, x_j) and best-aligning t* are those of `orbitlab-cli kernel
// --pair I,J` for the same settings and seed; on G2 (permutations) there is no curve and the
// inspector says why. A click on an Orbits embedding point makes its sample the current input of the
// Data grid, the Orbits panel and the inspector. A click on a confusion cell lists exactly the test
// samples of that cell: as many as it counts, each of the cell's true class.
#include "render/SampleImage.hpp"
#include "state/LabState.hpp"
#include "state/TrainingSettings.hpp"
#include "state/workers/InspectTask.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/Tasks.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ConfusionMatrixView.hpp"
#include "widgets/FractionBar.hpp"
#include "widgets/HeatmapView.hpp"
#include "widgets/TaskProgress.hpp"
#include "window/data/DataPanel.hpp"
#include "window/inspect/LinkedViews.hpp"
#include "window/inspect/SampleInspector.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/training/Experiment.hpp"

#include "CliRunner.hpp"
#include "QuickSettings.hpp"
#include "Screenshot.hpp"
#include "TestPaths.hpp"
#include "WindowFixture.hpp"

#include <QChart>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListView>
#include <QListWidget>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTest>
#include <QByteArray>
#include <QImage>
#include <QObject>
#include <QPoint>
#include <QPointF>
#include <QRect>
#include <QString>
#include <QTemporaryDir>

#include <cmath>
#include <set>

using namespace orbitui;
using namespace orbittest;

namespace {

/// Shows the window on `panel`, computes the Kernels matrices of n points and waits for them.
bool computeKernels(MainWindow& w, int n)
{
    w.resize(1400, 900);
    w.show();
    w.showPanel("kernels");
    KernelsPanel* k = w.kernelsPanel();
    k->applySettings(smallKernels(n));
    k->compute();
    return QTest::qWaitFor([&] { return k->lastResult() && k->isIdle() && w.isIdle(); }, 120000) &&
           QTest::qWaitForWindowExposed(&w);
}

QJsonObject parseJson(const std::string& text)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

} // namespace

class TestInspector : public QObject {
    Q_OBJECT
private slots:
    void kernelCellOpensThePairAndMatchesTheCli()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        QVERIFY(computeKernels(w, 30));
        const auto result = w.kernelsPanel()->lastResult();
        HeatmapView* view = w.kernelsPanel()->heatmap(KernelsPanel::Invariant);
        const int row = 4, column = 25;  // points ordered by label: two different classes
        const std::size_t i = result->indices[row], j = result->indices[column];
        const orbit::Dataset& ds = *w.state()->dataset();

        // Hover names both samples.
        const QString tip = view->cellText(row, column);
        QVERIFY2(tip.contains(QString("row i = %1: sample #%2 (%3)").arg(row).arg(i).arg(sampleCaption(ds, i))), qPrintable(tip));
        QVERIFY2(tip.contains(QString("column j = %1: sample #%2 (%3)").arg(column).arg(j).arg(sampleCaption(ds, j))), qPrintable(tip));

        SampleInspector* inspector = w.linkedViews()->inspector();
        QVERIFY(!w.linkedViews()->dock()->isVisible());
        QVERIFY(view->cellAt(view->cellCentre(row, column)) == std::make_optional(std::make_pair(row, column)));
        QTest::mouseClick(view, Qt::LeftButton, {}, view->cellCentre(row, column));
        // The click hands the orbits and the curve to the worker: the GUI thread draws them when they arrive.
        QVERIFY(!inspector->isIdle());
        QCOMPARE(inspector->list()->count(), 0);
        QVERIFY(QTest::qWaitFor([&] { return inspector->isIdle(); }, 60000));

        QVERIFY(w.linkedViews()->dock()->isVisible());
        QCOMPARE(inspector->mode(), SampleInspector::Mode::Pair);
        QCOMPARE(inspector->shownIndices(), (std::vector<int>{int(i), int(j)}));
        QVERIFY2(inspector->titleText().contains(QString("#%1").arg(i)) && inspector->titleText().contains(QString("#%1").arg(j)),
                 qPrintable(inspector->titleText()));
        QCOMPARE(inspector->list()->count(), 2);
        QVERIFY(view->markedCell() == std::make_optional(std::make_pair(row, column)));
        QCOMPARE(w.state()->selectedIndex(), int(i));  // the row's sample is the current input
        // The values of the three matrices at the cell, as the inspector writes them (4 digits).
        const QString values = inspector->valuesText();
        for (double v : {result->base(row, column), result->invariant(row, column), result->approx(row, column)})
            QVERIFY2(values.contains(QString::number(v, 'g', 4)), qPrintable(values + " lacks " + QString::number(v, 'g', 4)));

        // The curve: the CLI's for the same data, points, settings and seed.
        QVERIFY(inspector->curve().has_value());
        const orbit::KernelCurve& curve = *inspector->curve();
        QTemporaryDir dir;
        const OrbitSettings& s = result->request.settings;
        const CliResult cli = runCli({"kernel", "--data", digitsPng().toStdString(), "--n", "30", "--group", s.groupSpec(),
                                      "--dist", s.distSpec(), "--kernel", "gaussian:median=1", "--seed",
                                      std::to_string(s.seed), "--pair", std::to_string(i) + "," + std::to_string(j),
                                      "--out", dir.filePath("curve.csv").toStdString(), "--json"});
        QVERIFY2(cli.status == 0, cli.err.c_str());
        const QJsonObject json = parseJson(cli.out);
        QCOMPARE(json["kernel"].toString().toStdString(), result->kernelSpec);
        QVERIFY(json["rows"].toArray() == (QJsonArray{row, column}));
        QVERIFY(json["t_star"].toDouble() == curve.tStar());  // the same grid point, to the bit
        QCOMPARE(json["c_star"].toDouble(), curve.cStar());
        const QJsonArray c = json["c"].toArray(), q = json["q"].toArray();
        QCOMPARE(c.size(), qsizetype(curve.c.size()));
        for (qsizetype k = 0; k < c.size(); ++k) {
            QCOMPARE(c[k].toDouble(), curve.c[std::size_t(k)]);
            QCOMPARE(q[k].toDouble(), curve.q[std::size_t(k)]);
        }
        // k(x_i, x_j): the matrix's entry, which comes from one float32 product (the CLI's from the
        // direct difference): equal to float precision.
        QVERIFY2(std::abs(json["base"].toDouble() - result->base(row, column)) < 1e-6,
                 qPrintable(QString::number(json["base"].toDouble() - result->base(row, column))));
        QVERIFY2(inspector->valuesText().contains(QString::number(curve.tStar(), 'g', 4)), qPrintable(inspector->valuesText()));
        // The chart: c(t), q(t) under it, k_qG and t* drawn.
        QVERIFY(inspector->curveChart()->isVisible());
        QVERIFY(inspector->curveChart()->chart()->series().size() >= 4);
        QVERIFY(saveScreenshot(w, "inspector.png"));
    }

    // Permutations have no one-parameter path: values and orbits, no curve, and the reason; the
    // CLI refuses --pair on them with one line naming --group.
    void permutationHasNoCurve()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, g2Xyz()));
        QCOMPARE(w.state()->orbitSettings().group, std::string("permutation"));
        QVERIFY(computeKernels(w, 20));
        const auto result = w.kernelsPanel()->lastResult();
        HeatmapView* view = w.kernelsPanel()->heatmap(KernelsPanel::Base);
        QTest::mouseClick(view, Qt::LeftButton, {}, view->cellCentre(3, 11));
        QVERIFY(QTest::qWaitFor([&] { return w.linkedViews()->inspector()->isIdle(); }, 60000));  // the rows and the curve are the worker's
        SampleInspector* inspector = w.linkedViews()->inspector();
        QCOMPARE(inspector->mode(), SampleInspector::Mode::Pair);
        QCOMPARE(inspector->shownIndices(), (std::vector<int>{int(result->indices[3]), int(result->indices[11])}));
        QVERIFY(!inspector->curve().has_value());
        QVERIFY2(inspector->noCurveReason().contains("permutations"), qPrintable(inspector->noCurveReason()));
        QVERIFY(inspector->valuesText().contains("No curve over t"));
        QVERIFY(inspector->valuesText().contains(QString::number(result->invariant(3, 11), 'g', 4)));
        QVERIFY(!inspector->curveChart()->isVisible());
        QVERIFY(saveScreenshot(w, "inspector-g2.png"));

        QTemporaryDir dir;
        const CliResult cli = runCli({"kernel", "--data", g2Xyz().toStdString(), "--n", "20", "--group", "permutation",
                                      "--dist", "noisysort:sigma=1", "--pair", "0,1", "--out",
                                      dir.filePath("c.csv").toStdString()});
        QCOMPARE(cli.status, 2);
        QVERIFY2(cli.err.find("--group") != std::string::npos && cli.err.find("permutations") != std::string::npos,
                 cli.err.c_str());
    }

    // QM7: Coulomb matrices drawn as heatmaps in the strips, permutation orbits, no curve.
    void qm7PairShowsCoulombOrbits()
    {
        ORBIT_REQUIRE_QM7(qm7);
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, QString::fromStdString(qm7)));
        QVERIFY(computeKernels(w, 16));
        const auto result = w.kernelsPanel()->lastResult();
        HeatmapView* view = w.kernelsPanel()->heatmap(KernelsPanel::Approximation);
        QTest::mouseClick(view, Qt::LeftButton, {}, view->cellCentre(0, 15));
        QVERIFY(QTest::qWaitFor([&] { return w.linkedViews()->inspector()->isIdle(); }, 60000));  // the rows and the curve are the worker's
        SampleInspector* inspector = w.linkedViews()->inspector();
        QCOMPARE(inspector->shownIndices(), (std::vector<int>{int(result->indices[0]), int(result->indices[15])}));
        QVERIFY(!inspector->curve().has_value());
        QVERIFY(inspector->valuesText().contains(QString::number(result->approx(0, 15), 'g', 4)));
        // Each row: the matrix and SampleInspector::kCopies permuted copies, side by side.
        const QImage strip = orbitStrip(*w.state()->dataset(), w.state()->orbitSettings(),
                                                         int(result->indices[0]), SampleInspector::kCopies);
        QVERIFY(strip.width() > (SampleInspector::kCopies + 1) * strip.height());
        QVERIFY(saveScreenshot(w, "inspector-qm7.png"));
    }

    // A click on the marker of embedding input 1 makes it the current input: the Data grid's current
    // item, the Orbits panel's input and gallery, and the inspector.
    void embeddingPointSelectsEverywhere()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        w.resize(1400, 900);
        w.show();
        w.showPanel("orbits");
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        OrbitsPanel* orbits = w.orbitsPanel();
        QVERIFY(QTest::qWaitFor([&] { return orbits->lastResult() && orbits->isIdle(); }, 60000));
        const std::vector<int> inputs = orbits->lastResult()->request.embeddingInputs;
        QVERIFY(inputs.size() >= 2);
        const int target = inputs[1];
        QVERIFY(w.state()->selectedIndex() != target);

        ChartBox* box = orbits->embeddingChart();
        QChart* chart = box->chart();
        auto* markers = qobject_cast<QScatterSeries*>(chart->series().back());
        QVERIFY(markers);
        const QPointF inChart = chart->mapToPosition(markers->points()[1], markers);
        const QPoint inViewport = box->view()->mapFromScene(chart->mapToScene(inChart));
        QVERIFY(w.linkedViews()->embeddingPointAt(inChart) == std::make_optional(std::make_pair(1, -1)));
        QTest::mouseClick(box->view()->viewport(), Qt::LeftButton, {}, inViewport);

        QCOMPARE(w.state()->selectedIndex(), target);
        QCOMPARE(w.dataPanel()->view()->currentIndex().row(), target);
        SampleInspector* inspector = w.linkedViews()->inspector();
        QCOMPARE(inspector->mode(), SampleInspector::Mode::Sample);
        QCOMPARE(inspector->shownIndices(), std::vector<int>{target});
        QVERIFY(w.linkedViews()->dock()->isVisible());
        QVERIFY(QTest::qWaitFor([&] { return orbits->lastResult()->request.index == target && orbits->isIdle(); }, 60000));

        // And back: choosing another sample in the Data grid moves the inspector with it.
        w.state()->setSelectedIndex(inputs[0]);
        QCOMPARE(inspector->shownIndices(), std::vector<int>{inputs[0]});
        // Far from every point (a corner of the chart) nothing is hit.
        QVERIFY(!w.linkedViews()->embeddingPointAt(QPointF(1, 1), 2.0).has_value());
    }

    // The inspector's rows of an orthogonal set's orbit wait for its drawing: a bar and Cancel show
    // meanwhile, and Cancel stops the drawing (minutes for 6000 matrices) within a team of them.
    void cancelStopsTheInspectorsRowsAndKeepsItsTitle()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        SampleInspector inspector;
        inspector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&inspector));
        QVERIFY(!inspector.progress()->isVisible());
        OrbitSettings s = w.state()->orbitSettings();
        s.group = "orthogonal";
        s.groupValues["orthogonal.k"] = 6000;
        s.dist = DistributionParams::of("haar", orbit::GroupKind::Orthogonal);
        inspector.showSample(w.state()->dataset(), s, 7, "a test");
        QVERIFY(!inspector.isIdle());
        QTRY_VERIFY_WITH_TIMEOUT(inspector.progress()->bar()->toolTip().contains("drawing orthogonal matrices"), 30000);
        QTRY_VERIFY(inspector.progress()->cancelButton()->isVisible());  // once it has run for a moment
        inspector.resize(420, 700);
        QVERIFY(orbittest::saveScreenshot(inspector, "inspector-cancel.png"));
        const QString title = inspector.titleText();
        QTest::mouseClick(inspector.progress()->cancelButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(inspector.isIdle(), 60000);
        QVERIFY(!inspector.progress()->isVisible());
        QCOMPARE(inspector.titleText(), title);
        QVERIFY2(inspector.valuesText().contains("Cancelled"), qPrintable(inspector.valuesText()));
        QCOMPARE(inspector.list()->count(), 0);
    }

    // A confusion cell lists exactly its test samples: as many as the cell counts, each of the
    // true class, each a row of the seeded subset trained on, and over all cells every test sample once.
    void confusionCellListsItsSamples()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        w.resize(1400, 900);
        w.show();
        w.showPanel("training");
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TrainingPanel* training = w.trainingPanel();
        TrainingSettings s;
        s.preset = "rf";
        s.s = 60;  // few features: mistakes to list
        s.learner = "ridge";
        s.eval = "holdout";
        s.holdoutFraction = 0.5;
        s.lambdas = {1e-1};
        s.medians = {1.0};
        s.subset = 300;
        s.seed = 7;
        s.learningCurve = false;
        training->setSettings(s);
        const int before = training->drawCount();
        QVERIFY(training->run());
        QVERIFY(QTest::qWaitFor([&] { return training->drawCount() > before && training->isIdle(); }, 120000));
        const auto result = training->lastResult();
        const Eigen::MatrixXi& counts = result->result.confusion;
        int a = -1, b = -1;
        for (int x = 0; x < counts.rows() && a < 0; ++x)
            for (int y = 0; y < counts.cols(); ++y)
                if (x != y && counts(x, y) > 0) {
                    a = x;
                    b = y;
                    break;
                }
        QVERIFY2(a >= 0, "no misclassified sample to list");
        const orbit::Dataset& ds = *w.state()->dataset();
        const auto subset = orbit::subsetRows(ds.count(), 300, 7);
        const std::set<std::size_t> subsetSet(subset.begin(), subset.end());

        HeatmapView* heat = training->confusionView()->heatmap();
        QTest::mouseClick(heat, Qt::LeftButton, {}, heat->cellCentre(a, b));
        QVERIFY(QTest::qWaitFor([&] { return w.linkedViews()->inspector()->isIdle(); }, 60000));  // the rows and the curve are the worker's
        SampleInspector* inspector = w.linkedViews()->inspector();
        QCOMPARE(inspector->mode(), SampleInspector::Mode::Samples);
        const std::vector<int> listed = inspector->shownIndices();
        QCOMPARE(int(listed.size()), counts(a, b));
        QCOMPARE(inspector->list()->count(), counts(a, b));
        for (int index : listed) {
            QCOMPARE(ds.labels[std::size_t(index)], a);
            QVERIFY(subsetSet.count(std::size_t(index)));
        }
        QCOMPARE(std::set<int>(listed.begin(), listed.end()).size(), listed.size());
        QVERIFY2(inspector->titleText().contains("misclassified"), qPrintable(inspector->titleText()));
        QVERIFY(heat->markedCell() == std::make_optional(std::make_pair(a, b)));
        std::size_t all = 0;
        for (int x = 0; x < counts.rows(); ++x)
            for (int y = 0; y < counts.cols(); ++y) {
                QCOMPARE(int(w.linkedViews()->confusionSamples(x, y).size()), counts(x, y));
                all += std::size_t(counts(x, y));
            }
        QCOMPARE(all, result->result.predictions.size());
        QVERIFY(saveScreenshot(w, "inspector-confusion.png"));

        // Clicking a listed sample makes it the current input.
        QListWidgetItem* item = inspector->list()->item(0);
        inspector->list()->doItemsLayout();
        inspector->list()->scrollToItem(item);
        const QRect r = inspector->list()->visualItemRect(item);
        QTest::mouseClick(inspector->list()->viewport(), Qt::LeftButton, {}, r.center());
        QCOMPARE(w.state()->selectedIndex(), listed[0]);
    }
};

QTEST_MAIN(TestInspector)
#include "test_inspector.moc"

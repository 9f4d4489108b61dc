// The Training panel, offscreen, on a 300-sample subset of the bundled digits: a run fills the
// metrics table and the charts with numbers that agree with each other; Cancel stops a run and keeps
// the earlier results; a second Run drops the first request's answer; a failed run shows its error
// inline and keeps the results, and marks the control of the refused setting until it is edited;
// the panel's settings survive a session round trip; regression
// scores (G2) carry the targets' unit when the data states one.
#include "state/LabState.hpp"
#include "state/Session.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ConfusionMatrixView.hpp"
#include "widgets/FieldHighlight.hpp"
#include "widgets/HeatmapView.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include "PanelFixture.hpp"
#include "TestPaths.hpp"
#include "WindowFixture.hpp"

#include <QAbstractAxis>
#include <QChart>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QLineEdit>
#include <QLineSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QAbstractItemModel>
#include <QIODevice>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QSignalSpy>
#include <QString>

#include <cmath>
#include <memory>

using namespace orbitui;

namespace {

/// Fast settings: 300 digits, 200 random Fourier features, one hold-out split, two ridge strengths.
TrainingSettings fast()
{
    TrainingSettings s;
    s.preset = "rf";
    s.s = 200;
    s.learner = "ridge";
    s.eval = "holdout";
    s.holdoutFraction = 0.25;
    s.lambdas = {1e-3, 1e-1};
    s.medians = {1.0};
    s.subset = 300;
    s.learningCurve = true;
    s.seed = 7;
    return s;
}

/// A run that takes minutes unless cancelled: invariant features of all 5000 digits.
TrainingSettings slow()
{
    TrainingSettings s = fast();
    s.preset = "irf";
    s.s = 2000;
    s.r = 32;
    s.subset = 0;
    s.eval = "kfold";
    s.k = 5;
    s.medians = {0.5, 1.0, 2.0};
    return s;
}

using Fixture = orbittest::TrainingPanelFixture;  // the panel on the bundled digits

std::vector<QPointF> pointsOf(ChartBox* box, int series = 0)
{
    const auto list = box->chart()->series();
    if (series >= list.size())
        return {};
    const QList<QPointF> pts = qobject_cast<QXYSeries*>(list[series])->points();
    return {pts.begin(), pts.end()};
}

} // namespace

class TestTraining : public QObject {
    Q_OBJECT
private slots:
    void regressionScoresCarryTheTargetUnit()
    {
        // G2 (144 molecules): the README beside it states kcal/mol, so RMSE and MAE are in kcal/mol;
        // the same file without its README has no unit and none is written.
        QTemporaryDir bare;
        const QString copy = bare.filePath("g2.extxyz");
        QVERIFY(QFile::copy(QString::fromStdString(orbittest::source("resources/data/g2.extxyz")), copy));
        for (const QString& path : {QString::fromStdString(orbittest::source("resources/data/g2.extxyz")), copy}) {
            const auto g2 = std::make_shared<const orbit::Dataset>(orbit::loadDataset(path.toStdString(), {}));
            const bool unit = path != copy;
            QCOMPARE(g2->targetUnit, std::string(unit ? "kcal/mol" : ""));
            LabState state;
            TrainingPanel panel(&state);
            state.setDataset(g2, path);
            TrainingSettings s = fast();
            s.preset = "rf";
            s.subset = 0;
            s.lambdas = {1e-3, 1e-1};
            panel.setSettings(s);
            const int before = panel.drawCount();
            QVERIFY(panel.run());
            QVERIFY(QTest::qWaitFor([&] { return panel.drawCount() > before && panel.isIdle(); }, 120000));
            QVERIFY2(!panel.hasError(), qPrintable(panel.errorText()));
            QCOMPARE(panel.lastResult()->result.metric, std::string("rmse"));
            const QAbstractItemModel* table = panel.metricsTable()->model();
            QCOMPARE(table->headerData(1, Qt::Horizontal).toString(), unit ? QString("RMSE (kcal/mol)") : QString("RMSE"));
            QCOMPARE(table->headerData(2, Qt::Horizontal).toString(), unit ? QString("MAE (kcal/mol)") : QString("MAE"));
            const auto axes = panel.scoreChart()->chart()->axes(Qt::Vertical);
            QVERIFY(!axes.isEmpty());
            QCOMPARE(axes.front()->titleText().contains("kcal/mol"), unit);
            QCOMPARE(panel.learningCurveChart()->chart()->axes(Qt::Vertical).front()->titleText().contains("kcal/mol"), unit);
        }
    }
    void runFillsTheTableAndTheCharts()
    {
        Fixture fx;
        QVERIFY(!fx.panel.showsResults());  // the hint, not empty charts
        QVERIFY(fx.runAndSettle(fast()));
        QVERIFY(fx.panel.showsResults());
        QVERIFY(!fx.panel.hasError());
        const auto last = fx.panel.lastResult();
        QVERIFY(last);
        const orbit::TrainResult& r = last->result;
        QCOMPARE(last->samples, std::size_t(300));
        QCOMPARE(r.metric, std::string("accuracy"));
        QCOMPARE(r.folds.size(), std::size_t(1));
        // Ten classes: a learned classifier must beat guessing (accuracy 0.1) by far.
        QVERIFY2(r.mean > 0.5, qPrintable(QString::number(r.mean)));

        // Table: one row per fold and the mean row; the score column shows the fold's score.
        const QAbstractItemModel* table = fx.panel.metricsTable()->model();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->index(0, 1).data().toString(), QString::number(r.folds[0].score, 'f', 3));
        QVERIFY(table->index(1, 0).data().toString().contains("mean"));
        QVERIFY(table->index(0, table->columnCount() - 1).data().toString().contains("λ"));

        // Score chart: one point per λ of the grid, at the λ values.
        const auto score = pointsOf(fx.panel.scoreChart());
        QCOMPARE(score.size(), std::size_t(2));
        QCOMPARE(score[0].x(), 1e-3);
        QCOMPARE(score[1].x(), 1e-1);
        for (const QPointF& p : score)
            QVERIFY(p.y() >= 0.0 && p.y() <= 1.0);

        // Confusion matrix: 10 x 10, one count per test sample (25 % of 300, rounded per class by the
        // stratified split: within 5 of 75), its diagonal share is the accuracy.
        const Eigen::MatrixXi& m = fx.panel.confusionView()->matrix();
        QCOMPARE(m.rows(), Eigen::Index(10));
        QVERIFY2(std::abs(m.sum() - 75) <= 5, qPrintable(QString::number(m.sum())));
        QVERIFY(std::abs(double(m.diagonal().sum()) / m.sum() - r.folds[0].score) < 1e-9);
        QVERIFY(fx.panel.confusionView()->cellText(3, 3).startsWith("true 3, predicted 3"));
        // The heatmap shows the counts themselves (values in cells, the view's tooltip), and the
        // exports write them: CSV one row per cell, SVG a vector picture.
        const HeatmapView* heat = fx.panel.confusionView()->heatmap();
        QVERIFY(heat->matrix() == m.cast<double>());
        QCOMPARE(heat->cellText(3, 3), fx.panel.confusionView()->cellText(3, 3));
        QTemporaryDir dir;
        QVERIFY(fx.panel.confusionView()->exportCsv(dir.filePath("c.csv")));
        QFile csv(dir.filePath("c.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), qsizetype(1 + 100));
        fx.panel.confusionView()->resize(400, 400);
        QVERIFY(fx.panel.confusionView()->exportSvg(dir.filePath("c.svg")));
        QFile svg(dir.filePath("c.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));

        // Learning curve: four nested training sizes, growing.
        const auto curve = pointsOf(fx.panel.learningCurveChart());
        QCOMPARE(curve.size(), std::size_t(4));
        for (std::size_t i = 1; i < curve.size(); ++i)
            QVERIFY(curve[i].x() > curve[i - 1].x());
    }

    void blrWithALocalitySweepPlotsEvidenceNextToAccuracy()
    {
        Fixture fx;
        TrainingSettings s = fast();
        s.preset = "irf";
        s.s = 150;
        s.r = 4;
        s.learner = "blr";
        s.localityAxis = "kappa";
        s.locality = {0.1, 10.0};
        s.learningCurve = false;
        QVERIFY(fx.runAndSettle(s));
        QVERIFY2(!fx.panel.hasError(), qPrintable(fx.panel.errorText()));
        const AxisCurve& curve = fx.panel.lastResult()->curve;
        QCOMPARE(curve.axis, std::string("kappa"));
        QVERIFY(curve.hasEvidence());
        // Two series over κ: validation accuracy (left axis) and log evidence (right axis).
        const auto series = fx.panel.scoreChart()->chart()->series();
        QCOMPARE(series.size(), 2);
        QCOMPARE(fx.panel.scoreChart()->chart()->axes(Qt::Vertical).size(), 2);
        const auto evidence = pointsOf(fx.panel.scoreChart(), 1);
        QCOMPARE(evidence.size(), std::size_t(2));
        QCOMPARE(evidence[0].x(), 0.1);
        QCOMPARE(evidence[1].x(), 10.0);
        QVERIFY(fx.panel.metricsTable()->model()->headerData(2, Qt::Horizontal).toString().contains("evidence"));
        // Without a learning curve the chart says why it is empty.
        QVERIFY(pointsOf(fx.panel.learningCurveChart()).empty());
    }

    void curveAlongAnAxisIsTheBestOverTheOtherAxes()
    {
        orbit::TrainResult r;
        r.metric = "accuracy";
        const double nan = std::nan("");
        r.grid = {{{{"kappa", 0.1}, {"lambda", 1.0}}, 0.6, -50.0},
                  {{{"kappa", 0.1}, {"lambda", 2.0}}, 0.7, -60.0},
                  {{{"kappa", 1.0}, {"lambda", 1.0}}, 0.9, -40.0},
                  {{{"kappa", 1.0}, {"lambda", 2.0}}, 0.8, -45.0}};
        AxisCurve c = curveAlong(r, "kappa");
        QCOMPARE(c.x, (std::vector<double>{0.1, 1.0}));
        QCOMPARE(c.validation, (std::vector<double>{0.7, 0.9}));
        QCOMPARE(c.logEvidence, (std::vector<double>{-50.0, -40.0}));
        r.metric = "rmse";  // lower is better
        c = curveAlong(r, "lambda");
        QCOMPARE(c.validation, (std::vector<double>{0.6, 0.7}));
        for (auto& row : r.grid)
            row.logEvidence = nan;
        QVERIFY(!curveAlong(r, "kappa").hasEvidence());
        QCOMPARE(chooseMainAxis(r, "kappa"), std::string("kappa"));
        QCOMPARE(chooseMainAxis(r, ""), std::string("lambda"));
    }

    void cancelStopsARunAndKeepsTheEarlierResults()
    {
        Fixture fx;
        QVERIFY(fx.runAndSettle(fast()));
        const auto first = fx.panel.lastResult();
        const int rows = fx.panel.metricsTable()->model()->rowCount();
        const QString score = fx.panel.metricsTable()->model()->index(0, 1).data().toString();

        fx.panel.setSettings(slow());
        QSignalSpy progress(fx.panel.runner(), &TaskRunner::progress);
        QVERIFY(fx.panel.run());
        QVERIFY(!fx.panel.isIdle());
        QVERIFY(QTest::qWaitFor([&] { return progress.count() >= 2; }, 60000));  // really running
        QVERIFY2(fx.panel.statusText().contains("elapsed"), qPrintable(fx.panel.statusText()));  // progress shown
        const int dropped = fx.panel.runner()->droppedCount();
        QElapsedTimer clock;  // reported, not asserted
        clock.start();
        fx.panel.cancel();
        QVERIFY(fx.panel.isIdle());
        QVERIFY(fx.panel.statusText().contains("Cancelled"));
        // The worker gives up the cancelled run at its next progress report (its answer is
        // dropped); unstopped, this run would take minutes.
        QVERIFY(QTest::qWaitFor([&] { return fx.panel.runner()->droppedCount() > dropped; }, 60000));
        qInfo("the worker left the cancelled run %lld ms after Cancel", static_cast<long long>(clock.elapsed()));
        QCOMPARE(fx.panel.lastResult(), first);
        QCOMPARE(fx.panel.drawCount(), 1);
        QCOMPARE(fx.panel.metricsTable()->model()->rowCount(), rows);
        QCOMPARE(fx.panel.metricsTable()->model()->index(0, 1).data().toString(), score);
        QVERIFY(fx.panel.showsResults());
        QVERIFY(!fx.panel.hasError());
    }

    void ctrlRRunsAndEscapeCancels()
    {
        Fixture fx;
        fx.panel.setSettings(slow());
        fx.panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&fx.panel));
        QTest::keyClick(&fx.panel, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(!fx.panel.isIdle());
        QTest::keyClick(&fx.panel, Qt::Key_Escape);
        QVERIFY(fx.panel.isIdle());
        QVERIFY(fx.panel.statusText().contains("Cancelled"));
        QCOMPARE(fx.panel.drawCount(), 0);
        fx.panel.hide();  // hidden, the panel leaves the keys to the others
        QTest::keyClick(&fx.panel, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(fx.panel.isIdle());
    }

    void aSecondRunDropsTheFirstRunsResult()
    {
        Fixture fx;
        TrainingSettings a = fast(), b = fast();
        a.seed = 1;
        b.seed = 2;
        fx.panel.setSettings(a);
        QVERIFY(fx.panel.run());
        fx.panel.setSettings(b);
        QVERIFY(fx.panel.run());
        QVERIFY(QTest::qWaitFor([&] { return fx.panel.drawCount() > 0 && fx.panel.isIdle(); }, 120000));
        QTest::qWait(200);  // an answer of the first request would arrive by now
        QCOMPARE(fx.panel.drawCount(), 1);
        QCOMPARE(fx.panel.lastResult()->request.config.seed, std::uint64_t(2));
        QVERIFY(fx.panel.runner()->droppedCount() >= 1);
    }

    void aFailedRunShowsItsErrorAndKeepsTheResults()
    {
        Fixture fx;
        QVERIFY(fx.runAndSettle(fast()));
        const auto first = fx.panel.lastResult();
        // A features spec the core rejects: the worker fails, the message names the field and value.
        fx.panel.specEdit()->setText("rf:s=oops");
        QSignalSpy failed(fx.panel.runner(), &TaskRunner::failed);
        QVERIFY(fx.panel.run());
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
        QVERIFY(fx.panel.hasError());
        QVERIFY2(fx.panel.errorText().contains("features rf.s"), qPrintable(fx.panel.errorText()));
        QVERIFY2(!fx.panel.errorText().contains("--"), qPrintable(fx.panel.errorText()));  // no flag in the GUI
        QVERIFY2(fx.panel.errorText().contains("oops"), qPrintable(fx.panel.errorText()));
        QVERIFY(fx.panel.errorText().contains("previous run"));
        QCOMPARE(fx.panel.lastResult(), first);
        QCOMPARE(fx.panel.metricsTable()->model()->rowCount(), 2);
        QVERIFY(fx.panel.showsResults());

        // A list that does not parse is refused before any work, naming the list and the entry.
        auto* lambdas = fx.panel.findChild<QLineEdit*>("lambdas");
        QVERIFY(lambdas);
        lambdas->setText("1e-3, abc");
        fx.panel.specEdit()->setText("rf:s=200");
        QVERIFY(!fx.panel.run());
        QVERIFY(fx.panel.errorText().contains("λ list"));
        QVERIFY(fx.panel.errorText().contains("abc"));
        QVERIFY(fx.panel.isIdle());
        QCOMPARE(fx.panel.lastResult(), first);
        // The next good run clears the message.
        lambdas->setText("0.01");
        QVERIFY(fx.panel.run());
        QVERIFY(QTest::qWaitFor([&] { return fx.panel.drawCount() == 2 && fx.panel.isIdle(); }, 120000));
        QVERIFY(!fx.panel.hasError());
    }

    // A setting the core refuses marks the control that sets it: a red frame and the message in its
    // tooltip, until the user edits that control. The banner shows the message as before.
    void aRefusedSettingMarksItsControl()
    {
        Fixture fx;
        fx.panel.setSettings(fast());
        auto* lambdas = fx.panel.findChild<QLineEdit*>("lambdas");
        QLineEdit* spec = fx.panel.specEdit();
        QVERIFY(lambdas);
        const QString lambdasTip = lambdas->toolTip();
        // Refused before any work: a grid value out of range, the core's field "grid lambda".
        lambdas->setText("-1");
        QVERIFY(!fx.panel.run());
        QVERIFY2(fx.panel.errorText().contains("grid lambda") && fx.panel.errorText().contains("-1"),
                 qPrintable(fx.panel.errorText()));
        QVERIFY(FieldHighlight::isMarked(lambdas));
        QVERIFY(!FieldHighlight::isMarked(spec));
        QVERIFY2(lambdas->toolTip().contains("grid lambda"), qPrintable(lambdas->toolTip()));
        QVERIFY(lambdas->styleSheet().contains(FieldHighlight::kProperty));

        // Editing the control clears its mark and gives its tooltip back.
        lambdas->setText("0.01");
        QVERIFY(!FieldHighlight::isMarked(lambdas));
        QCOMPARE(lambdas->toolTip(), lambdasTip);
        QVERIFY(lambdas->styleSheet().isEmpty());

        // Refused by the worker: the failure carries the field, the panel marks the spec line.
        spec->setText("rf:s=oops");
        QSignalSpy failed(fx.panel.runner(), &TaskRunner::failed);
        QVERIFY(fx.panel.run());
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
        QCOMPARE(failed[0][2].toString(), QString("features rf.s"));
        QVERIFY(FieldHighlight::isMarked(spec));
        QVERIFY(!FieldHighlight::isMarked(lambdas));
        QVERIFY2(spec->toolTip().contains("oops"), qPrintable(spec->toolTip()));
        QTest::keyClick(spec, Qt::Key_Backspace);  // the user edits the spec
        QVERIFY(!FieldHighlight::isMarked(spec));

        // A mark that stays until the next good run: the run clears it with the banner.
        spec->setText("rf:s=oops");
        QVERIFY(fx.panel.run());
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, 60000);
        QVERIFY(FieldHighlight::isMarked(spec));
        fx.panel.setSettings(fast());  // a session's settings replace the refused text
        QVERIFY(!FieldHighlight::isMarked(spec));
        QVERIFY(fx.panel.run());
        QVERIFY(QTest::qWaitFor([&] { return fx.panel.drawCount() == 1 && fx.panel.isIdle(); }, 120000));
        QVERIFY(!fx.panel.hasError());
    }

    void sessionRoundTripsTheTrainingSettings()
    {
        TrainingSettings t;
        t.preset = "inystrom";
        t.s = 321;
        t.r = 7;
        t.spec = "inystrom:s=321,r=7,landmarks=kmeans";
        t.learner = "svm";
        t.eval = "kfold";
        t.k = 4;
        t.holdoutFraction = 0.3;
        t.lambdas = {1e-5, 0.5};
        t.costs = {2.0};
        t.medians = {0.25, 4.0};
        t.localityAxis.clear();  // the default sweeps kappa
        t.locality = {0.05, 0.2, 5.0};
        t.subset = 777;
        t.learningCurve = false;
        t.seed = 4242;

        // JSON (with a seed beyond 2^53, which only a decimal string keeps).
        SessionState s;
        s.training = t;
        s.training.seed = 18446744073709551557ull;
        QVERIFY(sessionFromJson(toJson(s)) == s);

        // Widgets: what is set is what is read back.
        LabState state;
        TrainingPanel panel(&state);
        panel.setSettings(t);
        QVERIFY(panel.settings() == t);

        // Through a session file between two windows.
        QTemporaryDir dir;
        const QString path = dir.filePath("session.json");
        Settings settingsA(dir.filePath("a.ini")), settingsB(dir.filePath("b.ini"));
        {
            MainWindow w(&settingsA, false);
            w.trainingPanel()->setSettings(t);
            QVERIFY(w.session()->saveFile(path));
        }
        MainWindow w(&settingsB, false);
        QVERIFY(w.session()->openFile(path));
        QVERIFY(w.session()->capture().training == t);

        // Malformed fields are named with the offending value.
        QJsonObject json = toJson(s);
        QJsonObject training = json["training"].toObject();
        training["subset"] = -3;
        json["training"] = training;
        const QString negative = orbittest::sessionRejection(json);
        QVERIFY2(negative.contains("training.subset") && negative.contains("-3"), qPrintable("message: " + negative));
        training["subset"] = 10;
        training["lambda"] = QJsonArray{0.1, "x"};
        json["training"] = training;
        const QString notANumber = orbittest::sessionRejection(json);
        QVERIFY2(notANumber.contains("training.lambda[1]"), qPrintable("message: " + notANumber));
    }
};

QTEST_MAIN(TestTraining)
#include "test_training.moc"

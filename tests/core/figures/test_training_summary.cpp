// The Training panel's summary row and score curve in core (TrainingSummary.hpp), and the seeded
// subset the panel and `train --n` share.
#include "orbit/data/Loaders.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/figures/TrainingSummary.hpp"

#include "TestPaths.hpp"

#include <QTest>
#include <QObject>

#include <cmath>
#include <set>

using namespace orbit;

namespace {

FoldResult fold(double score, double mae, double evidence, double seconds)
{
    FoldResult f;
    f.score = score;
    f.mae = mae;
    f.logEvidence = evidence;
    f.seconds = seconds;
    return f;
}

} // namespace

class TestTrainingSummary : public QObject {
    Q_OBJECT
private slots:
    // Every column of the summary row: mean and population standard deviation over the folds,
    // the score's being the result's own mean and stddev.
    void foldStatisticsAreMeanAndSpread()
    {
        TrainResult r;
        r.metric = "rmse";
        r.folds = {fold(2.0, 1.0, -10.0, 1.0), fold(4.0, 3.0, -14.0, 2.0), fold(6.0, 2.0, -12.0, 6.0)};
        r.mean = 4.0;
        r.stddev = std::sqrt(8.0 / 3.0);
        r.mae = 2.0;
        r.logEvidence = -12.0;
        const FoldSummary s = summarizeFolds(r);
        QCOMPARE(s.folds, 3);
        QCOMPARE(s.score.mean, 4.0);
        QCOMPARE(s.score.sd, r.stddev);
        QVERIFY(s.hasMae && s.hasEvidence);
        QCOMPARE(s.mae.mean, 2.0);
        QVERIFY(std::abs(s.mae.sd - std::sqrt(2.0 / 3.0)) < 1e-15);  // deviations -1, 1, 0
        QVERIFY(std::abs(s.logEvidence.sd - std::sqrt(8.0 / 3.0)) < 1e-15);
        QCOMPARE(s.seconds, 3.0);

        r.metric = "accuracy";
        r.logEvidence.reset();
        const FoldSummary c = summarizeFolds(r);
        QVERIFY(!c.hasMae && !c.hasEvidence);
        QCOMPARE(c.mae.sd, 0.0);
    }

    // With a real run: the summary agrees with the TrainResult the CLI prints.
    void agreesWithATrainingRun()
    {
        LoadOptions o;
        o.limit = 300;
        const Dataset d = loadDataset(orbittest::bundledFile("digits.png"), o);
        TrainConfig c;
        c.features = "rf:s=60";
        c.kernel = "gaussian:median=1";
        c.eval = "kfold:3";
        c.grid = {{"lambda", {1e-3, 1e-1}}};
        const TrainResult r = train(d, c);
        const FoldSummary s = summarizeFolds(r);
        QCOMPARE(s.folds, 3);
        QCOMPARE(s.score.mean, r.mean);
        QCOMPARE(s.score.sd, r.stddev);
        double seconds = 0;
        for (const FoldResult& f : r.folds) seconds += f.seconds;
        QVERIFY(std::abs(s.seconds - seconds / 3) < 1e-12);
        const AxisCurve curve = curveAlong(r, chooseMainAxis(r));
        QCOMPARE(curve.axis, std::string("lambda"));
        QCOMPARE(curve.x, (std::vector<double>{1e-3, 1e-1}));
        QVERIFY(!curve.hasEvidence());
    }

    // At each value of the plotted axis, the best validation score over the other axes.
    void curveIsTheBestOverTheOtherAxes()
    {
        TrainResult r;
        r.metric = "rmse";
        r.grid = {{{{"kappa", 0.1}, {"lambda", 1.0}}, 3.0, -50.0},
                  {{{"kappa", 0.1}, {"lambda", 2.0}}, 2.0, -60.0},
                  {{{"kappa", 1.0}, {"lambda", 1.0}}, 1.0, -40.0},
                  {{{"kappa", 1.0}, {"lambda", 2.0}}, 5.0, -45.0}};
        const AxisCurve c = curveAlong(r, "kappa");
        QCOMPARE(c.validation, (std::vector<double>{2.0, 1.0}));  // lower RMSE is better
        QCOMPARE(c.logEvidence, (std::vector<double>{-50.0, -40.0}));
        QVERIFY(curveAlong(r, "C").x.empty());
        QCOMPARE(chooseMainAxis(r, "kappa"), std::string("kappa"));
        QCOMPARE(chooseMainAxis(r, "nothere"), std::string("lambda"));
        QVERIFY(chooseMainAxis(TrainResult{}).empty());
    }

    // The seeded subset: n distinct rows in ascending order, the rows prepareDataset keeps.
    void subsetRowsArePrepareDatasetsRows()
    {
        const auto rows = subsetRows(1000, 37, 11);
        QCOMPARE(int(rows.size()), 37);
        QVERIFY(std::is_sorted(rows.begin(), rows.end()));
        QCOMPARE(int(std::set<std::size_t>(rows.begin(), rows.end()).size()), 37);
        QVERIFY(rows != subsetRows(1000, 37, 12));
        QCOMPARE(subsetRows(5, 9, 0), (Indices{0, 1, 2, 3, 4}));
        LoadOptions o;
        o.limit = 200;
        const Dataset d = loadDataset(orbittest::bundledFile("digits.png"), o);
        const Dataset prepared = prepareDataset(d, 37, false, 28, 11);
        const Dataset mine = d.subset(subsetRows(d.count(), 37, 11));
        QCOMPARE(prepared.X, mine.X);
        QCOMPARE(prepared.labels, mine.labels);
    }
};

QTEST_APPLESS_MAIN(TestTrainingSummary)
#include "test_training_summary.moc"

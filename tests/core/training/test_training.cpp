// The training engine: grid search on inner validation splits, refit, scores (Training.hpp).
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <Eigen/Dense>
#include <QTest>
#include <QObject>
#include <QString>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace orbit;

namespace {

/// y = <w, x> + 0.1 noise, x ~ N(0, I_d).
Dataset linearRegression(int n, int d, std::uint64_t seed)
{
    Dataset ds;
    ds.shape = Shape{1, d, 1};
    ds.X.resize(n, d);
    Rng rng = makeRng(seed);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < d; ++j) ds.X(i, j) = float(standardNormal(rng));
    for (int i = 0; i < n; ++i) {
        double y = 0;
        for (int j = 0; j < d; ++j) y += (j + 1) * double(ds.X(i, j));
        ds.targets.push_back(y + 0.1 * standardNormal(rng));
    }
    return ds;
}

/// 60 random 28 x 28 images in three classes (a rotation group acts on them).
Dataset randomImages(std::uint64_t seed)
{
    Dataset ds;
    ds.kind = DataKind::Images;
    ds.shape = Shape{28, 28, 1};
    ds.numClasses = 3;
    ds.X.resize(60, 28 * 28);
    Rng rng = makeRng(seed);
    for (Eigen::Index i = 0; i < ds.X.rows(); ++i) {
        for (Eigen::Index j = 0; j < ds.X.cols(); ++j) ds.X(i, j) = float(uniform01(rng));
        ds.labels.push_back(int(i % 3));
    }
    return ds;
}

/// Three Gaussian blobs in the plane, well separated (centres on a circle of radius 4, unit spread).
Dataset blobs(int perClass, std::uint64_t seed)
{
    Dataset ds;
    ds.shape = Shape{1, 2, 1};
    ds.numClasses = 3;
    ds.X.resize(3 * perClass, 2);
    Rng rng = makeRng(seed);
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < perClass; ++i) {
            const int r = c * perClass + i;
            ds.X(r, 0) = float(4 * std::cos(2 * M_PI * c / 3) + standardNormal(rng));
            ds.X(r, 1) = float(4 * std::sin(2 * M_PI * c / 3) + standardNormal(rng));
            ds.labels.push_back(c);
        }
    return ds;
}

/// Test RMSE of ridge (X^T X + lambda I) w = X^T y_std on the split, solved directly in double.
double closedFormRmse(const Dataset& ds, const Split& s, double lambda)
{
    const Eigen::MatrixXd X = ds.X.cast<double>();
    Eigen::MatrixXd Xt(s.train.size(), X.cols()), Xs(s.test.size(), X.cols());
    for (std::size_t i = 0; i < s.train.size(); ++i) Xt.row(Eigen::Index(i)) = X.row(Eigen::Index(s.train[i]));
    for (std::size_t i = 0; i < s.test.size(); ++i) Xs.row(Eigen::Index(i)) = X.row(Eigen::Index(s.test[i]));
    const auto coding = TargetCoding::regression(select(ds.targets, s.train));
    const Eigen::MatrixXd y = coding.encode(select(ds.targets, s.train));
    const Eigen::MatrixXd A = Xt.transpose() * Xt + lambda * Eigen::MatrixXd::Identity(X.cols(), X.cols());
    const Eigen::MatrixXd w = A.ldlt().solve(Xt.transpose() * y);
    return rmse(coding.decode(Xs * w), select(ds.targets, s.test));
}

} // namespace

class TestTraining : public QObject {
    Q_OBJECT
private slots:
    // With one lambda there is nothing to choose: the reported score is the closed-form ridge
    // solution's test RMSE, in the primal (d < n) and the dual (d > n) form alike.
    void ridgeAgreesWithClosedForm_data()
    {
        QTest::addColumn<int>("d");
        QTest::newRow("primal d=3") << 3;
        QTest::newRow("dual d=60") << 60;
    }
    void ridgeAgreesWithClosedForm()
    {
        QFETCH(int, d);
        const Dataset ds = linearRegression(50, d, 3);
        TrainConfig c;
        c.features = "raw";
        c.learner = "ridge";
        c.eval = "holdout:0.3";
        c.grid = {{"lambda", {0.7}}};
        c.seed = 11;
        const TrainResult r = train(ds, c);
        QCOMPARE(r.metric, std::string("rmse"));
        QCOMPARE(r.folds.size(), std::size_t(1));
        const double expected = closedFormRmse(ds, holdOutFor(ds, 0.3, 11), 0.7);
        QVERIFY2(std::abs(r.folds[0].score - expected) < 1e-6 * (1 + expected),
                 qPrintable(QString("%1 vs %2").arg(r.folds[0].score).arg(expected)));
        QCOMPARE(r.folds[0].chosen.at("lambda"), 0.7);
        QCOMPARE(r.featureDim, Eigen::Index(d));
        QVERIFY(r.mae > 0 && r.mae <= r.mean + 1e-12);  // MAE <= RMSE
        // The primal fits (inner and outer) share the fold's cell products: each training row once.
        // The dual fits compute no normal equations.
        QCOMPARE(r.stages.productRows, d == 3 ? 35LL : 0LL);
    }

    // With innerFolds = K the grid search scores a point by the mean over an inner K-fold
    // cross-validation of the training part: here each row's validation RMSE is the mean of the
    // closed-form ridge RMSEs on the K inner splits, whose held-out parts partition the training rows.
    void innerCrossValidationAveragesTheInnerFolds()
    {
        const Dataset ds = linearRegression(60, 4, 7);
        TrainConfig c;
        c.features = "raw";
        c.learner = "ridge";
        c.eval = "holdout:0.25";
        c.innerFolds = 3;
        c.grid = {{"lambda", {1e-3, 30.0}}};
        c.seed = 5;
        const TrainResult r = train(ds, c);
        const std::vector<Split> outer = outerSplits(ds, c);
        QCOMPARE(outer.size(), std::size_t(1));
        const std::vector<Split> inner = innerSplits(ds, c, outer[0].train, 0);
        QCOMPARE(inner.size(), std::size_t(3));
        std::multiset<std::size_t> heldOut;
        for (const Split& s : inner) {
            heldOut.insert(s.test.begin(), s.test.end());
            QCOMPARE(s.train.size() + s.test.size(), outer[0].train.size());
        }
        QVERIFY(std::equal(heldOut.begin(), heldOut.end(), outer[0].train.begin(), outer[0].train.end()));
        QCOMPARE(r.grid.size(), std::size_t(2));
        for (const GridRow& row : r.grid) {
            double expected = 0;
            for (const Split& s : inner) expected += closedFormRmse(ds, s, row.params.at("lambda")) / 3.0;
            QVERIFY2(std::abs(row.validation - expected) < 1e-6 * (1 + expected),
                     qPrintable(QString("%1 vs %2").arg(row.validation).arg(expected)));
        }
        QCOMPARE(r.folds[0].chosen.at("lambda"), 1e-3);  // light regularisation fits a linear target best
        // The three inner fits and the outer one add up the three cells' products.
        QCOMPARE(r.stages.productRows, static_cast<long long>(outer[0].train.size()));
        // one split (innerFolds = 0) scores on a different, single validation part
        c.innerFolds = 0;
        QCOMPARE(innerSplits(ds, c, outer[0].train, 0).size(), std::size_t(1));
        QVERIFY(train(ds, c).grid[0].validation != r.grid[0].validation);
    }

    // k-fold: the test parts are disjoint and cover every sample once, so the summed confusion
    // matrix counts every sample exactly once.
    void kfoldPartitionsAreDisjointAndComplete()
    {
        const auto folds = kFold(23, 4, 5);
        std::multiset<std::size_t> seen;
        for (const Split& s : folds) {
            seen.insert(s.test.begin(), s.test.end());
            std::set<std::size_t> train(s.train.begin(), s.train.end());
            for (std::size_t i : s.test) QVERIFY(!train.count(i));
            QCOMPARE(s.train.size() + s.test.size(), std::size_t(23));
        }
        QCOMPARE(seen.size(), std::size_t(23));
        QCOMPARE(std::set<std::size_t>(seen.begin(), seen.end()).size(), std::size_t(23));

        const Dataset ds = blobs(20, 1);
        TrainConfig c;
        c.features = "raw";
        c.eval = "kfold:4";
        const TrainResult r = train(ds, c);
        QCOMPARE(r.folds.size(), std::size_t(4));
        QCOMPARE(r.confusion.sum(), 60);
        QCOMPARE(r.confusion.rows(), 3);
    }

    // The grid has every (feature point, lambda) pair, first axis slowest, learner axis last; each
    // fold's choice is the best validation point of that fold.
    void gridRowsCoverTheProduct()
    {
        const Dataset ds = blobs(20, 2);
        TrainConfig c;
        c.features = "rf:s=40";
        c.grid = {{"lambda", {1e-3, 1e-1}}, {"median", {0.5, 2.0}}};
        c.eval = "kfold:3";
        const TrainResult r = train(ds, c);
        QCOMPARE(r.grid.size(), std::size_t(4));
        QCOMPARE(r.grid[0].params.at("median"), 0.5);
        QCOMPARE(r.grid[1].params.at("lambda"), 1e-1);
        QCOMPARE(r.grid[2].params.at("median"), 2.0);
        for (const GridRow& g : r.grid) QVERIFY(g.validation >= 0 && g.validation <= 1);
        QVERIFY2(r.mean > 0.9, qPrintable(QString::number(r.mean)));  // separated blobs
    }

    // Same config and seed: the same bits, at one thread or two.
    void sameSeedSameResult()
    {
        const Dataset ds = blobs(15, 4);
        TrainConfig c;
        c.features = "rf:s=64";
        c.eval = "kfold:3";
        c.seed = 9;
        omp_set_num_threads(1);
        const TrainResult a = train(ds, c);
        omp_set_num_threads(2);
        const TrainResult b = train(ds, c);
        QCOMPARE(a.mean, b.mean);
        QCOMPARE(a.grid.size(), b.grid.size());
        for (std::size_t i = 0; i < a.grid.size(); ++i) QCOMPARE(a.grid[i].validation, b.grid[i].validation);
        QVERIFY(a.confusion == b.confusion);
        c.seed = 10;
        const TrainResult other = train(ds, c);
        bool differs = other.grid.size() != a.grid.size();
        for (std::size_t i = 0; !differs && i < a.grid.size(); ++i) differs = other.grid[i].validation != a.grid[i].validation;
        QVERIFY(differs || other.confusion != a.confusion);  // another seed: other folds
    }

    // The per-sample predictions: every row is tested exactly once over k folds, each prediction
    // carries the row's own class, the folds' accuracies are the fractions of right predictions, and
    // counting (truth, predicted) pairs gives the confusion matrix cell by cell.
    void predictionsAreTheConfusionSamples()
    {
        const Dataset ds = blobs(12, 5);
        TrainConfig c;
        c.features = "rf:s=16";  // too few features for perfect blobs: some wrong predictions
        c.eval = "kfold:3";
        c.grid = {{"lambda", {1e-1}}, {"median", {0.05}}};
        c.seed = 2;
        const TrainResult r = train(ds, c);
        QCOMPARE(r.predictions.size(), ds.count());
        std::set<std::size_t> rows;
        Eigen::MatrixXi counts = Eigen::MatrixXi::Zero(3, 3);
        std::vector<int> right(3, 0), total(3, 0);
        for (const TestPrediction& p : r.predictions) {
            rows.insert(p.row);
            QCOMPARE(p.truth, ds.labels[p.row]);
            QVERIFY(p.predicted >= 0 && p.predicted < 3 && p.fold < 3);
            ++counts(p.truth, p.predicted);
            ++total[p.fold];
            right[p.fold] += p.truth == p.predicted;
        }
        QCOMPARE(rows.size(), ds.count());
        QVERIFY(counts == r.confusion);
        for (std::size_t f = 0; f < 3; ++f) QCOMPARE(r.folds[f].score, double(right[f]) / total[f]);
    }

    // Progress fractions rise in [0, 1]; a true return throws Cancelled.
    void progressAndCancel()
    {
        const Dataset ds = blobs(15, 5);
        TrainConfig c;
        c.features = "rf:s=32";
        c.eval = "kfold:3";
        double last = -1;
        int calls = 0;
        train(ds, c, [&](double f, const std::string&) {
            if (f < last - 1e-12 || f < 0 || f > 1) QTest::qFail("fraction out of order", __FILE__, __LINE__);
            last = f;
            ++calls;
            return false;
        });
        QCOMPARE(last, 1.0);
        QVERIFY(calls > 5);
        int n = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, train(ds, c, [&](double, const std::string&) { return ++n > 3; }));
    }

    // Features shared by the folds and a learner that sums over rows: every fold's fits go out in
    // one deal, reported as such; a single split says "fold 1/1".
    void foldsOnSharedFeaturesGoOutInOneDeal()
    {
        const Dataset ds = blobs(200, 9);
        TrainConfig c;
        c.features = "rf:s=50";  // fewer features than training rows: primal, cells shared by the folds
        c.grid = {{"median", {1.0}}, {"lambda", {1e-3, 1e-1}}};
        const auto stepsOf = [&](const std::string& eval) {
            c.eval = eval;
            std::vector<std::string> steps;
            const TrainResult r = train(ds, c, [&](double, const std::string& what) {
                steps.push_back(what);
                return false;
            });
            return std::make_pair(r, steps);
        };
        const auto has = [](const std::vector<std::string>& steps, const std::string& text) {
            return std::any_of(steps.begin(), steps.end(), [&](const std::string& s) { return s.find(text) != std::string::npos; });
        };
        const auto [kfold, kfoldSteps] = stepsOf("kfold:3");
        QCOMPARE(kfold.folds.size(), std::size_t(3));
        QVERIFY(has(kfoldSteps, "folds 1–3 · Cholesky λ=0.001"));
        QVERIFY(!has(kfoldSteps, "fold 1/3"));
        const auto [holdout, holdoutSteps] = stepsOf("holdout:0.2");
        QCOMPARE(holdout.folds.size(), std::size_t(1));
        QVERIFY(has(holdoutSteps, "fold 1/1 · Cholesky λ=0.001"));
    }

    // A cancel in the middle of the learning stage (inside a Cholesky factorisation of the dual
    // ridge system, not only between feature blocks) throws Cancelled, and leaves nothing behind:
    // the next run with the same config gives the bits of a run that was never interrupted.
    void cancelInsideTheLearnerLeavesNothingBehind()
    {
        const Dataset ds = blobs(200, 9);  // 600 rows: the dual system of a fold has 2 panels
        TrainConfig c;
        c.features = "rf:s=700";  // more features than training rows: the dual (Gram) path
        c.eval = "kfold:3";
        c.grid = {{"median", {1.0}}, {"lambda", {1e-3, 1e-1}}};
        const TrainResult before = train(ds, c);
        std::vector<std::string> steps;
        std::string stoppedAt;
        QVERIFY_THROWS_EXCEPTION(Cancelled, train(ds, c, [&](double, const std::string& what) {
                                     steps.push_back(what);
                                     if (what.find("Cholesky") == std::string::npos) return false;
                                     stoppedAt = what;
                                     return true;
                                 }));
        QVERIFY2(stoppedAt.find("fold 1/3 · Cholesky λ=0.001") != std::string::npos, stoppedAt.c_str());
        QVERIFY(std::any_of(steps.begin(), steps.end(),
                            [](const std::string& s) { return s.find("Gram matrix") != std::string::npos; }));
        QCOMPARE(steps.back(), stoppedAt);  // nothing reported after the cancel
        const TrainResult after = train(ds, c);
        QCOMPARE(after.grid.size(), before.grid.size());
        for (std::size_t i = 0; i < before.grid.size(); ++i) QCOMPARE(after.grid[i].validation, before.grid[i].validation);
        QCOMPARE(after.mean, before.mean);
        QVERIFY(after.confusion == before.confusion);
    }

    // A cancel while the feature map moves its r s templates (before any feature is computed) is
    // seen at the next "fitting <spec>: templates i/N" report of the fit: train() throws Cancelled,
    // nothing is reported after it, and a new run gives the bits of a run never interrupted.
    void cancelWhileFittingTheFeatureMap()
    {
        const Dataset ds = randomImages(4);
        TrainConfig c;
        c.features = "irf:s=1000,r=16";  // 16000 moved 28 x 28 templates: 6 reports of the move
        c.group = "rotation";
        c.dist = "vonmises:kappa=0";
        c.eval = "holdout:0.3";
        c.grid = {{"median", {1.0}}, {"lambda", {1e-3}}};
        const TrainResult before = train(ds, c);
        std::vector<std::string> steps;
        std::string stoppedAt;
        int templateReports = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, train(ds, c, [&](double, const std::string& what) {
                                     steps.push_back(what);
                                     if (what.find(": templates ") == std::string::npos) return false;
                                     if (++templateReports < 3) return false;
                                     stoppedAt = what;
                                     return true;
                                 }));
        QVERIFY2(stoppedAt.rfind("fitting irf:s=1000,r=16: templates ", 0) == 0, stoppedAt.c_str());
        QVERIFY2(stoppedAt.find("/16000") != std::string::npos, stoppedAt.c_str());
        QCOMPARE(steps.back(), stoppedAt);  // nothing reported after the cancel
        QVERIFY(std::none_of(steps.begin(), steps.end(),
                             [](const std::string& s) { return s.rfind("features ", 0) == 0; }));
        const TrainResult after = train(ds, c);
        QCOMPARE(after.mean, before.mean);
        QVERIFY(after.confusion == before.confusion);
    }

    // blr: no learner axis; every grid row carries a finite (inner-training) log evidence.
    void blrRowsCarryEvidence()
    {
        const Dataset ds = blobs(20, 6);
        TrainConfig c;
        c.features = "rf:s=30";
        c.learner = "blr";
        c.eval = "holdout:0.25";
        c.grid = {{"median", {0.5, 1, 4}}};
        const TrainResult r = train(ds, c);
        QCOMPARE(r.grid.size(), std::size_t(3));
        for (const GridRow& g : r.grid) QVERIFY(std::isfinite(g.logEvidence));
        QVERIFY(r.logEvidence && std::isfinite(*r.logEvidence));
        QVERIFY(std::isfinite(r.folds[0].logEvidence));
        QVERIFY(r.mean > 0.8);
    }

    // Affine factors are grid axes by their factor.key names; the grid's curve over them uses the same
    // templates and base noise at every point (common random numbers), so moving one factor's
    // parameter and back gives the same evidence bit for bit.
    void affineFactorsAreGridAxes()
    {
        // 4 x 4 images of three classes: a bright pixel in one of three places, plus noise.
        Dataset ds;
        ds.kind = DataKind::Images;
        ds.shape = Shape{4, 4, 1};
        ds.numClasses = 3;
        ds.X = MatrixXfR::Zero(36, 16);
        Rng rng = makeRng(8);
        for (int i = 0; i < 36; ++i) {
            for (int j = 0; j < 16; ++j) ds.X(i, j) = float(0.2 * uniform01(rng));
            ds.X(i, 5 + 3 * (i % 3)) += 1.0f;
            ds.labels.push_back(i % 3);
        }
        TrainConfig c;
        c.features = "irf:s=40,r=4";
        c.group = "affine";
        c.dist = "rotation=uniform:a=1,translation=gaussian:sigma=0.5";
        c.kernel = "gaussian:sigma=2";
        c.learner = "blr";
        c.eval = "holdout:0.25";
        c.grid = {{"rotation.a", {0.5, 1.0, 0.5}}, {"translation.sigma", {0.2}}};
        c.validate();
        const TrainResult r = train(ds, c);
        QCOMPARE(r.grid.size(), std::size_t(3));
        QCOMPARE(r.grid[0].params.at("rotation.a"), 0.5);
        QCOMPARE(r.grid[0].logEvidence, r.grid[2].logEvidence);
        QVERIFY(r.grid[0].logEvidence != r.grid[1].logEvidence);
        c.grid = {{"rotation.kappa", {1.0}}};
        try {
            c.validate();
            QFAIL("accepted a parameter the distribution does not have");
        } catch (const SpecError& e) {
            QCOMPARE(e.field(), std::string("grid rotation.kappa"));
            QVERIFY2(QString(e.what()).contains("rotation.a"), e.what());
        }
    }

    // svm and krr learn the easy problems; a learning curve has one point per fraction.
    void otherLearners()
    {
        const Dataset ds = blobs(20, 7);
        TrainConfig c;
        c.features = "raw";
        c.learner = "svm";
        c.eval = "holdout:0.25";
        c.grid = {{"C", {0.1, 1}}};
        c.learningCurve = {0.5, 1.0};
        const TrainResult s = train(ds, c);
        QVERIFY(s.mean > 0.85);
        QCOMPARE(s.stages.productRows, 0LL);  // liblinear does not sum over rows
        QCOMPARE(s.learningCurve.size(), std::size_t(2));
        QCOMPARE(s.learningCurve[1].trainSize, std::size_t(45));

        const Dataset reg = linearRegression(60, 2, 8);
        TrainConfig k;
        k.features = "raw";
        k.learner = "krr";
        k.eval = "kfold:3";
        const TrainResult r = train(reg, k);
        double sd = standardDeviation(reg.targets);
        QVERIFY2(r.mean < 0.5 * sd, qPrintable(QString("%1 vs sd %2").arg(r.mean).arg(sd)));
    }

    // A k-fold run shares its products across the folds, for ridge and blr: every row's once (each
    // outer test set), plus each inner validation set's, which an inner fit subtracts from its
    // fold's sum; not every fold's training rows (2 N here). A fold trained with shared products
    // scores as ridge in closed form on its own rows.
    void foldsShareTheirProducts()
    {
        const Dataset ds = blobs(30, 3);
        TrainConfig c;
        c.features = "raw";
        c.eval = "kfold:3";
        c.grid = {{"lambda", {1e-2}}};
        for (const std::string learner : {"ridge", "blr"}) {
            c.learner = learner;
            if (learner == "blr") c.grid.clear();
            const TrainResult r = train(ds, c);
            const std::vector<Split> outer = outerSplits(ds, c);
            long long rows = static_cast<long long>(ds.count()), perFold = 0;
            for (std::size_t f = 0; f < outer.size(); ++f) {
                perFold += static_cast<long long>(outer[f].train.size());
                for (const Split& in : innerSplits(ds, c, outer[f].train, f)) rows += static_cast<long long>(in.test.size());
            }
            QCOMPARE(r.stages.productRows, rows);
            QVERIFY(rows < perFold);
        }
        const Dataset reg = linearRegression(60, 4, 7);
        TrainConfig k;
        k.features = "raw";
        k.learner = "ridge";
        k.eval = "kfold:3";
        k.grid = {{"lambda", {1e-3, 30.0}}};
        k.seed = 5;
        const TrainResult r = train(reg, k);
        const std::vector<Split> outer = outerSplits(reg, k);
        QCOMPARE(r.folds.size(), outer.size());
        for (std::size_t f = 0; f < outer.size(); ++f) {
            const double expected = closedFormRmse(reg, outer[f], r.folds[f].chosen.at("lambda"));
            QVERIFY2(std::abs(r.folds[f].score - expected) < 1e-9 * (1 + expected),
                     qPrintable(QString("fold %1: %2 vs %3").arg(f).arg(r.folds[f].score).arg(expected)));
        }
        // The inner fits (a fold's sum less its validation set's): the validation RMSE of each grid
        // point is the mean over the folds of the closed form on their inner splits.
        QCOMPARE(r.grid.size(), std::size_t(2));
        for (const GridRow& row : r.grid) {
            double expected = 0;
            for (std::size_t f = 0; f < outer.size(); ++f)
                expected += closedFormRmse(reg, innerSplits(reg, k, outer[f].train, f).front(), row.params.at("lambda")) /
                            double(outer.size());
            QVERIFY2(std::abs(row.validation - expected) < 1e-9 * (1 + expected),
                     qPrintable(QString("%1 vs %2").arg(row.validation).arg(expected)));
        }
        QVERIFY(r.stages.productRows < 2 * 60);  // shared across the folds
    }

    // krr on a kernel feature map: --kernel fixes the map's base kernel and the median axis is the
    // kernel ridge's own width on the features (a Gaussian hyperkernel); for ridge the two conflict.
    void krrOnKernelFeaturesSearchesItsWidth()
    {
        const Dataset reg = linearRegression(60, 2, 8);
        TrainConfig k;
        k.features = "rf:s=40";
        k.kernel = "gaussian:sigma=3";
        k.learner = "krr";
        k.eval = "holdout:0.25";
        k.grid = {{"median", {0.05, 2}}, {"lambda", {1e-3}}};
        const TrainResult r = train(reg, k);
        QCOMPARE(r.grid.size(), std::size_t(2));
        QCOMPARE(r.grid[0].params.at("median"), 0.05);
        // A width far below the feature distances makes the kernel nearly diagonal: no generalisation.
        QVERIFY2(r.grid[1].validation < 0.5 * r.grid[0].validation,
                 qPrintable(QString("%1 vs %2").arg(r.grid[1].validation).arg(r.grid[0].validation)));
        k.learner = "ridge";
        QVERIFY_THROWS_EXCEPTION(SpecError, k.validate());
        // Without a kernel the map has none: the message says what krr takes instead.
        k.learner = "krr";
        k.kernel.clear();
        try {
            train(reg, k);
            QFAIL("krr on rf features without a kernel was accepted");
        } catch (const SpecError& e) {
            const QString m = QString::fromUtf8(e.what());
            QVERIFY2(m.startsWith("kernel: krr puts its Gaussian on the output of the feature map: give it the kernel's inputs") &&
                         m.contains("give the rf map a base kernel of its own"),
                     qPrintable(m));
        }
    }

    // Data-dependent maps are fitted per fold; their dimension is only known after the fit (Nystrom).
    void nystromFeaturesPerFold()
    {
        const Dataset ds = blobs(20, 9);
        TrainConfig c;
        c.features = "nystrom:s=20";
        c.eval = "kfold:3";
        c.grid = {{"median", {1}}, {"lambda", {1e-3}}};
        const TrainResult r = train(ds, c);
        QVERIFY(r.featureDim > 0 && r.featureDim <= 20);
        QVERIFY2(r.mean > 0.85, qPrintable(QString::number(r.mean)));
    }

    void rejectsBadConfigurations_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("learner");
        QTest::addColumn<QString>("eval");
        QTest::addColumn<QString>("grid");
        QTest::newRow("learner") << "learner" << "forest" << "holdout:0.2" << "";
        QTest::newRow("eval") << "eval" << "ridge" << "holdout:1.5" << "";
        QTest::newRow("kfold") << "eval" << "ridge" << "kfold:1" << "";
        QTest::newRow("grid value") << "grid lambda" << "ridge" << "holdout:0.2" << "lambda=abc";
        QTest::newRow("wrong axis") << "grid C" << "ridge" << "holdout:0.2" << "C=1";
        QTest::newRow("negative") << "grid lambda" << "ridge" << "holdout:0.2" << "lambda=-1";
        QTest::newRow("inner folds") << "inner-folds" << "ridge" << "holdout:0.2" << "inner=1";
    }
    void rejectsBadConfigurations()
    {
        QFETCH(QString, field);
        QFETCH(QString, learner);
        QFETCH(QString, eval);
        QFETCH(QString, grid);
        try {
            TrainConfig c;
            c.learner = learner.toStdString();
            c.eval = eval.toStdString();
            if (grid == "inner=1")
                c.innerFolds = 1;
            else
                c.grid = parseGrid(grid.toStdString());
            c.validate();
            QFAIL("accepted");
        } catch (const SpecError& e) {
            QCOMPARE(QString::fromStdString(e.field()), field);
        }
    }
};

QTEST_APPLESS_MAIN(TestTraining)
#include "test_training.moc"

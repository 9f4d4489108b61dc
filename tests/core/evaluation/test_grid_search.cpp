// Grid search and learning curves: exhaustive over the Cartesian product, the batch axis (ridge's
// many-lambda path) equals point-by-point scoring, cancellation stops the work.
#include "../learn/LearnTestData.hpp"
#include "orbit/evaluation/GridSearch.hpp"
#include "orbit/evaluation/LearningCurve.hpp"
#include "orbit/evaluation/Metrics.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/util/Error.hpp"

#include <QtTest>

#include <cmath>

using namespace orbit;
using namespace orbittest;

namespace {

struct Regression {
    MatrixXfR X;
    std::vector<double> t;
};

/// t = sin(x_0) + x_1 x_2 + noise: ridge on raw features underfits, so lambda and scale matter.
Regression regressionProblem(int n, std::uint64_t seed)
{
    Regression r{gaussianMatrix(n, 6, seed), {}};
    const MatrixXfR e = gaussianMatrix(n, 1, seed + 1);
    for (int i = 0; i < n; ++i)
        r.t.push_back(std::sin(r.X(i, 0)) + r.X(i, 1) * r.X(i, 2) + 0.1 * e(i, 0));
    return r;
}

} // namespace

class TestGridSearch : public QObject {
    Q_OBJECT
private slots:
    void findsTheOptimumOfAKnownFunction()
    {
        GridSearch g;
        g.axes = {{"a", {0, 1, 2, 3}}, {"b", {-0.5, 0.5, 1.5}}};
        g.maximise = false;
        const std::vector<Split> splits = kFold(10, 2, 0);
        int calls = 0;
        const GridSearchResult r = g.run(splits, ScoreFunction([&](const ParamPoint& p, const Split&) {
            ++calls;
            return (p.at("a") - 2.0) * (p.at("a") - 2.0) + (p.at("b") - 0.5) * (p.at("b") - 0.5);
        }));
        QCOMPARE(calls, 4 * 3 * 2);
        QCOMPARE(r.points.size(), std::size_t(12));
        QCOMPARE(r.points[1].at("a"), 0.0);  // first axis varies slowest
        QCOMPARE(r.points[1].at("b"), 0.5);
        QCOMPARE(r.bestPoint().at("a"), 2.0);
        QCOMPARE(r.bestPoint().at("b"), 0.5);
        QCOMPARE(r.bestScore(), 0.0);
        g.maximise = true;
        const GridSearchResult worst = g.run(splits, ScoreFunction([](const ParamPoint& p, const Split&) {
            return std::abs(p.at("a") - 2.0) + std::abs(p.at("b") - 0.5);
        }));
        QCOMPARE(worst.bestPoint().at("a"), 0.0);
    }

    void ridgePathInsideTheGridEqualsSingleFits()
    {
        // The batch axis "lambda" is scored by one RidgePath per (scale, split); the plain search
        // fits a fresh RidgeRegression per (scale, lambda, split). Scores (RMSE) must agree.
        const Regression data = regressionProblem(120, 91);
        GridSearch g;
        g.axes = {{"scale", {0.5, 2.0}}, {"lambda", {1e-3, 0.1, 10.0, 1e3}}};
        g.batchAxis = "lambda";
        g.maximise = false;
        const std::vector<Split> splits = kFold(data.t.size(), 3, 92);
        auto features = [&](double scale, const Indices& idx) {
            MatrixXfR Z = selectRows(data.X, idx) * static_cast<float>(scale);
            Z = Z.array().cos().matrix();  // a scale-dependent feature map
            return Z;
        };
        const BatchScoreFunction batch = [&](const ParamPoint& p, const std::vector<double>& lambdas, const Split& s) {
            const RidgePath path(features(p.at("scale"), s.train), select(data.t, s.train));
            const MatrixXfR test = features(p.at("scale"), s.test);
            std::vector<double> out;
            for (const RidgeRegression& model : path.models(lambdas))
                out.push_back(rmse(model.predictTargets(test), select(data.t, s.test)));
            return out;
        };
        const ScoreFunction single = [&](const ParamPoint& p, const Split& s) {
            RidgeRegression ridge(p.at("lambda"));
            ridge.fit(features(p.at("scale"), s.train), select(data.t, s.train));
            return rmse(ridge.predictTargets(features(p.at("scale"), s.test)), select(data.t, s.test));
        };
        const GridSearchResult a = g.run(splits, batch), b = g.run(splits, single);
        QVERIFY(relativeError(a.scores, b.scores) < 1e-9);
        QCOMPARE(a.best, b.best);
        // Same splits, same data: bit-identical on a second run.
        const GridSearchResult again = g.run(splits, batch);
        QVERIFY(again.scores == a.scores);
    }

    void cancelStopsALongSearch()
    {
        GridSearch g;
        std::vector<double> many(1000);
        for (int i = 0; i < 1000; ++i)
            many[i] = i;
        g.axes = {{"x", many}};
        const std::vector<Split> splits = {holdOut(10, 0.3, 0)};
        int calls = 0;
        double lastFraction = -1.0;
        bool monotone = true;
        const Progress progress = [&](double fraction, const std::string&) {
            monotone = monotone && fraction >= lastFraction;
            lastFraction = fraction;
            return calls >= 5;  // the user presses Cancel after five units
        };
        QVERIFY_THROWS_EXCEPTION(Cancelled, g.run(splits, ScoreFunction([&](const ParamPoint& p, const Split&) {
                                                       ++calls;
                                                       return p.at("x");
                                                   }),
                                                   progress));
        QCOMPARE(calls, 5);
        QVERIFY(monotone);
        // Without cancelling, progress ends at exactly 1.
        g.run(splits, ScoreFunction([](const ParamPoint&, const Split&) { return 0.0; }),
              [&](double f, const std::string&) {
                  lastFraction = f;
                  return false;
              });
        QCOMPARE(lastFraction, 1.0);
    }

    void rejectsBadGrids()
    {
        const std::vector<Split> splits = kFold(6, 2, 0);
        const ScoreFunction zero = [](const ParamPoint&, const Split&) { return 0.0; };
        GridSearch g;
        QVERIFY_THROWS_EXCEPTION(SpecError, g.run(splits, zero));
        g.axes = {{"a", {}}};
        QVERIFY_THROWS_EXCEPTION(SpecError, g.run(splits, zero));
        g.axes = {{"a", {1}}, {"a", {2}}};
        QVERIFY_THROWS_EXCEPTION(SpecError, g.run(splits, zero));
        g.axes = {{"a", {std::nan("")}}};
        QVERIFY_THROWS_EXCEPTION(SpecError, g.run(splits, zero));
        g.axes = {{"a", {1}}};
        g.batchAxis = "b";
        QVERIFY_THROWS_EXCEPTION(SpecError, g.run(splits, zero));
        g.batchAxis.clear();
        QVERIFY_THROWS_EXCEPTION(SpecError, g.run({}, zero));
        QVERIFY_THROWS_EXCEPTION(SpecError,
                                 g.run(splits, ScoreFunction([](const ParamPoint&, const Split&) { return std::nan(""); })));
    }

    void learningCurveUsesNestedTrainingSets()
    {
        const Regression data = regressionProblem(200, 93);
        const Split split = holdOut(200, 0.25, 94);
        std::vector<Indices> seen;
        const std::vector<LearningCurvePoint> curve =
            learningCurve(split, {10, 40, 150}, 95, [&](const Split& s) {
                seen.push_back(s.train);
                RidgeRegression ridge(1.0);
                ridge.fit(selectRows(data.X, s.train), select(data.t, s.train));
                return rmse(ridge.predictTargets(selectRows(data.X, s.test)), select(data.t, s.test));
            });
        QCOMPARE(curve.size(), std::size_t(3));
        QCOMPARE(curve[2].trainSize, std::size_t(150));
        QCOMPARE(seen[0].size(), std::size_t(10));
        QVERIFY(std::includes(seen[1].begin(), seen[1].end(), seen[0].begin(), seen[0].end()));
        QVERIFY(std::includes(seen[2].begin(), seen[2].end(), seen[1].begin(), seen[1].end()));
        QVERIFY(std::includes(split.train.begin(), split.train.end(), seen[2].begin(), seen[2].end()));
        QVERIFY(curve[2].score < curve[0].score);  // more data, lower test error
        QVERIFY_THROWS_EXCEPTION(SpecError, learningCurve(split, {151}, 0, [](const Split&) { return 0.0; }));
        QVERIFY_THROWS_EXCEPTION(Cancelled, learningCurve(split, {10, 20}, 0, [](const Split&) { return 0.0; },
                                                          [](double, const std::string&) { return true; }));
    }
};

QTEST_APPLESS_MAIN(TestGridSearch)
#include "test_grid_search.moc"

// The grid of hyperparameter combinations (ParamGrid.hpp).
#include "orbit/evaluation/ParamGrid.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <set>

using namespace orbit;

class TestParamGrid : public QObject {
    Q_OBJECT
private slots:
    // Every combination exactly once, first axis varying slowest.
    void productOfTheAxes()
    {
        const std::vector<ParamPoint> p = gridPoints({{"a", {0, 1, 2, 3}}, {"b", {-0.5, 0.5, 1.5}}});
        QCOMPARE(p.size(), std::size_t(12));
        QCOMPARE(p[1].at("a"), 0.0);
        QCOMPARE(p[1].at("b"), 0.5);
        QCOMPARE(p[3].at("a"), 1.0);
        QCOMPARE(p[3].at("b"), -0.5);
        std::set<std::pair<double, double>> seen;
        for (const ParamPoint& q : p) {
            QCOMPARE(q.size(), std::size_t(2));
            seen.insert({q.at("a"), q.at("b")});
        }
        QCOMPARE(seen.size(), std::size_t(12));
    }

    void noAxesIsOneEmptyPointAndAnEmptyAxisNone()
    {
        QCOMPARE(gridPoints({}).size(), std::size_t(1));
        QVERIFY(gridPoints({}).front().empty());
        QVERIFY(gridPoints({{"a", {1, 2}}, {"b", {}}}).empty());
    }

    void readableText()
    {
        QCOMPARE(QString::fromStdString(toString({{"lambda", 0.001}, {"median", 2}})), QString("lambda=0.001, median=2"));
        QCOMPARE(QString::fromStdString(toString({})), QString());
    }
};

QTEST_APPLESS_MAIN(TestParamGrid)
#include "test_param_grid.moc"

// The A/B comparison, offscreen on the bundled digits, driven through the window's Compare menu and
// the panels' own controls. Pinning κ = 0 and moving κ to 4 lays two densities over the Group chart,
// the von Mises densities 1/(2π) and exp(4 cos θ)/(2π I₀(4)); the Kernels panel shows A, B and B − A on
// the same points with B − A the element-wise difference, and A equal to a separate run at κ = 0; the
// Approximation charts carry A's curves; the Training results hold two result columns whose numbers
// are those of separate single runs with the same seed, and one column again after Unpin. A pinned
// setting survives a session file; an old session without one loads unpinned; a malformed one is
// rejected naming the field; data A's group cannot act on unpin it.
#include "state/Comparison.hpp"
#include "state/LabState.hpp"
#include "state/Session.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ConfusionMatrixView.hpp"
#include "widgets/HeatmapView.hpp"
#include "widgets/ParameterControl.hpp"
#include "window/approximation/ApproximationComparison.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/compare/CompareActions.hpp"
#include "window/compare/ComparisonViews.hpp"
#include "window/group/DistributionEditor.hpp"
#include "window/group/GroupComparison.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/kernels/KernelsComparison.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"
#include "window/training/TrainingComparison.hpp"
#include "window/training/TrainingPanel.hpp"

#include "QuickSettings.hpp"
#include "WindowFixture.hpp"

#include <QAction>
#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QValueAxis>
#include <QTest>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QSignalSpy>
#include <QString>
#include <QVariant>

#include <algorithm>
#include <cmath>

using namespace orbitui;
using namespace orbittest;

namespace {

/// Sets κ through the Group panel's κ control, as a user would, and waits until every panel settled.
bool setKappa(MainWindow& w, double kappa)
{
    ParameterControl* control = w.groupPanel()->editor()->parameterControl("rotation", "kappa");
    if (!control)
        return false;
    control->spinBox()->setValue(kappa);
    return QTest::qWaitFor([&] { return w.state()->orbitSettings().dist.value("kappa") == kappa && w.isIdle(); }, 120000);
}

void trigger(MainWindow& w, const char* name)
{
    auto* action = w.findChild<QAction*>(name);
    QVERIFY2(action, name);
    QVERIFY(action->isEnabled());
    action->trigger();
}

QLineSeries* seriesNamed(QChart* chart, const QString& prefix)
{
    for (QAbstractSeries* s : chart->series())
        if (auto* line = qobject_cast<QLineSeries*>(s); line && line->name().startsWith(prefix) && line->isVisible())
            return line;
    return nullptr;
}

/// The von Mises density on the circle, ∝ exp(κ cos θ).
double vonMises(double theta, double kappa) { return std::exp(kappa * std::cos(theta)) / (2 * M_PI * std::cyl_bessel_i(0.0, kappa)); }

void compareDensity(const QLineSeries* s, double kappa)
{
    QVERIFY(s->count() > 50);
    for (const QPointF& p : s->points())
        QVERIFY2(std::abs(p.y() - vonMises(p.x(), kappa)) <= 1e-9 * std::max(1.0, vonMises(p.x(), kappa)),
                 qPrintable(QString("κ = %1, θ = %2: %3 against %4").arg(kappa).arg(p.x()).arg(p.y()).arg(vonMises(p.x(), kappa))));
}

/// quickInvariantBlr(150, 4, 7) without a locality sweep or a learning curve.
TrainingSettings fastInvariant()
{
    TrainingSettings s = quickInvariantBlr(150, 4, 7);
    s.localityAxis.clear();  // κ is the setting's own, not swept
    s.learningCurve = false;
    return s;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
private slots:
    void groupOverlaysTheDensitiesOfAAndB()
    {
        WindowFixture f;
        MainWindow& w = *f.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        QVERIFY(setKappa(w, 0.0));
        QVERIFY(!w.compare()->indicator()->isVisible() || w.compare()->indicator()->isHidden());
        trigger(w, "pinAction");
        QVERIFY(w.comparison()->isPinned());
        QVERIFY(!w.compare()->indicator()->isHidden());
        QVERIFY2(w.compare()->indicator()->text().startsWith("A: rotation, vonmises κ=0"), qPrintable(w.compare()->indicator()->text()));
        QVERIFY(setKappa(w, 4.0));

        QChart* chart = w.groupPanel()->densityChart()->chart();
        QLineSeries* a = seriesNamed(chart, "A: ");
        QLineSeries* b = seriesNamed(chart, "B: ");
        QVERIFY(a && b);
        QVERIFY2(b->name().contains("κ=4"), qPrintable(b->name()));
        compareDensity(a, 0.0);
        compareDensity(b, 4.0);
        QCOMPARE(w.comparisonViews()->group()->overlay().series().size(), std::size_t(1));
        // The y axis takes in both curves: B's peak at θ = 0 is far above A's flat 1/(2π).
        QVERIFY(w.groupPanel()->densityAxisY()->max() >= vonMises(0.0, 4.0) * 0.99);

        // Only B changes: A is not recomputed.
        const auto cachedA = w.comparisonViews()->group()->resultA();
        QVERIFY(setKappa(w, 2.0));
        QCOMPARE(w.comparisonViews()->group()->resultA(), cachedA);
        compareDensity(seriesNamed(chart, "A: "), 0.0);

        trigger(w, "unpinAction");
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle(); }, 60000));
        QVERIFY(!w.comparison()->isPinned());
        QVERIFY(w.compare()->indicator()->isHidden());
        QVERIFY(!seriesNamed(chart, "A: ") && !seriesNamed(chart, "B: "));
        QVERIFY(seriesNamed(chart, "density q"));
    }

    void kernelsShowABAndTheirDifferenceOnTheSamePoints()
    {
        WindowFixture f;
        MainWindow& w = *f.window;
        w.kernelsPanel()->applySettings(smallKernels(30));
        QVERIFY(loadAndSettle(w, digitsPng()));
        QVERIFY(setKappa(w, 0.0));
        trigger(w, "pinAction");
        QVERIFY(setKappa(w, 4.0));
        w.kernelsPanel()->compute();
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && w.kernelsPanel()->lastResult(); }, 120000));
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && w.comparisonViews()->kernels()->resultA(); }, 120000));

        KernelsComparison* kc = w.comparisonViews()->kernels();
        QVERIFY(kc->widget()->isVisibleTo(w.kernelsPanel()));
        QVERIFY(!w.kernelsPanel()->heatmap(KernelsPanel::Invariant)->isVisibleTo(w.kernelsPanel()));
        const auto b = w.kernelsPanel()->lastResult();
        const auto a = kc->resultA();
        QCOMPARE(a->indices, b->indices);
        QCOMPARE(a->request.settings.dist.value("kappa"), 0.0);
        QCOMPARE(b->request.settings.dist.value("kappa"), 4.0);
        const Eigen::MatrixXd& ma = kc->view(KernelsComparison::A)->matrix();
        const Eigen::MatrixXd& mb = kc->view(KernelsComparison::B)->matrix();
        const Eigen::MatrixXd& md = kc->view(KernelsComparison::BMinusA)->matrix();
        QCOMPARE(ma.rows(), 30);
        QVERIFY(ma == a->invariant);
        QVERIFY(mb == b->invariant);
        QVERIFY(md == (mb - ma).eval());
        QVERIFY(md.cwiseAbs().maxCoeff() > 1e-3);  // κ = 0 and κ = 4 give different kernels
        // The approximation compares the same way.
        kc->matrixChoice()->setCurrentIndex(1);
        QVERIFY(kc->view(KernelsComparison::A)->matrix() == a->approx);
        QVERIFY(kc->view(KernelsComparison::BMinusA)->matrix() == (b->approx - a->approx).eval());

        // A equals a separate run with A's settings (unpinned, κ = 0).
        const Eigen::MatrixXd pinnedA = a->invariant;
        trigger(w, "unpinAction");
        QVERIFY(!kc->widget()->isVisibleTo(w.kernelsPanel()));
        QVERIFY(w.kernelsPanel()->heatmap(KernelsPanel::Invariant)->isVisibleTo(w.kernelsPanel()));
        QVERIFY(setKappa(w, 0.0));
        w.kernelsPanel()->compute();
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && w.kernelsPanel()->lastResult() != b; }, 120000));
        QCOMPARE(w.kernelsPanel()->lastResult()->indices, a->indices);
        QVERIFY(w.kernelsPanel()->lastResult()->invariant == pinnedA);
    }

    // Molecules are ordered by energy: the A, B and B − A views carry the same energy ticks and
    // captions (kcal/mol) as the panel's own heatmaps, not bare cells.
    void kernelsOfMoleculesKeepTheirEnergyAxes()
    {
        WindowFixture f;
        MainWindow& w = *f.window;
        w.kernelsPanel()->applySettings(smallKernels(40));
        QVERIFY(loadAndSettle(w, g2Xyz()));
        ParameterControl* sigma = w.groupPanel()->editor()->parameterControl("permutation", "sigma");
        QVERIFY(sigma);
        sigma->spinBox()->setValue(0.0);
        QVERIFY(QTest::qWaitFor([&] { return w.state()->orbitSettings().dist.value("sigma") == 0.0 && w.isIdle(); }, 120000));
        trigger(w, "pinAction");
        sigma->spinBox()->setValue(1.0);
        QVERIFY(QTest::qWaitFor([&] { return w.state()->orbitSettings().dist.value("sigma") == 1.0 && w.isIdle(); }, 120000));
        w.kernelsPanel()->compute();
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && w.kernelsPanel()->lastResult(); }, 120000));
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && w.comparisonViews()->kernels()->resultA(); }, 120000));

        const HeatmapView* own = w.kernelsPanel()->heatmap(KernelsPanel::Invariant);
        QVERIFY(!own->rowTicks().empty());
        QVERIFY2(own->axisCaptions().first.contains("kcal/mol"), qPrintable(own->axisCaptions().first));
        KernelsComparison* kc = w.comparisonViews()->kernels();
        for (auto which : {KernelsComparison::A, KernelsComparison::B, KernelsComparison::BMinusA}) {
            const HeatmapView* view = kc->view(which);
            QCOMPARE(view->rowTicks().size(), own->rowTicks().size());
            for (std::size_t t = 0; t < own->rowTicks().size(); ++t)
                QCOMPARE(view->rowTicks()[t].text, own->rowTicks()[t].text);
            QVERIFY(view->axisCaptions() == own->axisCaptions());
        }
    }

    void approximationOverlaysTheCurvesOfA()
    {
        WindowFixture f;
        MainWindow& w = *f.window;
        ApproximationSettings s = manualApproximation(30, {10, 20}, {1, 4});
        s.repeats = 1;
        w.approximationPanel()->applySettings(s);
        QVERIFY(loadAndSettle(w, digitsPng()));
        QVERIFY(setKappa(w, 0.0));
        trigger(w, "pinAction");
        QVERIFY(setKappa(w, 4.0));
        w.approximationPanel()->compute();
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && w.comparisonViews()->approximation()->resultA(); }, 120000));
        QCOMPARE(w.approximationPanel()->rows().size(), std::size_t(4));
        const auto a = w.comparisonViews()->approximation()->resultA();
        QCOMPARE(a->request.settings.dist.value("kappa"), 0.0);
        for (int c = 0; c < 2; ++c) {
            const auto series = w.comparisonViews()->approximation()->overlay(c).series();
            QCOMPARE(series.size(), std::size_t(2));
            QCOMPARE(series[0]->name(), QString("A: r = 1"));
            QCOMPARE(series[1]->name(), QString("A: r = 4"));
            for (const orbit::ApproxErrorRow& row : a->rows) {
                const QList<QPointF> points = series[row.r == 1 ? 0 : 1]->points();
                const double want = c == 0 ? row.spectral : row.frobenius;
                QVERIFY(std::any_of(points.begin(), points.end(),
                                    [&](const QPointF& p) { return p.x() == row.s && p.y() == want; }));
            }
            // B's own curves are named as B's, and both sets are in the chart.
            QChart* chart = c == 0 ? w.approximationPanel()->spectralChart()->chart() : w.approximationPanel()->frobeniusChart()->chart();
            QVERIFY(seriesNamed(chart, "B: r = 1") && seriesNamed(chart, "A: r = 4"));
        }
        trigger(w, "unpinAction");
        QVERIFY(w.comparisonViews()->approximation()->overlay(0).series().empty());
        QVERIFY(seriesNamed(w.approximationPanel()->spectralChart()->chart(), "r = 1"));
    }

    void trainingShowsTwoResultColumnsEqualToSingleRuns()
    {
        WindowFixture f;
        MainWindow& w = *f.window;
        TrainingPanel* panel = w.trainingPanel();
        panel->setSettings(fastInvariant());
        QVERIFY(loadAndSettle(w, digitsPng()));
        QVERIFY(setKappa(w, 0.0));
        trigger(w, "pinAction");
        TrainingComparison* tc = w.comparisonViews()->training();
        QVERIFY(panel->resultTabs()->indexOf(tc->widget()) >= 0);
        QVERIFY(setKappa(w, 4.0));
        QVERIFY(panel->run());
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && panel->lastResult() && tc->resultA(); }, 300000));

        QTableWidget* table = tc->table();
        QCOMPARE(table->columnCount(), 2);
        QCOMPARE(table->horizontalHeaderItem(0)->text(), QString("A"));
        QCOMPARE(table->horizontalHeaderItem(1)->text(), QString("B"));
        QCOMPARE(panel->resultTabs()->currentWidget(), tc->widget());
        const double meanA = table->item(TrainingComparison::Score, 0)->data(Qt::UserRole).toDouble();
        const double meanB = table->item(TrainingComparison::Score, 1)->data(Qt::UserRole).toDouble();
        const QVariant evidenceA = table->item(TrainingComparison::LogEvidence, 0)->data(Qt::UserRole);
        const QVariant evidenceB = table->item(TrainingComparison::LogEvidence, 1)->data(Qt::UserRole);
        QVERIFY(evidenceA.isValid() && evidenceB.isValid());  // blr gives the evidence
        QVERIFY(evidenceA.toDouble() != evidenceB.toDouble());
        QVERIFY(table->item(TrainingComparison::Setting, 0)->text().contains("kappa=0"));
        QVERIFY(table->item(TrainingComparison::Setting, 1)->text().contains("kappa=4"));
        const Eigen::MatrixXi confusionA = tc->confusion(0)->matrix(), confusionB = tc->confusion(1)->matrix();
        QCOMPARE(confusionA.sum(), confusionB.sum());
        QCOMPARE(confusionA.rows(), 10);
        // One chart: A's and B's score per fold (one hold-out split, and the mean).
        QCOMPARE(tc->chart()->chart()->series().size(), 1);

        // Only B changes: A is not trained again.
        const auto cachedA = tc->resultA();
        QVERIFY(panel->run());
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && panel->drawCount() == 2; }, 300000));
        QCOMPARE(tc->resultA(), cachedA);

        trigger(w, "unpinAction");
        QCOMPARE(table->columnCount(), 1);
        QVERIFY(panel->resultTabs()->indexOf(tc->widget()) < 0);

        // Separate single runs with the same seed give the same numbers.
        QVERIFY(panel->run());
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && panel->drawCount() == 3; }, 300000));
        QCOMPARE(panel->lastResult()->result.mean, meanB);
        QCOMPARE(*panel->lastResult()->result.logEvidence, evidenceB.toDouble());
        QVERIFY(panel->lastResult()->result.confusion == confusionB);
        QVERIFY(setKappa(w, 0.0));
        QVERIFY(panel->run());
        QVERIFY(QTest::qWaitFor([&] { return w.isIdle() && panel->drawCount() == 4; }, 300000));
        QCOMPARE(panel->lastResult()->result.mean, meanA);
        QCOMPARE(*panel->lastResult()->result.logEvidence, evidenceA.toDouble());
        QVERIFY(panel->lastResult()->result.confusion == confusionA);
    }

    void sessionKeepsThePinnedSetting()
    {
        WindowFixture f;
        MainWindow& w = *f.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        QVERIFY(setKappa(w, 0.0));
        trigger(w, "pinAction");
        QVERIFY(setKappa(w, 4.0));
        const PinnedSetting a = *w.comparison()->pinned();
        QCOMPARE(a.orbit.dist.value("kappa"), 0.0);
        const QString path = f.dir.filePath("pinned.json");
        QVERIFY(w.session()->saveFile(path));

        WindowFixture g;
        QVERIFY(g.window->session()->openFile(path));
        QVERIFY(QTest::qWaitFor([&] { return g.window->state()->dataset() && g.window->isIdle(); }, 60000));
        QVERIFY(g.window->comparison()->isPinned());
        QVERIFY(*g.window->comparison()->pinned() == a);
        QCOMPARE(g.window->state()->orbitSettings().dist.value("kappa"), 4.0);
        QVERIFY(!g.window->compare()->indicator()->isHidden());
        QVERIFY(g.window->session()->capture().pinned == std::optional<PinnedSetting>(a));

        // Without "pinned" (older sessions): nothing pinned.
        QJsonObject json = toJson(w.session()->capture());
        QVERIFY(json.contains("pinned"));
        json.remove("pinned");
        QCOMPARE(sessionRejection(json), QString());
        QVERIFY(!sessionFromJson(json).pinned);
    }

    void malformedPinnedIsRejectedNamingTheField()
    {
        SessionState s;
        s.pinned = PinnedSetting{};
        QJsonObject json = toJson(s);
        QVERIFY(sessionFromJson(json).pinned == s.pinned);
        json["pinned"] = 3;
        QVERIFY2(sessionRejection(json).startsWith("pinned: expected an object"), qPrintable(sessionRejection(json)));
        QJsonObject pinned = toJson(s).value("pinned").toObject();
        QJsonObject orbitJson = pinned.value("orbit").toObject();
        orbitJson["r"] = -2;
        pinned["orbit"] = orbitJson;
        json["pinned"] = pinned;
        QString message = sessionRejection(json);
        QVERIFY2(message.startsWith("pinned.orbit.r:") && message.contains("-2"), qPrintable(message));
        QJsonObject training = pinned.value("training").toObject();
        training["learner"] = "oracle";
        pinned = toJson(s).value("pinned").toObject();
        pinned["training"] = training;
        json["pinned"] = pinned;
        message = sessionRejection(json);
        QVERIFY2(message.startsWith("pinned.training.learner:") && message.contains("oracle"), qPrintable(message));
    }

    void dataTheGroupOfACannotActOnUnpinIt()
    {
        WindowFixture f;
        MainWindow& w = *f.window;
        QVERIFY(loadAndSettle(w, digitsPng()));
        trigger(w, "pinAction");
        QSignalSpy said(w.comparison(), &Comparison::message);
        QVERIFY(loadAndSettle(w, g2Xyz()));  // molecules: no rotation of an image
        QVERIFY(!w.comparison()->isPinned());
        QCOMPARE(said.count(), 1);
        const QString why = said.front().front().toString();
        QVERIFY2(why.startsWith("A was unpinned") && why.contains("rotation"), qPrintable(why));
        // Data of the same kind keep A.
        trigger(w, "pinAction");
        const PinnedSetting a = *w.comparison()->pinned();
        QVERIFY(loadAndSettle(w, g2Xyz()));
        QVERIFY(w.comparison()->isPinned());
        QVERIFY(*w.comparison()->pinned() == a);
    }
};

QTEST_MAIN(TestCompare)
#include "test_compare.moc"

// Every registry parameter a panel shows takes its range (and words) from the registry: the
// distribution editors of the Group and Orbits panels for every group and distribution the data
// allow, the Kernels and Approximation panels' settings (orbit/registry/Figures.hpp) and the
// Training panel's map sizes and evaluation. A control is found by the setting's key (its
// objectName) and compared with the descriptor, so a control that kept a range of its own, or a
// setting of a figure that no control shows, fails here.
#include "render/ParameterLabels.hpp"
#include "state/LabState.hpp"
#include "widgets/ParameterControl.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/group/DistributionEditor.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/registry/Figures.hpp"
#include "orbit/registry/Registry.hpp"

#include "WindowFixture.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QTest>

using namespace orbitui;

namespace {

/// A whole-number setting's spin box: from the valid minimum (or `lowest`) to what a panel offers.
void checkCount(QWidget* panel, const orbit::ParamDescriptor& p, std::optional<int> lowest = std::nullopt)
{
    auto* box = panel->findChild<QSpinBox*>(QString::fromStdString(p.key));
    QVERIFY2(box, qPrintable(panel->objectName() + " shows no control of " + QString::fromStdString(p.key)));
    QCOMPARE(box->minimum(), lowest.value_or(static_cast<int>(p.minimum)));
    QCOMPARE(box->maximum(), static_cast<int>(p.learnMaximum));
    QVERIFY(p.learnMaximum <= p.maximum);
    QCOMPARE(box->toolTip().toStdString(), p.doc);
}

void checkReal(QWidget* panel, const orbit::ParamDescriptor& p)
{
    auto* box = panel->findChild<QDoubleSpinBox*>(QString::fromStdString(p.key));
    QVERIFY2(box, qPrintable(QString::fromStdString("no control of " + p.key)));
    const ParameterInfo info = parameterInfo(p);
    QCOMPARE(box->minimum(), info.minimum);
    QCOMPARE(box->maximum(), info.maximum);
    QCOMPARE(box->decimals(), p.decimals);
    QVERIFY(p.accepts(box->minimum()) && p.accepts(box->maximum()));
}

void checkChoice(QWidget* panel, const orbit::FigureDescriptor& figure)
{
    const orbit::ParamDescriptor& p = figure.setting("method");
    auto* box = panel->findChild<QComboBox*>("method");
    QVERIFY2(box, "no choice of the method");
    QCOMPARE(box->count(), static_cast<int>(p.choices.size()));
    for (int i = 0; i < box->count(); ++i) {
        const orbit::ApproximationDescriptor* a = orbit::findApproximation(p.choices[static_cast<std::size_t>(i)]);
        QCOMPARE(box->itemData(i).toString().toStdString(), a->name);
        QCOMPARE(box->itemText(i).toStdString(), a->displayName);
    }
}

/// Every parameter control of `editor` for the settings now: its spans are the descriptor's.
void checkEditor(DistributionEditor* editor, const OrbitSettings& s, int* checked)
{
    for (const std::string& factor : s.factors()) {
        const DistributionParams& d = s.factor(factor);
        for (const orbit::ParamDescriptor& p : orbit::distributionParameters(d.name, s.factorKind(factor))) {
            ParameterControl* c = editor->parameterControl(QString::fromStdString(factor), QString::fromStdString(p.key));
            QVERIFY2(c, qPrintable(QString::fromStdString(s.group + " " + d.name + "." + p.key) + ": no control"));
            const ParameterInfo info = parameterInfo(p);
            QCOMPARE(c->minimum(), info.minimum);
            QCOMPARE(c->maximum(), info.maximum);
            QCOMPARE(c->sliderMinimum(), p.learnMinimum);
            QCOMPARE(c->sliderMaximum(), p.learnMaximum);
            QCOMPARE(c->logScale(), info.logScale);
            ++*checked;
        }
    }
}

} // namespace

class RegistryRangesTest : public QObject {
    Q_OBJECT
private slots:
    void distributionEditorsSpanTheRegistrysRanges()
    {
        orbittest::WindowFixture f;
        MainWindow& w = *f.window;
        int checked = 0;
        for (const QString& data : {orbittest::digitsPng(), orbittest::g2Xyz()}) {
            QVERIFY(orbittest::loadAndSettle(w, data));
            const auto ds = w.state()->dataset();
            for (const std::string& group : validGroups(ds->kind, ds->shape)) {
                OrbitSettings s = w.state()->orbitSettings();
                s.group = group;
                for (const std::string& factor : s.factors()) {
                    const std::string factorGroup = group == "affine" ? factor : s.groupSpec();
                    for (const std::string& name : validDistributions(factorGroup)) {
                        s.factor(factor).choose(name, s.factorKind(factor));
                        w.state()->setOrbitSettings(s);
                        for (DistributionEditor* editor : {w.groupPanel()->editor(), w.orbitsPanel()->editor()})
                            checkEditor(editor, s, &checked);
                    }
                }
                for (const char* spec : {"cyclic.n", "orthogonal.k"}) {
                    const std::string g(spec, std::string(spec).find('.'));
                    const orbit::ParamDescriptor& p = *orbit::findGroup(g)->parameter(std::string(spec).substr(g.size() + 1));
                    auto* box = w.groupPanel()->editor()->findChild<QSpinBox*>(spec);
                    QVERIFY2(box, spec);
                    QCOMPARE(box->minimum(), static_cast<int>(p.minimum));
                    QCOMPARE(box->maximum(), static_cast<int>(p.maximum));
                }
            }
        }
        // von Mises, uniform (rad and px), Gaussian, log-normal (2), noisy sort: each on both editors.
        QVERIFY2(checked >= 2 * 7, qPrintable(QString::number(checked)));
    }

    void theFiguresSettingsAreTheRegistrys()
    {
        orbittest::WindowFixture f;
        const orbit::FigureDescriptor& kernels = orbit::kernelsFigure();
        KernelsPanel* k = f.window->kernelsPanel();
        checkCount(k, kernels.setting("n"));
        checkCount(k, kernels.setting("r"), 0);  // 0: the orbit settings' r
        checkCount(k, kernels.setting("s"));
        checkReal(k, kernels.setting("bandwidth"));
        checkChoice(k, kernels);

        const orbit::FigureDescriptor& approximation = orbit::approximationFigure();
        ApproximationPanel* a = f.window->approximationPanel();
        checkCount(a, approximation.setting("n"));
        checkCount(a, approximation.setting("ref_r"));
        checkCount(a, approximation.setting("repeats"));
        checkReal(a, approximation.setting("bandwidth"));
        checkChoice(a, approximation);
        for (const char* key : {"s", "r"}) {  // the lists: each value in the setting's range
            const orbit::ParamDescriptor& p = approximation.setting(key);
            QVERIFY(ApproximationPanel::parseList(QString::number(p.maximum), key, nullptr));
            QVERIFY(!ApproximationPanel::parseList(QString::number(p.maximum + 1), key, nullptr));
            QVERIFY(!ApproximationPanel::parseList(QString::number(p.minimum - 1), key, nullptr));
        }
        // The defaults of a fresh panel are the figures'.
        QCOMPARE(k->settings().n, static_cast<int>(kernels.setting("n").defaultValue));
        QCOMPARE(k->settings().method.toStdString(), kernels.setting("method").defaultText);
        QCOMPARE(a->settings().refR, static_cast<int>(approximation.setting("ref_r").defaultValue));
        QCOMPARE(a->settings().sList, approximation.defaultList("s"));
    }

    void theTrainingPanelsSizesAndEvaluationAreTheRegistrys()
    {
        orbittest::WindowFixture f;
        TrainingPanel* t = f.window->trainingPanel();
        for (const char* key : {"s", "r"}) {
            const orbit::ParamDescriptor& p = *orbit::findFeatureMap("irf")->parameter(key);
            auto* box = t->findChild<QSpinBox*>(key);
            QVERIFY2(box, key);
            QCOMPARE(box->minimum(), static_cast<int>(p.minimum));
            QCOMPARE(box->maximum(), static_cast<int>(p.maximum));
        }
        const orbit::ParamDescriptor& k = orbit::evaluationDescriptor(orbit::EvaluationKind::KFold).parameters.front();
        QCOMPARE(t->findChild<QSpinBox*>("folds")->maximum(), static_cast<int>(k.maximum));
        const ParameterInfo fraction = parameterInfo(orbit::evaluationDescriptor(orbit::EvaluationKind::HoldOut).parameters.front());
        QCOMPARE(t->findChild<QDoubleSpinBox*>("holdout")->maximum(), fraction.maximum);
    }
};

QTEST_MAIN(RegistryRangesTest)
#include "test_registry_ranges.moc"

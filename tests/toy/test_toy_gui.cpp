// The window with the test-only toy distribution and learner linked in (tests/toy): on the
// translation group the distribution editor offers "toyshift" beside the built-in ones, choosing it
// shows its parameter as slider and spin box over the descriptor's ranges, and the settings' spec
// builds it; the group flipx takes haar and delta there; the Training panel's learner box offers
// "toymean" with its doc (issue 45 item 3).
#include "ToyDistribution.hpp"
#include "ToyGroup.hpp"

#include "state/LabState.hpp"
#include "state/OrbitSettings.hpp"
#include "widgets/ParameterControl.hpp"
#include "window/group/DistributionEditor.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/registry/Registry.hpp"

#include <QComboBox>

#include <algorithm>
#include <QDoubleSpinBox>
#include <QObject>
#include <QSlider>
#include <QTest>

using namespace orbitui;

class ToyGuiTest : public QObject {
    Q_OBJECT
private slots:
    void theEditorOffersItAndItsSlider()
    {
        LabState state;
        DistributionEditor editor(&state, false);
        OrbitSettings s = state.orbitSettings();
        s.group = "translation";
        s.dist.choose(validDistributions(s.groupSpec()).front(), orbit::GroupKind::Translation);
        state.setOrbitSettings(s);
        QVERIFY(editor.parameterControl("translation", "sigma") || editor.parameterControl("translation", "a"));

        QComboBox* dist = nullptr;
        for (QComboBox* c : editor.findChildren<QComboBox*>())
            if (c->findData("toyshift") >= 0) dist = c;
        QVERIFY2(dist, "no distribution box offers toyshift");
        QCOMPARE(dist->findData("toyshift"), dist->count() - 1);  // after the built-in ones
        QVERIFY(dist->itemData(dist->findData("toyshift"), Qt::ToolTipRole).toString().contains("test-only"));
        dist->setCurrentIndex(dist->findData("toyshift"));
        QCOMPARE(state.orbitSettings().dist.name, std::string("toyshift"));

        const orbit::ParamDescriptor& d = *orbit::findDistribution("toyshift")->parameter("d");
        ParameterControl* control = editor.parameterControl("translation", "d");
        QVERIFY2(control, "no control for toyshift's d");
        QCOMPARE(control->spinBox()->maximum(), d.maximum);
        QCOMPARE(control->sliderMinimum(), d.learnMinimum);
        QCOMPARE(control->sliderMaximum(), d.learnMaximum);
        QCOMPARE(control->value(), d.defaultValue);
        control->slider()->setValue(control->slider()->maximum());
        QCOMPARE(state.orbitSettings().dist.value("d"), d.learnMaximum);

        // The settings' spec builds the toy through the registry.
        const auto group = orbit::makeGroup(state.orbitSettings().groupSpec(), orbit::Shape{8, 8, 1}, 0);
        const auto built = orbit::makeDistribution(state.orbitSettings().dist.spec(), *group);
        QVERIFY(dynamic_cast<const orbittest::ToyShift*>(built.get()));
        QCOMPARE(built->spec(), std::string("toyshift:d=10"));
    }

    void theToyGroupTakesHaarAndDeltaInTheEditor()
    {
        // The toy group flipx (tests/toy/ToyGroup.hpp), by its registration alone: the editor's
        // distributions for it are the ones that apply to every (Haar) group, and the settings build it.
        const std::vector<std::string> valid = validDistributions(orbittest::kFlipXName);
        QVERIFY(std::find(valid.begin(), valid.end(), "haar") != valid.end());
        QVERIFY(std::find(valid.begin(), valid.end(), "delta") != valid.end());
        QVERIFY(std::find(valid.begin(), valid.end(), "vonmises") == valid.end());
        LabState state;
        DistributionEditor editor(&state, false);
        OrbitSettings s = state.orbitSettings();
        s.group = orbittest::kFlipXName;
        s.dist.choose("haar", orbit::registeredGroupKind(orbittest::kFlipXName));
        state.setOrbitSettings(s);
        const auto group = orbit::makeGroup(state.orbitSettings().groupSpec(), orbit::Shape{8, 8, 1}, 0);
        QVERIFY(dynamic_cast<const orbittest::FlipXGroup*>(group.get()));
        QCOMPARE(orbit::makeDistribution(state.orbitSettings().dist.spec(), *group)->spec(), std::string("haar"));
    }

    void theTrainingPanelOffersTheToyLearner()
    {
        LabState state;
        TrainingPanel panel(&state);
        auto* learner = panel.findChild<QComboBox*>("learner");
        QVERIFY(learner);
        const int at = learner->findData("toymean");
        QCOMPARE(at, learner->count() - 1);  // after the built-in ones
        QVERIFY(learner->itemData(at, Qt::ToolTipRole).toString().contains("test-only learner"));
    }
};

QTEST_MAIN(ToyGuiTest)
#include "test_toy_gui.moc"

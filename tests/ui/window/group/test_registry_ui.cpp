// The panels read the core registry: their parameter lists, ranges, slider spans and tooltips, the
// groups offered for a kind of data, the distributions offered per group, the feature maps,
// learners and evaluations in the combo boxes, and the names sessions accept are the registry's.
// Regression: the GUI capped von Mises κ at 1000 while the core accepts 1e6.
#include "render/ParameterLabels.hpp"
#include "state/LabState.hpp"
#include "state/OrbitSettings.hpp"
#include "state/Presets.hpp"
#include "state/Session.hpp"
#include "state/TrainingSettings.hpp"
#include "widgets/ParameterControl.hpp"
#include "window/group/DistributionEditor.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <QComboBox>
#include <QGroupBox>
#include <QDoubleSpinBox>
#include <QJsonDocument>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cmath>

using namespace orbitui;

namespace {

const std::vector<orbit::GroupKind> kGroupKinds = {orbit::GroupKind::Rotation, orbit::GroupKind::Translation,
                                                   orbit::GroupKind::Scale,    orbit::GroupKind::Affine,
                                                   orbit::GroupKind::Cyclic,   orbit::GroupKind::Permutation,
                                                   orbit::GroupKind::Orthogonal};

QStringList itemData(const QComboBox* box)
{
    QStringList out;
    for (int i = 0; i < box->count(); ++i)
        out << box->itemData(i).toString();
    return out;
}

template <class D>
QStringList namesOf(const std::vector<D>& all)
{
    QStringList out;
    for (const D& d : all)
        out << QString::fromStdString(d.name);
    return out;
}

} // namespace

class TestRegistryUi : public QObject {
    Q_OBJECT
private slots:
    void parameterListsAreTheRegistrys()
    {
        int checked = 0;
        for (const orbit::DistributionDescriptor& d : orbit::distributionDescriptors())
            for (orbit::GroupKind k : d.groups) {
                const auto& params = d.parametersOn(k);
                const auto infos = parametersOf(d.name, orbit::toString(k));
                QCOMPARE(infos.size(), params.size());
                for (std::size_t i = 0; i < params.size(); ++i) {
                    const orbit::ParamDescriptor& p = params[i];
                    const ParameterInfo& info = infos[i];
                    const double step = std::pow(10.0, -p.decimals);
                    QCOMPARE(info.key.toStdString(), p.key);
                    QCOMPARE(info.label.toStdString(), p.label);
                    // The spin box's ends: values it shows exactly at its decimals, at most one step in
                    // from the valid range's (π, a closed end, is 3.141 at three decimals: 3.142 is too large).
                    for (double end : {info.minimum, info.maximum}) {
                        const double scaled = end / step;
                        QVERIFY2(!std::isfinite(scaled) || std::abs(scaled - std::round(scaled)) < 1e-6,
                                 qPrintable(QString::number(end, 'g', 17)));
                    }
                    QVERIFY(info.minimum - p.minimum <= step * (1 + 1e-9) && p.maximum - info.maximum <= step * (1 + 1e-9));
                    QCOMPARE(info.sliderMinimum, p.learnMinimum);
                    QCOMPARE(info.sliderMaximum, p.learnMaximum);
                    QCOMPARE(info.logScale, p.logScale);
                    QCOMPARE(info.decimals, p.decimals);
                    QVERIFY(info.tooltip.contains(QString::fromStdString(p.doc)));
                    QVERIFY(p.accepts(info.minimum) && p.accepts(info.maximum));  // the spin box never leaves the valid range
                    ++checked;
                }
            }
        QVERIFY(checked >= 6);
        QVERIFY(parametersOf("haar", "rotation").empty());
        QVERIFY(parametersOf("vonmises", "no-such-group").empty());
    }

    void namesAndDocsAreTheRegistrys()
    {
        for (const orbit::DistributionDescriptor& d : orbit::distributionDescriptors()) {
            QCOMPARE(displayName(d.name).toStdString(), d.displayName);
            QCOMPARE(describeDistribution(d.name).toStdString(), d.doc);
        }
        for (const orbit::GroupDescriptor& g : orbit::groupDescriptors()) {
            QCOMPARE(groupDisplayName(g.name).toStdString(), g.displayName);
            QCOMPARE(describeGroup(g.name).toStdString(), g.doc);
        }
    }

    void validGroupsAndDistributionsAreTheRegistrys()
    {
        for (orbit::DataKind kind : {orbit::DataKind::Images, orbit::DataKind::Coulomb, orbit::DataKind::Vectors})
            for (orbit::Shape shape : {orbit::Shape{28, 28, 1}, orbit::Shape{32, 32, 3}, orbit::Shape{23, 23, 1}, orbit::Shape{1, 10, 1}}) {
                std::vector<std::string> expected;
                for (const orbit::GroupDescriptor* g : orbit::groupsFor(kind, shape))
                    expected.push_back(g->name);
                QCOMPARE(validGroups(kind, shape), expected);
            }
        // CIFAR-sized images are too large for the orthogonal set; digits are not.
        const auto cifar = validGroups(orbit::DataKind::Images, {32, 32, 3});
        QVERIFY(std::find(cifar.begin(), cifar.end(), "orthogonal") == cifar.end());
        const auto digits = validGroups(orbit::DataKind::Images, {28, 28, 1});
        QVERIFY(std::find(digits.begin(), digits.end(), "orthogonal") != digits.end());
        for (orbit::GroupKind k : kGroupKinds) {
            std::vector<std::string> expected;
            for (const orbit::DistributionDescriptor* d : orbit::distributionsFor(k))
                expected.push_back(d->name);
            QCOMPARE(validDistributions(orbit::toString(k)), expected);
        }
        QCOMPARE(validDistributions("cyclic:n=6"), validDistributions("cyclic"));
        QVERIFY(validDistributions("spiral").empty());
    }

    void distributionParamsAreANamePlusTheRegistrysValues()
    {
        // Values are keyed by the registry's parameter keys: every one is taken, another is refused.
        for (const std::string& key : DistributionParams::keys()) {
            DistributionParams p;
            p.setValue(key, 0.1 + 0.2);
            QCOMPARE(p.value(key), 0.1 + 0.2);
        }
        QVERIFY_THROWS_EXCEPTION(std::logic_error, DistributionParams{}.value("gamma"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, DistributionParams{}.setValue("gamma", 1.0));
        // Seeded from the descriptors' defaults on the group chosen for: uniform's window is
        // 0.5 rad on rotations and 1 px on translations.
        using enum orbit::GroupKind;
        for (orbit::GroupKind k : {Rotation, Translation}) {
            const DistributionParams u = DistributionParams::of("uniform", k);
            QCOMPARE(u.value("a"), orbit::distributionParameters("uniform", k).front().defaultValue);
            QCOMPARE(u.values.size(), std::size_t(1));
        }
        QVERIFY(DistributionParams::of("uniform", Rotation).value("a") != DistributionParams::of("uniform", Translation).value("a"));
        // Switching distributions keeps every value and seeds the new one's parameters.
        DistributionParams p = DistributionParams::of("vonmises", Rotation, {{"kappa", 4.0}});
        p.choose("uniform", Rotation);
        QCOMPARE(p.spec(), std::string("uniform:a=0.5"));
        p.setValue("a", 0.25);
        p.choose("vonmises", Rotation);
        QCOMPARE(p.spec(), std::string("vonmises:kappa=4"));
        p.choose("uniform", Rotation);
        QCOMPARE(p.value("a"), 0.25);
        // A parameter without a value reads as its default.
        QCOMPARE((DistributionParams{"lognormal", {}}.value("sigma")), 0.3);
        for (const orbit::DistributionDescriptor& d : orbit::distributionDescriptors())
            for (orbit::GroupKind k : d.groups) {
                if (k == orbit::GroupKind::Affine)
                    continue;
                DistributionParams p;
                p.name = d.name;
                std::vector<std::pair<std::string, double>> values;
                for (const orbit::ParamDescriptor& q : d.parametersOn(k)) {
                    const double v = q.logScale ? std::sqrt(q.learnMinimum * q.learnMaximum) / 3.0
                                                : 0.3 * q.learnMinimum + 0.7 * q.learnMaximum;
                    p.setValue(q.key, v);
                    values.emplace_back(q.key, v);
                }
                QCOMPARE(p.spec(), orbit::formatSpec(d.name, values));
                OrbitSettings s;
                s.group = orbit::toString(k);
                const auto group = orbit::makeGroup(s.groupSpec(), orbit::Shape{8, 8, 1}, 0);
                const auto dist = orbit::makeDistribution(p.spec(), *group);
                QCOMPARE(dist->spec(), p.spec());
            }
        // Affine factors come from the registry's group descriptor.
        OrbitSettings affine;
        affine.group = "affine";
        std::vector<std::string> factors;
        for (orbit::GroupKind k : orbit::findGroup("affine")->factors)
            factors.push_back(orbit::toString(k));
        QCOMPARE(affine.factors(), factors);
    }

    void kappaAboveTheOldGuiCapIsAccepted()
    {
        // The spin box takes the core's whole valid range (κ up to 1e6); the slider spans the
        // registry's typical range and sits at its end for larger values.
        const orbit::ParamDescriptor& kappa = orbit::distributionParameters("vonmises", orbit::GroupKind::Rotation).front();
        ParameterControl control(parametersOf("vonmises", "rotation").front());
        QCOMPARE(control.spinBox()->maximum(), kappa.maximum);
        QCOMPARE(control.spinBox()->minimum(), kappa.minimum);
        control.setValue(5000.0);
        QCOMPARE(control.value(), 5000.0);
        QCOMPARE(control.slider()->value(), ParameterControl::kSteps);
        control.setValue(0.0);  // κ = 0, the Haar measure, is valid
        QCOMPARE(control.value(), 0.0);
        QCOMPARE(control.slider()->value(), 0);
        // The slider runs in log space over [learnMinimum, learnMaximum].
        control.slider()->setValue(ParameterControl::kSteps / 2);
        QVERIFY(std::abs(control.value() - std::sqrt(kappa.learnMinimum * kappa.learnMaximum)) < 1e-3);
        control.slider()->setValue(ParameterControl::kSteps);
        QCOMPARE(control.value(), kappa.learnMaximum);
        // Open minimum (uniform's a > 0): the spin box stops one step above it.
        ParameterControl a(parametersOf("uniform", "rotation").front());
        QVERIFY(a.spinBox()->minimum() > 0);
        a.setValue(0.0);
        QVERIFY(orbit::distributionParameters("uniform", orbit::GroupKind::Rotation).front().accepts(a.value()));
        for (int pos : {0, 1, 250, 500, 999, 1000})
            QCOMPARE(ParameterControl::toPosition(ParameterControl::toValue(pos, 0.01, 1000, true), 0.01, 1000, true), pos);
    }

    void theEditorOffersTheRegistrysGroupsAndRanges()
    {
        LabState state;
        DistributionEditor editor(&state, false);
        auto* cyclicN = editor.findChild<QSpinBox*>("cyclic.n");
        auto* orthogonalK = editor.findChild<QSpinBox*>("orthogonal.k");
        QVERIFY(cyclicN && orthogonalK);
        QCOMPARE(double(cyclicN->maximum()), orbit::findGroup("cyclic")->parameter("n")->maximum);
        QCOMPARE(double(orthogonalK->maximum()), orbit::findGroup("orthogonal")->parameter("k")->maximum);
        ParameterControl* kappa = editor.parameterControl("rotation", "kappa");
        QVERIFY(kappa);
        QCOMPARE(kappa->spinBox()->maximum(), 1e6);
        // The distribution combo lists the registry's distributions of the group, with their docs.
        const auto combos = editor.findChildren<QComboBox*>();
        QComboBox* dist = nullptr;
        for (QComboBox* c : combos)
            if (itemData(c).contains("vonmises"))
                dist = c;
        QVERIFY(dist);
        QStringList expected;
        for (const orbit::DistributionDescriptor* d : orbit::distributionsFor(orbit::GroupKind::Rotation))
            expected << QString::fromStdString(d->name);
        QCOMPARE(itemData(dist), expected);
        for (int i = 0; i < dist->count(); ++i)
            QCOMPARE(dist->itemData(i, Qt::ToolTipRole).toString(), describeDistribution(itemData(dist)[i].toStdString()));
    }

    // A hidden editor (a panel not in sight) builds the boxes of a new group when it is shown or when
    // a control is asked for, not at every change: a lesson start that changes the group and then the
    // data built the hidden editors' boxes twice. Built, it shows what an editor in sight shows.
    void aHiddenEditorBuildsANewGroupsControlsWhenShownOrAsked()
    {
        LabState state;
        DistributionEditor inSight(&state, false), hidden(&state, false);
        inSight.show();
        QVERIFY(QTest::qWaitForWindowExposed(&inSight));
        // The factor boxes and their controls (title, control names and values) that are not on their way
        // out, once the new ones of an editor in sight are shown (a queued show).
        auto layoutOf = [](const DistributionEditor& e) {
            QCoreApplication::sendPostedEvents();
            QStringList out;
            for (const QGroupBox* box : e.findChildren<QGroupBox*>())
                if (!box->isHidden()) {
                    out << box->title();
                    for (const ParameterControl* c : box->findChildren<ParameterControl*>())
                        out << c->objectName() + "=" + QString::number(c->value());
                }
            return out;
        };
        const QStringList rotation = layoutOf(inSight);
        QCOMPARE(layoutOf(hidden), rotation);
        auto switchTo = [&](const std::string& group) {
            OrbitSettings s = state.orbitSettings();
            s.group = group;
            s.dist.choose(validDistributions(s.groupSpec()).front(), s.factorKind(group));
            state.setOrbitSettings(s);
        };
        switchTo("translation");
        const QStringList translation = layoutOf(inSight);
        QVERIFY(translation != rotation);
        QCOMPARE(layoutOf(hidden), rotation);  // not built while hidden
        const QString key = parametersOf(state.orbitSettings().dist.name, "translation").front().key;
        QVERIFY(hidden.parameterControl("translation", key));  // asked for: built
        QCOMPARE(layoutOf(hidden), translation);
        switchTo("scale");
        QVERIFY(layoutOf(inSight) != translation);
        QCOMPARE(layoutOf(hidden), translation);
        hidden.show();
        QVERIFY(QTest::qWaitForWindowExposed(&hidden));
        QCOMPARE(layoutOf(hidden), layoutOf(inSight));  // shown: built before it painted
    }

    // A hidden editor keeps the controls of the group it was built for until it is shown or asked
    // (above). One of them that still moves then (a sweep playing it) must not edit the new group:
    // a permutation's sigma on the affine group asked the settings for a factor they do not have,
    // and the random-click run ended on that logic_error (seed 1, after "combo affine").
    void aStaleControlOfAHiddenEditorEditsNothing()
    {
        LabState state;
        DistributionEditor hidden(&state, false);
        OrbitSettings s = state.orbitSettings();
        s.group = "permutation";
        s.dist.choose("noisysort", s.factorKind("permutation"));
        state.setOrbitSettings(s);
        ParameterControl* sigma = hidden.parameterControl("permutation", "sigma");
        QVERIFY(sigma);
        s = state.orbitSettings();
        s.group = "affine";
        state.setOrbitSettings(s);
        QVERIFY(!state.orbitSettings().hasFactor("permutation"));
        const std::string before = state.orbitSettings().distSpec();
        emit sigma->valueChanged(0.7);  // threw std::logic_error before
        QCOMPARE(state.orbitSettings().group, std::string("affine"));
        QCOMPARE(state.orbitSettings().distSpec(), before);
        // Built again (asked for), the editor's controls are the affine group's and edit it.
        ParameterControl* kappa = hidden.parameterControl("rotation", "kappa");
        QVERIFY(kappa);
        emit kappa->valueChanged(3.5);
        QCOMPARE(state.orbitSettings().factor("rotation").value("kappa"), 3.5);
    }

    void trainingChoicesAreTheRegistrys()
    {
        QStringList maps;
        for (const orbit::FeatureMapDescriptor& m : orbit::featureMapDescriptors())
            if (!m.secondLayer)
                maps << QString::fromStdString(m.name);
        maps << QString::fromStdString(orbit::exactKernelDescriptor().name);  // the exact kernel last, for krr and gp
        QStringList presets;
        for (const std::string& p : featurePresets())
            presets << QString::fromStdString(p);
        QCOMPARE(presets, maps);
        for (const orbit::FeatureMapDescriptor& m : orbit::featureMapDescriptors()) {
            if (m.secondLayer)
                continue;
            QCOMPARE(isInvariantSpec(m.name), m.invariant);
            QCOMPARE(usesGaussianKernel(m.name, "ridge"), m.usesBaseKernel);
            QVERIFY(usesGaussianKernel(m.name, "krr"));
            // The preset spec passes the registry's key check and keeps its keys in spec order.
            const std::string spec = presetSpec(m.name, 500, 16);
            orbit::checkSpecKeys(orbit::parseSpec(spec, "--features"), m);
        }
        QCOMPARE(presetSpec("irf", 500, 16), std::string("irf:s=500,r=16"));
        QCOMPARE(presetSpec("gicdf", 500, 16), std::string("gicdf:m=23,bins=10,r=16,span=auto"));
        QCOMPARE(presetSpec("kif", 500, 16), std::string("kif:k=500,eta=mean,r=16"));
        QCOMPARE(presetSpec("raw", 500, 16), std::string("raw"));

        LabState state;
        TrainingPanel panel(&state);
        auto* preset = panel.findChild<QComboBox*>("preset");
        auto* learner = panel.findChild<QComboBox*>("learner");
        auto* eval = panel.findChild<QComboBox*>("evaluation");
        QVERIFY(preset && learner && eval);
        QStringList presetItems;
        for (int i = 0; i < preset->count(); ++i)
            presetItems << preset->itemText(i);
        QCOMPARE(presetItems, maps);
        QCOMPARE(itemData(learner), namesOf(orbit::learnerDescriptors()));
        QCOMPARE(itemData(eval), namesOf(orbit::evaluationDescriptors()));
        for (int i = 0; i < learner->count(); ++i)
            QCOMPARE(learner->itemText(i).toStdString(), orbit::learnerDescriptors()[std::size_t(i)].displayName);
        // The fold count and the test fraction take the registry's ranges.
        const orbit::ParamDescriptor& k = orbit::evaluationDescriptor(orbit::EvaluationKind::KFold).parameters.front();
        QCOMPARE(double(panel.findChild<QSpinBox*>("folds")->maximum()), k.maximum);
        const orbit::ParamDescriptor& f = orbit::evaluationDescriptor(orbit::EvaluationKind::HoldOut).parameters.front();
        QVERIFY(f.accepts(panel.findChild<QDoubleSpinBox*>("holdout")->minimum()));
        QVERIFY(f.accepts(panel.findChild<QDoubleSpinBox*>("holdout")->maximum()));
        // Every learner's grid axis reaches the core's config; the evaluation specs parse.
        for (const orbit::LearnerDescriptor& l : orbit::learnerDescriptors()) {
            TrainingSettings t;
            t.learner = l.name;
            const orbit::TrainConfig c = makeTrainConfig(t, OrbitSettings{});
            const bool hasAxis = std::any_of(c.grid.begin(), c.grid.end(), [&](const orbit::ParamAxis& a) { return a.name == l.axis(); });
            QCOMPARE(hasAxis, !l.parameters.empty());
            c.validate();
        }
        for (const orbit::EvaluationDescriptor& e : orbit::evaluationDescriptors()) {
            TrainingSettings t;
            t.eval = e.name;
            QCOMPARE(orbit::parseEvaluation(t.evalSpec()).kind, e.id);
        }
        // The locality sweep offers the registry's sweepable parameters.
        OrbitSettings o;
        o.group = "scale";
        o.dist.name = "lognormal";
        QCOMPARE(localityAxes(o), (std::vector<std::string>{"mu", "sigma"}));
    }

    void sessionsNameUnknownRegistryNames_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("group") << QByteArray(R"({"format":"orbitlab-session","orbit":{"group":"spin"}})") << "orbit.group"
                               << "spin" << namesOf(orbit::groupDescriptors());
        QTest::newRow("distribution")
            << QByteArray(R"({"format":"orbitlab-session","orbit":{"scale":{"name":"cauchy"}}})") << "orbit.scale.name"
            << "cauchy" << namesOf(orbit::distributionDescriptors());
        QTest::newRow("learner") << QByteArray(R"({"format":"orbitlab-session","training":{"learner":"lasso"}})")
                                 << "training.learner" << "lasso" << namesOf(orbit::learnerDescriptors());
        QTest::newRow("evaluation") << QByteArray(R"({"format":"orbitlab-session","training":{"eval":"loo"}})")
                                    << "training.eval" << "loo" << namesOf(orbit::evaluationDescriptors());
        QTest::newRow("preset") << QByteArray(R"({"format":"orbitlab-session","training":{"preset":"wavelets"}})")
                                << "training.preset" << "wavelets" << QStringList{"raw", "irf", "kif"};
    }
    void sessionsNameUnknownRegistryNames()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QStringList, expected);
        try {
            sessionFromJson(QJsonDocument::fromJson(json).object());
            QFAIL("accepted");
        } catch (const orbit::SpecError& e) {
            const QString m = QString::fromUtf8(e.what());
            QCOMPARE(QString::fromStdString(e.field()), field);
            QCOMPARE(QString::fromStdString(e.value()), value);
            for (const QString& name : expected)
                QVERIFY2(m.contains(name), qPrintable(m + " lacks " + name));
        }
    }

    void sessionsWriteAndReadTheDistributionsValues()
    {
        SessionState s;
        s.orbit.dist = DistributionParams::of("lognormal", orbit::GroupKind::Scale, {{"mu", -0.25}, {"sigma", 0.1 + 0.2}});
        const QJsonObject dist = toJson(s).value("orbit").toObject().value("distribution").toObject();
        QCOMPARE(dist.keys(), (QStringList{"mu", "name", "sigma"}));
        QCOMPARE(sessionFromJson(toJson(s)).orbit.dist, s.orbit.dist);
        // Older sessions wrote every registry key: each is read back as a value.
        const QJsonObject old{{"format", "orbitlab-session"},
                              {"orbit", QJsonObject{{"group", "rotation"},
                                                    {"distribution", QJsonObject{{"name", "vonmises"}, {"kappa", 2.5},
                                                                                 {"a", 0.5}, {"sigma", 1}, {"mu", 0}}}}}};
        const DistributionParams read = sessionFromJson(old).orbit.dist;
        QCOMPARE(read.spec(), std::string("vonmises:kappa=2.5"));
        QCOMPARE(read.values.size(), std::size_t(4));
        // A distribution named without its values takes the registry's defaults on its group.
        const QJsonObject bare{{"format", "orbitlab-session"},
                               {"orbit", QJsonObject{{"group", "translation"}, {"distribution", QJsonObject{{"name", "uniform"}}}}}};
        QCOMPARE(sessionFromJson(bare).orbit.dist.value("a"),
                 orbit::distributionParameters("uniform", orbit::GroupKind::Translation).front().defaultValue);
    }

    void presetsUseRegisteredNames()
    {
        for (const Preset& p : presets())
            for (const std::string& f : p.settings.factors()) {
                const DistributionParams& d = p.settings.factor(f);
                const orbit::DistributionDescriptor* desc = orbit::findDistribution(d.name);
                QVERIFY2(desc, d.name.c_str());
                QVERIFY(p.name.contains(displayName(d.name)));
                QVERIFY(desc->appliesTo(orbit::findGroup(f)->kind));
            }
    }
};

QTEST_MAIN(TestRegistryUi)
#include "test_registry_ui.moc"

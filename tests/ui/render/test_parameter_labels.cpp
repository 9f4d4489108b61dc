// The one labeller of the registry's parameters (render/ParameterLabels): symbols from the
// descriptors' labels, axis names with the factor and the unit, and the A/B legend built on them.
#include "render/ParameterLabels.hpp"

#include "orbit/registry/Registry.hpp"

#include <QTest>

using namespace orbitui;

class ParameterLabelsTest : public QObject {
    Q_OBJECT
private slots:
    void symbolsAreTheFirstWordOfTheRegistrysLabels()
    {
        QCOMPARE(symbolOf("kappa"), QStringLiteral("κ"));
        QCOMPARE(symbolOf("sigma"), QStringLiteral("σ"));
        QCOMPARE(symbolOf("mu"), QStringLiteral("μ"));
        QCOMPARE(symbolOf("a"), QStringLiteral("a"));
        QCOMPARE(symbolOf("lambda"), QStringLiteral("λ"));  // a learner's axis
        QCOMPARE(symbolOf("no-such-key"), QStringLiteral("no-such-key"));
        for (const orbit::DistributionDescriptor& d : orbit::distributionDescriptors())
            for (const orbit::ParamDescriptor& p : d.parameters)
                QVERIFY2(QString::fromStdString(p.label).startsWith(symbolOf(p) + " ") || symbolOf(p) == QString::fromStdString(p.label),
                         p.label.c_str());
    }

    void axisLabelsNameTheFactorAndTheUnit()
    {
        QCOMPARE(axisLabel("kappa"), QStringLiteral("κ"));
        QCOMPARE(axisLabel("rotation.kappa"), QStringLiteral("rotation κ"));
        QCOMPARE(axisLabel("translation.sigma"), QStringLiteral("translation σ"));
        QCOMPARE(axisLabel("median"), QStringLiteral("bandwidth (× median distance)"));
        const auto& window = orbit::distributionParameters("uniform", orbit::GroupKind::Rotation).front();
        QCOMPARE(axisLabel("rotation.a", window), QStringLiteral("rotation a (rad)"));
        const auto& shift = orbit::distributionParameters("uniform", orbit::GroupKind::Translation).front();
        QCOMPARE(axisLabel("a", shift), QStringLiteral("a (px)"));
        const auto& kappa = orbit::distributionParameters("vonmises", orbit::GroupKind::Rotation).front();
        QCOMPARE(axisLabel("kappa", kappa), QStringLiteral("κ"));
    }
};

QTEST_GUILESS_MAIN(ParameterLabelsTest)
#include "test_parameter_labels.moc"

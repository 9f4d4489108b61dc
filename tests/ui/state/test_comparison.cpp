// The words of the A/B pin (state/Comparison): the setting in the status bar and the legends, its
// parameters in the labeller's symbols (render/ParameterLabels) and numbers cut to four digits.
#include "state/Comparison.hpp"

#include <QTest>

using namespace orbitui;

class ComparisonTest : public QObject {
    Q_OBJECT
private slots:
    void describeWritesEachParameterBySymbol()
    {
        OrbitSettings s;
        s.group = "rotation";
        s.dist.name = "vonmises";
        s.dist.setValue("kappa", 0);
        s.r = 16;
        QCOMPARE(Comparison::describe(s), QStringLiteral("rotation, vonmises κ=0, r=16"));
        s.dist.setValue("kappa", 8.610594855191643);  // readableSpec: four significant digits
        QCOMPARE(Comparison::describe(s), QStringLiteral("rotation, vonmises κ=8.611, r=16"));
        s.dist.name = "uniform";
        s.dist.setValue("a", 0.5);
        QCOMPARE(Comparison::describe(s), QStringLiteral("rotation, uniform a=0.5, r=16"));
    }

    void describeNamesEachFactorOfTheAffineGroup()
    {
        OrbitSettings s;
        s.group = "affine";
        s.r = 8;
        s.factorDists.at("rotation") = {"uniform", {{"a", 1.5}}};
        s.factorDists.at("translation") = {"gaussian", {{"sigma", 1.0}}};
        s.factorDists.at("scale") = {"lognormal", {{"mu", 0.0}, {"sigma", 0.3}}};
        QCOMPARE(Comparison::describe(s),
                 QStringLiteral("affine, rotation uniform a=1.5, translation gaussian σ=1, scale lognormal μ=0 σ=0.3, r=8"));
        s.factorDists.at("scale") = {"delta", {}};
        QCOMPARE(Comparison::describe(s),
                 QStringLiteral("affine, rotation uniform a=1.5, translation gaussian σ=1, scale delta, r=8"));
    }
};

QTEST_GUILESS_MAIN(ComparisonTest)
#include "test_comparison.moc"

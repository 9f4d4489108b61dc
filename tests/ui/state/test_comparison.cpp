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
        s.dist.kappa = 0;
        s.r = 16;
        QCOMPARE(Comparison::describe(s), QStringLiteral("rotation, vonmises κ=0, r=16"));
        s.dist.kappa = 8.610594855191643;  // readableSpec: four significant digits
        QCOMPARE(Comparison::describe(s), QStringLiteral("rotation, vonmises κ=8.611, r=16"));
        s.dist.name = "uniform";
        s.dist.a = 0.5;
        QCOMPARE(Comparison::describe(s), QStringLiteral("rotation, uniform a=0.5, r=16"));
    }

    void describeNamesEachFactorOfTheAffineGroup()
    {
        OrbitSettings s;
        s.group = "affine";
        s.r = 8;
        s.rotation = {"uniform", 1.0, 1.5};
        s.translation = {"gaussian", 1.0, 0.5, 1.0};
        s.scale = {"lognormal", 1.0, 0.5, 0.3, 0.0};
        QCOMPARE(Comparison::describe(s),
                 QStringLiteral("affine, rotation uniform a=1.5, translation gaussian σ=1, scale lognormal μ=0 σ=0.3, r=8"));
        s.scale = {"delta"};
        QCOMPARE(Comparison::describe(s),
                 QStringLiteral("affine, rotation uniform a=1.5, translation gaussian σ=1, scale delta, r=8"));
    }
};

QTEST_GUILESS_MAIN(ComparisonTest)
#include "test_comparison.moc"

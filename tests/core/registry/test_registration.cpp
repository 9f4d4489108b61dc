// The registry builds what it describes (issue 45 item 3): every distribution, feature map,
// kernel, learner and group has its factory, a name is registered once, and what code needs to know about a built
// object is asked of it (isHaar, a kernel family's distance), not read off its name. The test-only
// toy distribution (tests/toy) is not linked here, so this program does not know it.
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"

#include <QObject>
#include <QTest>

using namespace orbit;

class TestRegistration : public QObject {
    Q_OBJECT
private slots:
    void onlyAProgramThatLinksTheToyKnowsIt()
    {
        // Registration, not the core, adds them (tests/toy's programs find them).
        QVERIFY(!findDistribution("toyshift"));
        QVERIFY(!findLearner("toymean"));
        QVERIFY(distributionParameters("toyshift", GroupKind::Translation).empty());
    }

    void everyDistributionIsBuiltByItsDescriptor()
    {
        for (const DistributionDescriptor& d : distributionDescriptors()) {
            QVERIFY2(d.make, d.name.c_str());
            QVERIFY(!d.groups.empty());
        }
        // A second registration of a name, or one without a factory, is a programming error.
        DistributionDescriptor again = *findDistribution("vonmises");
        QVERIFY_THROWS_EXCEPTION(ContractError, registerDistribution(again));
        again.name = "vonmises2";
        again.make = nullptr;
        QVERIFY_THROWS_EXCEPTION(ContractError, registerDistribution(again));
        QVERIFY(!findDistribution("vonmises2"));
        // The Haar measure is known by asking the object, not by its name.
        QVERIFY(makeDistribution("haar", *makeGroup("cyclic:n=4", Shape{8, 8, 1}, 1))->isHaar());
        QVERIFY(!makeDistribution("vonmises:kappa=0", *makeGroup("rotation", Shape{8, 8, 1}, 1))->isHaar());
        // A distribution registered for the whole affine group, named alone, is every factor's.
        const auto affine = makeGroup("affine", Shape{8, 8, 1}, 1);
        QCOMPARE(makeDistribution("delta", *affine)->spec(), std::string("rotation=delta,translation=delta,scale=delta"));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeDistribution("haar", *affine));
    }

    void everyFeatureMapAndKernelIsBuiltByItsDescriptor()
    {
        for (const FeatureMapDescriptor& d : featureMapDescriptors()) QVERIFY2(bool(d.make) != d.secondLayer, d.name.c_str());
        for (const KernelDescriptor& d : kernelDescriptors()) QVERIFY2(d.make, d.name.c_str());
        FeatureMapDescriptor map = *findFeatureMap("irf");
        QVERIFY_THROWS_EXCEPTION(ContractError, registerFeatureMap(map));
        KernelDescriptor kernel = *findKernel("gaussian");
        QVERIFY_THROWS_EXCEPTION(ContractError, registerKernel(kernel));
        // A kernel family is asked what it is: its distance, whatever its bandwidth.
        QVERIFY(kernelFamily("laplacian:median=2").distance() == BaseKernel::Distance::L1);
        QVERIFY(kernelFamily("matern:nu=0.5,sigma=3").distance() == BaseKernel::Distance::Euclidean);
        QVERIFY(kernelFamily("gaussian").distance() == BaseKernel::Distance::SquaredEuclidean);
        QVERIFY(!kernelFamily("polynomial:degree=3").stationary());
        QVERIFY_THROWS_EXCEPTION(SpecError, kernelFamily("cauchy:sigma=1"));
        // The median rule measures the kernel's own distance: L1 for the Laplacian.
        MatrixXfR X(3, 2);
        X << 0, 0, 3, 4, 6, 8;
        QCOMPARE(medianDistanceOf(kernelFamily("gaussian"), X), 5.0);
        QCOMPARE(medianDistanceOf(kernelFamily("laplacian"), X), 7.0);
        QCOMPARE(makeKernel("laplacian:median=2", X).sigma(), 14.0);
        // The invariance probe's plain maps are the registry's.
        for (const FeatureMapDescriptor& d : featureMapDescriptors())
            if (!d.plainMap.empty()) QVERIFY2(findFeatureMap(d.plainMap) && d.invariant, d.name.c_str());
    }

    void everyLearnerAndGroupIsBuiltByItsDescriptor()
    {
        for (const LearnerDescriptor& d : learnerDescriptors()) QVERIFY2(bool(d.make) == d.onFeatures, d.name.c_str());
        LearnerDescriptor again = *findLearner("ridge");
        QVERIFY_THROWS_EXCEPTION(ContractError, registerLearner(again));
        again.name = "ridge2";
        again.make = nullptr;  // it runs on features: it needs its factory
        QVERIFY_THROWS_EXCEPTION(ContractError, registerLearner(again));
        QVERIFY(!findLearner("ridge2"));
        // What the code asks a learner instead of its name (each flag held by the learners it says).
        const auto holders = [](bool LearnerDescriptor::*flag) {
            return learnerList([flag](const LearnerDescriptor& l) { return l.*flag; });
        };
        QCOMPARE(holders(&LearnerDescriptor::oneVsRest), std::string("ridge or svm"));
        QCOMPARE(holders(&LearnerDescriptor::onExactKernel), std::string("krr or gp"));
        QCOMPARE(holders(&LearnerDescriptor::dualWeights), std::string("krr or gp"));
        QCOMPARE(holders(&LearnerDescriptor::posterior), std::string("blr or gp"));
        QCOMPARE(holders(&LearnerDescriptor::logEvidence), std::string("blr or gp"));
        QCOMPARE(holders(&LearnerDescriptor::perClassEvidence), std::string("blr"));
        QCOMPARE(holders(&LearnerDescriptor::gaussianProcess), std::string("gp"));
        QCOMPARE(holders(&LearnerDescriptor::onFeatures), std::string("ridge, svm, krr or blr"));
        for (const GroupDescriptor& g : groupDescriptors()) {
            QVERIFY2(g.make, g.name.c_str());
            // The editor's rows are the required parameters: cyclic's n, orthogonal's k.
            std::vector<std::string> rows;
            for (const ParamDescriptor* p : g.editorParameters()) rows.push_back(p->key);
            QCOMPARE(rows, g.name == "cyclic" ? std::vector<std::string>{"n"}
                           : g.name == "orthogonal" ? std::vector<std::string>{"k"} : std::vector<std::string>{});
            QCOMPARE(g.isProduct(), g.name == "affine");
        }
        QCOMPARE(makeGroup("orthogonal:k=3", Shape{4, 1, 1}, 5)->spec(), std::string("orthogonal:k=3"));
    }
};

QTEST_APPLESS_MAIN(TestRegistration)
#include "test_registration.moc"

// The composition mean (orbit/learn/CompositionMean.hpp): a molecule's atoms are read off its
// Coulomb matrix's diagonal; the least-squares fit recovers a known linear law of the counts from
// the given rows only; the exact kernel machines with `mean` composition fit it inside each
// training fold, so a fold's learned parameters never read its test rows; other data and other
// learners refuse it in one line.
#include "orbit/data/Loaders.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/learn/CompositionMean.hpp"
#include "orbit/util/Error.hpp"

#include "ExactConfigs.hpp"
#include "TestPaths.hpp"

#include <QObject>
#include <QTest>

#include <cmath>
#include <functional>
#include <map>
#include <numeric>

using namespace orbit;

namespace {

using orbittest::g2;

std::string refusal(const std::function<void()>& f)
{
    try {
        f();
    } catch (const SpecError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestCompositionMean : public QObject {
    Q_OBJECT

private slots:
    void chargesAreReadOffTheDiagonal()
    {
        // Methane, padded to 6 x 6: C_ii = 0.5 Z^2.4.
        std::vector<float> m(36, 0.0f);
        m[0] = float(0.5 * std::pow(6.0, 2.4));
        for (int i = 1; i < 5; ++i) m[std::size_t(i * 7)] = 0.5f;
        QCOMPARE(atomCharges(m.data(), 6), (std::vector<int>{6, 1, 1, 1, 1}));
        m[7] = 3.0f;  // not 0.5 Z^2.4 of a whole Z
        QVERIFY(refusal([&] { atomCharges(m.data(), 6); }).find("0.5 Z^2.4") != std::string::npos);
        // Every G2 molecule reads as whole charges of H, C, N, O, F, Si, P, S, Cl, ...
        const Dataset data = g2();
        for (Eigen::Index r = 0; r < Eigen::Index(data.count()); ++r) {
            const std::vector<int> z = atomCharges(data.X.row(r).data(), data.shape.height);
            QVERIFY(!z.empty());
        }
    }

    // Targets that are exactly 5 + 2 n_C + 0.5 n_H + ... are fitted exactly, from the given rows only.
    void theFitRecoversALinearLaw()
    {
        Dataset data = g2();
        const std::map<int, double> perAtom = {{1, 0.5}, {6, 2.0}, {7, -1.0}, {8, 3.0}};
        for (std::size_t r = 0; r < data.count(); ++r) {
            double y = 5.0;
            for (int z : atomCharges(data.X.row(Eigen::Index(r)).data(), data.shape.height))
                y += perAtom.count(z) ? perAtom.at(z) : 0.25 * z;
            data.targets[r] = y;
        }
        Indices rows(data.count());
        std::iota(rows.begin(), rows.end(), std::size_t(0));
        const CompositionMean m = CompositionMean::fit(data, rows);
        const std::vector<double> at = m.at(data, rows);
        for (std::size_t r = 0; r < rows.size(); ++r)
            QVERIFY2(std::abs(at[r] - data.targets[r]) < 1e-6 * std::abs(data.targets[r]) + 1e-6,
                     (std::to_string(r) + ": " + std::to_string(at[r]) + " vs " + std::to_string(data.targets[r])).c_str());
        // Other rows' targets do not move a fit on the first half.
        const Indices half(rows.begin(), rows.begin() + std::ptrdiff_t(rows.size() / 2));
        Dataset changed = data;
        for (std::size_t r = rows.size() / 2; r < rows.size(); ++r) changed.targets[r] += 1000.0 * double(r);
        QCOMPARE(CompositionMean::fit(changed, half).weights(), CompositionMean::fit(data, half).weights());
    }

    // learn --learner gp --mean composition --eval kfold:3: fold 1's learned sigma, bandwidth, noise
    // and evidence are the same bits when its test targets are shuffled and its test inputs' bonds
    // (the off-diagonal entries) changed; the mean lowers G2's error against the constant mean.
    void learningWithTheMeanNeverReadsATestRow()
    {
        const Dataset data = g2();
        LocalityConfig c = orbittest::g2SigmaLearning(2);
        c.mean = "composition";
        const ExactLearnResult a = learnExactGp(data, c, 6, 3);
        TrainConfig tc;
        tc.eval = c.eval;
        tc.seed = c.seed;
        const Indices test = outerSplits(data, tc).front().test;
        Dataset changed = data;
        const Eigen::Index n = data.shape.height;
        for (std::size_t k = 0; k < test.size(); ++k) {
            changed.targets[test[k]] = data.targets[test[(k + 1) % test.size()]] + 100.0;
            for (Eigen::Index i = 0; i < n; ++i)
                for (Eigen::Index j = 0; j < n; ++j)
                    if (i != j) changed.X(Eigen::Index(test[k]), i * n + j) *= 1.5f;
        }
        const ExactLearnResult b = learnExactGp(changed, c, 6, 3);
        QCOMPARE(a.folds.front().params, b.folds.front().params);
        QCOMPARE(a.folds.front().hyper.sigma, b.folds.front().hyper.sigma);
        QCOMPARE(a.folds.front().logEvidence, b.folds.front().logEvidence);
        QVERIFY(a.folds.front().test != b.folds.front().test);
    }

    void otherDataAndLearnersRefuseIt()
    {
        TrainConfig c;
        c.features = "rf:s=50";
        c.mean = "composition";
        QVERIFY(refusal([&] { c.validate(); }).find("exact kernel machines") != std::string::npos);
        c.mean = "dressed";
        QVERIFY(refusal([&] { c.validate(); }).find("constant") != std::string::npos);
        // Images have no composition.
        TrainConfig d;
        d.features = "exact:r=1";
        d.learner = "gp";
        d.kernel = "gaussian:median=1";
        d.mean = "composition";
        const Dataset digits = prepareDataset(loadDataset(orbittest::bundledFile("digits.png")), 40, false, 28, 1);
        QVERIFY(refusal([&] { train(digits, d); }).find("Coulomb matrices") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCompositionMean)
#include "test_composition_mean.moc"

// The sweep of one input in core (orbit/figures/PredictSweep.hpp, issue 44): the range's text,
// the group elements of each parameter, the shuffles of a molecule's atoms (the padding stays), a
// linear model on raw pixels swept by exact half turns against the reversed image, and an image file
// made an input of the model's shape (grey, scaled, with a note; or as it is, without one).
#include "orbit/data/Loaders.hpp"
#include "orbit/figures/PredictSweep.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <numeric>

using namespace orbit;

namespace {

/// A linear classifier of 3 classes on the raw pixels of h x w grey images, seeded weights.
SavedModel rawModel(int h, int w)
{
    SavedModel m;
    m.map.features = "raw";
    m.map.kind = DataKind::Images;
    m.map.shape = {h, w, 1};
    m.dim = h * w;
    m.learner = "ridge";
    Rng rng = makeRng(5);
    m.weights.resize(m.dim, 3);
    for (Eigen::Index i = 0; i < m.weights.size(); ++i) m.weights.data()[i] = standardNormal(rng);
    m.bias = Eigen::VectorXd::Constant(3, 0.25);
    m.coding = TargetCoding::classes(3);
    m.integerLabels = {0, 1, 2};
    return m;
}

std::string sweepFieldOf(const std::string& text)
{
    try {
        parseSweep(text);
    } catch (const SpecError& e) {
        return e.field();
    }
    return "accepted";
}

} // namespace

class TestPredictSweep : public QObject {
    Q_OBJECT
private slots:
    void rangeText()
    {
        const SweepRange r = parseSweep("rotation:0:360:73");
        QCOMPARE(r.parameter, SweepParameter::Rotation);
        QCOMPARE(r.values.size(), std::size_t(73));
        QCOMPARE(r.values.front(), 0.0);
        QCOMPARE(r.values[1], 5.0);
        QCOMPARE(r.values.back(), 360.0);
        QCOMPARE(parseSweep("scale:0.5:2:4").values.back(), 2.0);
        QCOMPARE(parseSweep("translation-y:-3:3:7").values[3], 0.0);
        for (const char* bad : {"twist:0:1:3", "rotation:0:360:1", "rotation:0:360", "scale:0:1:3", "permutation:0:1.5:2",
                                "permutation:-1:2:4", "rotation:a:1:3"})
            QVERIFY2(sweepFieldOf(bad) == "sweep", bad);
        QVERIFY_THROWS_EXCEPTION(SpecError, checkSweepInput(SweepParameter::Permutation, DataKind::Images));
        QVERIFY_THROWS_EXCEPTION(SpecError, checkSweepInput(SweepParameter::Rotation, DataKind::Coulomb));
        checkSweepInput(SweepParameter::Scale, DataKind::Images);
        // The values a caller other than parseSweep gives (the window, Python) are checked too.
        QVERIFY_THROWS_EXCEPTION(SpecError, sweepElement(SweepParameter::Permutation, -1, nullptr, {4, 4, 1}, 0));
        QVERIFY_THROWS_EXCEPTION(SpecError, sweepElement(SweepParameter::Scale, 0, nullptr, {4, 4, 1}, 0));
        QVERIFY_THROWS_EXCEPTION(SpecError, sweepElement(SweepParameter::Rotation, std::nan(""), nullptr, {4, 4, 1}, 0));
    }

    void elementsOfEachParameter()
    {
        const Shape s{20, 20, 1};
        QCOMPARE(sweepElement(SweepParameter::Rotation, 90, nullptr, s, 0).theta, std::numbers::pi / 2);
        QCOMPARE(sweepElement(SweepParameter::Rotation, 180, nullptr, s, 0).theta, std::numbers::pi);
        QCOMPARE(sweepElement(SweepParameter::Rotation, 270, nullptr, s, 0).theta, -std::numbers::pi / 2);
        QCOMPARE(sweepElement(SweepParameter::Rotation, 360, nullptr, s, 0).theta, 0.0);
        QCOMPARE(sweepElement(SweepParameter::TranslationX, 2.5, nullptr, s, 0).dx, 2.5);
        QCOMPARE(sweepElement(SweepParameter::TranslationY, -1, nullptr, s, 0).dy, -1.0);
        QCOMPARE(sweepElement(SweepParameter::Scale, 1.25, nullptr, s, 0).scale, 1.25);
    }

    // Shuffle k of a molecule: a permutation of its atoms only, the padding in place, the same for the
    // same seed, another for another k; shuffle 0 is the identity.
    void shufflesOfAtoms()
    {
        std::vector<int> identity(14);
        std::iota(identity.begin(), identity.end(), 0);
        QCOMPARE(permutationOfAtoms(14, 9, 0, 3), identity);
        const auto p1 = permutationOfAtoms(14, 9, 1, 3), p2 = permutationOfAtoms(14, 9, 2, 3);
        QCOMPARE(permutationOfAtoms(14, 9, 1, 3), p1);
        QVERIFY(p1 != identity && p1 != p2);
        auto sorted = p1;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(sorted, identity);
        for (int i = 9; i < 14; ++i) QCOMPARE(p1[std::size_t(i)], i);
        // The atoms of a Coulomb matrix: up to its last non-zero diagonal.
        std::vector<float> c(16, 0.0f);
        c[0] = 36.8f;
        c[5] = 0.5f;
        c[10] = 0.5f;
        QCOMPARE(atomsOf(c.data(), 4), 3);
    }

    // A half turn of a square image is an exact pixel permutation (the flat vector reversed): the
    // sweep at 180 degrees gives the reversed image's bits, at 0 and 360 the image's own.
    void halfTurnIsTheReversedImage()
    {
        const ModelPredictor predictor(rawModel(6, 6), "raw");
        std::vector<float> x(36);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(0.7 * double(i)) * 0.5 + 0.5);
        std::vector<float> reversed(x.rbegin(), x.rend());
        const SweepResult r = predictSweep(predictor, x.data(), 0, parseSweep("rotation:0:360:3"), 0);
        QCOMPARE(r.scores.rows(), Eigen::Index(3));
        const Eigen::RowVectorXd upright = scoresOfRow(predictor, x.data(), 0);
        const Eigen::RowVectorXd turned = scoresOfRow(predictor, reversed.data(), 0);
        QCOMPARE(Eigen::RowVectorXd(r.scores.row(0)), upright);
        QCOMPARE(Eigen::RowVectorXd(r.scores.row(1)), turned);
        QCOMPARE(Eigen::RowVectorXd(r.scores.row(2)), upright);
        QVERIFY(upright != turned);
        QCOMPARE(r.top.size(), std::size_t(3));
        QVERIFY(r.value.empty() && !r.hasInterval());
        // The linear model itself: x W + b.
        const Eigen::Map<const Eigen::VectorXf> xv(x.data(), 36);
        const Eigen::RowVectorXd direct = xv.cast<double>().transpose() * predictor.model().weights +
                                          predictor.model().bias.transpose();
        QVERIFY((upright - direct).cwiseAbs().maxCoeff() < 1e-9);
        // A model without group samples has no Monte Carlo error.
        const MonteCarloError e = monteCarloError(predictor, x.data(), 0, 4, 0);
        QCOMPARE(e.sd.maxCoeff(), 0.0);
        QVERIFY(e.how.find("no group samples") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(SpecError, predictSweep(predictor, x.data(), 0, parseSweep("permutation:0:2:3"), 0));
    }

    // An image file as an input: a grey file of the model's shape as it is (no note, the loader's
    // values k/255); a colour file of another size made grey and scaled, with a note saying so.
    void imageFileAsInput()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string grey = dir.filePath("g.pgm").toStdString(), colour = dir.filePath("c.ppm").toStdString();
        {
            std::ofstream g(grey, std::ios::binary);
            g << "P5\n4 3\n255\n";
            for (int i = 0; i < 12; ++i) g.put(char(i * 20));
            std::ofstream c(colour, std::ios::binary);
            c << "P6\n8 6\n255\n";
            for (int i = 0; i < 48; ++i) c << char(255) << char(0) << char(0);  // pure red
        }
        std::string note = "unset";
        const auto g = loadImageAsInput(grey, {3, 4, 1}, &note);
        QVERIFY(note.empty());
        QCOMPARE(g.size(), std::size_t(12));
        for (int i = 0; i < 12; ++i) QVERIFY(std::abs(g[std::size_t(i)] - float(i * 20) / 255.0f) <= 1e-7f);
        const auto c = loadImageAsInput(colour, {3, 4, 1}, &note);
        QCOMPARE(c.size(), std::size_t(12));
        QVERIFY2(note.find("made grey") != std::string::npos && note.find("scaled to 3x4") != std::string::npos, note.c_str());
        for (float v : c) QVERIFY(std::abs(v - 0.299f) < 0.002f);  // red's grey weight
        QVERIFY_THROWS_EXCEPTION(LoadError, loadImageAsInput(dir.filePath("missing.png").toStdString(), {3, 4, 1}));
    }
};

QTEST_MAIN(TestPredictSweep)
#include "test_predict_sweep.moc"

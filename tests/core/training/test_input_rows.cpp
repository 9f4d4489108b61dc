// Which input rows a rank of many reads (trainingInputRows, featureInputRows, localityInputRows):
// every row any grid point's run of blocks may give it, and the median rule's sample; every row
// when the map fits on the data or the job has one rank.
#include "PlayedRank.hpp"
#include "orbit/locality/EvidenceObjective.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/training/InputRows.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/parallel/BlockSum.hpp"
#include "orbit/util/Random.hpp"

#include <QTest>
#include <QObject>
#include <QString>

using namespace orbit;
using orbittest::PlayedRank;

namespace {

/// Labels and count only, as the first of a rank's two passes loads them.
Dataset labelsOnly(std::size_t n, int classes, std::uint64_t seed)
{
    Dataset d;
    d.kind = DataKind::Vectors;
    d.shape = {1, 3, 1};
    d.X = MatrixXfR::Zero(Eigen::Index(n), 3);
    d.held.assign(n, 0);
    Rng rng = makeRng(seed, 1);
    for (std::size_t i = 0; i < n; ++i) d.labels.push_back(int(uniform01(rng) * classes));
    d.numClasses = classes;
    return d;
}

} // namespace

class TestInputRows : public QObject {
    Q_OBJECT
private slots:
    /// Spread owners weigh a block's rows by f and its training rows by p more (Trainer's
    /// spreadOwners). For every ratio p / f, from the rows alone to the training rows alone, each
    /// rank's run lies inside the rows it reads, with a holdout, k folds and a test file after the data.
    void everyCostRatiosRunIsRead_data()
    {
        QTest::addColumn<QString>("eval");
        QTest::addColumn<int>("testFrom");
        QTest::newRow("holdout") << "holdout:0.3" << 0;
        QTest::newRow("kfold") << "kfold:4" << 0;
        QTest::newRow("test file after the data") << "holdout:0.2" << 1400;
        QTest::newRow("small test file") << "holdout:0.2" << 1900;
    }
    void everyCostRatiosRunIsRead()
    {
        QFETCH(QString, eval);
        QFETCH(int, testFrom);
        const std::size_t n = 2000;
        const Dataset data = labelsOnly(n, 3, 5);
        TrainConfig c;
        c.features = "rf:s=50";
        c.kernel = "gaussian:sigma=2";
        c.eval = eval.toStdString();
        c.testFrom = std::size_t(testFrom);
        c.blockRows = 37;
        const RowBlocks blocks{Eigen::Index(n), 37};
        std::vector<char> training(n, 0);
        for (const Split& s : outerSplits(data, c))
            for (std::size_t r : s.train) training[r] = 1;
        for (int P : {2, 3, 5}) {
            std::vector<std::vector<char>> reads;
            for (int q = 0; q < P; ++q) {
                reads.push_back(trainingInputRows(data, c, PlayedRank(q, P)));
                QCOMPARE(reads.back().size(), n);
                const auto count = std::size_t(std::count(reads.back().begin(), reads.back().end(), char(1)));
                QVERIFY2(count < n, qPrintable(QString("P=%1 rank %2 reads all %3 rows").arg(P).arg(q).arg(n)));
            }
            for (double ratio : {0.0, 1e-3, 0.1, 0.5, 1.0, 1.7, 3.0, 10.0, 1e3, 1e9}) {
                std::vector<double> weights(std::size_t(blocks.count()), 0.0);
                for (std::size_t r = 0; r < n; ++r) weights[std::size_t(blocks.of(Eigen::Index(r)))] += 1.0 + (training[r] ? ratio : 0.0);
                const std::vector<Eigen::Index> starts = weightedBlockStarts(weights, P);
                for (int q = 0; q < P; ++q)
                    for (Eigen::Index r = blocks.begin(starts[std::size_t(q)]); r < blocks.begin(starts[std::size_t(q) + 1]); ++r)
                        QVERIFY2(reads[std::size_t(q)][std::size_t(r)],
                                 qPrintable(QString("P=%1 ratio %2: rank %3 owns row %4 it did not read").arg(P).arg(ratio).arg(q).arg(r)));
            }
            // Gathered rows (svm, krr, the dual form): the equal shares of blocks.
            for (int q = 0; q < P; ++q) {
                const PlayedRank rank(q, P);
                for (Eigen::Index r = rank.firstRow(blocks); r < rank.lastRow(blocks); ++r) QVERIFY(reads[std::size_t(q)][std::size_t(r)]);
            }
        }
    }

    /// The median rule's sample is read by every rank when a grid point or the kernel takes it.
    void medianSampleIsRead()
    {
        QVERIFY(usesMedianRule("gaussian:median=2") && usesMedianRule(" gaussian : median = 1 "));
        QVERIFY(!usesMedianRule("gaussian:sigma=1") && !usesMedianRule("polynomial:degree=3") && !usesMedianRule(""));
        const std::size_t n = 3000;
        const Dataset data = labelsOnly(n, 2, 9);
        TrainConfig c;
        c.features = "rf:s=20";  // no --kernel: the bandwidth is searched over median multiples
        const std::vector<char> rows = trainingInputRows(data, c, PlayedRank(1, 2));
        for (std::size_t r : medianSampleRows(n, 1000, c.seed)) QVERIFY(rows[r]);
        c.kernel = "gaussian:median=1";
        const std::vector<char> kernelRows = trainingInputRows(data, c, PlayedRank(0, 2));
        for (std::size_t r : medianSampleRows(n, 1000, featureSeed(c.seed))) QVERIFY(kernelRows[r]);
        const std::vector<char> features = featureInputRows(n, "rf:s=20", "gaussian:median=1", 4, 512, PlayedRank(1, 3));
        for (std::size_t r : medianSampleRows(n, 1000, 4)) QVERIFY(features[r]);
        QVERIFY(std::count(features.begin(), features.end(), char(1)) < std::ptrdiff_t(n));
    }

    /// One rank, or a map fitted on the data: every row (an empty answer).
    void everyRowWhenTheFitNeedsThem()
    {
        const Dataset data = labelsOnly(1500, 2, 3);
        TrainConfig c;
        c.kernel = "gaussian:sigma=1";
        c.features = "nystrom:s=20";
        QVERIFY(trainingInputRows(data, c, PlayedRank(0, 2)).empty());
        c.features = "rf:s=20";
        QVERIFY(trainingInputRows(data, c, oneProcess()).empty());
        QVERIFY(!trainingInputRows(data, c, PlayedRank(0, 2)).empty());
        QVERIFY(featureInputRows(1500, "nystrom:s=20", "", 0, 512, PlayedRank(1, 2)).empty());
        LocalityConfig l;
        l.features = "nystrom:s=20";
        l.group = "rotation";
        l.dist = "vonmises:kappa=1";
        QVERIFY(localityInputRows(data, l, PlayedRank(0, 2)).empty());
    }

    /// learn: this rank's blocks of the learning rows and of the held-out rows.
    void localityReadsItsBlocksOfBothParts()
    {
        const std::size_t n = 1200;
        const Dataset data = labelsOnly(n, 2, 4);
        LocalityConfig l;
        l.features = "irf:s=10,r=2";
        l.group = "rotation";
        l.dist = "vonmises:kappa=1";
        l.kernel = "gaussian:sigma=1";
        l.eval = "holdout:0.25";
        l.blockRows = 100;
        Indices test;
        const Indices rows = learningRows(data, l, &test);
        std::vector<int> readers(n, 0);
        for (int q = 0; q < 2; ++q) {
            const std::vector<char> mine = localityInputRows(data, l, PlayedRank(q, 2));
            for (std::size_t r = 0; r < n; ++r) readers[r] += mine[r];
        }
        // Without a median sample each row is read by exactly one of the two ranks.
        for (std::size_t r = 0; r < n; ++r) QCOMPARE(readers[r], 1);
    }
};

QTEST_GUILESS_MAIN(TestInputRows)
#include "test_input_rows.moc"

// GICDF features (Mroueh et al.): invariance under the whole finite group, the norm options, the
// measured threshold range and the counts of the definition on every pooling path.
#include "orbit/features/GicdfMap.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/util/Error.hpp"

#include "FeatureTestData.hpp"
#include "RandomMatrices.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <string>
#include <vector>

using namespace orbit;
using orbittest::context;
using orbittest::digits;
using orbittest::randomMatrix;
using orbittest::sameBits;

class TestGicdf : public QObject {
    Q_OBJECT
private slots:
    // GICDF with the whole finite group: {<g_i t, g x>} = {<g^-1 g_i t, x>} is the same multiset,
    // so the empirical CDFs (counts) are identical: Phi(g x) = Phi(x) exactly.
    void gicdfIsInvariantUnderC4()
    {
        const Dataset& d = digits();
        auto c = context(DataKind::Images, d.shape, "cyclic:n=4", "haar", 1.0);
        GicdfMap f(c, 50, 10, 4);
        f.fit(d.X.topRows(20), 1);
        MatrixXfR X(2, d.shape.dim());
        X.row(0) = d.X.row(7);
        GroupElement g;
        g.k = 3;
        c.group->apply(g, d.sample(7), X.data() + X.cols(), d.shape);
        const MatrixXfR F = f.transform(X);
        QCOMPARE(F.cols(), Eigen::Index(50 * 21));
        QVERIFY(F.row(0).cwiseAbs().maxCoeff() > 0);
        QCOMPARE((F.row(0) - F.row(1)).cwiseAbs().maxCoeff(), 0.0f);
        // a CDF is non-decreasing in the threshold and ends at its maximum value
        for (int k = 1; k < 21; ++k) QVERIFY(F(0, k) >= F(0, k - 1));
    }

    // norm=each (the paper's) sees only the direction of x: Phi(2x) = Phi(x). norm=max divides by the
    // largest training norm, so a scaled input (a larger molecule) gets other features.
    void gicdfNormKeepsSizeOnlyWithMax()
    {
        const MatrixXfR X = orbittest::symmetricMatrices(20, 5, 19);
        const FeatureContext c = context(DataKind::Coulomb, Shape{5, 5, 1}, "permutation", "haar", 1.0);
        MatrixXfR Y(2, 25);
        Y.row(0) = X.row(3) * 0.5f;
        Y.row(1) = X.row(3);
        auto each = makeFeatureMap("gicdf:m=40,bins=10,r=8", c), max = makeFeatureMap("gicdf:m=40,bins=10,r=8,norm=max", c);
        QCOMPARE(max->spec(), std::string("gicdf:m=40,bins=10,r=8,norm=max"));
        each->fit(X, 2);
        max->fit(X, 2);
        const MatrixXfR E = each->transform(Y), M = max->transform(Y);
        QVERIFY(sameBits(E.row(0), E.row(1)));
        QVERIFY2((M.row(0) - M.row(1)).norm() > 0.02 * M.row(1).norm(), qPrintable(QString::number((M.row(0) - M.row(1)).norm())));
        QVERIFY_THROWS_EXCEPTION(SpecError, makeFeatureMap("gicdf:m=4,bins=2,r=2,norm=none", c));
    }

    // span=auto measures the threshold range: for unit inputs and t ~ N(0, I/d) a projection is about
    // N(0, 1/d), whose |.| has its 99th percentile at 2.576 / sqrt(d); the paper's range is 1 + eps.
    void gicdfMeasuresItsThresholdRange()
    {
        const MatrixXfR X = randomMatrix(400, 100, 23);
        const FeatureContext c = context(DataKind::Vectors, Shape{1, 100, 1}, "cyclic:n=4", "haar", 1.0);
        auto measured = makeFeatureMap("gicdf:m=60,bins=10,r=4,span=auto", c);
        auto paper = makeFeatureMap("gicdf:m=60,bins=10,r=4", c), fixed = makeFeatureMap("gicdf:m=60,bins=10,r=4,span=0.3", c);
        for (auto* f : {measured.get(), paper.get(), fixed.get()}) f->fit(X, 5);
        const double span = dynamic_cast<GicdfMap&>(*measured).span();
        QVERIFY2(std::abs(span - 0.2576) < 0.03, std::to_string(span).c_str());
        QCOMPARE(dynamic_cast<GicdfMap&>(*paper).span(), 1.1);
        QCOMPARE(dynamic_cast<GicdfMap&>(*fixed).span(), 0.3);
        QCOMPARE(measured->spec(), std::string("gicdf:m=60,bins=10,r=4,span=auto"));
        QVERIFY2(measured->kernel().find("s = 0.2") != std::string::npos, measured->kernel().c_str());
        // Finer thresholds spread the CDF: with the paper's range the r projections of a template
        // fall into the few bins next to 0, so few thresholds see a CDF strictly between 0 and 1.
        auto between = [&](const FeatureMap& f) {
            const MatrixXfR F = f.transform(X.topRows(20));
            const float top = F.maxCoeff();
            return ((F.array() > 0.0f) && (F.array() < top * (1 - 1e-6f))).count();
        };
        QVERIFY2(between(*measured) > 3 * between(*paper),
                 (std::to_string(between(*measured)) + " vs " + std::to_string(between(*paper))).c_str());
        for (const char* bad : {"gicdf:m=4,bins=2,r=2,span=0", "gicdf:m=4,bins=2,r=2,span=-1", "gicdf:m=4,bins=2,r=2,span=wide"})
            QVERIFY_THROWS_EXCEPTION(SpecError, makeFeatureMap(bad, c));
    }

    // The GICDF entries are the paper's counts: for C_4 enumerated exactly (r = 4),
    // Phi(x)_{j,k} = sqrt(s) / (sqrt(n m) r) #{g : <t_j, g x / ||x||> <= s k / n}, k = -n..n.
    // Computed here directly in double from the templates; entries at a threshold within float
    // rounding may differ by one count. The bin counts cover the three pooling paths: byte steps
    // (2n + 1 <= 64), float steps (<= 128) and the histogram.
    void gicdfCountsMatchTheDefinition_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("n=6") << 6;
        QTest::newRow("n=31") << 31;
        QTest::newRow("n=40") << 40;
        QTest::newRow("n=70") << 70;
    }

    void gicdfCountsMatchTheDefinition()
    {
        QFETCH(int, n);
        const Dataset& d = digits();
        auto c = context(DataKind::Images, d.shape, "cyclic:n=4", "haar", 1.0);
        const int m = 40, r = 4;
        const double s = 1.1;
        GicdfMap f(c, m, n, r);
        f.fit(d.X.topRows(20), 3);
        const MatrixXfR X = d.X.middleRows(30, 5);
        const MatrixXfR F = f.transform(X);
        const MatrixXfR& T = f.templates();
        QCOMPARE(T.rows(), Eigen::Index(m));
        const double scale = std::sqrt(s) / (std::sqrt(double(n) * m) * r);
        std::vector<float> gx(std::size_t(d.shape.dim()));
        int mismatches = 0, entries = 0;
        for (Eigen::Index x = 0; x < X.rows(); ++x) {
            Eigen::MatrixXd proj(m, r);  // <t_j, g_k x / ||x||>
            for (int k = 0; k < r; ++k) {
                GroupElement g;
                g.k = k;
                c.group->apply(g, X.row(x).data(), gx.data(), d.shape);
                const Eigen::VectorXd v = Eigen::Map<const Eigen::VectorXf>(gx.data(), d.shape.dim()).cast<double>();
                proj.col(k) = T.cast<double>() * (v / v.norm());
            }
            for (int j = 0; j < m; ++j)
                for (int k = -n; k <= n; ++k) {
                    const double tau = s * k / n;
                    const int count = int((proj.row(j).array() <= tau).count());
                    const double got = F(x, j * (2 * n + 1) + (k + n)) / scale;
                    QVERIFY2(std::abs(got - std::round(got)) < 1e-4, qPrintable(QString::number(got)));
                    mismatches += std::abs(int(std::lround(got)) - count) > 0;
                    QVERIFY(std::abs(int(std::lround(got)) - count) <= 1);
                    ++entries;
                }
        }
        QVERIFY2(mismatches <= entries / 1000, qPrintable(QString::number(mismatches)));
    }

    // span=auto and norm=max measure the rows they are fitted on, so a training run fits them on
    // each split's training rows: noise put in the test rows leaves the fold's log evidence (on its
    // training part) the same bits; span=1.1 reads no row at all.
    void aRunMeasuresTheSpanOnTrainingRowsOnly()
    {
        Dataset d = digits();
        TrainConfig c;
        c.group = "rotation";
        c.dist = "vonmises:kappa=2";
        c.learner = "blr";
        c.eval = "holdout:0.25";
        c.seed = 4;
        const Indices test = outerSplits(d, c).front().test;
        Dataset noisy = d;
        Rng rng = makeRng(8, 2);
        for (std::size_t i : test)
            for (Eigen::Index t = 0; t < d.X.cols(); ++t) noisy.X(Eigen::Index(i), t) = float(3.0 * standardNormal(rng));
        for (const char* features : {"gicdf:m=20,bins=5,r=2,span=auto", "gicdf:m=20,bins=5,r=2,norm=max,span=1.1"}) {
            c.features = features;
            const TrainResult a = train(d, c), b = train(noisy, c);
            QVERIFY2(a.folds.front().logEvidence == b.folds.front().logEvidence, features);
            QVERIFY(a.folds.front().score != b.folds.front().score);  // the test rows did change
        }
    }
};

QTEST_APPLESS_MAIN(TestGicdf)
#include "test_gicdf.moc"

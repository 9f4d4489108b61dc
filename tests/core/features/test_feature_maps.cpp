// What every feature map guarantees, across maps: the same seed gives the same bits at any thread
// count, progress reports and cancels while templates move without changing a bit, a one-block call
// splits its tiles with the same bits, and bad specs are SpecErrors.
#include "orbit/features/InvariantFourierTangents.hpp"
#include "orbit/util/Error.hpp"

#include "FeatureTestData.hpp"
#include "RandomMatrices.hpp"

#include <QTest>
#include <QObject>
#include <QString>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

using namespace orbit;
using orbittest::context;
using orbittest::digits;
using orbittest::sameBits;
using orbittest::symmetricMatrices;

namespace {

/// The counts of a "…templates i/N" progress text (i, N), or (-1, -1) for another step.
std::pair<long long, long long> templateCount(const std::string& what)
{
    const auto at = what.find("templates ");
    if (at == std::string::npos) return {-1, -1};
    const auto slash = what.find('/', at);
    return {std::stoll(what.substr(at + 10, slash - at - 10)), std::stoll(what.substr(slash + 1))};
}

/// The specs whose fit moves r s templates by the group (rotation on digits), at sizes where the
/// move takes several chunks of kTemplateChunkValues = 2^21 values (5242 digits of 20 x 20).
const char* const kMovingSpecs[] = {"irf:s=2000,r=16", "inystrom:s=300,r=64", "kif:k=300,eta=max,r=64",
                                    "gicdf:m=500,bins=5,r=32"};

} // namespace

class TestFeatureMaps : public QObject {
    Q_OBJECT
private slots:
    // Same seed, same bits at 1 and 2 threads (fixed block partition, single-threaded products per
    // block): both the template trick and the noisy-sort data path, and a second layer.
    void seedsReproduceAcrossThreads()
    {
        const Dataset& d = digits();
        auto ci = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0.5", 8.0);
        auto cc = context(DataKind::Coulomb, Shape{6, 6, 1}, "permutation", "noisysort:sigma=1", 4.0);
        const MatrixXfR C = symmetricMatrices(300, 6, 17);
        struct Case { std::string spec; FeatureContext* c; const MatrixXfR* X; };
        const MatrixXfR D = d.X.topRows(300);
        for (const Case& cs : {Case{"irf:s=700,r=3", &ci, &D}, Case{"irf:s=600,r=7", &cc, &C},
                               Case{"inystrom:s=50,r=3", &ci, &D}, Case{"gicdf:m=30,bins=5,r=5", &cc, &C},
                               Case{"irf:s=100,r=2+rf2:s=64", &cc, &C}}) {
            MatrixXfR F[2];
            for (int t = 0; t < 2; ++t) {
                omp_set_num_threads(t + 1);
                auto f = makeFeatureMap(cs.spec, *cs.c);
                f->fit(*cs.X, 123);
                F[t] = f->transform(*cs.X);
            }
            omp_set_num_threads(2);
            QCOMPARE(F[0].rows(), cs.X->rows());
            QVERIFY2(std::memcmp(F[0].data(), F[1].data(), sizeof(float) * F[0].size()) == 0, cs.spec.c_str());
        }
    }

    // The median rule (a product of the sampled rows) gives the same bandwidth at 1 and 2 threads.
    void medianBandwidthIsThreadIndependent()
    {
        double sigma[2];
        for (int t = 0; t < 2; ++t) {
            omp_set_num_threads(t + 1);
            Eigen::setNbThreads(t + 1);
            sigma[t] = makeKernel("gaussian:median=1", digits().X, 9).sigma();
        }
        omp_set_num_threads(2);
        QCOMPARE(sigma[0], sigma[1]);
    }

    // A fit that moves r s templates reports "templates i/N" at least every 2^21 moved values
    // (ceil(2^21 / d) templates: tens of milliseconds), fractions rising in [0, 1]; a true return
    // throws Cancelled at once (no report after it, the move unfinished); the cancelled map fitted
    // again gives the bits of a map that was never interrupted.
    void fitReportsAndCancelsWhileMovingTemplates_data()
    {
        QTest::addColumn<QString>("spec");
        for (const char* spec : kMovingSpecs) QTest::newRow(spec) << QString(spec);
    }

    void fitReportsAndCancelsWhileMovingTemplates()
    {
        QFETCH(QString, spec);
        const Dataset& d = digits();
        const auto c = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0", 8.0);
        const long long maxStep = ((1LL << 21) + d.shape.dim() - 1) / d.shape.dim();
        auto map = makeFeatureMap(spec.toStdString(), c);
        double last = 0.0;
        long long lastCount = 0, total = 0;
        int templateReports = 0;
        map->fit(d.X, 5, [&](double f, const std::string& what) {
            if (f < last - 1e-12 || f < 0 || f > 1 + 1e-12) QTest::qFail("fraction out of order", __FILE__, __LINE__);
            last = f;
            const auto [i, n] = templateCount(what);
            if (i < 0) return false;
            if (i - lastCount > maxStep) QTest::qFail(("a gap of " + std::to_string(i - lastCount)).c_str(), __FILE__, __LINE__);
            lastCount = i;
            total = n;
            ++templateReports;
            return false;
        });
        QVERIFY2(templateReports >= 4, std::to_string(templateReports).c_str());
        QCOMPARE(lastCount, total);
        QVERIFY(std::abs(last - 1.0) < 1e-12);
        const MatrixXfR reference = map->transform(d.X);

        std::string stoppedAt;
        int reportsAfterCancel = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, map->fit(d.X, 5, [&](double, const std::string& what) {
            if (!stoppedAt.empty()) ++reportsAfterCancel;
            if (templateCount(what).first <= 0) return false;
            stoppedAt = what;
            return true;  // at the second report of the move
        }));
        QCOMPARE(reportsAfterCancel, 0);
        QVERIFY2(templateCount(stoppedAt).first < total, stoppedAt.c_str());
        map->fit(d.X, 5);
        QVERIFY(sameBits(map->transform(d.X), reference));
    }

    // Reporting progress changes no bit: a fit without a callback at one thread and a fit with one
    // (never cancelling) at two threads give identical features.
    void progressDoesNotChangeBits()
    {
        const Dataset& d = digits();
        const auto c = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0.5", 8.0);
        std::vector<std::string> specs(std::begin(kMovingSpecs), std::end(kMovingSpecs));
        specs.push_back("kif:k=300,eta=mean,r=64");  // Gaussian values through Eigen's exp on scratch
        specs.push_back("irf:s=300,r=8+rf2:s=64");
        specs.push_back("nystrom:s=100,landmarks=kmeans");
        for (const std::string& spec : specs) {
            MatrixXfR F[2];
            int reports = 0;
            for (int t = 0; t < 2; ++t) {
                omp_set_num_threads(t + 1);
                auto f = makeFeatureMap(spec, c);
                if (t == 0)
                    f->fit(d.X, 77);
                else
                    f->fit(d.X, 77, [&](double, const std::string&) { return ++reports < 0; });
                F[t] = f->transform(d.X);
            }
            omp_set_num_threads(2);
            QVERIFY2(reports > 0, spec.c_str());
            QVERIFY2(sameBits(F[0], F[1]), spec.c_str());
        }
    }

    // A call whose rows form a single block (Trainer::features asks for 64 rows or fewer) spreads
    // the block's column tiles over the threads; the block's features are the bits of the same
    // block computed inside a call of many blocks (one block per thread, tiles in order).
    void oneBlockSplitsItsTilesWithTheSameBits()
    {
        const Dataset& d = digits();
        const auto c = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0.5", 8.0);
        // Block rows: 512 (irf, inystrom: kTemplateBlockRows), 256 (gicdf); every spec has at least two
        // column tiles.
        const std::pair<const char*, Eigen::Index> cases[] = {{"irf:s=1100,r=3", 512}, {"irf:s=700,r=2,form=complex", 512},
                                                              {"inystrom:s=600,r=3", 512}, {"gicdf:m=600,bins=5,r=4", 256}};
        for (const auto& [spec, block] : cases) {
            auto f = makeFeatureMap(spec, c);
            f->fit(d.X, 31);
            omp_set_num_threads(1);
            const MatrixXfR whole = f->transform(d.X);  // >= 2 blocks at one thread: block by block
            omp_set_num_threads(2);
            for (Eigen::Index b0 : {Eigen::Index(0), block}) {  // a whole block, then the next (or the short last one)
                const Eigen::Index e = std::min<Eigen::Index>(d.X.rows(), b0 + block);
                MatrixXfR part;
                f->transform(d.X, std::size_t(b0), std::size_t(e), part);  // one block: tiles in parallel
                QVERIFY2(sameBits(part, whole.middleRows(b0, e - b0)), spec);
            }
            MatrixXfR rows64[2];  // a 64-row call: the same bits at one and two threads
            for (int t = 0; t < 2; ++t) {
                omp_set_num_threads(t + 1);
                f->transform(d.X, 64, 128, rows64[t]);
            }
            QVERIFY2(sameBits(rows64[0], rows64[1]), spec);
        }
    }

    // The products skip the pixels that are zero in every image of a block (the digits' empty
    // border: features/Pooling.hpp, SupportProduct). The features of 100 digits, alone (their block
    // skips the border) and beside a row with no zero pixel (nothing skipped), agree to float
    // rounding: the cos and kernel features to 1e-5 of their largest value; GICDF's counts, which
    // move by a whole step when a projection crosses a threshold, in all but a few entries.
    void zeroPixelsOfABlockAreSkippedWithoutChangingFeatures()
    {
        const Dataset& d = digits();
        const auto c = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0.5", 8.0);
        const MatrixXfR X = d.X.topRows(100);
        MatrixXfR withDense(101, X.cols());
        withDense.topRows(100) = X;
        withDense.row(100).setConstant(0.5f);
        Eigen::Index border = 0;
        for (Eigen::Index p = 0; p < X.cols(); ++p) border += X.col(p).cwiseAbs().maxCoeff() == 0.0f;
        QVERIFY2(border >= X.cols() / 16, qPrintable(QString("%1 empty pixels").arg(border)));  // enough to skip
        for (const char* spec : {"irf:s=300,r=3", "irf:s=200,r=3,mode=data", "inystrom:s=80,r=3", "gicdf:m=60,bins=5,r=4",
                                 "gicdf:m=40,bins=5,r=3,mode=data"}) {
            auto f = makeFeatureMap(spec, c);
            f->fit(d.X, 13);
            const MatrixXfR skipped = f->transform(X), dense = f->transform(withDense).topRows(100);
            const double scale = dense.cwiseAbs().maxCoeff();
            QVERIFY2(scale > 0, spec);
            const Eigen::Index differing = ((skipped - dense).cwiseAbs().array() > float(1e-5 * scale)).count();
            const bool counts = std::string(spec).rfind("gicdf", 0) == 0;
            QVERIFY2(differing <= (counts ? dense.size() / 1000 : 0),
                     qPrintable(QString("%1: %2 of %3 entries differ").arg(spec).arg(differing).arg(dense.size())));
        }
    }

    // The learner's features and their derivatives in float (products on the block's support: for
    // moved inputs the union with their tangents', which are non-zero where the image's edge moves)
    // against the double computation on every column: equal to float precision (1e-5 of their
    // scale; 3-7e-7 measured), on the digits' empty border, for both paths.
    void learnerFeaturesOnTheSupportMatchTheDoubleOnes()
    {
        const Dataset& d = digits();
        const auto c = context(DataKind::Images, d.shape, "rotation", "vonmises:kappa=0.5", 8.0);
        Indices rows;
        for (std::size_t i = 0; i < 150; ++i) rows.push_back(i);
        for (const char* mode : {"templates", "data"}) {
            const InvariantFourierTangents map(c, 120, 4, InvariantFourierTangents::Form::Cos, mode, 7);
            const auto dist = makeDistribution("vonmises:kappa=0.3", *c.group);
            MatrixXfR F;
            std::vector<MatrixXfR> dF;
            MatrixXdR D;
            std::vector<MatrixXdR> dD;
            map.compute(dist, d.X, rows, {"kappa"}, F, dF);
            map.compute(dist, d.X, rows, {"kappa"}, D, dD);
            const double scale = D.cwiseAbs().maxCoeff(), dScale = dD[0].cwiseAbs().maxCoeff();
            QVERIFY(scale > 0 && dScale > 0);
            const double err = (F.cast<double>() - D).cwiseAbs().maxCoeff() / scale;
            const double dErr = (dF[0].cast<double>() - dD[0]).cwiseAbs().maxCoeff() / dScale;
            QVERIFY2(err < 1e-5 && dErr < 1e-5, qPrintable(QString("%1: features %2, derivatives %3 of their scale")
                                                               .arg(mode).arg(err).arg(dErr)));
        }
    }

    // Bad specs are SpecErrors naming --features.
    void rejectsBadSpecs()
    {
        auto c = context(DataKind::Vectors, Shape{1, 4, 1}, "", "", 1.0);
        for (const char* bad : {"rf", "rf:s=0", "rf:s=10,form=tan", "irf:s=10,r=2", "magic", "rf:s=5+rf3:s=2",
                                "kif:k=2,eta=median", "nystrom:s=10,landmarks=grid", "raw:s=1",
                                "nystrom:s=10,jitter=0", "nystrom:s=10,jitter=0.5", "nystrom:s=10,tol=1",
                                "nystrom:s=10,tol=-1", "nystrom:s=10,tol=1e-6,jitter=1e-6", "nystrom:s=10,jitter=nan"})
            QVERIFY_THROWS_EXCEPTION(SpecError, makeFeatureMap(bad, c));
    }
};

QTEST_APPLESS_MAIN(TestFeatureMaps)
#include "test_feature_maps.moc"

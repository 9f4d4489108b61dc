// Random Fourier features (rf) and invariant random features (irf, with a second layer rf2): the
// fast cosine, the 1/sqrt(s) rate, the template trick and the data path against the definition,
// and a second layer that cancels while it computes the median rule.
#include "orbit/features/FastCos.hpp"
#include "orbit/features/InvariantRandomFourier.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "FeatureTestData.hpp"
#include "RandomMatrices.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace orbit;
using orbittest::context;
using orbittest::digits;
using orbittest::randomMatrix;
using orbittest::sameBits;
using orbittest::symmetricMatrices;

namespace {

/// psi(x) by its definition, transforming the data: sqrt(2/s)/r sum_k cos(<w_j, g_k x> + b_j).
Eigen::VectorXd naiveIrf(const InvariantRandomFourier& f, const std::vector<GroupElement>& g, const float* x,
                         const Shape& shape)
{
    const MatrixXfR& W = f.templates();
    Eigen::VectorXd psi = Eigen::VectorXd::Zero(W.rows());
    std::vector<float> gx(shape.dim());
    for (const auto& e : g) {
        f.orbitSampler()->group().apply(e, x, gx.data(), shape);
        const Eigen::Map<const Eigen::VectorXf> v(gx.data(), shape.dim());
        psi.array() += ((W.cast<double>() * v.cast<double>()).array() + f.phases().cast<double>().array()).cos();
    }
    return psi * std::sqrt(2.0 / W.rows()) / double(g.size());
}

double meanAbsOffDiagonalError(const MatrixXfR& F, const MatrixXfR& K)
{
    const Eigen::MatrixXd E = (F.cast<double>() * F.cast<double>().transpose() - K.cast<double>()).cwiseAbs();
    return (E.sum() - E.diagonal().sum()) / double(E.rows() * (E.rows() - 1));
}

} // namespace

class TestRandomFourier : public QObject {
    Q_OBJECT
private slots:
    // fastCos: range reduction + degree-14 polynomial, |fastCos(x) - cos(x)| <= 2e-6 for |x| <= 1000.
    void fastCosIsAccurate()
    {
        double worst = 0;
        for (int i = -2000000; i <= 2000000; ++i) {
            const float x = float(i) * 5e-4f;
            worst = std::max(worst, std::abs(double(fastCos(x)) - std::cos(double(x))));
            worst = std::max(worst, std::abs(double(fastSin(x)) - std::sin(double(x))));
        }
        QVERIFY2(worst < 2e-6, qPrintable(QString::number(worst)));
    }

    // Rahimi & Recht: <z(x), z(y)> is a mean of s i.i.d. bounded terms with expectation k(x, y), so the
    // mean absolute error falls like 1/sqrt(s): from s = 100 to s = 1600 it shrinks by about 4.
    void rfErrorFallsLikeInverseSqrtS()
    {
        const MatrixXfR X = randomMatrix(80, 10, 11);
        const BaseKernel k = makeKernel("gaussian:median=1", X);
        const MatrixXfR K = k.matrix(X, X);
        for (const char* form : {"cos", "complex"}) {
            double e100 = 0, e1600 = 0;
            for (int seed = 0; seed < 6; ++seed) {
                FeatureContext c = context(DataKind::Vectors, Shape{1, 10, 1}, "", "", k.sigma());
                auto f100 = makeFeatureMap(std::string("rf:s=100,form=") + form, c);
                auto f1600 = makeFeatureMap(std::string("rf:s=1600,form=") + form, c);
                f100->fit(X, seed);
                f1600->fit(X, seed + 100);
                e100 += meanAbsOffDiagonalError(f100->transform(X), K);
                e1600 += meanAbsOffDiagonalError(f1600->transform(X), K);
            }
            const double ratio = e100 / e1600;
            QVERIFY2(ratio > 3.0 && ratio < 5.3, qPrintable(QString("%1: ratio %2").arg(form).arg(ratio)));
        }
    }

    // Template trick <g^-1 w, x> = <w, g x>: exact for C_4 (90-degree rotations permute pixels) and for
    // permutations of Coulomb matrices (folded onto the upper triangle), within interpolation for rotation.
    void templateTrickEqualsTransformingTheData_data()
    {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("C4") << "cyclic:n=4" << "haar" << 1e-5;
        QTest::newRow("permutation") << "permutation" << "haar" << 1e-5;
        QTest::newRow("rotation") << "rotation" << "vonmises:kappa=2" << 0.15;
    }

    void templateTrickEqualsTransformingTheData()
    {
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(double, tolerance);
        const bool perm = group == "permutation";
        const Shape shape = perm ? Shape{5, 5, 1} : digits().shape;
        const MatrixXfR X = perm ? symmetricMatrices(12, 5, 12) : MatrixXfR(digits().X.topRows(12));
        const double sigma = perm ? 3.0 : 8.0;
        auto c = context(perm ? DataKind::Coulomb : DataKind::Images, shape, group.toStdString(), dist.toStdString(), sigma);
        InvariantRandomFourier f(c, 300, 6, InvariantRandomFourier::Form::Cos, "templates");
        f.fit(X, 5);
        QVERIFY(f.usesTemplateTrick());
        const MatrixXfR F = f.transform(X);
        const auto g = f.orbitSampler()->sharedElements();
        double worst = 0, scale = 0;
        for (int i = 0; i < 12; ++i) {
            const Eigen::VectorXd ref = naiveIrf(f, g, X.data() + i * X.cols(), shape);
            worst = std::max(worst, (F.row(i).transpose().cast<double>() - ref).norm());
            scale = std::max(scale, ref.norm());
        }
        QVERIFY2(worst <= tolerance * scale, qPrintable(QString("%1 vs %2").arg(worst).arg(scale)));
    }

    // Data path (noisy sort depends on x): features equal the definition with g_{i,k} from
    // sampler.elementsFor(i, x_i), including the symmetric folding of Coulomb inputs.
    void dataPathMatchesDefinition()
    {
        const Shape shape{6, 6, 1};
        const MatrixXfR X = symmetricMatrices(9, 6, 13);
        auto c = context(DataKind::Coulomb, shape, "permutation", "noisysort:sigma=1", 4.0);
        InvariantRandomFourier f(c, 200, 5, InvariantRandomFourier::Form::Cos);
        f.fit(X, 9);
        QVERIFY(!f.usesTemplateTrick());
        const MatrixXfR F = f.transform(X);
        for (int i = 0; i < 9; ++i) {
            const auto g = f.orbitSampler()->elementsFor(i, X.data() + i * 36);
            const Eigen::VectorXd ref = naiveIrf(f, g, X.data() + i * 36, shape);
            QVERIFY((F.row(i).transpose().cast<double>() - ref).cwiseAbs().maxCoeff() < 1e-5);
        }
    }

    // A second layer's fit computes first-layer features only for the median rule's rows, with
    // reports between calls: a cancel there stops it, and a new fit gives the same bits. With
    // input-dependent samples (noisy sort) each row keeps its dataset index, so the bandwidth is the
    // median over the rows of the whole first-layer matrix.
    void secondLayerFitCancelsWhileComputingTheMedianRows_data()
    {
        QTest::addColumn<bool>("noisySort");
        QTest::newRow("template trick (digits)") << false;
        QTest::newRow("inputs transformed (noisy sort)") << true;
    }

    void secondLayerFitCancelsWhileComputingTheMedianRows()
    {
        QFETCH(bool, noisySort);
        const MatrixXfR C = orbittest::symmetricMatrices(1200, 6, 21);
        const MatrixXfR& X = noisySort ? C : digits().X;
        const FeatureContext c = noisySort
            ? context(DataKind::Coulomb, Shape{6, 6, 1}, "permutation", "noisysort:sigma=1", 3.0)
            : context(DataKind::Images, digits().shape, "rotation", "vonmises:kappa=1", 8.0);
        auto map = makeFeatureMap("irf:s=200,r=6+rf2:s=50", c);
        int medianReports = 0;
        map->fit(X, 3, [&](double, const std::string& what) {
            medianReports += what.find("median rule") != std::string::npos;
            return false;
        });
        QVERIFY2(medianReports >= 5, std::to_string(medianReports).c_str());
        const MatrixXfR reference = map->transform(X.topRows(40));
        int after = 0, seen = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, map->fit(X, 3, [&](double, const std::string& what) {
            after += seen >= 3;
            seen += what.find("median rule") != std::string::npos;
            return seen >= 3;
        }));
        QCOMPARE(after, 0);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, map->transform(X.topRows(2)));
        map->fit(X, 3);
        QVERIFY(sameBits(map->transform(X.topRows(40)), reference));
        if (noisySort) {
            auto first = makeFeatureMap("irf:s=200,r=6", c);
            first->fit(X, deriveSeed(3, 11));
            QVERIFY(first->usesRowIndex());
            const double median = medianPairwiseDistance(first->transform(X), 1000, deriveSeed(3, 12));
            // The fit transforms the median rows in calls of its own: with BLAS kernels whose rows
            // round by their place in a call (OpenBLAS's Haswell sgemm), the first layer's features
            // then differ from these in the last float bits, so the bandwidth agrees to float
            // rounding, not to the bit.
            const std::string kernel = map->kernel(), key = "(gaussian:sigma=";
            const std::size_t at = kernel.find(key);
            QVERIFY2(at != std::string::npos, kernel.c_str());
            const double sigma = std::stod(kernel.substr(at + key.size()));
            QVERIFY2(std::abs(sigma - median) <= 1e-6 * median,
                     (kernel + " / " + BaseKernel::gaussian(median).spec()).c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestRandomFourier)
#include "test_random_fourier.moc"

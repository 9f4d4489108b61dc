// The two code paths of the products (orbit/linalg/Gemm.hpp): Eigen's product and the run-time-
// dispatched BLAS. Each path gives the same bits at 1 and 2 threads (the products are cut into the
// same fixed blocks, one thread each); the two paths agree within float rounding (they sum in
// different orders): gemmABt itself to 1e-5 of the operands' scale, the random-feature maps (cos of
// products of size ~10) to 1e-4, the Nystrom map and the Gram / Cholesky solve to 1e-4 relative,
// and GICDF's empirical CDF (a product rounding across a threshold moves one count of 1/r) in at most
// 0.1 % of its entries. ORBIT_GEMM=eigen at the first call selects Eigen's product (checked first).
#include "RandomMatrices.hpp"

#include "orbit/features/FeatureMap.hpp"
#include "orbit/linalg/Gram.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <omp.h>

#include <cstdlib>
#include <functional>
#include <string>

using namespace orbit;

namespace {

template <class M>
std::string bytesOf(const M& m)
{
    return std::string(reinterpret_cast<const char*>(m.data()), sizeof(typename M::Scalar) * std::size_t(m.size()));
}

/// compute() under `path` at 1 and at 2 threads: the same bits. Returns the result.
template <class M>
M onPath(GemmPath path, const std::function<M()>& compute)
{
    setGemmPath(path);
    setComputeBudget(1);
    const M one = compute();
    setComputeBudget(2);
    const M two = compute();
    setComputeBudget(0);
    if (bytesOf(one) != bytesOf(two))
        QTest::qFail(("not the same bits at 1 and 2 threads on the " + gemmName(path) + " path").c_str(), __FILE__,
                     __LINE__);
    return two;
}

Dataset images(Eigen::Index n)
{
    Dataset d;
    d.kind = DataKind::Images;
    d.shape = {12, 12, 1};
    d.X = orbittest::uniformMatrix(n, 144, 7);
    return d;
}

Dataset coulomb(Eigen::Index n)
{
    Dataset d;
    d.kind = DataKind::Coulomb;
    d.shape = {9, 9, 1};
    d.X = orbittest::symmetricMatrices(n, 9, 11);
    return d;
}

MatrixXfR features(const Dataset& data, const std::string& spec, const std::string& group, const std::string& dist)
{
    const FeatureContext c = makeFeatureContext(data, group, dist, "gaussian:median=1", 3);
    auto map = makeFeatureMap(spec, c);
    map->fit(data.X, 3);
    MatrixXfR F;
    map->transform(data.X, 0, data.count(), F);
    return F;
}

} // namespace

class TestGemmPaths : public QObject {
    Q_OBJECT

private slots:
    void environmentChoosesEigen()
    {
        // Read at the first call of gemmPath(): this is the suite's first.
        const char* before = std::getenv("ORBIT_GEMM");
        QVERIFY(before == nullptr);
        qputenv("ORBIT_GEMM", "eigen");
        QCOMPARE(gemmPath(), GemmPath::Eigen);
        qunsetenv("ORBIT_GEMM");
        QVERIFY(QString::fromStdString(gemmDescription()).startsWith("eigen"));
        if (!blasAvailable()) QSKIP("built without a BLAS (ORBIT_BLAS=OFF)");
        setGemmPath(GemmPath::Blas);
        QCOMPARE(gemmPath(), GemmPath::Blas);
        QVERIFY2(QString::fromStdString(gemmDescription()).contains("OpenBLAS"), gemmDescription().c_str());
        // Either the user's choice or kernels for this CPU, never the fallback of an unknown CPU on
        // a CPU with AVX2 (which would run at a fifth of its speed).
        if (!std::getenv("OPENBLAS_CORETYPE") && __builtin_cpu_supports("avx2"))
            QVERIFY2(!QString::fromStdString(gemmDescription()).contains("Prescott kernels"), gemmDescription().c_str());
    }

    void productAgreesOnBothPaths()
    {
        if (!blasAvailable()) QSKIP("built without a BLAS (ORBIT_BLAS=OFF)");
        const MatrixXfR A = orbittest::randomMatrix(70, 45, 1), B = orbittest::randomMatrix(33, 45, 2);
        const MatrixXfR C0 = orbittest::randomMatrix(70, 33, 3);
        const Eigen::MatrixXd ref = A.cast<double>() * B.cast<double>().transpose();
        for (GemmPath path : {GemmPath::Eigen, GemmPath::Blas}) {
            setGemmPath(path);
            MatrixXfR C(70, 33);
            gemmABt(A, B, C);
            QVERIFY2((C.cast<double>() - ref).cwiseAbs().maxCoeff() < 1e-4, gemmName(path).c_str());
            C = C0;
            gemmABt(A, B, C, 1.0f, 1.0f);
            QVERIFY((C.cast<double>() - C0.cast<double>() - ref).cwiseAbs().maxCoeff() < 1e-4);
            // Blocks with strides: the middle of larger matrices, column-major double.
            const Eigen::MatrixXd Ad = A.cast<double>(), Bd = B.cast<double>();
            Eigen::MatrixXd Cd = Eigen::MatrixXd::Ones(80, 40);
            gemmABt(Ad.middleCols(5, 30), Bd.middleCols(5, 30), Cd.block(3, 2, 70, 33), -1.0, 1.0);
            const Eigen::MatrixXd want = 1.0 - (Ad.middleCols(5, 30) * Bd.middleCols(5, 30).transpose()).array();
            QVERIFY((Cd.block(3, 2, 70, 33) - want).cwiseAbs().maxCoeff() < 1e-12);
            QCOMPARE(Cd(0, 0), 1.0);
            QCOMPARE(Cd(79, 39), 1.0);
            // Column-major float, and an empty depth.
            const Eigen::MatrixXf Ac = A, Bc = B;
            Eigen::MatrixXf Cc(70, 33);
            gemmABt(Ac, Bc, Cc);
            QVERIFY((Cc.cast<double>() - ref).cwiseAbs().maxCoeff() < 1e-4);
            MatrixXfR E = MatrixXfR::Constant(70, 33, 5.0f);
            gemmABt(A.leftCols(0), B.leftCols(0), E);
            QCOMPARE(E.cwiseAbs().maxCoeff(), 0.0f);
            // A^T B (FALKON's K^T V), on a strided block.
            Eigen::MatrixXd T = Eigen::MatrixXd::Constant(50, 40, 7.0);
            gemmAtB(Ad.middleCols(5, 30), Ad.middleCols(1, 12), T.block(2, 3, 30, 12));
            QVERIFY((T.block(2, 3, 30, 12) - Ad.middleCols(5, 30).transpose() * Ad.middleCols(1, 12)).cwiseAbs().maxCoeff() <
                    1e-12);
            QCOMPARE(T(0, 0), 7.0);
        }
        setGemmPath(GemmPath::Blas);
    }

    // Regression (issue 29): a product called outside a parallel region, with the thread's OpenMP
    // count at 2 (a block spreading its tiles calls the whitening product there), ran on two of
    // OpenBLAS's threads, whose driver cuts depths above 384 and the rows into other panels than one
    // thread does: other bits than the same call at one thread. Each call now runs on one thread.
    void aCallOutsideAParallelRegionHasTheBitsOfOneThread()
    {
        if (!blasAvailable()) QSKIP("built without a BLAS (ORBIT_BLAS=OFF)");
        setGemmPath(GemmPath::Blas);
        const int saved = omp_get_max_threads();
        const MatrixXfR A = orbittest::randomMatrix(64, 600, 8), B = orbittest::randomMatrix(600, 600, 9);
        const Eigen::MatrixXd Ad = orbittest::randomMatrix(256, 300, 10).cast<double>(),
                              Bd = orbittest::randomMatrix(256, 300, 11).cast<double>();
        MatrixXfR C[2];
        Eigen::MatrixXd Cd[2];
        for (int t = 0; t < 2; ++t) {
            omp_set_num_threads(t + 1);
            C[t].resize(64, 600);
            gemmABt(A, B, C[t]);
            Cd[t].resize(256, 256);
            gemmABt(Ad, Bd, Cd[t]);
            QCOMPARE(omp_get_max_threads(), t + 1);  // the thread's own setting is put back
        }
        omp_set_num_threads(saved);
        QVERIFY(bytesOf(C[0]) == bytesOf(C[1]));
        QVERIFY(bytesOf(Cd[0]) == bytesOf(Cd[1]));
    }

    void wrongShapesAreContractErrors()
    {
        MatrixXfR A(4, 3), B(5, 2), C(4, 5);
        A.setOnes();
        B.setOnes();
        QVERIFY_THROWS_EXCEPTION(ContractError, gemmABt(A, B, C));
        MatrixXfR B3 = MatrixXfR::Ones(5, 3), C2(4, 4);
        QVERIFY_THROWS_EXCEPTION(ContractError, gemmABt(A, B3, C2));
        QVERIFY_THROWS_EXCEPTION(ContractError, gemmABt(A, B3, C, 1.0f, 0.5f));
        Eigen::MatrixXd Ad = Eigen::MatrixXd::Ones(4, 3), Bd = Eigen::MatrixXd::Ones(5, 2), Cd(3, 2);
        QVERIFY_THROWS_EXCEPTION(ContractError, gemmAtB(Ad, Bd, Cd));
        if (!blasAvailable()) QVERIFY_THROWS_EXCEPTION(std::invalid_argument, setGemmPath(GemmPath::Blas));
    }

    void featureMapsAgreeOnBothPaths_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("dist");
        QTest::addColumn<bool>("molecules");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("irf templates") << "irf:s=700,r=6" << "rotation" << "vonmises:kappa=0.5" << false << 1e-4;
        QTest::newRow("irf complex") << "irf:s=300,r=4,form=complex" << "rotation" << "vonmises:kappa=0.5" << false << 1e-4;
        QTest::newRow("irf noisy sort") << "irf:s=600,r=5" << "permutation" << "noisysort:sigma=1" << true << 1e-4;
        QTest::newRow("rf plain") << "rf:s=600" << "" << "" << false << 1e-4;
        QTest::newRow("inystrom templates") << "inystrom:s=150,r=4" << "rotation" << "vonmises:kappa=0.5" << false << 1e-3;
        QTest::newRow("inystrom data") << "inystrom:s=120,r=4,mode=data" << "rotation" << "vonmises:kappa=0.5" << false << 1e-3;
    }

    void featureMapsAgreeOnBothPaths()
    {
        if (!blasAvailable()) QSKIP("built without a BLAS (ORBIT_BLAS=OFF)");
        QFETCH(QString, spec);
        QFETCH(QString, group);
        QFETCH(QString, dist);
        QFETCH(bool, molecules);
        QFETCH(double, tolerance);
        const Dataset data = molecules ? coulomb(300) : images(300);  // several blocks of 128 inputs
        const std::function<MatrixXfR()> compute = [&] {
            return features(data, spec.toStdString(), group.toStdString(), dist.toStdString());
        };
        const MatrixXfR eigen = onPath<MatrixXfR>(GemmPath::Eigen, compute);
        const MatrixXfR blas = onPath<MatrixXfR>(GemmPath::Blas, compute);
        const double scale = std::max(1e-30, double(eigen.cwiseAbs().maxCoeff()));
        const double diff = double((eigen - blas).cwiseAbs().maxCoeff());
        QVERIFY2(diff <= tolerance * scale, qPrintable(QString("max difference %1, scale %2").arg(diff).arg(scale)));
        QVERIFY(diff < scale);  // not two empty results
        setGemmPath(GemmPath::Blas);
    }

    void gicdfCountsAgreeOnBothPaths()
    {
        if (!blasAvailable()) QSKIP("built without a BLAS (ORBIT_BLAS=OFF)");
        Dataset data = images(300);
        for (Eigen::Index i = 0; i < data.X.rows(); ++i) data.X.row(i).normalize();  // GICDF wants unit inputs
        const std::function<MatrixXfR()> compute = [&] {
            return features(data, "gicdf:m=60,bins=10,r=8", "rotation", "vonmises:kappa=0.5");
        };
        const MatrixXfR eigen = onPath<MatrixXfR>(GemmPath::Eigen, compute);
        const MatrixXfR blas = onPath<MatrixXfR>(GemmPath::Blas, compute);
        const Eigen::Index differing = ((eigen - blas).array().abs() > 1e-6f).count();
        QVERIFY2(differing <= eigen.size() / 1000, qPrintable(QString("%1 of %2 entries differ").arg(differing).arg(eigen.size())));
        QVERIFY(eigen.cwiseAbs().maxCoeff() > 0.0f);
        setGemmPath(GemmPath::Blas);
    }

    void normalEquationsAgreeOnBothPaths()
    {
        if (!blasAvailable()) QSKIP("built without a BLAS (ORBIT_BLAS=OFF)");
        // The ridge solve of the trainers: G = Z^T Z + lambda I by Gram tiles, its Cholesky factor by
        // tiled trailing updates, larger than one 256-wide panel.
        const MatrixXfR Z = orbittest::randomMatrix(900, 600, 5);
        const Eigen::MatrixXd y = orbittest::randomMatrix(900, 2, 6).cast<double>();
        const std::function<Eigen::MatrixXd()> solve = [&] {
            Eigen::MatrixXd G = gramOfColumns(Z);
            G.diagonal().array() += 10.0;
            Eigen::MatrixXd L = G;
            if (!choleskyInPlace(L)) QTest::qFail("not positive definite", __FILE__, __LINE__);
            return choleskySolve(L, transposeTimes(Z, y));
        };
        const Eigen::MatrixXd eigen = onPath<Eigen::MatrixXd>(GemmPath::Eigen, solve);
        const Eigen::MatrixXd blas = onPath<Eigen::MatrixXd>(GemmPath::Blas, solve);
        QVERIFY((eigen - blas).cwiseAbs().maxCoeff() <= 1e-10 * eigen.cwiseAbs().maxCoeff());
        const std::function<Eigen::MatrixXd()> mixed = [&] { return gramOfRowsMixed(Z.topRows(400), 256); };
        const Eigen::MatrixXd me = onPath<Eigen::MatrixXd>(GemmPath::Eigen, mixed);
        const Eigen::MatrixXd mb = onPath<Eigen::MatrixXd>(GemmPath::Blas, mixed);
        QVERIFY((me - mb).cwiseAbs().maxCoeff() <= 1e-4 * me.cwiseAbs().maxCoeff());
        setGemmPath(GemmPath::Blas);
    }
};

QTEST_APPLESS_MAIN(TestGemmPaths)
#include "test_gemm_paths.moc"

// Bayesian linear regression (Bishop PRML 3.5): t = Phi w + noise, w ~ N(0, alpha^{-1} I),
// noise ~ N(0, beta^{-1} I), so marginally t ~ N(0, beta^{-1} I + alpha^{-1} Phi Phi^T).
#include "LearnTestData.hpp"
#include "orbit/learn/BayesianLinearRegression.hpp"
#include "orbit/learn/NormalEquations.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/util/Error.hpp"

#include <Eigen/Dense>
#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>
#include <numbers>

using namespace orbit;
using namespace orbittest;

namespace {

/// log N(t; 0, beta^{-1} I + alpha^{-1} Phi Phi^T) with the full determinant and inverse.
double bruteEvidence(const MatrixXfR& Phi, const Eigen::VectorXd& t, double alpha, double beta)
{
    const Eigen::MatrixXd P = Phi.cast<double>();
    const Eigen::Index n = P.rows();
    const Eigen::MatrixXd S = Eigen::MatrixXd::Identity(n, n) / beta + P * P.transpose() / alpha;
    return -0.5 * t.dot(S.inverse() * t) - 0.5 * std::log(S.determinant())
           - 0.5 * static_cast<double>(n) * std::log(2.0 * std::numbers::pi);
}

Eigen::MatrixXd targetsFor(const MatrixXfR& Phi, int columns, std::uint64_t seed)
{
    const MatrixXfR w = gaussianMatrix(static_cast<int>(Phi.cols()), columns, seed);
    const MatrixXfR e = gaussianMatrix(static_cast<int>(Phi.rows()), columns, seed + 1);
    return Phi.cast<double>() * w.cast<double>() + 0.3 * e.cast<double>();
}

} // namespace

class TestBayesianLinear : public QObject {
    Q_OBJECT
    static void addShapes()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("d");
        QTest::newRow("primal N>D") << 12 << 4;
        QTest::newRow("dual N<D") << 5 << 9;
    }

private slots:
    void evidenceMatchesBruteForce_data() { addShapes(); }
    void evidenceMatchesBruteForce()
    {
        QFETCH(int, n);
        QFETCH(int, d);
        const MatrixXfR Phi = gaussianMatrix(n, d, 71);
        const Eigen::MatrixXd T = targetsFor(Phi, 2, 72);
        const LinearEvidence ev(Phi, T);
        for (auto [alpha, beta] : {std::pair{0.7, 2.3}, std::pair{5.0, 0.1}, std::pair{1e-2, 30.0}}) {
            const double brute = bruteEvidence(Phi, T.col(0), alpha, beta) + bruteEvidence(Phi, T.col(1), alpha, beta);
            const double got = ev.logEvidence(alpha, beta);
            QVERIFY2(std::abs(got - brute) < 1e-9 * std::abs(brute),
                     qPrintable(QString("alpha %1 beta %2: %3 vs %4").arg(alpha).arg(beta).arg(got).arg(brute)));
        }
    }

    void fixedPointMaximisesEvidence_data() { addShapes(); }
    void fixedPointMaximisesEvidence()
    {
        // MacKay's updates converge to a stationary point of log p(t | alpha, beta): it must beat
        // the start and every neighbour alpha e^{+-0.05}, beta e^{+-0.05}.
        QFETCH(int, n);
        QFETCH(int, d);
        const MatrixXfR Phi = gaussianMatrix(4 * n, d, 73);  // enough data for a finite optimum
        const Eigen::MatrixXd T = targetsFor(Phi, 1, 74);
        const LinearEvidence ev(Phi, T);
        const LinearEvidence::Optimum o = ev.maximise(1.0, 1.0, 5000, 1e-12);
        QVERIFY(o.converged);
        QVERIFY(o.logEvidence >= ev.logEvidence(1.0, 1.0));
        for (int da = -1; da <= 1; ++da)
            for (int db = -1; db <= 1; ++db) {
                if (da == 0 && db == 0)
                    continue;
                const double nb = ev.logEvidence(o.alpha * std::exp(0.05 * da), o.beta * std::exp(0.05 * db));
                QVERIFY2(nb <= o.logEvidence + 1e-9, qPrintable(QString("%1 > %2").arg(nb).arg(o.logEvidence)));
            }
        // Stationarity conditions (PRML 3.92, 3.95) hold at the optimum.
        QVERIFY(o.gamma > 0.0 && o.gamma <= d);
    }

    void evidencePrefersTheGeneratingModel()
    {
        // t depends on the first 5 of 40 features. The evidence should rank: the 5 true features
        // above 3 of them (underfits) and above all 40 (35 irrelevant weights: Occam's razor).
        const MatrixXfR all = gaussianMatrix(200, 40, 75);
        const Eigen::MatrixXd T = targetsFor(all.leftCols(5), 1, 76);
        const std::vector<double> t = toVector(T.col(0));
        bool converged = true;
        auto evidenceWith = [&](int cols) {
            BayesianLinearRegression blr;
            blr.fit(all.leftCols(cols), t);
            converged = converged && blr.converged();
            return blr.logEvidence();
        };
        const double under = evidenceWith(3), right = evidenceWith(5), over = evidenceWith(40);
        QVERIFY(converged);
        QVERIFY2(right > under && right > over, qPrintable(QString("%1 %2 %3").arg(under).arg(right).arg(over)));
    }

    void posteriorMeanIsRidgeWithLambdaAlphaOverBeta_data() { addShapes(); }
    void posteriorMeanIsRidgeWithLambdaAlphaOverBeta()
    {
        // m_N = beta A^{-1} Phi^T t = (Phi^T Phi + alpha/beta I)^{-1} Phi^T t.
        QFETCH(int, n);
        QFETCH(int, d);
        const MatrixXfR Phi = gaussianMatrix(n, d, 77);
        const std::vector<double> t = toVector(targetsFor(Phi, 1, 78).col(0));
        BayesianLinearRegression::Options opt;
        opt.optimise = false;
        opt.alpha = 0.4;
        opt.beta = 3.0;
        BayesianLinearRegression blr(opt);
        blr.fit(Phi, t);
        RidgeRegression ridge(0.4 / 3.0);
        ridge.fit(Phi, t);
        QVERIFY(relativeError(blr.weights(), ridge.weights()) < 1e-9);
        const std::vector<double> a = blr.predictTargets(Phi), b = ridge.predictTargets(Phi);
        for (int i = 0; i < n; ++i)
            QVERIFY(std::abs(a[i] - b[i]) < 1e-8);
    }

    void oneHotClassesSumPerColumnEvidence()
    {
        // van der Wilk et al. 2018: Gaussian likelihood on one-hot targets, shared alpha, beta.
        const Blobs b = gaussianBlobs(6, 3, 4, 3.0, 0.5, 79);
        BayesianLinearRegression::Options opt;
        opt.optimise = false;
        opt.alpha = 2.0;
        opt.beta = 5.0;
        BayesianLinearRegression blr(opt);
        blr.fit(b.X, b.labels, 3);
        double brute = 0.0;
        for (int c = 0; c < 3; ++c) {
            Eigen::VectorXd y(18);
            for (int i = 0; i < 18; ++i)
                y(i) = b.labels[i] == c ? 1.0 : 0.0;
            brute += bruteEvidence(b.X, y, 2.0, 5.0);
        }
        QVERIFY(std::abs(blr.logEvidence() - brute) < 1e-9 * std::abs(brute));

        BayesianLinearRegression tuned;
        const Blobs train = gaussianBlobs(30, 3, 4, 3.0, 0.5, 80), test = gaussianBlobs(30, 3, 4, 3.0, 0.5, 81);
        tuned.fit(train.X, train.labels, 3);
        int hits = 0;
        const std::vector<int> pred = tuned.predictClasses(test.X);
        for (int i = 0; i < 90; ++i)
            hits += pred[i] == test.labels[i];
        QVERIFY(hits >= 80);
    }

    void featureGradient_data() { addShapes(); }
    void featureGradient()
    {
        // d log p / d Phi = beta [(T - Phi M) M^T - C Phi A^{-1}] against central differences of the
        // evidence in a few entries, at fixed alpha, beta (primal D <= N and dual N < D), in double.
        QFETCH(int, n);
        QFETCH(int, d);
        const MatrixXfR Pf = gaussianMatrix(n, d, 21);
        const MatrixXdR Phi = Pf.cast<double>();
        const Eigen::MatrixXd T = targetsFor(Pf, 3, 22);
        const double alpha = 0.7, beta = 3.1;
        const Eigen::MatrixXd G = LinearEvidence(Phi, T).featureGradient(alpha, beta, Phi, T);
        QCOMPARE(G.rows(), Eigen::Index(n));
        QCOMPARE(G.cols(), Eigen::Index(d));
        for (const auto& [i, j] : {std::pair{0, 0}, std::pair{n - 1, d - 1}, std::pair{n / 2, d / 3}, std::pair{1, d - 2}}) {
            const double h = 1e-6;
            MatrixXdR up = Phi, down = Phi;
            up(i, j) += h;
            down(i, j) -= h;
            const double fd = (LinearEvidence(up, T).logEvidence(alpha, beta) - LinearEvidence(down, T).logEvidence(alpha, beta)) / (2 * h);
            QVERIFY2(std::abs(fd - G(i, j)) < 1e-6 * (1 + std::abs(fd)),
                     qPrintable(QString("(%1, %2): %3 vs %4").arg(i).arg(j).arg(G(i, j)).arg(fd)));
        }
        // Float features give the same gradient to float precision.
        const Eigen::MatrixXd Gf = LinearEvidence(Pf, T).featureGradient(alpha, beta, Pf, T);
        QVERIFY((Gf - G).norm() < 1e-5 * G.norm());
        // From sums over rows (what processes have after their block sums): the derivative along a
        // direction dPhi is sum_ij G_ij dPhi_ij, from beta r - C tr((Phi^T Phi + shift I)^{-1} Phi^T dPhi).
        Indices all(static_cast<std::size_t>(n));
        for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;
        const NormalEquations normal = normalEquations(Pf, all, T, RowBlocks{n, 4}, oneProcess());
        const Eigen::MatrixXd gram = normal.G;
        const LinearEvidence fromSums(normal, T.squaredNorm());
        const MatrixXfR dPf = gaussianMatrix(n, d, 23);
        if (d <= n) {
            const Eigen::MatrixXd M = fromSums.posteriorMean(alpha, beta);
            const Eigen::MatrixXd dP = dPf.cast<double>();
            const double r = ((T - Pf.cast<double>() * M).array() * (dP * M).array()).sum();
            const Eigen::MatrixXd H = Pf.cast<double>().transpose() * dP;
            const std::vector<double> g = fromSums.gradientFromSums(alpha, beta, gram, {r, r}, {H, H});
            const double expected = (Gf.array() * dP.array()).sum();
            QCOMPARE(g.size(), std::size_t(2));
            QVERIFY2(std::abs(g[0] - expected) < 1e-8 * (Gf.norm() * dP.norm()) && g[1] == g[0],
                     qPrintable(QString("%1 vs %2").arg(g[0], 0, 'g', 12).arg(expected, 0, 'g', 12)));
        } else {
            QVERIFY_THROWS_EXCEPTION(ContractError, LinearEvidence(Pf, T).gradientFromSums(alpha, beta, gram, {0.0}, {gram}));
        }
    }
    void oneColumnWithItsOwnPrecisions_data() { addShapes(); }
    void oneColumnWithItsOwnPrecisions()
    {
        // column(c) is the evidence of t_c alone on the same factorisation: the same as a
        // LinearEvidence built on that column, at fixed and at maximised precisions, in the primal
        // form from normal equations too.
        QFETCH(int, n);
        QFETCH(int, d);
        const MatrixXfR Pf = gaussianMatrix(n, d, 31);
        const Eigen::MatrixXd T = targetsFor(Pf, 3, 32);
        const LinearEvidence all(Pf, T);
        Indices rows(static_cast<std::size_t>(n));
        for (std::size_t k = 0; k < rows.size(); ++k) rows[k] = k;
        for (Eigen::Index c = 0; c < 3; ++c) {
            const LinearEvidence alone(Pf, Eigen::MatrixXd(T.col(c)));
            const double fixed = alone.logEvidence(0.7, 3.1);
            QVERIFY(std::abs(all.column(c).logEvidence(0.7, 3.1) - fixed) < 1e-10 * std::abs(fixed));
            const LinearEvidence::Optimum o = all.column(c).maximise(1.0, 1.0), p = alone.maximise(1.0, 1.0);
            QVERIFY(std::abs(o.logEvidence - p.logEvidence) < 1e-9 * std::abs(p.logEvidence));
            QVERIFY(std::abs(o.alpha - p.alpha) < 1e-6 * p.alpha && std::abs(o.beta - p.beta) < 1e-6 * p.beta);
            if (d <= n) {
                const LinearEvidence sums(normalEquations(Pf, rows, T, RowBlocks{n, 4}, oneProcess()),
                                          Eigen::VectorXd(T.colwise().squaredNorm().transpose()));
                QVERIFY(std::abs(sums.column(c).logEvidence(0.7, 3.1) - fixed) < 1e-9 * std::abs(fixed));
            }
        }
        QVERIFY_THROWS_EXCEPTION(ContractError, all.column(3));
        const LinearEvidence onlyTotal(normalEquations(Pf, rows, T, RowBlocks{n, 4}, oneProcess()), T.squaredNorm());
        if (d <= n) QVERIFY_THROWS_EXCEPTION(ContractError, onlyTotal.column(0));
    }
    void rejectsBadInput()
    {
        BayesianLinearRegression::Options opt;
        opt.alpha = -1.0;
        QVERIFY_THROWS_EXCEPTION(SpecError, BayesianLinearRegression{opt});
        BayesianLinearRegression blr;
        QVERIFY_THROWS_EXCEPTION(ContractError, blr.fit(gaussianMatrix(3, 2, 1), std::vector<double>{1, 2}));
        QVERIFY_THROWS_EXCEPTION(ContractError, blr.predictTargets(gaussianMatrix(3, 2, 1)));
        const LinearEvidence ev(gaussianMatrix(3, 2, 1), Eigen::MatrixXd::Ones(3, 1));
        QVERIFY_THROWS_EXCEPTION(SpecError, ev.logEvidence(0.0, 1.0));
    }
};

QTEST_APPLESS_MAIN(TestBayesianLinear)
#include "test_bayesian_linear.moc"

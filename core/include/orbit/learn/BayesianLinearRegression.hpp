#pragma once
// Bayesian linear regression on features, with its closed-form log evidence (Bishop PRML 3.5).
#include "orbit/data/Dataset.hpp"
#include "orbit/learn/LinearPredictor.hpp"
#include "orbit/learn/NormalEquations.hpp"
#include "orbit/learn/ShiftedSolver.hpp"
#include "orbit/learn/TargetCoding.hpp"

#include <Eigen/Core>

#include <functional>
#include <memory>
#include <vector>

namespace orbit {

/// The evidence of t = Phi w + noise, w ~ N(0, alpha^{-1} I_D), noise ~ N(0, beta^{-1} I_N), for C
/// target columns t_c sharing alpha and beta (PRML eq. 3.86, summed over columns):
///   log p(T | alpha, beta) = sum_c [ D/2 ln alpha + N/2 ln beta - E(m_c) - 1/2 ln|A| - N/2 ln 2 pi ],
///   A = alpha I + beta Phi^T Phi,  m_c = beta A^{-1} Phi^T t_c,
///   E(m) = beta/2 ||t - Phi m||^2 + alpha/2 ||m||^2.
/// One tridiagonalisation (ShiftedSolver) of Phi^T Phi (D <= N) or of Phi Phi^T (N < D, using
/// m = Phi^T (Phi Phi^T + alpha/beta I)^{-1} t and ln|A| = sum_{i<=N} ln(alpha + beta lambda_i)
/// + (D - N) ln alpha) makes each evaluation O(min(N, D) C).
///
/// column(c) is the evidence of one column with its own precisions, on the same factorisation.
/// maximise() runs MacKay's fixed point (PRML 3.92, 3.95) jointly over the C columns:
///   gamma = sum_i beta lambda_i / (alpha + beta lambda_i),
///   alpha <- C gamma / sum_c ||m_c||^2,   beta <- C (N - gamma) / sum_c ||t_c - Phi m_c||^2,
/// until both change by less than `tolerance` in log scale.
class LinearEvidence {
public:
    /// Requires Phi finite, T with Phi.rows() rows. (Double-precision features for derivative checks.)
    LinearEvidence(const MatrixXfR& Phi, const Eigen::MatrixXd& T);
    LinearEvidence(const MatrixXdR& Phi, const Eigen::MatrixXd& T);
    /// The primal form from the normal equations (G = Phi^T Phi, B = Phi^T T, N) and
    /// sumT2 = sum_c ||t_c||^2: what a job spread over processes has after its block sums.
    LinearEvidence(NormalEquations normal, double sumT2);
    /// The same with every column's ||t_c||^2 (columnT2, C entries), so that column() works.
    LinearEvidence(NormalEquations normal, const Eigen::VectorXd& columnT2);

    /// The evidence of target column c alone, with its own alpha and beta (the per-class model of
    /// per-class locality): the same factorisation, shared. Requires the column norms (the
    /// constructors from Phi and T, or the one with columnT2); ContractError otherwise.
    LinearEvidence column(Eigen::Index c) const;

    double logEvidence(double alpha, double beta) const;
    /// gamma, the effective number of well-determined parameters.
    double effectiveParameters(double alpha, double beta) const;
    /// m_c as a D x C matrix. Phi must be the matrix the evidence was built from.
    Eigen::MatrixXd posteriorMean(double alpha, double beta, const MatrixXfR& Phi) const;
    Eigen::MatrixXd posteriorMean(double alpha, double beta, const MatrixXdR& Phi) const;
    /// m_c of the primal form (built from normal equations, or with N >= D), without Phi.
    Eigen::MatrixXd posteriorMean(double alpha, double beta) const;

    /// d log p(T | alpha, beta) / d Phi at fixed alpha and beta, N x D:
    ///   beta [(T - Phi M) M^T - C Phi A^{-1}],  M = [m_1 .. m_C],
    /// (the data term's and the log-determinant's derivatives; m_c minimises E, so its own change
    /// drops out). At the evidence optimum over alpha and beta (maximise()) this is also the total
    /// derivative. Phi A^{-1} comes from the same tridiagonal basis (primal: A^{-1} Phi^T; dual:
    /// Phi A^{-1} = (alpha I + beta Phi Phi^T)^{-1} Phi). Phi and T must be those it was built from.
    Eigen::MatrixXd featureGradient(double alpha, double beta, const MatrixXfR& Phi, const Eigen::MatrixXd& T) const;
    Eigen::MatrixXd featureGradient(double alpha, double beta, const MatrixXdR& Phi, const Eigen::MatrixXd& T) const;
    /// sum_ij featureGradient_ij dPhi_ij for M directions dPhi_m (the evidence's derivative along
    /// them, e.g. d log p / d theta_m for dPhi_m = d Phi / d theta_m), in the primal form from sums
    /// over rows, so each process sums its own rows:
    ///   beta r_m - C tr((G + (alpha/beta) I)^{-1} H_m),
    /// with residualTerms[m] = r_m = sum_c (t_c - Phi m_c)^T dPhi_m m_c (m_c from posteriorMean),
    /// G = Phi^T Phi the matrix this evidence was built from and H[m] = Phi^T dPhi_m. Cost: one
    /// Cholesky factor of G + (alpha/beta) I and its inverse (about 2 D^3), where the rows of
    /// featureGradient would cost 4 N D^2. Throws ContractError in the dual form.
    std::vector<double> gradientFromSums(double alpha, double beta, const Eigen::MatrixXd& G,
                                         const std::vector<double>& residualTerms,
                                         const std::vector<Eigen::MatrixXd>& H) const;

    struct Optimum {
        double alpha = 0.0, beta = 0.0, logEvidence = 0.0, gamma = 0.0;
        int iterations = 0;
        bool converged = false;
    };
    Optimum maximise(double alpha0, double beta0, int maxIterations = 1000, double tolerance = 1e-9) const;

    Eigen::Index samples() const { return N_; }
    Eigen::Index dimension() const { return D_; }

private:
    template <class M> void build(const M& Phi, const Eigen::MatrixXd& T);
    void adopt(FactorisedSystem f);
    /// (A / beta)^{-1} applied to Z_, back in the original basis.
    Eigen::MatrixXd inBasisSolution(double alpha, double beta) const;
    template <class M> Eigen::MatrixXd meanOf(double alpha, double beta, const M& Phi) const;
    template <class M> Eigen::MatrixXd gradientOf(double alpha, double beta, const M& Phi, const Eigen::MatrixXd& T) const;
    /// beta (T - Phi M) M^T - C beta Phi A^{-1} for rows of Phi and T, given M.
    Eigen::MatrixXd gradientGiven(double alpha, double beta, const Eigen::MatrixXd& M, const Eigen::MatrixXd& P,
                                  const Eigen::MatrixXd& T) const;

    struct Terms {
        double sumM2 = 0.0;     ///< sum_c ||m_c||^2
        double sumRes = 0.0;    ///< sum_c ||t_c - Phi m_c||^2
        double logDetA = 0.0;   ///< ln|A|
        double gamma = 0.0;
    };
    Terms terms(double alpha, double beta) const;

    Eigen::Index N_ = 0, D_ = 0, C_ = 0;
    bool dual_ = false;
    std::shared_ptr<const ShiftedSolver> solver_;
    Eigen::MatrixXd Z_;   ///< Q^T Phi^T T (primal) or Q^T T (dual)
    double sumT2_ = 0.0;  ///< sum_c ||t_c||^2
    Eigen::VectorXd columnT2_;  ///< ||t_c||^2 per column (empty when only the sum is known)
};

/// Bayesian linear regression: posterior mean weights m_N (prediction Phi m_N) with the prior and
/// noise precisions alpha, beta either fixed or set by evidence maximisation (LinearEvidence).
/// Regression: one target column, standardised by default (the evidence is then that of the
/// standardised targets). Classes: one-hot columns with a Gaussian likelihood (van der Wilk et al.
/// 2018), shared alpha, beta, the evidence summed over the columns, prediction argmax_c of the
/// posterior mean.
class BayesianLinearRegression : public LinearPredictor {
public:
    struct Options {
        double alpha = 1.0;         ///< prior precision (start value when optimising)
        double beta = 1.0;          ///< noise precision (start value when optimising)
        bool optimise = true;       ///< maximise the evidence over alpha, beta
        int maxIterations = 1000;
        double tolerance = 1e-9;    ///< on |delta ln alpha| and |delta ln beta|
        bool standardizeTargets = true;
    };

    BayesianLinearRegression();
    explicit BayesianLinearRegression(Options options);

    void fit(const MatrixXfR& Phi, const std::vector<double>& targets);
    void fit(const MatrixXfR& Phi, const std::vector<int>& labels, int numClasses);
    /// The fit from normal equations of targets coded by `coding` (TargetCoding::classes with
    /// Kind::OneHot, or TargetCoding::regression), with sumT2 = ||T||^2 of the coded targets.
    void fit(NormalEquations normal, double sumT2, TargetCoding coding);

    // decisionValues(Phi) = Phi m_N (N x C), predictions and weights() = m_N: LinearPredictor.
    double alpha() const { return alpha_; }
    double beta() const { return beta_; }
    double logEvidence() const { return logEvidence_; }
    double effectiveParameters() const { return gamma_; }
    int iterations() const { return iterations_; }
    bool converged() const { return converged_; }

private:
    void fitEncoded(const MatrixXfR& Phi, const Eigen::MatrixXd& T);
    /// alpha, beta (maximised or fixed), the evidence and gamma from `evidence`; returns the
    /// posterior mean at them.
    Eigen::MatrixXd adoptOptimum(const LinearEvidence& evidence,
                                 const std::function<Eigen::MatrixXd(double, double)>& posteriorMean);

    Options options_;
    double alpha_ = 0.0, beta_ = 0.0, logEvidence_ = 0.0, gamma_ = 0.0;
    int iterations_ = 0;
    bool converged_ = false;
};

} // namespace orbit

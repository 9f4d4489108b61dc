#pragma once
// FALKON (Rudi, Carratino, Rosasco 2017, "FALKON: An optimal large scale kernel method"; Meanti et
// al. 2020 for the out-of-core version): kernel ridge regression on m Nystrom centres solved by
// conjugate gradients with the paper's preconditioner, for n past what an n x n kernel matrix allows.
// Knows nothing of the kernel: K_nm comes in row blocks from a callback.
#include "orbit/util/Progress.hpp"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace orbit {

/// Fills `block` with rows [begin, end) of the n x m kernel matrix K_nm (k(x_i, c_j) of the
/// rows x_i against the m centres c_j), resized by the callee to (end - begin) x m. Called on one
/// thread; it may use all cores itself. Its values must not depend on which other blocks are asked
/// for (nor on the thread count).
using KernelRows = std::function<void(Eigen::Index begin, Eigen::Index end, Eigen::MatrixXf& block)>;

/// How FalkonSolver solves.
struct FalkonOptions {
    /// A column's CG stops when its preconditioned residual has fallen to tolerance times its start.
    double tolerance = 1e-6;
    int maxIterations = 100;  ///< the cap on CG iterations (each is one pass over K_nm)
    /// Rows of K_nm per block: a fixed partition, so the bits never depend on the thread count.
    Eigen::Index blockRows = 1024;
    /// K_nm is kept in memory (float, 4 n m bytes) when it fits in this many bytes; otherwise its
    /// blocks are recomputed in every CG iteration (one kernel pass per iteration).
    double cacheBytes = 4.0 * 1024.0 * 1024.0 * 1024.0;
};

/// What FalkonSolver::solve found.
struct FalkonFit {
    Eigen::MatrixXd alpha;    ///< m x c: f(x) = k(x, C) alpha
    int iterations = 0;       ///< CG iterations run (the most any column took)
    double residual = 0.0;    ///< the largest relative preconditioned residual at the end
    bool converged = false;   ///< every column reached the tolerance within the cap
};

/// The m-centre Nystrom kernel ridge system with c right-hand sides Y (n x c) at once:
///   (K_nm^T K_nm + lambda n (K_mm + eps I)) alpha = K_nm^T Y,
/// which at m = n (every row a centre) is exact kernel ridge regression (K + lambda n I) alpha' = Y
/// up to eps (alpha = alpha' when K is invertible). lambda is the paper's (scaled by n).
/// Solved as in FALKON (Algorithm 1): T = chol(K_mm + eps I) (upper, T^T T = K_mm + eps I; eps the
/// smallest jitter from m 1e-14 times the mean diagonal of K_mm up, by factors of 10, that lets the
/// Cholesky succeed), A = chol(T T^T / m + lambda I), and conjugate gradients on
///   B^T H B beta = B^T K_nm^T Y,  B = T^-1 A^-1 / sqrt(n),  alpha = B beta,
/// every column with its own step sizes, all columns sharing each pass over K_nm.
/// Products in double; K_nm's blocks are float (the kernels of this library compute their values
/// in float, so keeping them as float loses nothing and halves the memory). Each pass sums the
/// blocks' K_b^T (K_b W) in block order: the same bits at any thread count.
class FalkonSolver {
public:
    /// Kmm: m x m kernel of the centres (symmetric, the same kernel as knm's). n: rows of K_nm.
    /// Computes T (SpecError("kernel", ...) when K_mm + eps I has no Cholesky factor for any eps up
    /// to 1e-2 times its mean diagonal) and, when it fits options.cacheBytes, all of K_nm.
    FalkonSolver(const Eigen::MatrixXd& Kmm, Eigen::Index n, KernelRows knm, const FalkonOptions& options = {},
                 const Progress& progress = {});

    /// The solution for targets Y (n x c) at regularisation lambda > 0 (ContractError on a bad
    /// shape, SpecError("lambda", ...) when not positive). Progress once per CG iteration.
    FalkonFit solve(const Eigen::MatrixXd& Y, double lambda, const Progress& progress = {}) const;

    Eigen::Index rows() const { return n_; }
    Eigen::Index centres() const { return m_; }
    double jitter() const { return eps_; }     ///< the eps of T
    bool cached() const { return !cache_.empty(); }
    /// Bytes of the float cache of n x m.
    static double cacheBytesFor(double n, double m) { return 4.0 * n * m; }

private:
    /// sum over the blocks b of K_b^T (K_b W + V_b): W m x c (or none: 0), V n x c (or none: 0).
    Eigen::MatrixXd pass(const Eigen::MatrixXd* W, const Eigen::MatrixXd* V, Eigen::Index c) const;

    Eigen::Index n_ = 0, m_ = 0;
    KernelRows knm_;
    FalkonOptions options_;
    Eigen::MatrixXd L_;    ///< lower: L L^T = K_mm + eps I (T = L^T)
    Eigen::MatrixXd TTt_;  ///< T T^T / m = L^T L / m
    double eps_ = 0.0;
    std::vector<Eigen::MatrixXf> cache_;  ///< K_nm's blocks when they fit
};

/// k(X, C) alpha for `rows` rows whose kernel against the centres `kxm` gives in blocks of
/// blockRows (the same partition at any thread count): rows x c.
Eigen::MatrixXd falkonPredict(Eigen::Index rows, const KernelRows& kxm, const Eigen::MatrixXd& alpha,
                              Eigen::Index blockRows = 1024);

} // namespace orbit

#pragma once
// The exact invariant kernel of the kernel machines (`--features exact:r=R`): k_G(x, y) =
// E_{g ~ q(.|x), g' ~ q(.|y)} k(g x, g' y), estimated from R group samples per input (the V-statistic
// over all R x R pairs, so the matrix stays positive semi-definite), or summed exactly over a finite
// group with Haar weights.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/kernels/BaseKernel.hpp"

#include <Eigen/Core>

#include <vector>

namespace orbit {

/// The pairwise distances of the orbit samples of n inputs, in a shift-invariant base kernel's own
/// distance (squared Euclidean for the Gaussian, Euclidean for Matérn, L1 for the Laplacian):
///   D(i R + a, j R + b) = dist(g_{i,a} x_i, g_{j,b} x_j),
/// so that the invariant kernel at any bandwidth sigma is one elementwise pass:
///   K_sigma(i, j) = (1/R^2) sum_{a,b} k_sigma(D(i R + a, j R + b)).
/// The distances do not depend on sigma: a bandwidth search computes them once per distribution
/// parameter. Computed in blocks on all cores (GEMM-based for the Euclidean distances, the
/// dispatched L1 kernel for the Laplacian); the same bits at any thread count, and an entry's bits
/// depend only on its two orbit rows, not on where they lie in the matrices (square or rectangular):
/// a saved model's predictions of new rows against its support rows are the run's bits. Memory:
/// 4 (nR)^2 bytes.
class OrbitDistances {
public:
    /// orbits: R consecutive rows per input (OrbitSampler::transformBlock's layout). Square and
    /// symmetric: the upper block triangle computed, mirrored.
    OrbitDistances(const MatrixXfR& orbits, int r, BaseKernel::Distance distance, const Progress& progress = {});
    /// The rectangular distances of the inputs of `left` (rows) to those of `right` (columns): what
    /// a prediction needs (test orbits against training orbits). diagonal() needs the square form.
    OrbitDistances(const MatrixXfR& left, const MatrixXfR& right, int r, BaseKernel::Distance distance,
                   const Progress& progress = {});

    Eigen::Index inputs() const { return n_; }
    Eigen::Index columnInputs() const { return m_; }
    int r() const { return r_; }
    BaseKernel::Distance distance() const { return distance_; }
    /// Bytes a square OrbitDistances of n inputs with R samples each holds.
    static double bytesFor(double n, int r) { return 4.0 * (n * r) * (n * r); }
    /// Whether one set's squared Euclidean distances of orbit rows of `depth` values are computed
    /// on the upper block triangle and mirrored (half the products), which needs the products in
    /// use to give A B^T as B A^T's transpose to the bit; else every block pair is computed.
    static bool mirrorsProducts(Eigen::Index depth);

    /// K(a, b) = k_G(x_rows[a], x_cols[b]) at the bandwidth of `kernel` (whose distance() must be
    /// this one's; ContractError otherwise); with dK, dK/d log sigma as well. Rows index the left
    /// (or only) inputs, columns the right (or the same) ones. Parallel over row blocks.
    void gram(const BaseKernel& kernel, const Indices& rows, const Indices& cols, Eigen::MatrixXd& K,
              Eigen::MatrixXd* dK = nullptr) const;
    /// k_G(x_i, x_i) for each of `rows` (the V-statistic's diagonal, < 1 unless the orbit is one point).
    Eigen::VectorXd diagonal(const BaseKernel& kernel, const Indices& rows) const;

    /// The distances' derivative in a parameter theta of the distribution the orbit rows came from,
    /// given the rows' tangents T (T(p) = d o_p / d theta at fixed base noise, the layout of the
    /// orbits): for u = o_p, v = o_q,
    ///   d|u - v|^2 / d theta = 2 (u.u' + v.v' - u.v' - v.u'),
    /// from one product O T^T (GEMM tiles, all cores, the same bits at any thread count), kept in place
    /// of it as the symmetrised 2 (P_pp + P_qq - P_pq - P_qp). Square distances of squared Euclidean or
    /// Euclidean kind only (ContractError otherwise: the L1 distance's derivative is not a product).
    /// Memory: another 4 (nR)^2 bytes.
    void setTangents(const MatrixXfR& orbits, const MatrixXfR& tangents);
    /// The same for several parameters theta_1 .. theta_m at once (tangents[k] = d o / d theta_k,
    /// e.g. exactOrbitTangents' rows of one sampling pass): one product O T_k^T per parameter, each
    /// kept as its own derivative (the first's bits are setTangents' of tangents[0]). Memory: m more
    /// times 4 (nR)^2 bytes.
    void setTangents(const MatrixXfR& orbits, const std::vector<MatrixXfR>& tangents);
    bool hasTangents() const { return !dD_.empty(); }
    /// How many parameters setTangents was given (0 without).
    std::size_t tangentCount() const { return dD_.size(); }
    /// gram() with, in dKtheta, dK / d theta (needs setTangents): the chain rule through the base
    /// kernel's derivative in its distance, summed over the R x R pairs as K is. With several
    /// tangents, the first parameter's.
    void gramWithTangent(const BaseKernel& kernel, const Indices& rows, const Indices& cols, Eigen::MatrixXd& K,
                         Eigen::MatrixXd& dKtheta) const;
    /// gram() with dK / d theta_k of every parameter setTangents was given, in its order, from one
    /// pass over the distances (each dKthetas[k] the bits gramWithTangent would give for it alone).
    void gramWithTangents(const BaseKernel& kernel, const Indices& rows, const Indices& cols, Eigen::MatrixXd& K,
                          std::vector<Eigen::MatrixXd>& dKthetas) const;

private:
    OrbitDistances(const MatrixXfR& left, const MatrixXfR* right, int r, BaseKernel::Distance distance, const Progress& progress);

    void gramAny(const BaseKernel& kernel, const Indices& rows, const Indices& cols, Eigen::MatrixXd& K, Eigen::MatrixXd* dK,
                 std::vector<Eigen::MatrixXd>* dKthetas, std::size_t tangents) const;
    /// One parameter's distance derivative appended to dD_ (setTangents' product).
    void addTangent(const MatrixXfR& orbits, const MatrixXfR& tangents);

    MatrixXfR D_;
    std::vector<MatrixXfR> dD_;  ///< d D / d theta_k (squared Euclidean form) when setTangents was called
    Eigen::Index n_ = 0, m_ = 0;
    bool symmetric_ = true;
    int r_ = 1;
    BaseKernel::Distance distance_ = BaseKernel::Distance::SquaredEuclidean;
};

} // namespace orbit

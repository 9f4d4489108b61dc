#pragma once
// Invariant kernel matrices: Monte Carlo k_qG (LGIKA eq. 3), the exact Haar sum for finite
// groups, and the template-projection kernel of Pal & Savvides (their Theorem 3.1).
#include "orbit/util/Progress.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/orbits/OrbitSampler.hpp"

#include <Eigen/Core>
#include <vector>

namespace orbit {

/// Diagonal estimator of the Monte Carlo kernel. Off the diagonal the samples of x_i and x_j are
/// independent, so the V-statistic (1/r^2) sum_{a,b} k(g_a x_i, h_b x_j) is unbiased; on the diagonal
/// V includes the a = b terms (biased by O(1/r), but K stays a Gram matrix: PSD by construction),
/// U = 1/(r(r-1)) sum_{a != b} is unbiased but not guaranteed PSD.
enum class Estimator { V, U };

/// K_ij = (1/(r_i r_j)) sum_{a,b} k(o_{i,a}, o_{j,b}) for orbits stored r consecutive rows per input
/// (orbits.rows() == N r): the inner products of the empirical mean embeddings. Symmetric exactly
/// (computed once per pair), PSD for Estimator::V. Blocked float32 products, double accumulation,
/// parallel over a fixed partition (bit-identical at any thread count). `progress` hears the
/// fraction of pairs done at most every 50 ms, from any of the threads (one at a time); a cancel
/// stops every block at its next product and throws orbit::Cancelled.
Eigen::MatrixXd meanEmbeddingKernel(const MatrixXfR& orbits, int r, const BaseKernel& kernel,
                                    Estimator estimator = Estimator::V, const Progress& progress = {});

/// Monte Carlo k_qG on the rows of X: r samples g ~ q per input from sampler.elementsFor(i, x_i).
/// `progress` as in meanEmbeddingKernel (asked once more after the sampling).
Eigen::MatrixXd invariantKernelMatrix(const MatrixXfR& X, const OrbitSampler& sampler, const BaseKernel& kernel,
                                      Estimator estimator = Estimator::V, const Progress& progress = {});

/// Exact Haar-integration kernel of a finite group: k_G(x, y) = (1/|G|^2) sum_{g,h in G} k(gx, hy).
/// Invariant: k_G(gx, hy) = k_G(x, y) for all g, h in G. Throws SpecError for infinite groups or more
/// than `limit` elements.
Eigen::MatrixXd haarKernelMatrix(const MatrixXfR& X, const Group& group, const Shape& shape, const BaseKernel& kernel,
                                 std::size_t limit = 1024);

/// Pal & Savvides Theorem 3.1: with templates T = {t_1..t_M}, u_x = K_TT^+ k_T(x) (the coefficients
/// of the projection of phi(x) on span phi(T)) and the group seen only through the transformed
/// templates, k_Psi(x, y) = (1/|G0|) sum_{g in G0} u_x^T K(gT, T) u_y, K(gT, T)_ab = k(g t_a, t_b).
/// The group-averaged M = (1/|G0|) sum_g K(gT, T) is symmetrised and projected on the PSD cone
/// (a no-op for a finite group G0 and a unitary kernel, where M = phi(T)^T Psi phi(T) is PSD), so
/// K is symmetric and PSD. Exactly G0-invariant when G0 is a finite group and phi(x) lies in
/// span phi(T). Eigenvalues of K_TT below tol * max are dropped in the pseudo-inverse.
Eigen::MatrixXd palSavvidesKernelMatrix(const MatrixXfR& X, const MatrixXfR& templates, const Group& group,
                                        const std::vector<GroupElement>& elements, const Shape& shape,
                                        const BaseKernel& kernel, double tol = 1e-8);

} // namespace orbit

#pragma once
// Nystrom features, plain (Williams & Seeger) and locally invariant (LGIKA eq. 8).
#include "orbit/features/FeatureMap.hpp"

#include <memory>

namespace orbit {

namespace detail { struct OrbitPlan; }

/// psi(x) = (1/r) L sum_k k_Z(g_k x), with landmarks Z = {z_1..z_s} (a random subset of the training
/// rows, or k-means centres), K_ZZ = U diag(lambda) U^T and L = diag(lambda_+^-1/2) U_+^T keeping the
/// eigenvalues lambda > tol * lambda_max, so L^T L = K_ZZ^+ (pseudo-inverse).
///
/// Works with any base kernel (Gaussian or polynomial). Without a group (r = 1) these are the plain
/// Nystrom features: <psi(x), psi(y)> = k_Z(x)^T K_ZZ^+ k_Z(y), exact (up to the dropped eigenvalues)
/// when x, y are landmarks. With a group, <psi(x), psi(y)> ~ k_qG(x, y); for a unitary action and a
/// symmetric q independent of x the group moves onto the landmarks (k(gx, z) = k(x, g^-1 z)), so a
/// batch is one product X Z_G^T, a fused kernel evaluation and the average over the r blocks.
/// A finite group with the Haar distribution uses every element once (exact average, r = |G|),
/// so then psi(g x) = psi(x) for all g in G.
class NystromMap : public FeatureMap {
public:
    enum class Landmarks { Random, KMeans };
    NystromMap(FeatureContext context, int s, int r, Landmarks landmarks, double tol = 1e-6, std::string mode = "auto");
    ~NystromMap() override;

    std::string spec() const override;
    std::string kernel() const override;
    void fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress) override;
    using FeatureMap::fit;
    Eigen::Index dim() const override { return L_.rows(); }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;

    const MatrixXfR& landmarks() const { return Z_; }

private:
    FeatureContext context_;
    int s_, r_;
    Landmarks landmarks_;
    double tol_;
    std::string mode_;
    MatrixXfR Z_;            ///< s x d landmarks
    MatrixXfR ZG_;           ///< what the product uses: r s (moved) or s landmarks
    Eigen::VectorXf zNorm2_; ///< squared norms of the rows of ZG_
    MatrixXfR L_;            ///< rank x s
    std::unique_ptr<detail::OrbitPlan> plan_;
};

/// k-means (Lloyd, k-means++ seeding) on the rows of X, deterministic for a seed; at most `iterations`
/// rounds on a random subset of at most `maxRows` rows. Requires 1 <= k <= X.rows().
/// Reports to `progress` between seeding steps and rounds (throws Cancelled when it asks to).
MatrixXfR kMeansCentres(const MatrixXfR& X, int k, std::uint64_t seed, int iterations = 10,
                        std::size_t maxRows = 20000, const Progress& progress = {});

} // namespace orbit

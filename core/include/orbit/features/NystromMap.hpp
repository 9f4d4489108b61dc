#pragma once
// Nystrom features, plain (Williams & Seeger) and locally invariant (LGIKA eq. 8).
#include "orbit/analysis/KMeans.hpp"  // the k-means landmarks
#include "orbit/features/OrbitFeatureMap.hpp"

#include <memory>

namespace orbit {

/// How NystromMap inverts the landmark kernel: Cholesky with `jitter` (relative to the mean
/// diagonal) unless tol >= 0 (pseudo-inverse keeping eigenvalues above tol * lambda_max).
struct NystromWhitening {
    double jitter = 1e-6;
    double tol = -1;
};

/// psi(x) = (1/r) L sum_k k_Z(g_k x), with landmarks Z = {z_1..z_s} (a random subset of the training
/// rows, k-means centres, or rows each moved by one sample g ~ q: "from the orbit gX", LGIKA 2.2.2)
/// and L^T L the inverse of the landmark kernel K_ZZ, computed one of two ways:
///  - Cholesky (default): K_ZZ + jitter * mean(diag K_ZZ) I = C C^T and L = C^-1 (s x s). Every
///    direction of K_ZZ is kept, the smallest damped by the jitter; the factorisation and the
///    inverse are tile-parallel and poll the progress (cancellable).
///  - Pseudo-inverse (tol >= 0, LGIKA's K_ZZ^+ literally): K_ZZ = U diag(lambda) U^T and
///    L = diag(lambda_+^-1/2) U_+^T keeping lambda > tol * lambda_max (rank x s). Eigen's
///    eigensolver: not interruptible, 12 s at s = 2000 here; and with a Gaussian kernel the spectrum
///    falls so fast that few directions survive (431 of 2000 on QM7 at tol 1e-6).
///
/// Works with any base kernel. Without a group (r = 1) these are the plain Nystrom features:
/// <psi(x), psi(y)> = k_Z(x)^T (K_ZZ + jitter I)^-1 k_Z(y), close to k(x, y) when x, y are
/// landmarks. With a group, <psi(x), psi(y)> ~ k_qG(x, y); for a unitary action and a symmetric q
/// independent of x the group moves onto the landmarks (k(gx, z) = k(x, g^-1 z)), so a batch is one
/// product X Z_G^T, a fused kernel evaluation and the average over the r blocks.
/// The Laplacian (L1) kernel takes blocks of L1 distances (l1DistanceBlock) instead of products, in
/// K_ZZ and in transform(); its k(gx, z) = k(x, g^-1 z) holds only when g permutes coordinates
/// (Group::permutesCoordinates: permutations of Coulomb matrices, cyclic shifts, quarter turns), so
/// with other groups mode=auto transforms the inputs and mode=templates is refused (SpecError
/// "features.mode"). The distances of a pair are the same ordered float sum in K_ZZ and transform().
/// A finite group with the Haar distribution uses every element once (exact average, r = |G|),
/// so then psi(g x) = psi(x) for all g in G.
class NystromMap : public OrbitFeatureMap {
public:
    enum class Landmarks { Random, KMeans, Orbit };
    using Whitening = NystromWhitening;
    static constexpr double kMaxJitter = 1e-2;

    NystromMap(FeatureContext context, int s, int r, Landmarks landmarks, Whitening whitening = {},
               std::string mode = "auto");
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
    MatrixXfR chooseLandmarks(const MatrixXfR& X, std::uint64_t seed, const Progress& progress) const;

    int s_, r_;
    Landmarks landmarks_;
    Whitening whitening_;
    std::string mode_;
    MatrixXfR Z_;            ///< s x d landmarks
    MatrixXfR ZG_;           ///< what the product uses: r s (moved) or s landmarks
    Eigen::VectorXf zNorm2_; ///< squared norms of the rows of ZG_
    MatrixXfR L_;            ///< rank x s
};

} // namespace orbit

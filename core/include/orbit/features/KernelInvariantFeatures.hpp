#pragma once
// Kernel invariant features of Pal & Savvides (2016), their eq. 2 over a finite set G0.
#include "orbit/features/OrbitFeatureMap.hpp"

#include <memory>

namespace orbit {

/// Upsilon_n^k(x) = (1/|G0|) sum_{g in G0} eta_n(k(x, g t_k)), k = 1..K templates t_k (a random subset
/// of the training rows), with pooling eta: mean (n = 1), max (the infinite moment: max_g k(x, g t_k)),
/// or moments:n (the moments 1..n, K n features). G0 is the whole group when it is finite with the
/// Haar distribution (at most 4096 elements), otherwise r shared samples of q (q must not depend on x).
///
/// Requires a unitary action and a unitary base kernel, k(gx, gy) = k(x, y) (their Definition 2.2):
/// the Gaussian, Matérn and polynomial kernels under any unitary action, the Laplacian (L1) only
/// when the group permutes coordinates (Group::permutesCoordinates; SpecError("kernel") otherwise),
/// its values then from blocks of L1 distances. Guarantees: when G0 is a finite group, Upsilon(g x) = Upsilon(x) for all
/// g in G0, since k(gx, g' t) = k(x, g^-1 g' t) and g^-1 G0 = G0.
class KernelInvariantFeatures : public OrbitFeatureMap {
public:
    enum class Pooling { Mean, Max, Moments };
    KernelInvariantFeatures(FeatureContext context, int templates, Pooling pooling, int moments, int r);
    ~KernelInvariantFeatures() override;

    std::string spec() const override;
    std::string kernel() const override;
    void fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress) override;
    using FeatureMap::fit;
    Eigen::Index dim() const override { return Eigen::Index(K_) * (pooling_ == Pooling::Moments ? moments_ : 1); }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;

    /// |G0| after fit.
    int groupSize() const;

private:
    int K_;
    Pooling pooling_;
    int moments_, r_;
    MatrixXfR TG_;
    Eigen::VectorXf tNorm2_;
};

} // namespace orbit

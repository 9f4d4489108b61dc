#pragma once
#include "orbit/distributions/Distribution.hpp"

#include <vector>

namespace orbit {

/// The rows of the n x n matrix c (row-major) ordered by decreasing ||c_i|| + noise[i]; rows of norm 0
/// (the zero padding of a smaller molecule) are not perturbed and come last, in their original
/// order. Ties keep their original order. noise: n values, or null for none: then this is the order
/// of the sorted Coulomb matrix (the `sorted` map).
std::vector<int> rowNormOrder(const float* c, int n, const double* noise = nullptr);

/// Montavon et al. (2012) random sorted Coulomb matrices: the permutation that sorts the rows of
/// C by ||C_i|| + n_i, n_i ~ N(0, sigma^2), in descending order. Depends on x. Rows with norm 0
/// (the zero padding) are not perturbed and always come last, in their original order.
/// sigma = 0 gives the deterministic sorted Coulomb matrix. Not symmetric.
/// Requires: sigma >= 0, permutation group on n x n matrices.
class NoisySort final : public Distribution {
public:
    explicit NoisySort(double sigma);
    double sigma() const { return sigma_; }
    /// The permutation for one n x n matrix c (row-major) and the noise drawn from rng.
    std::vector<int> sortPermutation(Rng& rng, const float* c, int n) const;

    std::string spec() const override;
    void checkGroup(const Group& group) const override;
    GroupElement sample(Rng& rng, const Group& group, const Shape& shape, const float* x) const override;
    bool isSymmetric() const override { return false; }
    bool dependsOnInput() const override { return true; }

protected:
    GroupKind parameterGroup() const override { return GroupKind::Permutation; }

private:
    double sigma_;
};

} // namespace orbit

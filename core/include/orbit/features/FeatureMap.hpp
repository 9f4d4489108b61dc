#pragma once
// Feature maps psi: R^d -> R^D with <psi(x), psi(y)> ~ k(x, y) for the kernel they approximate.
#include "orbit/data/Dataset.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace orbit {

/// What a feature map may need besides its own spec: the sample shape, the group and distribution
/// (invariant maps), the base kernel (bandwidth already resolved), and whether the inputs are
/// symmetric matrices (Coulomb: the products may then run on the upper triangle only).
struct FeatureContext {
    DataKind kind = DataKind::Vectors;
    Shape shape;
    std::shared_ptr<const Group> group;
    std::shared_ptr<const Distribution> dist;
    std::optional<BaseKernel> kernel;
    bool symmetricInputs = false;
};

/// A feature map, fitted on training data and then applied to any batch.
///
/// Contract: fit(X, seed) draws all randomness from `seed` (templates, landmarks, shared group
/// elements); transform(X, begin, end, out) writes the features of rows [begin, end) of X into
/// out ((end - begin) x dim(), float32). Row i of X is treated as dataset index i: input-dependent
/// group samples come from the sub-stream of i. For given X, begin, end and seed the output is
/// bit-identical at any thread count (the block partition depends on the data only); calling with
/// another batching gives the same features up to float rounding. <psi(x), psi(y)> approximates kernel().
///
/// fit(X, seed, progress) reports the fraction of the fit done in [0, 1] with a short step text
/// (e.g. "templates 12000/128000") at least every few hundred milliseconds of work, and throws
/// orbit::Cancelled when `progress` returns true; a map whose fit was cancelled must be fitted again
/// before use. Reporting never changes the fitted state: fit(X, seed) is fit(X, seed, {}), the same bits.
class FeatureMap {
public:
    virtual ~FeatureMap() = default;
    virtual std::string spec() const = 0;
    /// The kernel it approximates, in words (e.g. "k_qG with gaussian:sigma=3, rotation, vonmises:kappa=0.2").
    virtual std::string kernel() const = 0;
    void fit(const MatrixXfR& X, std::uint64_t seed) { fit(X, seed, Progress{}); }
    virtual void fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress) = 0;
    virtual Eigen::Index dim() const = 0;
    virtual void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const = 0;
    /// After fit(): whether a row's features depend on its dataset index, i.e. the inputs get their
    /// own group samples (q depends on x, e.g. noisy sort). Otherwise the rows of any matrix give the
    /// same features wherever they stand (up to float rounding).
    virtual bool usesRowIndex() const { return false; }

    /// All rows of X.
    MatrixXfR transform(const MatrixXfR& X) const;
};

/// Builds a feature map from its `--features` spec (docs/cli.md): `raw`, `sorted`, `rf:s=S[,form=cos|complex]`,
/// `irf:s=S,r=R[,form=..][,mode=auto|templates|data]`, `nystrom:s=S[,landmarks=random|kmeans][,jitter=J|tol=T]`,
/// `inystrom:s=S,r=R[,...]`, `gicdf:m=M,bins=B,r=R[,eps=E][,norm=each|max][,span=S|auto]`, `kif:k=K,eta=mean|max|moments:n[,r=R]`,
/// any of them followed by `+rf2:s=S2[,median=F|sigma=X]` (a second Gaussian RF layer).
/// Throws SpecError("features") on bad text or when the context lacks what the map needs.
std::unique_ptr<FeatureMap> makeFeatureMap(const std::string& spec, const FeatureContext& context);

/// The context for a dataset: its kind and shape, symmetricInputs for Coulomb matrices, the group and
/// distribution of groupSpec / distSpec (both empty: none; makeGroup(groupSpec, shape, seed)), and the
/// base kernel of kernelSpec resolved on the data (the median rule uses a sample drawn with `seed`).
FeatureContext makeFeatureContext(const Dataset& data, const std::string& groupSpec, const std::string& distSpec,
                                  const std::string& kernelSpec, std::uint64_t seed);

} // namespace orbit

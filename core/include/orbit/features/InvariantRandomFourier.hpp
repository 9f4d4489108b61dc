#pragma once
// Random Fourier features, plain (Rahimi & Recht) and locally invariant (LGIKA eq. 7).
#include "orbit/features/OrbitFeatureMap.hpp"
#include "orbit/orbits/OrbitSampler.hpp"

#include <memory>

namespace orbit {

/// psi(x)_j = sqrt(2/s) (1/r) sum_k cos(<w_j, g_k x> + b_j), w_j drawn from the base kernel's spectral
/// density (BaseKernel::drawFrequency: N(0, I / sigma^2) for the Gaussian, Cauchy(0, 1/sigma) per
/// coordinate for the Laplacian, a multivariate t for Matérn; Rahimi & Recht 2007), b_j ~ U[0, 2 pi),
/// g_k ~ q; or the complex form psi(x) = sqrt(1/s) (1/r) sum_k [cos <w_j, g_k x>, sin <w_j, g_k x>]_j.
/// Without a group (r = 1, g = e) these are the plain random Fourier features of the base kernel.
///
/// Requires a shift-invariant base kernel (gaussian, laplacian, matern). Guarantees E_w <psi(x), psi(y)> = (1/r^2) sum_{k,l} k(g_k x, g_l y),
/// whose expectation over g is k_qG(x, y) (V-statistic, bias O(1/r) on the diagonal).
/// When the action is unitary and q symmetric and independent of x, the r s transformed templates
/// g_k^-1 w_j are computed once (the template trick) and a batch costs one product X W_G^T, a fused
/// fastCos and the average over the r blocks; otherwise (noisy sort) blocks of inputs are transformed
/// through OrbitSampler::transformBlock and multiplied by W^T. Memory: O(block x (d + tile)) per thread.
class InvariantRandomFourier : public OrbitFeatureMap {
public:
    enum class Form { Cos, Complex };
    /// mode: "auto", "templates" or "data" (see OrbitPlan); context.group may be null for plain RF.
    InvariantRandomFourier(FeatureContext context, int s, int r, Form form, std::string mode = "auto");
    ~InvariantRandomFourier() override;

    std::string spec() const override;
    std::string kernel() const override;
    void fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress) override;
    using FeatureMap::fit;
    Eigen::Index dim() const override { return form_ == Form::Complex ? 2 * Eigen::Index(s_) : s_; }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;

    /// True when fit chose the template trick.
    bool usesTemplateTrick() const;
    /// The s x d templates w_j (before any transformation) and phases b_j, for tests and probes.
    const MatrixXfR& templates() const { return W_; }
    const Eigen::VectorXf& phases() const { return b_; }
    /// The orbit sampler after fit (null for plain RF): its sharedElements() are the g_k of the
    /// template trick, its elementsFor(i, x) those of the data path.
    const OrbitSampler* orbitSampler() const;

    /// The templates fit(X, seed) draws: s x d rows w_j from the kernel's spectral density (row by
    /// row, BaseKernel::drawFrequency) and s phases b_j ~ U[0, 2 pi) (zero in the complex form), all
    /// from makeRng(seed, 1); progress goes up to `share`.
    static void drawTemplates(int s, Eigen::Index d, const BaseKernel& kernel, Form form, std::uint64_t seed, MatrixXfR& W,
                              Eigen::VectorXf& b, const Progress& progress = {}, double share = 1.0);
    /// The seed of the orbit sampler whose elements fit(X, seed) uses.
    static std::uint64_t samplerSeed(std::uint64_t seed);

private:
    int s_, r_;
    Form form_;
    std::string mode_;
    MatrixXfR W_;           ///< s x d
    Eigen::VectorXf b_;     ///< s phases (zero in the complex form)
    MatrixXfR product_;     ///< what the product uses: W_G (r s x d') or W (s x d'), maybe folded
};

} // namespace orbit

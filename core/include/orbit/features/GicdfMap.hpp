#pragma once
// Group-invariant CDF features (Mroueh, Voinea & Poggio 2015).
#include "orbit/features/OrbitFeatureMap.hpp"

#include <memory>

namespace orbit {

/// Phi(x)_{j,k} = sqrt(s) / (sqrt(n m) r) #{i : <g_i t_j, x> <= s k / n},  j = 1..m, k = -n..n,
/// for x normalised to unit norm (norm=each, the paper's definition) or divided by the largest
/// norm among the training rows (norm=max: sizes are kept, e.g. a Coulomb matrix's norm grows with
/// the molecule, and inputs of every norm share the same thresholds), s = 1 + eps (the paper's
/// range), and m Gaussian templates t ~ N(0, I/d) kept when ||t||^2 < 1 + eps (rejection sampling),
/// g_i ~ q (r of them). m (2n + 1) features.
///
/// The threshold range s may be set (span=S) or measured (span=auto: the 99th percentile of
/// |<t_j, x>| over up to 256 training rows and the templates). The paper's s fits inputs whose
/// projections are of order 1; for t ~ N(0, I/d) and unit x they are of order 1/sqrt(d), so in
/// d = 529 (QM7) nearly every projection falls into the two or three bins around 0.
///
/// Guarantees: <Phi(x), Phi(z)> approximates K_s(x, z) = E_t int_{-s}^{s} psi(x,t,tau) psi(z,t,tau) dtau
/// (their eq. 1); for a finite group with q its Haar measure and the elements enumerated exactly (haar
/// on a cyclic group, r = |G|), Phi(gx) = Phi(x). The group moves onto the templates when the action
/// is unitary and q symmetric and independent of x; otherwise (noisy sort) the inputs are transformed
/// (<t, g x>, each transformed input normalised).
class GicdfMap : public OrbitFeatureMap {
public:
    enum class Norm { Each, Max };
    /// span: > 0 the threshold range s, kSpanPaper (1 + eps) or kSpanAuto (measured by fit()).
    static constexpr double kSpanPaper = 0.0, kSpanAuto = -1.0;
    GicdfMap(FeatureContext context, int m, int bins, int r, double eps = 0.1, std::string mode = "auto",
             Norm norm = Norm::Each, double span = kSpanPaper);
    ~GicdfMap() override;

    std::string spec() const override;
    std::string kernel() const override;
    void fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress) override;
    using FeatureMap::fit;
    Eigen::Index dim() const override { return Eigen::Index(m_) * (2 * bins_ + 1); }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;
    /// The threshold range s used by transform() (after fit()).
    double span() const { return spanUsed_; }
    /// The m templates t_j (m x d), drawn by fit().
    const MatrixXfR& templates() const { return T_; }

private:
    int m_, bins_, r_;
    double eps_;
    std::string mode_;
    Norm norm_;
    float maxNorm_ = 1.0f;  ///< norm=max: the largest norm among the rows fit() saw
    double span_;           ///< as given
    double spanUsed_ = 0;   ///< the range of the fitted map
    MatrixXfR T_;   ///< templates
    MatrixXfR TG_;  ///< transformed templates (template trick) or the templates
};

} // namespace orbit

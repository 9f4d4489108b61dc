#pragma once
// Base kernels k(x, x') on R^d (docs/design.md): the Gaussian, the polynomial, and the field's
// kernels on molecules and images: the Laplacian (L1) and the Matérn family.
#include "orbit/data/Dataset.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace orbit {

class Rng;
class KernelProfile;

/// A base kernel, a small value type.
///
/// Gaussian:   k(x, y) = exp(-||x - y||^2 / (2 sigma^2)), sigma > 0 (shift invariant, k(x, x) = 1).
/// Polynomial: k(x, y) = (<x, y> + c)^degree, degree >= 1, c >= 0.
/// Laplacian:  k(x, y) = exp(-||x - y||_1 / sigma): the L1 kernel of Rupp et al. 2012 and Hansen et
///             al. 2013 on Coulomb matrices. Its spectral density is a product of Cauchy densities of
///             scale 1/sigma, one per coordinate (Rahimi & Recht 2007, Table 1).
/// Matérn:     k(x, y) = 2^(1-nu) / Gamma(nu) (sqrt(2 nu) d / sigma)^nu K_nu(sqrt(2 nu) d / sigma) on the
///             Euclidean distance d = ||x - y||, nu in {1/2, 3/2, 5/2}, in scikit-learn's convention
///             (its Matern(length_scale=sigma, nu)): with r = sqrt(2 nu) d / sigma,
///             nu = 1/2: exp(-r); nu = 3/2: (1 + r) exp(-r); nu = 5/2: (1 + r + r^2 / 3) exp(-r).
///             Its spectral density is a multivariate t with 2 nu degrees of freedom and scale
///             1 / sigma (Rasmussen & Williams 2006, eq. 4.15): w = z / sigma * sqrt(2 nu / u),
///             z ~ N(0, I), u ~ chi^2(2 nu).
/// The Gaussian and the Matérn kernels depend on x, y only through <x, y>, ||x||^2, ||y||^2, so for a
/// unitary action k(gx, gy) = k(x, y) and a block of them is one float32 product followed by an
/// elementwise map. A registered kernel (Kind::Profile) is a KernelProfile: a function of one of
/// the three distances, evaluated entry by entry. The Laplacian needs L1 distances (matrix() computes them by a run-time
/// dispatched distance kernel); ||gx - gy||_1 = ||x - y||_1 holds for permutations of coordinates, not
/// for rotations of images with interpolation.
class BaseKernel {
public:
    enum class Kind { Gaussian, Polynomial, Laplacian, Matern, Profile };
    /// The distance a shift-invariant kernel is a function of (None: the polynomial kernel).
    enum class Distance { None, SquaredEuclidean, Euclidean, L1 };

    static BaseKernel gaussian(double sigma);
    static BaseKernel polynomial(int degree, double c);
    static BaseKernel laplacian(double sigma);
    /// nu is 0.5, 1.5 or 2.5 (SpecError("kernel") otherwise).
    static BaseKernel matern(double nu, double sigma);
    /// A registered stationary kernel (KernelProfile.hpp) at bandwidth sigma > 0 (SpecError("kernel")
    /// naming it otherwise).
    static BaseKernel profiled(std::shared_ptr<const KernelProfile> profile, double sigma);

    Kind kind() const { return kind_; }
    double sigma() const { return sigma_; }
    int degree() const { return degree_; }
    double offset() const { return c_; }
    double nu() const { return nu_; }
    /// The registered kernel's profile (Kind::Profile), else null.
    const KernelProfile* profile() const { return profile_.get(); }
    /// The kernel's own distance: squared Euclidean (Gaussian), Euclidean (Matérn), L1 (Laplacian).
    Distance distance() const;
    /// Shift invariant: k(x, y) = k(x - y), with random Fourier features (Gaussian, Laplacian, Matérn).
    bool stationary() const { return kind_ != Kind::Polynomial; }
    /// Values from inner products and squared norms (fromInnerProducts): all but the kernels of L1
    /// distances.
    bool fromProducts() const { return kind_ == Kind::Polynomial || distance() != Distance::L1; }
    /// The same kernel with another bandwidth (stationary kernels only).
    BaseKernel withSigma(double sigma) const;
    /// The spec string that recreates it with an absolute bandwidth, e.g. "gaussian:sigma=3.5".
    std::string spec() const;

    /// k(x, y) for two vectors of length d.
    double operator()(const float* x, const float* y, int d) const;
    /// k as a function of its own distance() value (d^2 for the Gaussian, d for Matérn, ||.||_1 for
    /// the Laplacian). Requires stationary().
    double ofDistance(double dist) const;
    /// K(i, j) = k(A_i, B_j): one float32 product A B^T then the elementwise map, or for the
    /// Laplacian the L1 distance kernel then the exponential.
    MatrixXfR matrix(const MatrixXfR& A, const MatrixXfR& B) const;
    /// Turns a block of inner products P(i, j) = <a_i, b_j> into kernel values in place, given the
    /// squared norms of the rows (aNorm2: P.rows(), bNorm2: P.cols()). Requires fromProducts().
    void fromInnerProducts(float* P, Eigen::Index rows, Eigen::Index cols, Eigen::Index stride,
                           const float* aNorm2, const float* bNorm2) const;
    /// acc[t] += k(a, b_t) for t < n, from p[t] = <a, b_t>, aNorm2 = ||a||^2 and bNorm2[t] = ||b_t||^2:
    /// the values fromInnerProducts makes, summed in one pass (the pooling of Nystrom features). p
    /// may be overwritten. Requires fromProducts().
    void addFromInnerProducts(float* acc, float* p, Eigen::Index n, float aNorm2, const float* bNorm2) const;
    /// k(a, b) from <a, b> = ab and the squared norms a2, b2, in double, for Gram matrices built by a
    /// product (Nystrom's K_ZZ, krr's kernel on features). The squared distance is clamped at 0
    /// against rounding (k <= 1). Requires fromProducts().
    double fromInnerProduct(double ab, double a2, double b2) const
    {
        if (kind_ == Kind::Gaussian) return std::exp(-std::max(0.0, a2 + b2 - 2.0 * ab) * gamma_);
        if (kind_ == Kind::Matern) return ofDistance(std::sqrt(std::max(0.0, a2 + b2 - 2.0 * ab)));
        if (kind_ == Kind::Profile) return profiledFromInnerProduct(ab, a2, b2);
        return std::pow(ab + c_, double(degree_));
    }
    /// Draws the d coordinates of one random Fourier frequency w from the kernel's spectral density
    /// (E cos(<w, x - y>) = k(x, y)): N(0, I / sigma^2), Cauchy(0, 1 / sigma) per coordinate, or the
    /// multivariate t above. Requires stationary().
    void drawFrequency(Rng& rng, float* w, Eigen::Index d) const;

private:
    /// A shift-invariant kernel of this kind and bandwidth (SpecError naming it for sigma <= 0).
    static BaseKernel stationaryOf(Kind kind, const char* name, double sigma);
    double profiledFromInnerProduct(double ab, double a2, double b2) const;

    Kind kind_ = Kind::Gaussian;
    double sigma_ = 1.0;
    double gamma_ = 0.5;  ///< 1 / (2 sigma^2)
    int degree_ = 2;
    double c_ = 1.0;
    double nu_ = 1.5;
    std::shared_ptr<const KernelProfile> profile_;  ///< Kind::Profile only
};

/// Median of the pairwise Euclidean distances ||x_i - x_j|| (i < j) over a random subset of at most
/// `maxSamples` rows of X (all rows when there are fewer), drawn with `seed`. Requires >= 2 rows.
double medianPairwiseDistance(const MatrixXfR& X, std::size_t maxSamples = 1000, std::uint64_t seed = 0);
/// The same rows and order, with the L1 distances ||x_i - x_j||_1 (the Laplacian's median rule).
double medianPairwiseL1Distance(const MatrixXfR& X, std::size_t maxSamples = 1000, std::uint64_t seed = 0);

/// D(i, j) = ||A_i - B_j||_1, blocked, on the calling thread, by the distance kernel chosen at run
/// time (AVX-512, AVX2 or baseline: each entry summed over the coordinates in order, the same bits at
/// every level). Requires A.cols() == B.cols().
MatrixXfR l1Distances(const MatrixXfR& A, const MatrixXfR& B);
/// The raw kernel: out(i, j) = sum_t |a_i[t] - b_j[t]| for na rows of A (stride lda) and nb rows
/// of B (stride ldb), d values each, into out (stride ldo).
void l1DistanceBlock(const float* A, Eigen::Index lda, Eigen::Index na, const float* B, Eigen::Index ldb,
                     Eigen::Index nb, Eigen::Index d, float* out, Eigen::Index ldo);
/// The rows medianPairwiseDistance(X, maxSamples, seed) uses, in its order, for X with n rows: a
/// map whose features are expensive can compute them for these rows only.
std::vector<std::size_t> medianSampleRows(std::size_t n, std::size_t maxSamples, std::uint64_t seed);

/// Whether makeKernel(spec, sample, seed) reads `sample` (the median rule, gaussian:median=F):
/// which rows a rank of many must load. False for an empty spec; SpecError("kernel") on bad text.
bool usesMedianRule(const std::string& spec);

/// The kernel `spec` names at bandwidth 1, whatever its sigma= or median= (no data is read): its
/// family, to ask what it is (kind(), distance(), stationary()). SpecError("kernel") on bad text.
BaseKernel kernelFamily(const std::string& spec);
/// The median pairwise distance of X in the metric k is a function of: L1 distances for the
/// Laplacian (medianPairwiseL1Distance), Euclidean ones otherwise (medianPairwiseDistance).
double medianDistanceOf(const BaseKernel& k, const MatrixXfR& X, std::size_t maxSamples = 1000, std::uint64_t seed = 0);

/// Parses `gaussian:sigma=X`, `gaussian:median=F` (sigma = F x medianPairwiseDistance(sample)),
/// `laplacian:sigma=X|median=F` (the median of L1 distances of the same rows),
/// `matern:nu=0.5|1.5|2.5,sigma=X|median=F` (Euclidean median) or `polynomial:degree=D,c=C`
/// (defaults D = 2, C = 1), or a registered kernel: its descriptor's factory builds it (KernelDescriptor::make).
/// `sample` is only read for the median rule.
/// Throws SpecError("kernel") on bad text or parameters, and when the median distance is 0.
BaseKernel makeKernel(const std::string& spec, const MatrixXfR& sample, std::uint64_t seed = 0);

} // namespace orbit

#pragma once
// Base kernels k(x, x') on R^d (DESIGN.md §1): the Gaussian and the polynomial kernel.
#include "orbit/data/Dataset.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace orbit {

/// A base kernel, a small value type.
///
/// Gaussian:   k(x, y) = exp(-||x - y||^2 / (2 sigma^2)), sigma > 0 (shift invariant, k(x, x) = 1).
/// Polynomial: k(x, y) = (<x, y> + c)^degree, degree >= 1, c >= 0.
/// Both depend on x, y only through <x, y>, ||x||^2, ||y||^2, so for a unitary action
/// k(gx, gy) = k(x, y), and a block of them is one float32 product followed by an elementwise map.
class BaseKernel {
public:
    enum class Kind { Gaussian, Polynomial };

    static BaseKernel gaussian(double sigma);
    static BaseKernel polynomial(int degree, double c);

    Kind kind() const { return kind_; }
    double sigma() const { return sigma_; }
    int degree() const { return degree_; }
    double offset() const { return c_; }
    /// The spec string that recreates it with an absolute bandwidth, e.g. "gaussian:sigma=3.5".
    std::string spec() const;

    /// k(x, y) for two vectors of length d.
    double operator()(const float* x, const float* y, int d) const;
    /// K(i, j) = k(A_i, B_j): one float32 product A B^T then the elementwise map.
    MatrixXfR matrix(const MatrixXfR& A, const MatrixXfR& B) const;
    /// Turns a block of inner products P(i, j) = <a_i, b_j> into kernel values in place, given the
    /// squared norms of the rows (aNorm2: P.rows(), bNorm2: P.cols()).
    void fromInnerProducts(float* P, Eigen::Index rows, Eigen::Index cols, Eigen::Index stride,
                           const float* aNorm2, const float* bNorm2) const;
    /// acc[t] += k(a, b_t) for t < n, from p[t] = <a, b_t>, aNorm2 = ||a||^2 and bNorm2[t] = ||b_t||^2:
    /// the values fromInnerProducts makes, summed in one pass (the pooling of Nystrom features). p
    /// may be overwritten.
    void addFromInnerProducts(float* acc, float* p, Eigen::Index n, float aNorm2, const float* bNorm2) const;
    /// k(a, b) from <a, b> = ab and the squared norms a2, b2, in double, for Gram matrices built by a
    /// product (Nystrom's K_ZZ, krr's kernel on features). The Gaussian's squared distance is
    /// clamped at 0 against rounding (k <= 1).
    double fromInnerProduct(double ab, double a2, double b2) const
    {
        if (kind_ == Kind::Gaussian) return std::exp(-std::max(0.0, a2 + b2 - 2.0 * ab) * gamma_);
        return std::pow(ab + c_, double(degree_));
    }

private:
    Kind kind_ = Kind::Gaussian;
    double sigma_ = 1.0;
    double gamma_ = 0.5;  ///< 1 / (2 sigma^2)
    int degree_ = 2;
    double c_ = 1.0;
};

/// Median of the pairwise Euclidean distances ||x_i - x_j|| (i < j) over a random subset of at most
/// `maxSamples` rows of X (all rows when there are fewer), drawn with `seed`. Requires >= 2 rows.
double medianPairwiseDistance(const MatrixXfR& X, std::size_t maxSamples = 1000, std::uint64_t seed = 0);
/// The rows medianPairwiseDistance(X, maxSamples, seed) uses, in its order, for X with n rows: a
/// map whose features are expensive can compute them for these rows only.
std::vector<std::size_t> medianSampleRows(std::size_t n, std::size_t maxSamples, std::uint64_t seed);

/// Whether makeKernel(spec, sample, seed) reads `sample` (the median rule, gaussian:median=F):
/// which rows a rank of many must load. False for an empty spec; SpecError("kernel") on bad text.
bool usesMedianRule(const std::string& spec);

/// Parses `gaussian:sigma=X`, `gaussian:median=F` (sigma = F x medianPairwiseDistance(sample)) or
/// `polynomial:degree=D,c=C` (defaults D = 2, C = 1). `sample` is only read for the median rule.
/// Throws SpecError("kernel") on bad text or parameters, and when the median distance is 0.
BaseKernel makeKernel(const std::string& spec, const MatrixXfR& sample, std::uint64_t seed = 0);

} // namespace orbit

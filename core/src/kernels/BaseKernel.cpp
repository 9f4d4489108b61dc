#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/kernels/KernelProfile.hpp"
#include "orbit/linalg/Gemm.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/RandomSubset.hpp"
#include "orbit/util/Spec.hpp"

#include "orbit/kernels/FastExp.hpp"
#include "kernels/GaussianRows.hpp"
#include "util/Deterministic.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace orbit {

BaseKernel BaseKernel::stationaryOf(Kind kind, const char* name, double sigma)
{
    if (!(sigma > 0.0) || !std::isfinite(sigma))
        throw SpecError("kernel", std::string(name) + " sigma must be positive", std::to_string(sigma));
    BaseKernel k;
    k.kind_ = kind;
    k.sigma_ = sigma;
    k.gamma_ = 1.0 / (2.0 * sigma * sigma);
    return k;
}

BaseKernel BaseKernel::gaussian(double sigma) { return stationaryOf(Kind::Gaussian, "gaussian", sigma); }

BaseKernel BaseKernel::laplacian(double sigma) { return stationaryOf(Kind::Laplacian, "laplacian", sigma); }

BaseKernel BaseKernel::matern(double nu, double sigma)
{
    if (nu != 0.5 && nu != 1.5 && nu != 2.5) throw SpecError("kernel", "matern nu must be 0.5, 1.5 or 2.5", formatNumber(nu));
    BaseKernel k = stationaryOf(Kind::Matern, "matern", sigma);
    k.nu_ = nu;
    return k;
}

BaseKernel BaseKernel::profiled(std::shared_ptr<const KernelProfile> profile, double sigma)
{
    if (!profile) throw ContractError("BaseKernel::profiled", "no profile");
    const std::string name = profile->name();
    BaseKernel k = stationaryOf(Kind::Profile, name.c_str(), sigma);
    k.profile_ = std::move(profile);
    return k;
}

double KernelProfile::logSigmaSlope(double dist, double sigma) const
{
    const double power = distance() == BaseKernel::Distance::SquaredEuclidean ? 2.0 : 1.0;
    return -power * dist * slope(dist, sigma);
}

double BaseKernel::profiledFromInnerProduct(double ab, double a2, double b2) const
{
    const double d2 = std::max(0.0, a2 + b2 - 2.0 * ab);
    return ofDistance(distance() == Distance::SquaredEuclidean ? d2 : std::sqrt(d2));
}

BaseKernel BaseKernel::withSigma(double sigma) const
{
    switch (kind_) {
    case Kind::Profile: return profiled(profile_, sigma);
    case Kind::Gaussian: return gaussian(sigma);
    case Kind::Laplacian: return laplacian(sigma);
    case Kind::Matern: return matern(nu_, sigma);
    case Kind::Polynomial: break;
    }
    throw ContractError("BaseKernel::withSigma", "the polynomial kernel has no bandwidth");
}

BaseKernel::Distance BaseKernel::distance() const
{
    switch (kind_) {
    case Kind::Gaussian: return Distance::SquaredEuclidean;
    case Kind::Laplacian: return Distance::L1;
    case Kind::Matern: return Distance::Euclidean;
    case Kind::Profile: return profile_->distance();
    case Kind::Polynomial: break;
    }
    return Distance::None;
}

double BaseKernel::ofDistance(double dist) const
{
    switch (kind_) {
    case Kind::Gaussian: return std::exp(-dist * gamma_);
    case Kind::Laplacian: return std::exp(-dist / sigma_);
    case Kind::Matern: {
        const double r = std::sqrt(2.0 * nu_) * dist / sigma_;
        if (nu_ == 0.5) return std::exp(-r);
        if (nu_ == 1.5) return (1.0 + r) * std::exp(-r);
        return (1.0 + r + r * r / 3.0) * std::exp(-r);
    }
    case Kind::Profile: return profile_->value(dist, sigma_);
    case Kind::Polynomial: break;
    }
    throw ContractError("BaseKernel::ofDistance", "the polynomial kernel is not a function of a distance");
}

void BaseKernel::drawFrequency(Rng& rng, float* w, Eigen::Index d) const
{
    const double invSigma = 1.0 / sigma_;
    switch (kind_) {
    case Kind::Gaussian:
        for (Eigen::Index t = 0; t < d; ++t) w[t] = static_cast<float>(standardNormal(rng) * invSigma);
        return;
    case Kind::Laplacian:
        // Cauchy(0, 1/sigma) per coordinate by inversion: tan(pi (u - 1/2)) / sigma.
        for (Eigen::Index t = 0; t < d; ++t)
            w[t] = static_cast<float>(std::tan(M_PI * (uniform01(rng) - 0.5)) * invSigma);
        return;
    case Kind::Matern: {
        // Multivariate t with 2 nu (1, 3 or 5) degrees of freedom: z / sigma * sqrt(2 nu / u),
        // u = the sum of 2 nu squared standard normals (chi^2).
        const int dof = int(std::lround(2.0 * nu_));
        double u = 0.0;
        for (int k = 0; k < dof; ++k) {
            const double z = standardNormal(rng);
            u += z * z;
        }
        const double scale = invSigma * std::sqrt(double(dof) / std::max(u, 1e-300));
        for (Eigen::Index t = 0; t < d; ++t) w[t] = static_cast<float>(standardNormal(rng) * scale);
        return;
    }
    case Kind::Profile: profile_->drawFrequency(rng, w, d, sigma_); return;
    case Kind::Polynomial: break;
    }
    throw SpecError("kernel", "random Fourier features need a shift-invariant kernel (gaussian, laplacian or matern)", spec());
}

BaseKernel BaseKernel::polynomial(int degree, double c)
{
    if (degree < 1) throw SpecError("kernel", "polynomial degree must be >= 1", std::to_string(degree));
    if (!(c >= 0.0) || !std::isfinite(c)) throw SpecError("kernel", "polynomial c must be >= 0", std::to_string(c));
    BaseKernel k;
    k.kind_ = Kind::Polynomial;
    k.degree_ = degree;
    k.c_ = c;
    return k;
}

std::string BaseKernel::spec() const
{
    switch (kind_) {
    case Kind::Gaussian: return formatSpec("gaussian", {{"sigma", sigma_}});
    case Kind::Laplacian: return formatSpec("laplacian", {{"sigma", sigma_}});
    case Kind::Matern: return formatSpec("matern", {{"nu", nu_}, {"sigma", sigma_}});
    case Kind::Profile: {
        std::vector<std::pair<std::string, double>> params = profile_->specParameters();
        params.emplace_back("sigma", sigma_);
        return formatSpec(profile_->name(), params);
    }
    case Kind::Polynomial: break;
    }
    return formatSpec("polynomial", {{"degree", double(degree_)}, {"c", c_}});
}

double BaseKernel::operator()(const float* x, const float* y, int d) const
{
    if (kind_ == Kind::Gaussian) {
        double d2 = 0.0;
        for (int i = 0; i < d; ++i) {
            const double t = double(x[i]) - double(y[i]);
            d2 += t * t;
        }
        return std::exp(-d2 / (2.0 * sigma_ * sigma_));
    }
    if (kind_ != Kind::Polynomial && distance() == Distance::L1) {
        double d1 = 0.0;
        for (int i = 0; i < d; ++i) d1 += std::fabs(double(x[i]) - double(y[i]));
        return ofDistance(d1);
    }
    if (kind_ != Kind::Polynomial) {
        double d2 = 0.0;
        for (int i = 0; i < d; ++i) {
            const double t = double(x[i]) - double(y[i]);
            d2 += t * t;
        }
        return ofDistance(distance() == Distance::SquaredEuclidean ? d2 : std::sqrt(d2));
    }
    double p = 0.0;
    for (int i = 0; i < d; ++i) p += double(x[i]) * double(y[i]);
    return std::pow(p + c_, degree_);
}

void BaseKernel::fromInnerProducts(float* P, Eigen::Index rows, Eigen::Index cols, Eigen::Index stride,
                                   const float* aNorm2, const float* bNorm2) const
{
    if (kind_ == Kind::Gaussian) {
        // -||a - b||^2 / (2 sigma^2), clamped at 0 against rounding (k <= 1), by the run-time
        // dispatched row kernel (the same bits on every CPU).
        const float g = static_cast<float>(gamma_);
        for (Eigen::Index i = 0; i < rows; ++i) detail::gaussianRow(P + i * stride, aNorm2[i], bNorm2, g, cols);
        return;
    }
    if (!fromProducts())
        throw ContractError("BaseKernel::fromInnerProducts", "a kernel of L1 distances needs them, not inner products");
    if (kind_ == Kind::Profile) {
        const bool squared = distance() == Distance::SquaredEuclidean;
        for (Eigen::Index i = 0; i < rows; ++i) {
            float* row = P + i * stride;
            for (Eigen::Index j = 0; j < cols; ++j) {
                const double n2 = double(aNorm2[i]) + double(bNorm2[j]);
                const double d2 = n2 - 2.0 * double(row[j]);
                const double sq = d2 <= 1e-6 * n2 ? 0.0 : d2;  // as Matérn's: rounding is no distance
                row[j] = static_cast<float>(ofDistance(squared ? sq : std::sqrt(sq)));
            }
        }
        return;
    }
    if (kind_ == Kind::Matern) {
        // A float product leaves ~1e-7 (||a||^2 + ||b||^2) of rounding in d^2, and Matérn's square root
        // (with nu = 1/2 its kink at 0) would turn that into a visible distance: below 1e-6 of the
        // norms d^2 counts as 0.
        for (Eigen::Index i = 0; i < rows; ++i) {
            float* row = P + i * stride;
            for (Eigen::Index j = 0; j < cols; ++j) {
                const double n2 = double(aNorm2[i]) + double(bNorm2[j]);
                const double d2 = n2 - 2.0 * double(row[j]);
                row[j] = static_cast<float>(ofDistance(d2 <= 1e-6 * n2 ? 0.0 : std::sqrt(d2)));
            }
        }
        return;
    }
    using Map = Eigen::Map<Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0,
                           Eigen::OuterStride<>>;
    Map M(P, rows, cols, Eigen::OuterStride<>(stride));
    const float c = static_cast<float>(c_);
    if (degree_ == 1)
        M += c;
    else if (degree_ == 2)
        M = (M + c).square();
    else
        M = (M + c).pow(static_cast<float>(degree_));
}

void BaseKernel::addFromInnerProducts(float* acc, float* p, Eigen::Index n, float aNorm2, const float* bNorm2) const
{
    if (kind_ == Kind::Gaussian) return detail::addGaussianRow(acc, p, aNorm2, bNorm2, static_cast<float>(gamma_), n);
    fromInnerProducts(p, 1, n, n, &aNorm2, bNorm2);
    Eigen::Map<Eigen::ArrayXf>(acc, n) += Eigen::Map<const Eigen::ArrayXf>(p, n);
}

MatrixXfR BaseKernel::matrix(const MatrixXfR& A, const MatrixXfR& B) const
{
    if (A.cols() != B.cols())
        throw ContractError("BaseKernel::matrix", "rows of A have " + std::to_string(A.cols()) + " values, rows of B " +
                                                      std::to_string(B.cols()));
    if (kind_ == Kind::Laplacian) {
        MatrixXfR K = l1Distances(A, B);
        const float inv = static_cast<float>(1.0 / sigma_);
        for (Eigen::Index i = 0; i < K.size(); ++i) K.data()[i] = fastExp(-K.data()[i] * inv);
        return K;
    }
    if (!fromProducts()) {  // a registered kernel of L1 distances
        MatrixXfR K = l1Distances(A, B);
        for (Eigen::Index i = 0; i < K.size(); ++i) K.data()[i] = static_cast<float>(ofDistance(K.data()[i]));
        return K;
    }
    const detail::SerialEigen serial;
    MatrixXfR K(A.rows(), B.rows());
    gemmABt(A, B, K);
    const Eigen::VectorXf an = A.rowwise().squaredNorm();
    const Eigen::VectorXf bn = B.rowwise().squaredNorm();
    fromInnerProducts(K.data(), K.rows(), K.cols(), K.cols(), an.data(), bn.data());
    return K;
}

std::vector<std::size_t> medianSampleRows(std::size_t n, std::size_t maxSamples, std::uint64_t seed)
{
    if (n > maxSamples) {
        Rng rng = makeRng(seed, 0x6d656469616eULL);
        return randomSubset(n, maxSamples, rng);
    }
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    return idx;
}

namespace {

/// The rows medianSampleRows picks, in its order (requires >= 2 rows).
MatrixXfR medianSample(const MatrixXfR& X, std::size_t maxSamples, std::uint64_t seed)
{
    const std::size_t n = X.rows();
    if (n < 2) throw SpecError("kernel", "the median rule needs at least 2 samples", std::to_string(n));
    const std::vector<std::size_t> idx = medianSampleRows(n, maxSamples, seed);
    MatrixXfR S(Eigen::Index(idx.size()), X.cols());
    for (std::size_t a = 0; a < idx.size(); ++a) S.row(Eigen::Index(a)) = X.row(Eigen::Index(idx[a]));
    return S;
}

/// The median of the strict upper triangle of the m x m pairwise distances `distance(a, b)`.
template <class Distance>
double medianOfPairs(std::size_t m, Distance distance)
{
    std::vector<double> d;
    d.reserve(m * (m - 1) / 2);
    for (std::size_t a = 0; a < m; ++a)
        for (std::size_t b = a + 1; b < m; ++b) d.push_back(distance(Eigen::Index(a), Eigen::Index(b)));
    auto mid = d.begin() + d.size() / 2;
    std::nth_element(d.begin(), mid, d.end());
    return *mid;
}

} // namespace

double medianPairwiseDistance(const MatrixXfR& X, std::size_t maxSamples, std::uint64_t seed)
{
    MatrixXfR S = medianSample(X, maxSamples, seed);
    // ||a - b||^2 = ||a||^2 + ||b||^2 - 2 <a, b>, one product (centred first against cancellation).
    S.rowwise() -= S.colwise().mean();
    const detail::SerialEigen serial;
    const MatrixXfR G = S * S.transpose();
    return medianOfPairs(std::size_t(S.rows()), [&](Eigen::Index a, Eigen::Index b) {
        return std::sqrt(std::max(0.0, double(G(a, a)) + double(G(b, b)) - 2.0 * double(G(a, b))));
    });
}

double medianPairwiseL1Distance(const MatrixXfR& X, std::size_t maxSamples, std::uint64_t seed)
{
    const MatrixXfR S = medianSample(X, maxSamples, seed);
    const MatrixXfR D = l1Distances(S, S);
    return medianOfPairs(std::size_t(S.rows()), [&](Eigen::Index a, Eigen::Index b) { return double(D(a, b)); });
}

bool usesMedianRule(const std::string& spec)
{
    return !trim(spec).empty() && parseSpec(spec, "kernel").has("median");
}

namespace {

/// The descriptor of the spec's kernel, its keys checked (without the one-of-sigma-or-median rule
/// when `family`: a family is the kernel whatever its bandwidth).
const KernelDescriptor& checkedKernel(const Spec& s, bool family)
{
    const KernelDescriptor* d = findKernel(s.name);
    if (!d) throw SpecError("kernel", "unknown kernel (expected " + synopsisList(kernelDescriptors()) + ")", s.name);
    if (family)
        checkSpecKeys(s, d->parameters);
    else
        checkSpecKeys(s, *d);
    return *d;
}

} // namespace

BaseKernel kernelFamily(const std::string& text)
{
    const Spec s = parseSpec(text, "kernel");
    const KernelDescriptor& d = checkedKernel(s, true);
    return d.make(s, d, 1.0);
}

double medianDistanceOf(const BaseKernel& k, const MatrixXfR& X, std::size_t maxSamples, std::uint64_t seed)
{
    return k.distance() == BaseKernel::Distance::L1 ? medianPairwiseL1Distance(X, maxSamples, seed)
                                                    : medianPairwiseDistance(X, maxSamples, seed);
}

BaseKernel makeKernel(const std::string& text, const MatrixXfR& sample, std::uint64_t seed)
{
    const Spec s = parseSpec(text, "kernel");
    const KernelDescriptor& d = checkedKernel(s, false);
    if (!s.has("median")) return d.make(s, d, s.has("sigma") ? readReal(s, *d.parameter("sigma")) : 1.0);
    const double f = readReal(s, *d.parameter("median"));
    // The median of the distance the kernel is a function of (L1 for the Laplacian).
    const double med = medianDistanceOf(d.make(s, d, 1.0), sample, 1000, seed);
    if (!(med > 0)) throw SpecError("kernel.median", "the median pairwise distance of the data is 0", text);
    return d.make(s, d, f * med);
}

} // namespace orbit

#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/linalg/Gemm.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/RandomSubset.hpp"
#include "orbit/util/Spec.hpp"

#include "kernels/GaussianRows.hpp"
#include "util/Deterministic.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace orbit {

BaseKernel BaseKernel::gaussian(double sigma)
{
    if (!(sigma > 0.0) || !std::isfinite(sigma))
        throw SpecError("kernel", "gaussian sigma must be positive", std::to_string(sigma));
    BaseKernel k;
    k.kind_ = Kind::Gaussian;
    k.sigma_ = sigma;
    k.gamma_ = 1.0 / (2.0 * sigma * sigma);
    return k;
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
    if (kind_ == Kind::Gaussian) return formatSpec("gaussian", {{"sigma", sigma_}});
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

double medianPairwiseDistance(const MatrixXfR& X, std::size_t maxSamples, std::uint64_t seed)
{
    const std::size_t n = X.rows();
    if (n < 2) throw SpecError("kernel", "the median rule needs at least 2 samples", std::to_string(n));
    const std::vector<std::size_t> idx = medianSampleRows(n, maxSamples, seed);
    const std::size_t m = idx.size();
    MatrixXfR S(Eigen::Index(m), X.cols());
    for (std::size_t a = 0; a < m; ++a) S.row(Eigen::Index(a)) = X.row(Eigen::Index(idx[a]));
    // ||a - b||^2 = ||a||^2 + ||b||^2 - 2 <a, b>, one product (centred first against cancellation).
    S.rowwise() -= S.colwise().mean();
    const detail::SerialEigen serial;
    const MatrixXfR G = S * S.transpose();
    std::vector<double> d;
    d.reserve(m * (m - 1) / 2);
    for (std::size_t a = 0; a < m; ++a)
        for (std::size_t b = a + 1; b < m; ++b)
            d.push_back(std::sqrt(std::max(0.0, double(G(a, a)) + double(G(b, b)) - 2.0 * double(G(a, b)))));
    auto mid = d.begin() + d.size() / 2;
    std::nth_element(d.begin(), mid, d.end());
    return *mid;
}

bool usesMedianRule(const std::string& spec)
{
    return !trim(spec).empty() && parseSpec(spec, "kernel").has("median");
}

BaseKernel makeKernel(const std::string& text, const MatrixXfR& sample, std::uint64_t seed)
{
    const Spec s = parseSpec(text, "kernel");
    const KernelDescriptor* d = findKernel(s.name);
    if (!d) throw SpecError("kernel", "unknown kernel (expected " + synopsisList(kernelDescriptors()) + ")", s.name);
    checkSpecKeys(s, *d);
    if (s.name == "gaussian") {
        if (s.has("sigma")) return BaseKernel::gaussian(readReal(s, *d->parameter("sigma")));
        const double f = readReal(s, *d->parameter("median"));
        const double med = medianPairwiseDistance(sample, 1000, seed);
        if (!(med > 0)) throw SpecError("kernel.median", "the median pairwise distance of the data is 0", text);
        return BaseKernel::gaussian(f * med);
    }
    if (s.name == "polynomial")
        return BaseKernel::polynomial(static_cast<int>(readInteger(s, *d->parameter("degree"))),
                                      readReal(s, *d->parameter("c")));
    throw ContractError("makeKernel", "no factory for the registered kernel " + s.name);
}

} // namespace orbit

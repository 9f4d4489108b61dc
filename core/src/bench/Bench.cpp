#include "orbit/bench/Bench.hpp"
#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/kernels/OrbitDistances.hpp"

#include "orbit/features/FeatureMap.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>

#include "util/Deterministic.hpp"

namespace orbit {

namespace {

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Dataset syntheticImages(std::size_t n, std::uint64_t seed)
{
    Dataset d;
    d.kind = DataKind::Images;
    d.shape = {20, 20, 1};
    d.X.resize(Eigen::Index(n), 400);
    Rng rng = makeRng(seed, 0xb1);
    for (Eigen::Index i = 0; i < d.X.size(); ++i) d.X.data()[i] = float(uniform01(rng));
    return d;
}

Dataset syntheticCoulomb(std::size_t n, std::uint64_t seed)
{
    Dataset d;
    d.kind = DataKind::Coulomb;
    d.shape = {23, 23, 1};
    d.X.resize(Eigen::Index(n), 529);
    Rng rng = makeRng(seed, 0xb2);
    for (Eigen::Index t = 0; t < d.X.rows(); ++t)
        for (int i = 0; i < 23; ++i)
            for (int j = i; j < 23; ++j) {
                const float v = float(i == j ? 20 * uniform01(rng) : 5 * uniform01(rng));
                d.X(t, i * 23 + j) = d.X(t, j * 23 + i) = v;
            }
    return d;
}

/// Eigen's float32 product C = A B^T of shape (rows x depth) (cols x depth)^T with its own threading,
/// in steady state: the operands are packed once and C is paged in before any run is timed.
class GemmBaseline {
public:
    GemmBaseline(Eigen::Index rows, Eigen::Index cols, Eigen::Index depth)
        : A_(MatrixXfR::Random(rows, depth)), B_(MatrixXfR::Random(cols, depth)), C_(MatrixXfR::Zero(rows, cols))
    {
        C_.topRows(std::min<Eigen::Index>(rows, 64)).noalias() = A_.topRows(std::min<Eigen::Index>(rows, 64)) * B_.transpose();
    }
    Eigen::Index cols() const { return B_.rows(); }
    double seconds()
    {
        const double t0 = now();
        C_.noalias() = A_ * B_.transpose();
        return now() - t0;
    }
    /// The BLAS's sgemm of the same shape: the rows cut into one even panel per thread, one
    /// single-threaded sgemm each (OpenBLAS splits a product over its own threads the same way).
    double blasSeconds()
    {
        const GemmPath saved = gemmPath();
        setGemmPath(GemmPath::Blas);
        const std::size_t rows = std::size_t(A_.rows()), team = std::size_t(std::max(1, teamSize()));
        const double t0 = now();
        detail::forEachBlock(rows, (rows + team - 1) / team, [&](std::size_t r0, std::size_t r1) {
            const Eigen::Index i0 = Eigen::Index(r0), h = Eigen::Index(r1 - r0);
            gemmABt(A_.middleRows(i0, h), B_, C_.middleRows(i0, h));
        });
        const double t = now() - t0;
        setGemmPath(saved);
        return t;
    }

private:
    MatrixXfR A_, B_, C_;
};

/// One product C = A B^T the hot path makes: A rows x depth, B cols x depth.
struct ProductShape {
    long long rows, cols, depth;
};

/// products: what the hot path multiplies (the GEMM it amounts to, and for Nystrom the whitening
/// product too); the baselines time each on its own and add the times.
BenchCase timeCase(const std::string& name, const Dataset& data, const std::string& features, const std::string& group,
                   const std::string& dist, long long s, long long r, const std::vector<ProductShape>& products,
                   int repeats, std::uint64_t seed)
{
    const FeatureContext c = makeFeatureContext(data, group, dist, "gaussian:median=1", seed);
    auto map = makeFeatureMap(features, c);
    map->fit(data.X, seed);
    const long long N = data.X.rows(), d = data.X.cols();
    // Steady state, as a caller streaming batches sees it: the timed transforms reuse the output of
    // a first, untimed one, so neither this nor the GEMM baseline pays first-touch page faults.
    MatrixXfR F;
    map->transform(data.X, 0, data.count(), F);
    std::vector<GemmBaseline> gemms;
    for (const ProductShape& p : products) gemms.emplace_back(p.rows, p.cols, p.depth);
    // Best of `repeats`, hot path and products alternating, so a burst of load from another process
    // on a shared machine hits both alike and the minimum of each is its undisturbed time.
    const double inf = std::numeric_limits<double>::infinity();
    double hot = inf;
    std::vector<double> base(gemms.size(), inf), blas(gemms.size(), inf);
    if (blasAvailable())
        for (GemmBaseline& g : gemms) g.blasSeconds();  // packs its buffers once, untimed
    for (int k = 0; k < repeats; ++k) {
        const double t0 = now();
        map->transform(data.X, 0, data.count(), F);
        hot = std::min(hot, now() - t0);
        for (std::size_t p = 0; p < gemms.size(); ++p) {
            base[p] = std::min(base[p], gemms[p].seconds());
            if (blasAvailable()) blas[p] = std::min(blas[p], gemms[p].blasSeconds());
        }
    }
    BenchCase b;
    b.name = name;
    b.seconds = hot;
    b.shape = {N, d, s, r};
    b.spec = features + " " + group + " " + dist;
    double flops = 0, baseSeconds = 0, blasSeconds = 0;
    for (std::size_t p = 0; p < gemms.size(); ++p) {
        flops += 2.0 * double(products[p].rows) * double(products[p].cols) * double(products[p].depth);
        baseSeconds += base[p];
        blasSeconds += blas[p];
    }
    b.gflops = flops / b.seconds * 1e-9;
    b.gemmGflops = flops / baseSeconds * 1e-9;
    b.ratio = b.gflops / b.gemmGflops;
    b.peakGflops = std::max(b.gemmGflops, flops / blasSeconds * 1e-9);
    b.peakRatio = b.gflops / b.peakGflops;
    if (F.rows() != N)
        throw ContractError("bench", "the features have " + std::to_string(F.rows()) + " rows, the data " +
                                         std::to_string(N));
    return b;
}

/// The exact invariant kernel's orbit distances (OrbitDistances) of n inputs x r samples: the
/// squared Euclidean ones are products (GEMM-based: compared with the product of the same shapes and
/// flops, the upper block triangle), the L1 ones the dispatched distance kernel (compared with that
/// kernel's own ceiling: the same instruction mix in cache, one block per thread, no memory traffic).
BenchCase timeDistances(const std::string& name, const Dataset& data, std::size_t n, int r, BaseKernel::Distance distance,
                        int repeats, std::uint64_t seed)
{
    std::vector<std::size_t> first(std::min(n, data.count()));
    std::iota(first.begin(), first.end(), 0);
    const Dataset part = data.subset(first);
    const ExactOrbits o = exactOrbits(part, "permutation", "noisysort:sigma=1", r, seed);
    const long long rows = o.orbits.rows(), d = o.orbits.cols();
    constexpr long long kBlock = 256;
    const bool l1 = distance == BaseKernel::Distance::L1;
    // What OrbitDistances computes: rows x cols x depth per block pair, of the upper block triangle
    // unless the Euclidean products cannot be mirrored on this machine (then every pair).
    const bool upper = l1 || OrbitDistances::mirrorsProducts(d);
    double pairTerms = 0;
    for (long long i0 = 0; i0 < rows; i0 += kBlock)
        for (long long j0 = upper ? i0 : 0; j0 < rows; j0 += kBlock)
            pairTerms += double(std::min(kBlock, rows - i0)) * double(std::min(kBlock, rows - j0)) * double(d);
    const double inf = std::numeric_limits<double>::infinity();
    double hot = inf, base = inf, blas = inf;
    // The baseline of the squared distances: a product with as many multiply-adds (rows x rows/2,
    // or rows x rows where the tiles are not mirrored).
    GemmBaseline gemm(rows, std::max<long long>(1, (long long)(pairTerms / double(rows * d))), d);
    if (!l1 && blasAvailable()) gemm.blasSeconds();
    // The L1 ceiling: every thread runs the kernel on its own 64 x 256 block of in-cache rows.
    const int team = std::max(1, teamSize());
    const MatrixXfR A = o.orbits.topRows(std::min<long long>(64, rows)), B = o.orbits.topRows(std::min<long long>(256, rows));
    std::vector<MatrixXfR> outs(std::size_t(team), MatrixXfR(A.rows(), B.rows()));
    const int inner = 40;
    auto micro = [&]() {
        const double t0 = now();
        detail::forEachBlock(std::size_t(team), 1, [&](std::size_t t, std::size_t) {
            for (int k = 0; k < inner; ++k)
                l1DistanceBlock(A.data(), d, A.rows(), B.data(), d, B.rows(), d, outs[t].data(), B.rows());
        });
        return now() - t0;
    };
    for (int k = 0; k < repeats; ++k) {
        const double t0 = now();
        const OrbitDistances D(o.orbits, o.r, distance);
        hot = std::min(hot, now() - t0);
        if (l1) {
            base = std::min(base, micro());
        } else {
            base = std::min(base, gemm.seconds());
            if (blasAvailable()) blas = std::min(blas, gemm.blasSeconds());
        }
    }
    BenchCase b;
    b.name = name;
    b.seconds = hot;
    b.shape = {(long long)n, d, 0, r};
    b.spec = "exact:r=" + std::to_string(r) + " permutation noisysort:sigma=1 " + (l1 ? "laplacian" : "gaussian");
    if (l1) {
        // Rates in G pair-terms (|a - b| accumulated) per second, the hot path's and the kernel's in cache.
        const double microTerms = double(team) * inner * double(A.rows()) * double(B.rows()) * double(d);
        b.gflops = pairTerms / hot * 1e-9;
        b.gemmGflops = b.peakGflops = microTerms / base * 1e-9;
        b.note = "L1 distances: gflops are G |a - b| terms per second; the ceiling is the same kernel on in-cache rows, "
                 "one block per thread";
    } else {
        const double flops = 2.0 * double(rows) * double(gemm.cols()) * double(d);
        b.gflops = 2.0 * pairTerms / hot * 1e-9;
        b.gemmGflops = flops / base * 1e-9;
        b.peakGflops = std::max(b.gemmGflops, blasAvailable() ? flops / blas * 1e-9 : 0.0);
        b.note = "squared distances by products of the upper block triangle, then ||a||^2 + ||b||^2 - 2 <a, b> and the "
                 "mirror; gflops count the products";
    }
    b.ratio = b.gflops / b.gemmGflops;
    b.peakRatio = b.gflops / b.peakGflops;
    return b;
}

} // namespace

std::vector<BenchCase> runBench(const BenchConfig& config)
{
    const std::size_t nImages = config.quick ? 1000 : 5000;
    const Dataset digits = config.digits ? *config.digits : syntheticImages(nImages, config.seed);
    const Dataset qm7 = config.qm7 ? *config.qm7 : syntheticCoulomb(config.quick ? 1000 : 7101, config.seed);
    if (qm7.kind != DataKind::Coulomb) throw SpecError("data", "the QM7 case needs Coulomb matrices", qm7.source);
    auto wanted = [&](const std::string& n) {
        return config.only.empty() || std::find(config.only.begin(), config.only.end(), n) != config.only.end();
    };
    // The template trick multiplies the N inputs by the r s moved templates; the data path the N r
    // moved inputs by the s templates.
    auto templates = [](const Dataset& x, long long s, long long r) {
        return ProductShape{x.X.rows(), r * s, x.X.cols()};
    };
    std::vector<BenchCase> out;
    // Images with an empty border: the products skip the pixels that are zero in every image of a
    // block (about 280 of the digits' 400 are not); gflops count the full d.
    const std::string support = "the products run on the pixels non-zero in some image of a block; gflops count "
                                "the full d = " + std::to_string(digits.X.cols());
    if (wanted("irf-templates-digits")) {
        out.push_back(timeCase("irf-templates-digits", digits, "irf:s=2000,r=10", "rotation", "vonmises:kappa=0.2",
                               2000, 10, {templates(digits, 2000, 10)}, config.repeats, config.seed));
        out.back().note = support;
    }
    if (wanted("irf-noisysort-qm7")) {
        out.push_back(timeCase("irf-noisysort-qm7", qm7, "irf:s=2000,r=10", "permutation", "noisysort:sigma=1", 2000, 10,
                               {{qm7.X.rows() * 10, 2000, qm7.X.cols()}}, config.repeats, config.seed));
        out.back().note = "symmetric Coulomb inputs: the product runs on the 276 upper-triangle entries; "
                          "gflops count the full d = 529";
    }
    if (wanted("inystrom-templates-digits")) {
        const long long N = digits.X.rows();
        out.push_back(timeCase("inystrom-templates-digits", digits, "inystrom:s=1000,r=10", "rotation",
                               "vonmises:kappa=0.2", 1000, 10, {templates(digits, 1000, 10), {N, 1000, 1000}},
                               config.repeats, config.seed));
        out.back().note = "two products: the kernel values against the r s moved landmarks, then the pooled "
                          "values times the s x s whitening L^T; gflops, gemm and peak count both; " + support;
    }
    if (wanted("gicdf-templates-digits")) {
        out.push_back(timeCase("gicdf-templates-digits", digits, "gicdf:m=200,bins=25,r=10", "rotation",
                               "vonmises:kappa=0.2", 200, 10, {templates(digits, 200, 10)}, config.repeats, config.seed));
        out.back().note = support;
    }
    const std::size_t exactInputs = std::min<std::size_t>(qm7.count(), config.quick ? 600 : 2000);
    if (wanted("exact-gram-gaussian-qm7"))
        out.push_back(timeDistances("exact-gram-gaussian-qm7", qm7, exactInputs, 3, BaseKernel::Distance::SquaredEuclidean,
                                    config.repeats, config.seed));
    if (wanted("exact-l1-laplacian-qm7"))
        out.push_back(timeDistances("exact-l1-laplacian-qm7", qm7, exactInputs, 3, BaseKernel::Distance::L1, config.repeats,
                                    config.seed));
    if (out.empty()) throw SpecError("cases", "no such case");
    return out;
}

} // namespace orbit

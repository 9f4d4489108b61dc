#include "orbit/kernels/OrbitDistances.hpp"

#include "orbit/kernels/FastExp.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/util/Error.hpp"

#include "util/Deterministic.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>

namespace orbit {

namespace {

// Orbit rows per block (both sides). Every product call is a whole kDistanceBlock x kDistanceBlock
// tile (the rows past the end are zeros) and 240 is a multiple of the kernels' register tiles (2, 4,
// 6, 8, 12, 16, 24), so no entry falls on an edge kernel: a distance's bits depend only on its two
// orbit rows, never on where they lie (orbit/linalg/Gemm.hpp, rule 2). A saved exact model then
// predicts new rows against its support rows with the bits of the run's own test predictions.
constexpr Eigen::Index kDistanceBlock = 240;

/// ||x||^2 of each row, summed in coordinate order (the same bits wherever the row lies; Eigen's
/// vectorised reduction peels by the row's address).
Eigen::VectorXf orbitSquaredNorms(const MatrixXfR& X)
{
    Eigen::VectorXf n(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const float* x = X.data() + i * X.cols();
        float s = 0.0f;
        for (Eigen::Index t = 0; t < X.cols(); ++t) s += x[t] * x[t];
        n[i] = s;
    }
    return n;
}

/// Rows [i0, i0 + w) of X in a whole tile of kDistanceBlock rows (zeros past w).
MatrixXfR orbitTile(const MatrixXfR& X, Eigen::Index i0, Eigen::Index w)
{
    MatrixXfR T = MatrixXfR::Zero(kDistanceBlock, X.cols());
    T.topRows(w) = X.middleRows(i0, w);
    return T;
}

/// k(d) and, with dk, dk/d log sigma, elementwise in float over a gathered row of distances.
void distanceKernelValues(const BaseKernel& kernel, const float* d, Eigen::Index n, float* k, float* dk)
{
    const float sigma = static_cast<float>(kernel.sigma());
    switch (kernel.kind()) {
    case BaseKernel::Kind::Gaussian: {
        const float g = 1.0f / (2.0f * sigma * sigma);
        for (Eigen::Index t = 0; t < n; ++t) {
            const float e = d[t] * g;
            k[t] = fastExp(-e);
        }
        if (dk)
            for (Eigen::Index t = 0; t < n; ++t) dk[t] = 2.0f * d[t] * g * k[t];
        return;
    }
    case BaseKernel::Kind::Laplacian: {
        const float inv = 1.0f / sigma;
        for (Eigen::Index t = 0; t < n; ++t) k[t] = fastExp(-d[t] * inv);
        if (dk)
            for (Eigen::Index t = 0; t < n; ++t) dk[t] = d[t] * inv * k[t];
        return;
    }
    case BaseKernel::Kind::Matern: {
        const float c = static_cast<float>(std::sqrt(2.0 * kernel.nu())) / sigma;
        const double nu = kernel.nu();
        for (Eigen::Index t = 0; t < n; ++t) {
            const float r = d[t] * c;
            const float e = fastExp(-r);
            float v = e, dv = r * e;
            if (nu == 1.5) {
                v = (1.0f + r) * e;
                dv = r * r * e;
            } else if (nu == 2.5) {
                v = (1.0f + r + r * r / 3.0f) * e;
                dv = r * (r + r * r) * e / 3.0f;
            }
            k[t] = v;
            if (dk) dk[t] = dv;
        }
        return;
    }
    case BaseKernel::Kind::Polynomial: break;
    }
    throw ContractError("OrbitDistances", "the polynomial kernel is not a function of a distance");
}

} // namespace

OrbitDistances::OrbitDistances(const MatrixXfR& orbits, int r, BaseKernel::Distance distance, const Progress& progress)
    : OrbitDistances(orbits, nullptr, r, distance, progress)
{
}

OrbitDistances::OrbitDistances(const MatrixXfR& left, const MatrixXfR& right, int r, BaseKernel::Distance distance,
                               const Progress& progress)
    : OrbitDistances(left, &right, r, distance, progress)
{
}

OrbitDistances::OrbitDistances(const MatrixXfR& left, const MatrixXfR* right, int r, BaseKernel::Distance distance,
                               const Progress& progress)
    : r_(r), distance_(distance)
{
    for (const MatrixXfR* o : {&left, right})
        if (o && (r < 1 || o->rows() % r != 0))
            throw ContractError("OrbitDistances", "the orbits have " + std::to_string(o->rows()) +
                                                      " rows, not a multiple of r = " + std::to_string(r));
    if (right && right->cols() != left.cols())
        throw ContractError("OrbitDistances", "orbit rows of " + std::to_string(left.cols()) + " and " +
                                                  std::to_string(right->cols()) + " values");
    if (distance == BaseKernel::Distance::None)
        throw ContractError("OrbitDistances", "the polynomial kernel is not a function of a distance");
    const bool symmetric = right == nullptr;
    symmetric_ = symmetric;
    const MatrixXfR& other = symmetric ? left : *right;
    n_ = left.rows() / r;
    m_ = other.rows() / r;
    const Eigen::Index N = left.rows(), M = other.rows(), d = left.cols();
    D_.resize(N, M);
    // Not centred: a distance of two inputs never depends on the other inputs (learning on a fold's
    // training rows reads nothing of its test rows, to the bit).
    const bool euclidean = distance != BaseKernel::Distance::L1;
    const Eigen::VectorXf leftNorms = euclidean ? orbitSquaredNorms(left) : Eigen::VectorXf();
    const Eigen::VectorXf rightNorms = euclidean ? (symmetric ? leftNorms : orbitSquaredNorms(other)) : Eigen::VectorXf();
    const Eigen::Index rowBlocks = (N + kDistanceBlock - 1) / kDistanceBlock, colBlocks = (M + kDistanceBlock - 1) / kDistanceBlock;
    // Block pairs: J >= I (the upper triangle, mirrored) when symmetric, else all.
    std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
    for (Eigen::Index I = 0; I < rowBlocks; ++I)
        for (Eigen::Index J = symmetric ? I : 0; J < colBlocks; ++J) pairs.emplace_back(I, J);
    std::mutex m;
    std::size_t done = 0;
    detail::forEachBlock(pairs.size(), 1, [&](std::size_t p, std::size_t) {
        const auto [I, J] = pairs[p];
        const Eigen::Index i0 = I * kDistanceBlock, j0 = J * kDistanceBlock;
        const Eigen::Index wi = std::min(kDistanceBlock, N - i0), wj = std::min(kDistanceBlock, M - j0);
        MatrixXfR B(wi, wj);
        if (euclidean) {
            MatrixXfR T(kDistanceBlock, kDistanceBlock);
            gemmABt(orbitTile(left, i0, wi), orbitTile(other, j0, wj), T);
            B = T.topLeftCorner(wi, wj);
            for (Eigen::Index a = 0; a < wi; ++a)
                for (Eigen::Index b = 0; b < wj; ++b) {
                    const float d2 = std::max(0.0f, leftNorms[i0 + a] + rightNorms[j0 + b] - 2.0f * B(a, b));
                    B(a, b) = distance == BaseKernel::Distance::Euclidean ? std::sqrt(d2) : d2;
                }
            if (symmetric && I == J)
                for (Eigen::Index a = 0; a < wi; ++a) B(a, a) = 0.0f;
        } else {
            l1DistanceBlock(left.data() + i0 * d, d, wi, other.data() + j0 * d, d, wj, d, B.data(), B.cols());
        }
        D_.block(i0, j0, wi, wj) = B;
        if (symmetric && J != I) D_.block(j0, i0, wj, wi) = B.transpose();
        if (progress) {
            const std::lock_guard<std::mutex> lock(m);
            ++done;
            if (done % 16 == 0) reportProgress(progress, double(done) / double(pairs.size()), "orbit distances");
        }
    });
}

void OrbitDistances::gram(const BaseKernel& kernel, const Indices& rows, const Indices& cols, Eigen::MatrixXd& K,
                          Eigen::MatrixXd* dK) const
{
    if (kernel.distance() != distance_)
        throw ContractError("OrbitDistances::gram", "the kernel " + kernel.spec() + " is not a function of these distances");
    for (std::size_t i : rows)
        if (Eigen::Index(i) >= n_) throw ContractError("OrbitDistances::gram", "row input " + std::to_string(i) + " of " + std::to_string(n_));
    for (std::size_t i : cols)
        if (Eigen::Index(i) >= m_) throw ContractError("OrbitDistances::gram", "column input " + std::to_string(i) + " of " + std::to_string(m_));
    const Eigen::Index p = Eigen::Index(rows.size()), q = Eigen::Index(cols.size()), R = r_;
    K.resize(p, q);
    if (dK) dK->resize(p, q);
    const float scale = 1.0f / float(R * R);
    detail::forEachBlock(std::size_t(p), 16, [&](std::size_t a0, std::size_t a1) {
        std::vector<float> buf(std::size_t(q * R)), k(buf.size()), dk(dK ? buf.size() : 0);
        std::vector<float> sum(static_cast<std::size_t>(q)), dsum(static_cast<std::size_t>(q));
        for (std::size_t a = a0; a < a1; ++a) {
            std::fill(sum.begin(), sum.end(), 0.0f);
            std::fill(dsum.begin(), dsum.end(), 0.0f);
            for (Eigen::Index i = 0; i < R; ++i) {
                const float* Drow = D_.data() + (Eigen::Index(rows[a]) * R + i) * D_.cols();
                for (Eigen::Index b = 0; b < q; ++b)
                    for (Eigen::Index j = 0; j < R; ++j) buf[std::size_t(b * R + j)] = Drow[Eigen::Index(cols[std::size_t(b)]) * R + j];
                distanceKernelValues(kernel, buf.data(), q * R, k.data(), dK ? dk.data() : nullptr);
                for (Eigen::Index b = 0; b < q; ++b)
                    for (Eigen::Index j = 0; j < R; ++j) sum[std::size_t(b)] += k[std::size_t(b * R + j)];
                if (dK)
                    for (Eigen::Index b = 0; b < q; ++b)
                        for (Eigen::Index j = 0; j < R; ++j) dsum[std::size_t(b)] += dk[std::size_t(b * R + j)];
            }
            for (Eigen::Index b = 0; b < q; ++b) K(Eigen::Index(a), b) = double(sum[std::size_t(b)] * scale);
            if (dK)
                for (Eigen::Index b = 0; b < q; ++b) (*dK)(Eigen::Index(a), b) = double(dsum[std::size_t(b)] * scale);
        }
    });
}

Eigen::VectorXd OrbitDistances::diagonal(const BaseKernel& kernel, const Indices& rows) const
{
    Eigen::VectorXd out(Eigen::Index(rows.size()));
    for (std::size_t a = 0; a < rows.size(); ++a) {
        // The V-statistic's diagonal: the orbit of the input against itself, from its own rows.
        const float* base = D_.data();
        const Eigen::Index R = r_, i = Eigen::Index(rows[a]);
        if (!symmetric_ || i >= n_) throw ContractError("OrbitDistances::diagonal", "needs the square distances of the inputs");
        std::vector<float> d(std::size_t(R * R)), k(d.size());
        for (Eigen::Index p = 0; p < R; ++p)
            for (Eigen::Index q = 0; q < R; ++q) d[std::size_t(p * R + q)] = base[(i * R + p) * D_.cols() + i * R + q];
        distanceKernelValues(kernel, d.data(), R * R, k.data(), nullptr);
        double sum = 0;
        for (float v : k) sum += v;
        out[Eigen::Index(a)] = sum / double(R * R);
    }
    return out;
}

} // namespace orbit

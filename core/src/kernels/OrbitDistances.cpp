#include "orbit/kernels/OrbitDistances.hpp"
#include "orbit/kernels/KernelProfile.hpp"

#include "orbit/kernels/FastExp.hpp"
#include "orbit/linalg/Gemm.hpp"
#include "orbit/util/Error.hpp"

#include "util/Deterministic.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <random>
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
    case BaseKernel::Kind::Profile: {  // a registered kernel, entry by entry in double
        const KernelProfile& p = *kernel.profile();
        const double sd = kernel.sigma();
        for (Eigen::Index t = 0; t < n; ++t) k[t] = static_cast<float>(p.value(d[t], sd));
        if (dk)
            for (Eigen::Index t = 0; t < n; ++t) dk[t] = static_cast<float>(p.logSigmaSlope(d[t], sd));
        return;
    }
    case BaseKernel::Kind::Polynomial: break;
    }
    throw ContractError("OrbitDistances", "the polynomial kernel is not a function of a distance");
}

/// dk/d theta = (dk/dd)(dd/d theta) elementwise, from the distances d, the kernel values k and the
/// squared distances' derivatives t = d|u - v|^2 / d theta (for the Euclidean distance d = |u - v|,
/// dd/d theta = t / (2 d), 0 at d = 0).
void distanceKernelTangents(const BaseKernel& kernel, const float* d, const float* k, const float* t, Eigen::Index n, float* out)
{
    const float sigma = static_cast<float>(kernel.sigma());
    switch (kernel.kind()) {
    case BaseKernel::Kind::Gaussian: {
        const float g = 1.0f / (2.0f * sigma * sigma);
        for (Eigen::Index i = 0; i < n; ++i) out[i] = -g * k[i] * t[i];
        return;
    }
    case BaseKernel::Kind::Matern: {
        const float c = static_cast<float>(std::sqrt(2.0 * kernel.nu())) / sigma;
        const double nu = kernel.nu();
        for (Eigen::Index i = 0; i < n; ++i) {
            const float r = d[i] * c, e = fastExp(-r);
            // dk/dr for nu = 1/2, 3/2, 5/2, then dr/d theta = c t / (2 d).
            const float dkdr = nu == 1.5 ? -r * e : nu == 2.5 ? -r * (1.0f + r) * e / 3.0f : -e;
            out[i] = d[i] > 0.0f ? dkdr * c * t[i] / (2.0f * d[i]) : 0.0f;
        }
        return;
    }
    case BaseKernel::Kind::Profile: {
        if (kernel.distance() == BaseKernel::Distance::L1) break;
        // dk/d theta = slope(d) dd/d theta: t itself for the squared distance, t / (2 d) for d.
        const bool squared = kernel.distance() == BaseKernel::Distance::SquaredEuclidean;
        for (Eigen::Index i = 0; i < n; ++i) {
            const double slope = kernel.profile()->slope(d[i], kernel.sigma());
            out[i] = squared
                         ? static_cast<float>(slope * t[i])
                         : (d[i] > 0.0f ? static_cast<float>(slope * t[i] / (2.0 * d[i])) : 0.0f);
        }
        return;
    }
    case BaseKernel::Kind::Laplacian:
    case BaseKernel::Kind::Polynomial: break;
    }
    throw ContractError("OrbitDistances", "only kernels of Euclidean distances have distance tangents here");
}

/// The strict upper triangle of the square M from its lower one, in tiles on all cores.
void mirrorLowerTriangle(Eigen::MatrixXd& M)
{
    constexpr Eigen::Index tile = 64;
    const Eigen::Index n = M.rows(), tiles = (n + tile - 1) / tile;
    detail::forEachBlock(std::size_t(tiles), 1, [&](std::size_t t, std::size_t) {
        const Eigen::Index j0 = Eigen::Index(t) * tile, wj = std::min(tile, n - j0);
        // Columns [j0, j0 + wj) above the diagonal: rows [0, j) of column j from row j of the lower part.
        for (Eigen::Index i0 = 0; i0 < j0 + wj; i0 += tile) {
            const Eigen::Index wi = std::min(tile, n - i0);
            for (Eigen::Index j = j0; j < j0 + wj; ++j)
                for (Eigen::Index i = i0; i < std::min(i0 + wi, j); ++i) M(i, j) = M(j, i);
        }
    });
}

} // namespace

// Asked once per product path and depth, on two random tiles of kDistanceBlock rows: a kernel that
// sums a product's terms in another order when its operands trade places shows it on random values
// (OpenBLAS's Haswell sgemm on an AVX-512 AMD EPYC does).
bool OrbitDistances::mirrorsProducts(Eigen::Index d)
{
    static std::mutex m;
    static std::map<std::pair<int, Eigen::Index>, bool> known;
    const std::lock_guard<std::mutex> lock(m);
    const std::pair<int, Eigen::Index> key{int(gemmPath()), d};
    if (const auto it = known.find(key); it != known.end()) return it->second;
    std::mt19937 rng(20261129);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    MatrixXfR A(kDistanceBlock, d), B(kDistanceBlock, d), AB(kDistanceBlock, kDistanceBlock), BA(kDistanceBlock, kDistanceBlock);
    for (Eigen::Index k = 0; k < A.size(); ++k) A.data()[k] = u(rng);
    for (Eigen::Index k = 0; k < B.size(); ++k) B.data()[k] = u(rng);
    gemmABt(A, B, AB);
    gemmABt(B, A, BA);
    const bool mirror = AB == BA.transpose();
    known.emplace(key, mirror);
    return mirror;
}

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
    // Block pairs: J >= I (the upper triangle, mirrored) when symmetric, else all. The L1 tile adds
    // |a_k - b_k| in k's order whichever row is on the left, so its mirror is exact. A Euclidean
    // tile is a product A_I A_J^T, mirrored only where the products give A_J A_I^T as its transpose
    // (mirrorsProducts): else the distance of rows a and b would depend on which came first in the
    // set, and a saved model's predictions (the new rows on the left) would not be the run's.
    const bool mirrored = symmetric && (!euclidean || mirrorsProducts(d));
    std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
    for (Eigen::Index I = 0; I < rowBlocks; ++I)
        for (Eigen::Index J = mirrored ? I : 0; J < colBlocks; ++J) pairs.emplace_back(I, J);
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
        if (mirrored && J != I) D_.block(j0, i0, wj, wi) = B.transpose();
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
    gramAny(kernel, rows, cols, K, dK, nullptr, 0);
}

void OrbitDistances::gramWithTangent(const BaseKernel& kernel, const Indices& rows, const Indices& cols, Eigen::MatrixXd& K,
                                     Eigen::MatrixXd& dKtheta) const
{
    if (!hasTangents()) throw ContractError("OrbitDistances::gramWithTangent", "setTangents was not called");
    std::vector<Eigen::MatrixXd> one(1);
    one.front().swap(dKtheta);
    gramAny(kernel, rows, cols, K, nullptr, &one, 1);
    dKtheta.swap(one.front());
}

void OrbitDistances::gramWithTangents(const BaseKernel& kernel, const Indices& rows, const Indices& cols, Eigen::MatrixXd& K,
                                      std::vector<Eigen::MatrixXd>& dKthetas) const
{
    if (!hasTangents()) throw ContractError("OrbitDistances::gramWithTangents", "setTangents was not called");
    dKthetas.resize(dD_.size());
    gramAny(kernel, rows, cols, K, nullptr, &dKthetas, dD_.size());
}

void OrbitDistances::gramAny(const BaseKernel& kernel, const Indices& rows, const Indices& cols, Eigen::MatrixXd& K,
                             Eigen::MatrixXd* dK, std::vector<Eigen::MatrixXd>* dKthetas, std::size_t tangents) const
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
    for (std::size_t t = 0; t < tangents; ++t) (*dKthetas)[t].resize(p, q);
    const float scale = 1.0f / float(R * R);
    // The square Gram of the same rows and columns is symmetric: its lower triangle is computed and
    // mirrored (half the kernel values; the matrix symmetric to the bit).
    const bool square = symmetric_ && rows == cols;
    detail::forEachBlock(std::size_t(p), 16, [&](std::size_t a0, std::size_t a1) {
        const auto first = Eigen::Index(a0), height = Eigen::Index(a1 - a0), width = square ? Eigen::Index(a1) : q;
        std::vector<float> buf(std::size_t(width * R)), k(buf.size()), dk(dK ? buf.size() : 0);
        std::vector<float> sum(static_cast<std::size_t>(width)), dsum(static_cast<std::size_t>(width));
        // The block's rows, row-major, written to the column-major K at once (not one strided row at a time).
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> out = Eigen::MatrixXd::Zero(height, width);
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> dout(dK ? height : 0, dK ? width : 0);
        if (dK) dout.setZero();
        // Per parameter: its gathered distance derivatives, their kernel tangents and row sums.
        std::vector<float> tbuf(tangents ? buf.size() : 0), tk(tbuf.size());
        std::vector<std::vector<float>> tsum(tangents, std::vector<float>(sum.size()));
        std::vector<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> tout(tangents);
        for (auto& t : tout) t = Eigen::MatrixXd::Zero(height, width);
        for (std::size_t a = a0; a < a1; ++a) {
            const Eigen::Index qa = square ? Eigen::Index(a) + 1 : q;  // columns of this row
            std::fill(sum.begin(), sum.end(), 0.0f);
            std::fill(dsum.begin(), dsum.end(), 0.0f);
            for (auto& t : tsum) std::fill(t.begin(), t.end(), 0.0f);
            for (Eigen::Index i = 0; i < R; ++i) {
                const float* Drow = D_.data() + (Eigen::Index(rows[a]) * R + i) * D_.cols();
                for (Eigen::Index b = 0; b < qa; ++b)
                    for (Eigen::Index j = 0; j < R; ++j) buf[std::size_t(b * R + j)] = Drow[Eigen::Index(cols[std::size_t(b)]) * R + j];
                distanceKernelValues(kernel, buf.data(), qa * R, k.data(), dK ? dk.data() : nullptr);
                for (std::size_t t = 0; t < tangents; ++t) {
                    const MatrixXfR& dD = dD_[t];
                    const float* Trow = dD.data() + (Eigen::Index(rows[a]) * R + i) * dD.cols();
                    for (Eigen::Index b = 0; b < qa; ++b)
                        for (Eigen::Index j = 0; j < R; ++j)
                            tbuf[std::size_t(b * R + j)] = Trow[Eigen::Index(cols[std::size_t(b)]) * R + j];
                    distanceKernelTangents(kernel, buf.data(), k.data(), tbuf.data(), qa * R, tk.data());
                    for (Eigen::Index b = 0; b < qa; ++b)
                        for (Eigen::Index j = 0; j < R; ++j) tsum[t][std::size_t(b)] += tk[std::size_t(b * R + j)];
                }
                for (Eigen::Index b = 0; b < qa; ++b)
                    for (Eigen::Index j = 0; j < R; ++j) sum[std::size_t(b)] += k[std::size_t(b * R + j)];
                if (dK)
                    for (Eigen::Index b = 0; b < qa; ++b)
                        for (Eigen::Index j = 0; j < R; ++j) dsum[std::size_t(b)] += dk[std::size_t(b * R + j)];
            }
            const Eigen::Index row = Eigen::Index(a) - first;
            for (Eigen::Index b = 0; b < qa; ++b) out(row, b) = double(sum[std::size_t(b)] * scale);
            if (dK)
                for (Eigen::Index b = 0; b < qa; ++b) dout(row, b) = double(dsum[std::size_t(b)] * scale);
            for (std::size_t t = 0; t < tangents; ++t)
                for (Eigen::Index b = 0; b < qa; ++b) tout[t](row, b) = double(tsum[t][std::size_t(b)] * scale);
        }
        K.block(first, 0, height, width) = out;
        if (dK) dK->block(first, 0, height, width) = dout;
        for (std::size_t t = 0; t < tangents; ++t) (*dKthetas)[t].block(first, 0, height, width) = tout[t];
    });
    if (square) {
        mirrorLowerTriangle(K);
        if (dK) mirrorLowerTriangle(*dK);
        for (std::size_t t = 0; t < tangents; ++t) mirrorLowerTriangle((*dKthetas)[t]);
    }
}

void OrbitDistances::setTangents(const MatrixXfR& orbits, const MatrixXfR& tangents)
{
    setTangents(orbits, std::vector<MatrixXfR>{tangents});
}

void OrbitDistances::setTangents(const MatrixXfR& orbits, const std::vector<MatrixXfR>& all)
{
    dD_.clear();
    for (const MatrixXfR& tangents : all) addTangent(orbits, tangents);
}

void OrbitDistances::addTangent(const MatrixXfR& orbits, const MatrixXfR& tangents)
{
    if (!symmetric_ || distance_ == BaseKernel::Distance::L1)
        throw ContractError("OrbitDistances::setTangents", "needs square squared-Euclidean or Euclidean distances");
    const Eigen::Index N = orbits.rows();
    if (N != D_.rows() || tangents.rows() != N || tangents.cols() != orbits.cols())
        throw ContractError("OrbitDistances::setTangents", "orbits " + std::to_string(N) + " x " + std::to_string(orbits.cols()) +
                                                               ", tangents " + std::to_string(tangents.rows()) + " x " +
                                                               std::to_string(tangents.cols()) + ", distances of " +
                                                               std::to_string(D_.rows()) + " rows");
    MatrixXfR& dD = dD_.emplace_back(N, N);
    // P = O T^T: its diagonal o_p.t_p, then per pair of tiles I >= J the blocks P_IJ and P_JI^T,
    // dD_IJ = 2 (P_pp + P_qq - P_IJ - P_JI^T) and dD_JI its transpose (symmetric to the bit).
    const Eigen::VectorXf self = (orbits.array() * tangents.array()).rowwise().sum();
    const Eigen::Index blocks = (N + kDistanceBlock - 1) / kDistanceBlock;
    std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
    for (Eigen::Index I = 0; I < blocks; ++I)
        for (Eigen::Index J = 0; J <= I; ++J) pairs.emplace_back(I, J);
    detail::forEachBlock(pairs.size(), 1, [&](std::size_t t, std::size_t) {
        const auto [I, J] = pairs[t];
        const Eigen::Index i0 = I * kDistanceBlock, j0 = J * kDistanceBlock;
        const Eigen::Index wi = std::min(kDistanceBlock, N - i0), wj = std::min(kDistanceBlock, N - j0);
        MatrixXfR A(wi, wj), B(wj, wi);
        gemmABt(orbits.middleRows(i0, wi), tangents.middleRows(j0, wj), A);
        gemmABt(orbits.middleRows(j0, wj), tangents.middleRows(i0, wi), B);
        for (Eigen::Index a = 0; a < wi; ++a)
            for (Eigen::Index b = 0; b < wj; ++b) A(a, b) = 2.0f * (self[i0 + a] + self[j0 + b] - (A(a, b) + B(b, a)));
        if (I == J)
            for (Eigen::Index a = 0; a < wi; ++a) A(a, a) = 0.0f;
        dD.block(i0, j0, wi, wj) = A;
        if (I != J) dD.block(j0, i0, wj, wi) = A.transpose();
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

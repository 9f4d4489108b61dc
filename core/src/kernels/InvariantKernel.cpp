#include "orbit/kernels/InvariantKernel.hpp"
#include "orbit/linalg/Gemm.hpp"

#include "orbit/kernels/FastExp.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include <Eigen/Eigenvalues>

#include "util/Deterministic.hpp"
#include "util/SubProgress.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>

namespace orbit {

namespace {

constexpr Eigen::Index kRowBlock = 256;    // orbit rows of the left factor per block
constexpr Eigen::Index kColBlock = 4096;   // orbit rows of the right factor per product

/// Symmetric pseudo-inverse of a PSD matrix, dropping eigenvalues <= tol * max.
Eigen::MatrixXd pseudoInverse(const Eigen::MatrixXd& A, double tol)
{
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(A);
    const Eigen::VectorXd& l = eig.eigenvalues();
    const double cut = tol * std::max(0.0, l.maxCoeff());
    Eigen::VectorXd inv = Eigen::VectorXd::Zero(l.size());
    for (Eigen::Index i = 0; i < l.size(); ++i)
        if (l[i] > cut && l[i] > 0) inv[i] = 1.0 / l[i];
    return eig.eigenvectors() * inv.asDiagonal() * eig.eigenvectors().transpose();
}

/// Progress over the pairs of a symmetric matrix filled by blocks on several threads: each finished
/// product adds its pairs; `progress` is asked under a lock once 1 % more of the pairs is done or
/// 50 ms have passed since it was last asked (so at most about a hundred times plus twenty a
/// second), and a cancel throws Cancelled in the thread that asked.
class PairProgress {
public:
    PairProgress(const Progress& progress, double totalPairs) : progress_(progress), total_(std::max(1.0, totalPairs)) {}

    void add(double pairs)
    {
        if (!progress_) return;
        const std::lock_guard<std::mutex> lock(m_);
        done_ += pairs;
        const auto now = std::chrono::steady_clock::now();
        if (done_ - reported_ < 0.01 * total_ && now - last_ < std::chrono::milliseconds(50)) return;
        reported_ = done_;
        last_ = now;
        reportProgress(progress_, std::min(1.0, done_ / total_), "pairs of points");
    }

private:
    const Progress& progress_;
    const double total_;
    double done_ = 0, reported_ = 0;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
    std::mutex m_;
};

} // namespace

Eigen::MatrixXd meanEmbeddingKernel(const MatrixXfR& O, int r, const BaseKernel& kernel, Estimator estimator,
                                    const Progress& progress)
{
    if (r < 1 || O.rows() % r != 0)
        throw ContractError("meanEmbeddingKernel", "the orbits have " + std::to_string(O.rows()) +
                                                       " rows, not a multiple of r = " + std::to_string(r));
    if (estimator == Estimator::U && r < 2) throw SpecError("estimator", "the U-statistic needs r >= 2", std::to_string(r));
    const Eigen::Index N = O.rows() / r;
    const Eigen::VectorXf norms = O.rowwise().squaredNorm();
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(N, N);
    const Eigen::Index pointsPerBlock = std::max<Eigen::Index>(1, kRowBlock / r);
    const Eigen::Index colPoints = std::max<Eigen::Index>(1, kColBlock / r);
    double totalPairs = 0;  // the upper triangle's pairs by block row, as the blocks count them
    for (Eigen::Index i0 = 0; i0 < N; i0 += pointsPerBlock)
        totalPairs += double(std::min(N, i0 + pointsPerBlock) - i0) * double(N - i0);
    PairProgress pairs(progress, totalPairs);
    detail::forEachBlock(std::size_t(N), std::size_t(pointsPerBlock), [&](std::size_t b0, std::size_t b1) {
        const Eigen::Index i0 = Eigen::Index(b0), i1 = Eigen::Index(b1);
        MatrixXfR G;
        // Only pairs j >= i0 (the upper triangle), mirrored afterwards.
        for (Eigen::Index j0 = i0; j0 < N; j0 += colPoints) {
            const Eigen::Index j1 = std::min(N, j0 + colPoints);
            G.resize((i1 - i0) * r, (j1 - j0) * r);
            if (kernel.fromProducts()) {
                gemmABt(O.middleRows(i0 * r, (i1 - i0) * r), O.middleRows(j0 * r, (j1 - j0) * r), G);
                kernel.fromInnerProducts(G.data(), G.rows(), G.cols(), G.cols(), norms.data() + i0 * r, norms.data() + j0 * r);
            } else {  // the Laplacian: L1 distances, then exp(-d / sigma)
                l1DistanceBlock(O.data() + i0 * r * O.cols(), O.cols(), G.rows(), O.data() + j0 * r * O.cols(), O.cols(),
                                G.cols(), O.cols(), G.data(), G.cols());
                const float inv = static_cast<float>(1.0 / kernel.sigma());
                for (Eigen::Index t = 0; t < G.size(); ++t) G.data()[t] = fastExp(-G.data()[t] * inv);
            }
            for (Eigen::Index i = i0; i < i1; ++i)
                for (Eigen::Index j = std::max(i, j0); j < j1; ++j) {
                    double sum = 0;
                    for (int a = 0; a < r; ++a) {
                        const float* row = G.data() + ((i - i0) * r + a) * G.cols() + (j - j0) * r;
                        for (int c = 0; c < r; ++c)
                            if (!(estimator == Estimator::U && i == j && a == c)) sum += row[c];
                    }
                    const double terms = (estimator == Estimator::U && i == j) ? double(r) * (r - 1) : double(r) * r;
                    K(i, j) = sum / terms;
                }
            pairs.add(double(i1 - i0) * double(j1 - j0));
        }
    });
    K.triangularView<Eigen::StrictlyLower>() = K.transpose();
    return K;
}

Eigen::MatrixXd invariantKernelMatrix(const MatrixXfR& X, const OrbitSampler& sampler, const BaseKernel& kernel,
                                      Estimator estimator, const Progress& progress)
{
    // The group's one-off work first (an orthogonal set draws its matrices), where a cancel is seen:
    // drawn lazily inside transformBlock, k = 6000 matrices would run to the end however often asked
    // to stop. Its words show while the fraction stays at 0.
    sampler.group().prepare(detail::subProgress(progress, 0.0, 0.0));
    MatrixXfR O;
    sampler.transformBlock(X, 0, std::size_t(X.rows()), O);
    reportProgress(progress, 0.0, "pairs of points");
    return meanEmbeddingKernel(O, sampler.r(), kernel, estimator, progress);
}

Eigen::MatrixXd haarKernelMatrix(const MatrixXfR& X, const Group& group, const Shape& shape, const BaseKernel& kernel,
                                 std::size_t limit)
{
    if (!group.isFinite()) throw SpecError("group", "the exact Haar sum needs a finite group", group.spec());
    const auto elements = group.elements(shape, limit);
    const int G = static_cast<int>(elements.size());
    const int d = shape.dim();
    if (X.cols() != d)
        throw ContractError("haarKernelMatrix", "the samples have " + std::to_string(X.cols()) +
                                                    " values, the shape needs " + std::to_string(d));
    MatrixXfR O(X.rows() * G, d);
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        for (int k = 0; k < G; ++k) group.apply(elements[k], X.data() + i * d, O.data() + (i * G + k) * d, shape);
    return meanEmbeddingKernel(O, G, kernel, Estimator::V);
}

Eigen::MatrixXd palSavvidesKernelMatrix(const MatrixXfR& X, const MatrixXfR& T, const Group& group,
                                        const std::vector<GroupElement>& elements, const Shape& shape,
                                        const BaseKernel& kernel, double tol)
{
    if (elements.empty()) throw ContractError("palSavvidesKernelMatrix", "no group elements");
    if (T.cols() != X.cols() || X.cols() != shape.dim())
        throw ContractError("palSavvidesKernelMatrix", "the samples have " + std::to_string(X.cols()) +
                                                           " values, the templates " + std::to_string(T.cols()) +
                                                           ", the shape needs " + std::to_string(shape.dim()));
    const detail::SerialEigen serial;
    const Eigen::Index M = T.rows();
    const Eigen::MatrixXd Ktt = kernel.matrix(T, T).cast<double>();
    const Eigen::MatrixXd U = pseudoInverse(0.5 * (Ktt + Ktt.transpose()), tol) * kernel.matrix(T, X).cast<double>();
    Eigen::MatrixXd Mg = Eigen::MatrixXd::Zero(M, M);
    MatrixXfR gT(M, T.cols());
    for (const GroupElement& g : elements) {
        for (Eigen::Index a = 0; a < M; ++a) group.apply(g, T.data() + a * T.cols(), gT.data() + a * T.cols(), shape);
        Mg += kernel.matrix(gT, T).cast<double>();
    }
    Mg /= double(elements.size());
    Mg = 0.5 * (Mg + Mg.transpose()).eval();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Mg);
    const Eigen::VectorXd clipped = eig.eigenvalues().cwiseMax(0.0);
    Mg = eig.eigenvectors() * clipped.asDiagonal() * eig.eigenvectors().transpose();
    Eigen::MatrixXd K = U.transpose() * Mg * U;
    return 0.5 * (K + K.transpose());
}

} // namespace orbit

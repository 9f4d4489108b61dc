#include "orbit/analysis/KMeans.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/RandomSubset.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include "util/Deterministic.hpp"
#include "util/ValuesPerReport.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace orbit {

MatrixXfR kMeansCentres(const MatrixXfR& Xall, int k, std::uint64_t seed, int iterations, std::size_t maxRows,
                        const Progress& progress)
{
    if (k < 1 || k > Xall.rows())
        throw SpecError("features.s", "k-means needs 1 <= s <= number of rows (" + std::to_string(Xall.rows()) + ")",
                        std::to_string(k));
    Rng rng = makeRng(seed, 0x6b6d65616e73ULL);
    MatrixXfR X;
    if (std::size_t(Xall.rows()) > maxRows) {
        const auto idx = randomSubset(std::size_t(Xall.rows()), maxRows, rng);
        X.resize(Eigen::Index(idx.size()), Xall.cols());
        for (std::size_t i = 0; i < idx.size(); ++i) X.row(Eigen::Index(i)) = Xall.row(Eigen::Index(idx[i]));
    } else {
        X = Xall;
    }
    const detail::SerialEigen serial;
    const Eigen::Index n = X.rows();
    // k-means++ seeding: each new centre drawn with probability proportional to D(x)^2.
    MatrixXfR C(k, X.cols());
    std::vector<double> d2(n, std::numeric_limits<double>::infinity());
    Eigen::Index first = Eigen::Index(uniformIndex(rng, n));
    C.row(0) = X.row(first);
    // Progress: the seeding (k passes over the rows) and the Lloyd rounds, by their row passes.
    const double passes = double(k) + double(iterations);
    const int centresPerReport = std::max<int>(1, int(detail::kValuesPerReport / std::max<Eigen::Index>(1, n * X.cols())));
    for (int c = 1; c < k; ++c) {
        if (c % centresPerReport == 0)
            reportProgress(progress, double(c) / passes, "k-means seeding " + std::to_string(c) + "/" + std::to_string(k));
        double total = 0;
        for (Eigen::Index i = 0; i < n; ++i) {
            d2[i] = std::min(d2[i], double((X.row(i) - C.row(c - 1)).squaredNorm()));
            total += d2[i];
        }
        Eigen::Index pick = n - 1;
        if (total > 0) {
            double u = uniform01(rng) * total;
            for (Eigen::Index i = 0; i < n; ++i) {
                u -= d2[i];
                if (u < 0) { pick = i; break; }
            }
        } else {
            pick = Eigen::Index(uniformIndex(rng, n));
        }
        C.row(c) = X.row(pick);
    }
    std::vector<int> assign(n, 0);
    for (int it = 0; it < iterations; ++it) {
        reportProgress(progress, double(k + it) / passes,
                       "k-means round " + std::to_string(it + 1) + "/" + std::to_string(iterations));
        const Eigen::VectorXf cn = C.rowwise().squaredNorm();
        const MatrixXfR P = X * C.transpose();
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
        for (Eigen::Index i = 0; i < n; ++i) {
            Eigen::Index best = 0;
            (cn.transpose() - 2.0f * P.row(i)).minCoeff(&best);
            assign[i] = int(best);
        }
        Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(k, X.cols());
        std::vector<std::size_t> count(k, 0);
        for (Eigen::Index i = 0; i < n; ++i) {
            sum.row(assign[i]) += X.row(i).cast<double>();
            ++count[assign[i]];
        }
        for (int c = 0; c < k; ++c)
            if (count[c] > 0) C.row(c) = (sum.row(c) / double(count[c])).cast<float>();  // empty: keep old centre
    }
    return C;
}

} // namespace orbit

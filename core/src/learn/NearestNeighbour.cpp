#include "orbit/learn/NearestNeighbour.hpp"

#include "orbit/linalg/Gram.hpp"
#include "orbit/util/Error.hpp"

#include "util/Deterministic.hpp"

#include <algorithm>

namespace orbit {

void NearestNeighbour::store(const MatrixXfR& X, std::size_t n)
{
    if (X.rows() == 0 || X.cols() == 0)
        throw SpecError("features", "empty training set");
    requireSize("NearestNeighbour", "number of labels/targets", static_cast<long long>(n), X.rows());
    X_ = X;
    norms_ = X_.rowwise().squaredNorm();
}

void NearestNeighbour::fit(const MatrixXfR& X, const std::vector<int>& labels)
{
    store(X, labels.size());
    labels_ = labels;
    targets_.clear();
}

void NearestNeighbour::fit(const MatrixXfR& X, const std::vector<double>& targets)
{
    store(X, targets.size());
    targets_ = targets;
    labels_.clear();
}

std::vector<std::size_t> NearestNeighbour::nearest(const MatrixXfR& Q) const
{
    if (!fitted())
        throw ContractError("NearestNeighbour", "predict called before fit");
    requireSize("NearestNeighbour", "feature dimension", Q.cols(), X_.cols());
    constexpr Eigen::Index kBlock = 256;
    std::vector<std::size_t> out(static_cast<std::size_t>(Q.rows()));
    detail::forEachBlock(std::size_t(Q.rows()), std::size_t(kBlock), [&](std::size_t b0, std::size_t b1) {
        const Eigen::Index r0 = Eigen::Index(b0), nr = Eigen::Index(b1 - b0);
        Eigen::MatrixXf dist(nr, X_.rows());
        dist.noalias() = -2.0f * (Q.middleRows(r0, nr) * X_.transpose());
        dist.rowwise() += norms_.transpose();
        for (Eigen::Index i = 0; i < nr; ++i) {
            Eigen::Index best = 0;
            for (Eigen::Index j = 1; j < dist.cols(); ++j)
                if (dist(i, j) < dist(i, best))
                    best = j;
            out[static_cast<std::size_t>(r0 + i)] = static_cast<std::size_t>(best);
        }
    });
    return out;
}

std::vector<int> NearestNeighbour::predictClasses(const MatrixXfR& Q) const
{
    if (labels_.empty())
        throw ContractError("NearestNeighbour", "model was fitted to regression targets, not classes");
    std::vector<int> out;
    for (std::size_t i : nearest(Q))
        out.push_back(labels_[i]);
    return out;
}

std::vector<double> NearestNeighbour::predictTargets(const MatrixXfR& Q) const
{
    if (targets_.empty())
        throw ContractError("NearestNeighbour", "model was fitted to classes, not regression targets");
    std::vector<double> out;
    for (std::size_t i : nearest(Q))
        out.push_back(targets_[i]);
    return out;
}

} // namespace orbit

#pragma once
// One-nearest-neighbour prediction in Euclidean feature space.
#include "orbit/data/Dataset.hpp"

#include <vector>

namespace orbit {

/// 1-NN: predict the label (or target) of argmin_i ||x - x_i||^2 over the training rows x_i, the
/// lowest index winning ties. Distances are batched float32 products:
///   ||x - x_i||^2 = ||x||^2 + ||x_i||^2 - 2 x^T x_i   (||x||^2 is constant per query and dropped).
/// Requires: same feature dimension at fit and predict; a non-empty training set.
class NearestNeighbour {
public:
    void fit(const MatrixXfR& X, const std::vector<int>& labels);
    void fit(const MatrixXfR& X, const std::vector<double>& targets);

    /// Index of the nearest training row for every query row.
    std::vector<std::size_t> nearest(const MatrixXfR& Q) const;
    std::vector<int> predictClasses(const MatrixXfR& Q) const;
    std::vector<double> predictTargets(const MatrixXfR& Q) const;

    bool fitted() const { return X_.rows() > 0; }

private:
    void store(const MatrixXfR& X, std::size_t n);

    MatrixXfR X_;
    Eigen::VectorXf norms_;
    std::vector<int> labels_;
    std::vector<double> targets_;
};

} // namespace orbit

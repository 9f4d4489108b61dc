#pragma once
// Linear support vector machine through liblinear.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace orbit {

/// Linear SVM, L2-regularised squared hinge loss, solved by liblinear's dual coordinate descent
/// (solver L2R_L2LOSS_SVC_DUAL), one-vs-rest for more than two classes:
///   min_w 1/2 ||w||^2 + C sum_i max(0, 1 - y_i w^T [x_i; 1])^2,   y_i = +-1 per one-vs-rest problem,
/// with the intercept as a constant feature 1 (regularised, as liblinear does). Prediction:
/// argmax over classes of the decision values w_c^T [x; 1]; classes absent from the training set
/// get -infinity and are never predicted.
///
/// Requires: C > 0 finite, tolerance > 0, labels in [0, numClasses). liblinear's own printing is
/// silenced. liblinear shuffles with the C library rand(); it is re-seeded from `seed` under a
/// process-wide lock before each training, so results are reproducible for a given seed.
class LinearSvm {
public:
    explicit LinearSvm(double C = 1.0, double tolerance = 0.1, std::uint64_t seed = 0);

    void fit(const MatrixXfR& X, const std::vector<int>& labels, int numClasses);
    /// The same fit, reporting to `progress` every ten passes of liblinear's solver (a few
    /// hundredths of a second; the solver does not know how far it is, so the fraction is 0); a
    /// cancel (orbit::Cancelled) abandons the fit and leaves the model as it was (liblinear's
    /// working memory of the abandoned fit is not freed).
    void fit(const MatrixXfR& X, const std::vector<int>& labels, int numClasses, const Progress& progress);
    /// N x numClasses decision values.
    Eigen::MatrixXd decisionValues(const MatrixXfR& X) const;
    std::vector<int> predictClasses(const MatrixXfR& X) const;

    bool fitted() const { return W_.size() > 0; }
    double C() const { return C_; }
    const Eigen::MatrixXd& weights() const { return W_; }  ///< D x numClasses
    const Eigen::VectorXd& bias() const { return b_; }     ///< numClasses

private:
    double C_, tolerance_;
    std::uint64_t seed_;
    Eigen::MatrixXd W_;
    Eigen::VectorXd b_;
};

} // namespace orbit

#pragma once
// How labels and regression targets become the N x C target matrix of a least-squares learner,
// and how decision values become predictions again.
#include <Eigen/Core>

#include <vector>

namespace orbit {

/// Target coding shared by the linear and kernel learners.
///  - Classes, PlusMinusOne: Y(i, c) = +1 if label i == c else -1 (one-vs-all); predict argmax_c f_c.
///  - Classes, OneHot: Y(i, c) = 1 if label i == c else 0 (van der Wilk et al. 2018); argmax too.
///  - Regression: one column y = (t - mean) / scale (scale = population std, or 1 when all t are
///    equal or standardisation is off); predictions are mean + scale f.
/// Requires labels in [0, numClasses), numClasses >= 2; targets finite and non-empty.
struct TargetCoding {
    enum class Kind { PlusMinusOne, OneHot, Regression };
    Kind kind = Kind::Regression;
    int numClasses = 0;
    double mean = 0.0;
    double scale = 1.0;

    static TargetCoding classes(int numClasses, Kind kind = Kind::PlusMinusOne);
    static TargetCoding regression(const std::vector<double>& targets, bool standardize = true);

    bool isClassification() const { return kind != Kind::Regression; }
    int outputs() const { return isClassification() ? numClasses : 1; }
    Eigen::MatrixXd encode(const std::vector<int>& labels) const;
    Eigen::MatrixXd encode(const std::vector<double>& targets) const;
    /// argmax over columns (lowest class index wins ties).
    static std::vector<int> argmax(const Eigen::MatrixXd& F);
    /// mean + scale F(:, 0).
    std::vector<double> decode(const Eigen::MatrixXd& F) const;
};

} // namespace orbit

#pragma once
// Scores of predictions against the truth.
#include <Eigen/Core>

#include <vector>

namespace orbit {

/// Fraction of i with predicted_i == truth_i. Requires equal, non-zero lengths.
double accuracy(const std::vector<int>& predicted, const std::vector<int>& truth);

/// C(t, p) = number of samples of true class t predicted as p (rows: truth, columns: prediction).
/// Requires labels in [0, numClasses).
Eigen::MatrixXi confusionMatrix(const std::vector<int>& predicted, const std::vector<int>& truth, int numClasses);

/// sqrt(mean (predicted_i - truth_i)^2).
double rmse(const std::vector<double>& predicted, const std::vector<double>& truth);

/// mean |predicted_i - truth_i|.
double mae(const std::vector<double>& predicted, const std::vector<double>& truth);

/// Arithmetic mean and (population) standard deviation of a list of scores, e.g. over folds.
double mean(const std::vector<double>& v);
double standardDeviation(const std::vector<double>& v);

} // namespace orbit

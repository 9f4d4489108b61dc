#pragma once
// The prediction half of the linear learners on coded targets (ridge, Bayesian linear regression).
#include "orbit/data/Dataset.hpp"
#include "orbit/learn/TargetCoding.hpp"

#include <Eigen/Core>

#include <vector>

namespace orbit {

/// Weights W (D x C) on TargetCoding columns: decision values x W, classes by argmax over the
/// columns, regression targets decoded from the standardised column. The learner's fit sets
/// coding_ and W_. Calling a prediction of the other kind (classes of a regression model, or the
/// reverse) or before the fit is a ContractError naming the model.
class LinearPredictor {
public:
    /// x W for every row: N x C (standardised units for regression).
    Eigen::MatrixXd decisionValues(const MatrixXfR& X) const;
    std::vector<int> predictClasses(const MatrixXfR& X) const;
    std::vector<double> predictTargets(const MatrixXfR& X) const;

    bool fitted() const { return W_.size() > 0; }
    const Eigen::MatrixXd& weights() const { return W_; }  ///< D x C
    const TargetCoding& coding() const { return coding_; }

protected:
    /// model: the learner's name in contract errors ("RidgeRegression").
    explicit LinearPredictor(const char* model) : model_(model) {}

    TargetCoding coding_;
    Eigen::MatrixXd W_;

private:
    const char* model_;
};

} // namespace orbit

#include "orbit/learn/LinearPredictor.hpp"

#include "orbit/linalg/Gram.hpp"
#include "orbit/util/Error.hpp"

namespace orbit {

Eigen::MatrixXd LinearPredictor::decisionValues(const MatrixXfR& X) const
{
    if (!fitted()) throw ContractError(model_, "predict called before fit");
    requireSize(model_, "feature dimension", X.cols(), W_.rows());
    return timesDouble(X, W_);
}

std::vector<int> LinearPredictor::predictClasses(const MatrixXfR& X) const
{
    if (!coding_.isClassification())
        throw ContractError(model_, "model was fitted to regression targets, not classes");
    return TargetCoding::argmax(decisionValues(X));
}

std::vector<double> LinearPredictor::predictTargets(const MatrixXfR& X) const
{
    if (coding_.isClassification())
        throw ContractError(model_, "model was fitted to classes, not regression targets");
    return coding_.decode(decisionValues(X));
}

} // namespace orbit

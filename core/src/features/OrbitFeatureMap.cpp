#include "orbit/features/OrbitFeatureMap.hpp"

#include "orbit/util/Error.hpp"

#include "features/BlockCheck.hpp"
#include "features/OrbitPlan.hpp"

namespace orbit {

OrbitFeatureMap::OrbitFeatureMap(FeatureContext context) : context_(std::move(context)) {}

OrbitFeatureMap::~OrbitFeatureMap() = default;

bool OrbitFeatureMap::usesRowIndex() const { return plan_ && plan_->sampler && !plan_->templateTrick; }

void OrbitFeatureMap::checkFitInput(const char* where, const MatrixXfR& X) const
{
    const Eigen::Index d = context_.shape.dim();
    if (X.cols() != d)
        throw ContractError(where, "input rows have " + std::to_string(X.cols()) + " values, the shape needs " +
                                       std::to_string(d));
}

void OrbitFeatureMap::checkTransformInput(const char* where, const MatrixXfR& X, std::size_t begin, std::size_t end,
                                          Eigen::Index dim) const
{
    if (!plan_) throw ContractError(where, "called before fit");
    detail::checkBlock(where, X, begin, end, dim);
}

std::string OrbitFeatureMap::planDescription() const { return plan_ ? plan_->describe() : std::string(); }

std::string OrbitFeatureMap::baseOrInvariantKernel() const
{
    const std::string base = context_.kernel->spec();
    if (!plan_ || !plan_->sampler) return base;
    return "k_qG with " + base + plan_->describe();
}

} // namespace orbit

#include "orbit/learn/TargetCoding.hpp"

#include "orbit/util/Error.hpp"

#include <cmath>
#include <string>

namespace orbit {

TargetCoding TargetCoding::classes(int numClasses, Kind kind)
{
    if (numClasses < 2)
        throw SpecError("classes", "need at least 2 classes", std::to_string(numClasses));
    if (kind == Kind::Regression)
        throw ContractError("TargetCoding::classes", "a class coding must be PlusMinusOne or OneHot");
    TargetCoding c;
    c.kind = kind;
    c.numClasses = numClasses;
    return c;
}

TargetCoding TargetCoding::regression(const std::vector<double>& targets, bool standardize)
{
    if (targets.empty())
        throw SpecError("targets", "no regression targets");
    TargetCoding c;
    c.kind = Kind::Regression;
    if (!standardize)
        return c;
    double sum = 0.0;
    for (double t : targets) {
        if (!std::isfinite(t))
            throw SpecError("targets", "non-finite target", std::to_string(t));
        sum += t;
    }
    c.mean = sum / static_cast<double>(targets.size());
    double ss = 0.0;
    for (double t : targets)
        ss += (t - c.mean) * (t - c.mean);
    const double sd = std::sqrt(ss / static_cast<double>(targets.size()));
    c.scale = sd > 0.0 ? sd : 1.0;
    return c;
}

Eigen::MatrixXd TargetCoding::encode(const std::vector<int>& labels) const
{
    if (!isClassification())
        throw ContractError("TargetCoding::encode", "this learner was set up for regression targets, not class labels");
    const double off = kind == Kind::PlusMinusOne ? -1.0 : 0.0;
    Eigen::MatrixXd Y = Eigen::MatrixXd::Constant(static_cast<Eigen::Index>(labels.size()), numClasses, off);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] < 0 || labels[i] >= numClasses)
            throw SpecError("labels", "label " + std::to_string(i) + " outside [0, " + std::to_string(numClasses) + ")",
                            std::to_string(labels[i]));
        Y(static_cast<Eigen::Index>(i), labels[i]) = 1.0;
    }
    return Y;
}

Eigen::MatrixXd TargetCoding::encode(const std::vector<double>& targets) const
{
    if (isClassification())
        throw ContractError("TargetCoding::encode", "this learner was set up for class labels, not regression targets");
    Eigen::MatrixXd Y(static_cast<Eigen::Index>(targets.size()), 1);
    for (std::size_t i = 0; i < targets.size(); ++i) {
        if (!std::isfinite(targets[i]))
            throw SpecError("targets", "non-finite target at " + std::to_string(i), std::to_string(targets[i]));
        Y(static_cast<Eigen::Index>(i), 0) = (targets[i] - mean) / scale;
    }
    return Y;
}

std::vector<int> TargetCoding::argmax(const Eigen::MatrixXd& F)
{
    std::vector<int> out(static_cast<std::size_t>(F.rows()));
    for (Eigen::Index i = 0; i < F.rows(); ++i) {
        Eigen::Index best = 0;
        for (Eigen::Index c = 1; c < F.cols(); ++c)
            if (F(i, c) > F(i, best))
                best = c;
        out[static_cast<std::size_t>(i)] = static_cast<int>(best);
    }
    return out;
}

std::vector<double> TargetCoding::decode(const Eigen::MatrixXd& F) const
{
    std::vector<double> out(static_cast<std::size_t>(F.rows()));
    for (Eigen::Index i = 0; i < F.rows(); ++i)
        out[static_cast<std::size_t>(i)] = mean + scale * F(i, 0);
    return out;
}

} // namespace orbit

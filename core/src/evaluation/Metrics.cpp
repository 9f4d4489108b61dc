#include "orbit/evaluation/Metrics.hpp"

#include "orbit/util/Error.hpp"

#include <cmath>
#include <string>

namespace orbit {
namespace {

void requireSameLength(const char* metric, std::size_t a, std::size_t b)
{
    if (a != b || a == 0)
        throw ContractError(metric, "predictions and truth must have the same non-zero length (" + std::to_string(a)
                                    + " vs " + std::to_string(b) + ")");
}

} // namespace

double accuracy(const std::vector<int>& predicted, const std::vector<int>& truth)
{
    requireSameLength("accuracy", predicted.size(), truth.size());
    std::size_t hits = 0;
    for (std::size_t i = 0; i < truth.size(); ++i)
        hits += predicted[i] == truth[i] ? 1 : 0;
    return static_cast<double>(hits) / static_cast<double>(truth.size());
}

Eigen::MatrixXi confusionMatrix(const std::vector<int>& predicted, const std::vector<int>& truth, int numClasses)
{
    requireSameLength("confusion", predicted.size(), truth.size());
    if (numClasses < 1)
        throw ContractError("confusionMatrix", "number of classes must be >= 1, got " + std::to_string(numClasses));
    Eigen::MatrixXi C = Eigen::MatrixXi::Zero(numClasses, numClasses);
    for (std::size_t i = 0; i < truth.size(); ++i) {
        for (int y : {truth[i], predicted[i]})
            if (y < 0 || y >= numClasses)
                throw ContractError("confusionMatrix", "label " + std::to_string(y) + " outside [0, " + std::to_string(numClasses) + ")");
        ++C(truth[i], predicted[i]);
    }
    return C;
}

double rmse(const std::vector<double>& predicted, const std::vector<double>& truth)
{
    requireSameLength("rmse", predicted.size(), truth.size());
    double ss = 0.0;
    for (std::size_t i = 0; i < truth.size(); ++i)
        ss += (predicted[i] - truth[i]) * (predicted[i] - truth[i]);
    return std::sqrt(ss / static_cast<double>(truth.size()));
}

double mae(const std::vector<double>& predicted, const std::vector<double>& truth)
{
    requireSameLength("mae", predicted.size(), truth.size());
    double s = 0.0;
    for (std::size_t i = 0; i < truth.size(); ++i)
        s += std::abs(predicted[i] - truth[i]);
    return s / static_cast<double>(truth.size());
}

double mean(const std::vector<double>& v)
{
    if (v.empty())
        throw ContractError("mean", "no values");
    double s = 0.0;
    for (double x : v)
        s += x;
    return s / static_cast<double>(v.size());
}

double standardDeviation(const std::vector<double>& v)
{
    const double m = mean(v);
    double ss = 0.0;
    for (double x : v)
        ss += (x - m) * (x - m);
    return std::sqrt(ss / static_cast<double>(v.size()));
}

} // namespace orbit

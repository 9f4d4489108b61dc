#include "training/FeatureCost.hpp"

#include "training/TrainingGrid.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>

namespace orbit::detail {

double inputLengthSum(const MatrixXfR& X, Eigen::Index first, Eigen::Index last)
{
    const Eigen::Index d = X.cols();
    double sum = 0.0;
    for (Eigen::Index i = first; i < last; ++i) {
        Eigen::Index end = d;
        while (end > 0 && X(i, end - 1) == 0.0f) --end;
        sum += double(std::max<Eigen::Index>(end, 1));
    }
    return sum;
}

double effectiveInputSize(DataKind kind, const std::string& spec, double meanLength)
{
    const FeatureMapDescriptor* map = firstMap(spec);
    const bool folds = !map || map->foldsCoulomb;
    return (kind == DataKind::Coulomb && folds ? 0.25 : 1.0) * meanLength;
}

double featureRowCost(const std::string& spec, double inputDim, Eigen::Index dim)
{
    double r = 1.0;
    for (const std::string& part : split(spec, '+')) {
        const Spec s = parseSpec(part, "features");
        if (s.has("r")) r = std::max(r, parseDouble(s.params.at("r")).value_or(1.0));
    }
    return std::max(inputDim, 1.0) * double(std::max<Eigen::Index>(dim, 1)) * r;
}

double productRowCost(Eigen::Index dim)
{
    // Measured per row (docs/results.md, Many processes): Fashion-MNIST irf s=3000 r=4 features 0.45 ms
    // and products 0.61 ms; full size irf s=7000 r=100, 2070 s of features for 70000 rows and 170 s
    // of products for 60000. 2.3 fits both: products / features per row 1.18 and about 0.11
    // predicted, 1.36 and 0.096 measured.
    constexpr double kDoublePerFloatMultiplyAdd = 2.3;
    return kDoublePerFloatMultiplyAdd * 0.5 * double(dim) * double(dim);
}

Eigen::Index featureBlockRows(const std::string& spec, double inputDim, Eigen::Index dim)
{
    const double perRow = featureRowCost(spec, inputDim, dim);
    Eigen::Index rows = 256;
    while (rows > 1 && double(rows) * perRow > double(1LL << 34)) rows /= 2;
    return rows;
}

} // namespace orbit::detail

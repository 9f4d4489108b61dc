#include "experiments/FeatureCost.hpp"

#include "experiments/TrainingGrid.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>

namespace orbit::detail {

double effectiveInputSize(const Dataset& data, const std::string& spec)
{
    const FeatureMapDescriptor* map = firstMap(spec);
    const bool folds = !map || map->foldsCoulomb;
    const Eigen::Index n = data.X.rows(), d = data.X.cols();
    if (n == 0) return double(d);
    double sum = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        Eigen::Index last = d;
        while (last > 0 && data.X(i, last - 1) == 0.0f) --last;
        sum += double(std::max<Eigen::Index>(last, 1));
    }
    return (data.kind == DataKind::Coulomb && folds ? 0.25 : 1.0) * sum / double(n);
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
    Eigen::Index rows = 64;
    while (rows > 1 && double(rows) * perRow > double(1LL << 32)) rows /= 2;
    return rows;
}

} // namespace orbit::detail

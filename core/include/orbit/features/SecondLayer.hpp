#pragma once
// The second layer of a two-layer feature map (`+rf2`): Gaussian random Fourier features on the
// features of a first map (LGIKA's hyperkernel rows).
#include "orbit/features/FeatureMap.hpp"

#include <memory>
#include <optional>

namespace orbit {

/// The second layer, `<first map>+rf2:s=S2[,median=F|sigma=X]`: psi2(x) = z(psi1(x)), z the plain
/// Gaussian random Fourier features on the first layer's output (a Gaussian hyperkernel on orbit
/// embeddings, LGIKA remark 3). The bandwidth is
/// absolute (sigma=X) or a multiple of the median pairwise distance of the first-layer features of
/// the training data (median=F, default 1). fit() fits the first layer, then the second on its output
/// (progress: the first layer's fit, then one report before the first-layer features of all rows).
class SecondLayerMap : public FeatureMap {
public:
    SecondLayerMap(std::unique_ptr<FeatureMap> first, int s2, std::optional<double> sigma, double medianFactor);
    ~SecondLayerMap() override;
    std::string spec() const override;
    std::string kernel() const override;
    void fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress) override;
    using FeatureMap::fit;
    Eigen::Index dim() const override { return s2_; }
    void transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const override;
    using FeatureMap::transform;

private:
    std::unique_ptr<FeatureMap> first_;
    std::unique_ptr<FeatureMap> second_;
    int s2_;
    std::optional<double> sigma_;
    double medianFactor_;
};

} // namespace orbit

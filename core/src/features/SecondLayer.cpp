#include "orbit/features/SecondLayer.hpp"

#include "orbit/features/InvariantRandomFourier.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "features/FitProgress.hpp"

#include <algorithm>
#include <vector>

namespace orbit {

SecondLayerMap::SecondLayerMap(std::unique_ptr<FeatureMap> first, int s2, std::optional<double> sigma, double medianFactor)
    : first_(std::move(first)), s2_(s2), sigma_(sigma), medianFactor_(medianFactor)
{
    if (s2 < 1) throw SpecError("features rf2.s", "must be >= 1", std::to_string(s2));
}

SecondLayerMap::~SecondLayerMap() = default;

std::string SecondLayerMap::spec() const { return first_->spec() + "+rf2:s=" + std::to_string(s2_); }

std::string SecondLayerMap::kernel() const
{
    return "Gaussian hyperkernel (" + (second_ ? second_->kernel() : std::string("unfitted")) + ") on [" +
           first_->kernel() + "]";
}

void SecondLayerMap::fit(const MatrixXfR& X, std::uint64_t seed, const Progress& progress)
{
    second_.reset();  // a cancelled or failed fit leaves the map unfitted (first_ may have changed)
    first_->fit(X, deriveSeed(seed, 11), detail::subProgress(progress, 0.0, 0.5, "first layer: "));
    double sigma = sigma_ ? *sigma_ : 0.0;
    if (!sigma_) {
        // The median rule looks at most kMedianRows rows: only their first-layer features are
        // computed, a few rows per call with a report between calls, so a cancel is seen within a
        // fraction of a second. Rows with their own group samples keep their dataset index (one
        // row per call, the bits of the whole-matrix transform); the others are gathered.
        constexpr std::size_t kMedianRows = 1000;
        const std::uint64_t medianSeed = deriveSeed(seed, 12);
        const std::vector<std::size_t> rows = medianSampleRows(std::size_t(X.rows()), kMedianRows, medianSeed);
        const bool byIndex = first_->usesRowIndex();
        const std::size_t perCall = byIndex ? 1 : 64;
        MatrixXfR gathered;
        if (!byIndex) {
            gathered.resize(Eigen::Index(rows.size()), X.cols());
            for (std::size_t t = 0; t < rows.size(); ++t) gathered.row(Eigen::Index(t)) = X.row(Eigen::Index(rows[t]));
        }
        MatrixXfR S(Eigen::Index(rows.size()), first_->dim()), f;
        const std::string of = "/" + std::to_string(rows.size());
        for (std::size_t t = 0; t < rows.size(); t += perCall) {
            if (t % 64 == 0)
                reportProgress(progress, 0.5 + 0.4 * double(t) / double(rows.size()),
                               "first-layer features for the median rule " + std::to_string(t) + of);
            const std::size_t e = std::min(rows.size(), t + perCall);
            if (byIndex)
                first_->transform(X, rows[t], rows[t] + 1, f);
            else
                first_->transform(gathered, t, e, f);
            S.middleRows(Eigen::Index(t), f.rows()) = f;
        }
        sigma = medianFactor_ * medianPairwiseDistance(S, kMedianRows, medianSeed);
    }
    reportProgress(progress, 0.9, "second layer");
    if (!(sigma > 0)) throw SpecError("features rf2", "the first-layer features have zero median distance");
    FeatureContext c;
    c.shape = Shape{1, int(first_->dim()), 1};
    c.kernel = BaseKernel::gaussian(sigma);
    auto second = std::make_unique<InvariantRandomFourier>(c, s2_, 1, InvariantRandomFourier::Form::Cos);
    second->fit(MatrixXfR(0, first_->dim()), deriveSeed(seed, 13), detail::subProgress(progress, 0.9, 1.0, "second layer: "));
    second_ = std::move(second);
}

void SecondLayerMap::transform(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    if (!second_) throw ContractError("SecondLayerMap::transform", "called before fit");
    // Bounded memory: the first layer is materialised one chunk of rows at a time.
    constexpr std::size_t chunk = 4096;
    out.resize(Eigen::Index(end - begin), s2_);
    MatrixXfR F, G;
    for (std::size_t b = begin; b < end; b += chunk) {
        const std::size_t e = std::min(end, b + chunk);
        first_->transform(X, b, e, F);
        second_->transform(F, 0, std::size_t(F.rows()), G);
        out.middleRows(Eigen::Index(b - begin), G.rows()) = G;
    }
}

} // namespace orbit

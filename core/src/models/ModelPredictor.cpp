// ModelPredictor (SavedModel.hpp): a saved model with its map rebuilt, or for an exact kernel
// machine its support rows' group samples redrawn, answering new rows and, with a posterior, their
// predictive standard deviation.
#include "orbit/models/SavedModel.hpp"

#include "data/LoaderSupport.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/learn/FeatureKernel.hpp"
#include "orbit/models/ExactModel.hpp"
#include "orbit/util/Error.hpp"

#include <limits>

namespace orbit {

ModelPredictor::ModelPredictor(SavedModel model, const std::string& file, const Progress& progress)
    : model_(std::move(model))
{
    if (model_.hasPosterior()) factor_ = model_.posteriorFactor.cast<double>();
    if (model_.isExact()) {
        model_.checkConsistent();
        supportOrbits_ = exactOrbitRows(model_.support, model_.supportStreams, model_.map.kind, model_.map.shape, model_.map.group,
                                        model_.map.dist, exactSamplesOf(model_.map.features), model_.orbitSeed, &exactR_);
        return;
    }
    map_ = model_.map.build(progress);
    if (model_.isKernelRidge()) {
        sigma_ = makeKernel(model_.kernel, MatrixXfR()).sigma();
        supportNorms_ = featureSquaredNorms(model_.support);
    }
    if (map_->dim() != model_.dim)
        data::fail(LoadErrorKind::BadValue, file, "member map_dim.npy",
                   "the rebuilt map has " + std::to_string(map_->dim()) + " features, the file says " + std::to_string(model_.dim) +
                       " (altered, or written by another build)",
                   std::to_string(model_.dim));
}

const FeatureMap& ModelPredictor::map() const
{
    if (!map_) throw ContractError("ModelPredictor::map", "an exact kernel machine has no feature map");
    return *map_;
}

Eigen::MatrixXd ModelPredictor::scores(const MatrixXfR& X, const Progress& progress) const
{
    if (model_.isExact()) return exactModelScores(model_, supportOrbits_, exactR_, X, progress);
    return featureScores(transformAll(*map_, X, progress));
}

Eigen::MatrixXd ModelPredictor::exactScoresAt(const MatrixXfR& X, std::int64_t firstRow, const Progress& progress,
                                              Eigen::VectorXd* sd) const
{
    if (!sd || !hasInterval()) {
        if (sd) sd->setConstant(X.rows(), std::numeric_limits<double>::quiet_NaN());
        return exactModelScores(model_, supportOrbits_, exactR_, X, progress, firstRow);
    }
    Eigen::VectorXd variance;
    const Eigen::MatrixXd S = exactModelScores(model_, supportOrbits_, exactR_, X, progress, firstRow, &variance, &factor_);
    *sd = model_.coding.scale * variance.array().max(0.0).sqrt();
    return S;
}

Eigen::VectorXd ModelPredictor::featureSd(const MatrixXfR& F) const
{
    if (!hasInterval() || model_.isExact()) throw ContractError("ModelPredictor::featureSd", "a model without a posterior on features");
    requireSize("ModelPredictor::featureSd", "feature columns", F.cols(), model_.dim);
    // phi^T A^-1 phi = |L^-1 phi|^2, A = L L^T the posterior precision on the coded targets.
    const Eigen::MatrixXd V = factor_.triangularView<Eigen::Lower>().solve(F.cast<double>().transpose());
    const Eigen::VectorXd variance = V.colwise().squaredNorm().transpose().array() + 1.0 / model_.beta;
    return model_.coding.scale * variance.array().sqrt();
}

Eigen::MatrixXd ModelPredictor::featureScores(const MatrixXfR& F) const
{
    if (model_.isKernelRidge()) return kernelRidgeScores(F, model_.support, supportNorms_, sigma_, model_.dual);
    return linearScores(F, model_.weights, model_.bias);
}

std::vector<int> ModelPredictor::classes(const Eigen::MatrixXd& scores) const
{
    if (!model_.isClassification()) throw ContractError("ModelPredictor", "classes of a regression model");
    return TargetCoding::argmax(scores);
}

std::vector<double> ModelPredictor::targets(const Eigen::MatrixXd& scores) const
{
    if (model_.isClassification()) throw ContractError("ModelPredictor", "targets of a classifier");
    return model_.coding.decode(scores);
}

} // namespace orbit

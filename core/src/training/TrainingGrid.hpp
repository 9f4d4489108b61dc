#pragma once
// Private to the `train` engine (Training*.cpp): what a grid point changes in the specs of a run.
// Feature-level axes rewrite the --dist or --features spec; learner axes (`lambda`, `C`) are scored
// in one batch per feature point.
#include "orbit/data/Dataset.hpp"
#include "orbit/evaluation/ParamGrid.hpp"
#include "orbit/training/Training.hpp"

#include <string>

namespace orbit {
struct FeatureMapDescriptor;
}

namespace orbit::detail {

/// A learner's grid axis (`lambda`, `C`: scored in one batch per feature point).
bool isLearnerAxis(const std::string& name);

/// The registry's descriptor of the first map of a --features spec (null for an unknown name:
/// makeFeatureMap reports it).
const FeatureMapDescriptor* firstMap(const std::string& features);

/// Maps whose fit draws from the seed only, never from the values of the rows it is given: their
/// features of all dataset rows can be computed once per grid point and shared by every fold.
bool isDataIndependent(const std::string& features);

/// v rounded to 12 significant digits. A grid point's bandwidth used to reach the base kernel as
/// "%.12g" text, and the recorded results depend on those bits (the exact value moves Nystrom
/// results in the 8th digit), so the rounding is kept as a numeric step of its own.
double roundedBandwidth(double v);

/// The --dist spec with the grid's distribution parameters set to the point's values (named as
/// Distribution::parameters() names them: `kappa`, or `rotation.kappa` for affine).
std::string distWith(const TrainConfig& c, const Shape& shape, const ParamPoint& featurePoint);

/// The feature points of a run's grid (its axes other than the learner's), in the grid's order.
std::vector<ParamPoint> featurePointsOf(const TrainConfig& config);

/// The --features spec with the grid's `rf2.median` / `rf2.sigma` set on the second layer.
std::string featuresWith(const std::string& features, const ParamPoint& featurePoint);

} // namespace orbit::detail

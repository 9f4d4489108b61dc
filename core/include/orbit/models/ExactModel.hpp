#pragma once
// Saved exact kernel machines (`train --features exact:r=R --learner krr|gp --save-model`): no
// feature map, the invariant kernel k_G(x, y) = E k(g x, g' y) between new rows and the support rows
// (the training rows themselves), from group samples redrawn from the file's seed and sub-streams.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/models/SavedModel.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace orbit {

/// Whether a --features spec is `exact` or `exact:...` (an exact kernel machine, no map).
bool isExactFeatures(const std::string& features);

/// R of `exact:r=R` (SpecError("features") on another map, a key other than r, or R outside
/// [1, 10000]; `centres` is refused: the m-centre solver's models are not saved).
int exactSamplesOf(const std::string& features);

/// The group samples of the rows of X (inputs of `kind` and `shape`), R consecutive rows per input:
/// row i's from the sub-stream streams[i] of `seed` (OrbitSampler's draws, as the training run drew
/// them for its row of that index), or every element of a finite group (cyclic, orthogonal) when
/// the distribution is haar: the exact Haar sum, as exactOrbits (ExactKernelMachines.hpp) takes
/// it. Without a group, the rows themselves. *rOut gets the samples per input.
MatrixXfR exactOrbitRows(const MatrixXfR& X, const std::vector<std::int64_t>& streams, DataKind kind, const Shape& shape,
                         const std::string& group, const std::string& dist, int r, std::uint64_t seed, int* rOut);

/// Decision values (N x C) of an exact model for the rows X, row j drawing its group samples from
/// the sub-stream firstStream + firstRow + j (firstRow: where X's first row sits in the data; 0 for
/// a whole file, I for the one row I of a sweep): kTransformBlockRows rows at a time, the rectangular orbit
/// distances to the support rows' samples (supportOrbits, r per row), the invariant kernel at the
/// model's bandwidth, then dualScores (gp: times the signal variance). Every step's bits depend on
/// the row alone, so the rows the run scored get the run's own bits. Cancelled from `progress`.
/// With `variance` and a gp with its posterior (SavedModel::posteriorFactor), also each row's
/// predictive variance of the coded target: signal k(x, x) - signal^2 k*^T C^-1 k* + noise, with
/// k(x, x) the invariant kernel of the row with itself (its own samples, all r x r pairs);
/// `posteriorFactor` is the factor in double when the caller keeps one (else it is converted here).
Eigen::MatrixXd exactModelScores(const SavedModel& model, const MatrixXfR& supportOrbits, int r, const MatrixXfR& X,
                                 const Progress& progress = {}, std::int64_t firstRow = 0,
                                 Eigen::VectorXd* variance = nullptr, const Eigen::MatrixXd* posteriorFactor = nullptr);

} // namespace orbit

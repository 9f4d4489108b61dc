#pragma once
// A saved model's answer to one input turned, shifted, zoomed or with its atoms permuted: the
// numbers of the Predict view's sweep chart, `orbitlab-cli predict --sweep` and orbitlab.sweep
// (issue 44; docs/cli.md, "Sweeping one input").
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/models/SavedModel.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace orbit {

/// The transformation a sweep applies, named as the CLI names it: `rotation` (degrees,
/// counter-clockwise on screen), `translation-x`, `translation-y` (pixels, x to the right, y down),
/// `scale` (a zoom factor > 0), `permutation` (molecules: 0 is the molecule as it is, k >= 1 the
/// k-th seeded shuffle of its atoms).
enum class SweepParameter { Rotation, TranslationX, TranslationY, Scale, Permutation };
const char* toString(SweepParameter parameter);
/// SpecError("sweep") naming the value for a name that is none of the above.
SweepParameter parseSweepParameter(const std::string& name);

/// A parameter and the values it takes.
struct SweepRange {
    SweepParameter parameter = SweepParameter::Rotation;
    std::vector<double> values;
};

/// `NAME:FROM:TO:COUNT`: COUNT >= 2 values evenly spaced from FROM to TO, both included
/// ("rotation:0:360:73" is every 5 degrees). Permutation values must be whole numbers >= 0, scale
/// values > 0. Throws SpecError("sweep") naming the value.
SweepRange parseSweep(const std::string& text);
/// SpecError("sweep") naming t unless it is a value `parameter` takes: finite, scale > 0,
/// permutation a whole number >= 0. parseSweep, sweepElement and the Python module check with it.
void checkSweepValue(SweepParameter parameter, double t);

/// The group element of the registry's group for `parameter` at `t`: RotationGroup (theta = t
/// degrees in radians, brought into (-pi, pi]), TranslationGroup (dx or dy = t), ScaleGroup
/// (scale = t), PermutationGroup (permutationOfAtoms); checkSweepValue(parameter, t) first.
/// makeSweepGroup is that group.
GroupElement sweepElement(SweepParameter parameter, double t, const float* x, const Shape& shape, std::uint64_t seed);
std::shared_ptr<const Group> makeSweepGroup(SweepParameter parameter);

/// The number of atoms of a Coulomb matrix (n x n, row-major): its rows up to the last one with a
/// non-zero diagonal (the rest is the file's zero padding).
int atomsOf(const float* coulomb, int n);

/// The permutation of a molecule's n rows that shuffle k applies: k = 0 the identity, k >= 1 a
/// Fisher-Yates shuffle of its first `atoms` rows drawn from makeRng(seed, k) (the padding stays
/// in place). Exact: row i of the result is row perm[i] of the input.
std::vector<int> permutationOfAtoms(int n, int atoms, std::uint64_t k, std::uint64_t seed);

/// Checks that a sweep of `parameter` can act on the model's inputs: the image parameters on
/// images, permutation on Coulomb matrices. SpecError("sweep") otherwise.
void checkSweepInput(SweepParameter parameter, DataKind kind);

/// The model's decision values (1 x C) for one input x (shape.dim() floats) taken as dataset row
/// `index`: a map whose group samples follow the row (FeatureMap::usesRowIndex) draws them from row
/// index's stream, as for that row of the file. One transform call on one row, so the same bits as
/// every other single-row call of it (predict's --index, the sweep at the identity). With `sd`, the
/// predictive standard deviation of the target where the model has an interval (NaN otherwise).
Eigen::RowVectorXd scoresOfRow(const ModelPredictor& predictor, const float* x, std::size_t index, double* sd = nullptr);

/// What a sweep gives, per value t of its range (row t of each).
struct SweepResult {
    SweepRange range;
    Eigen::MatrixXd scores;       ///< T x C decision values (classes), or T x 1 (regression, coded)
    std::vector<int> top;         ///< classifiers: the column of the largest score (lowest on ties)
    std::vector<double> value;    ///< regression: the predicted target (decoded), empty for classifiers
    /// The model's predictive interval of `value` (mean -/+ 2 standard deviations), where the saved
    /// model carries a posterior (ModelPredictor::hasInterval: regression blr and gp saved since
    /// format version 4); empty for the others.
    std::vector<double> lower, upper;
    bool hasInterval() const { return !lower.empty(); }
};

/// The sweep of one input: for every value t of `range`, scoresOfRow(T_t x, index), T_t the action
/// of sweepElement(range.parameter, t, x, shape, seed) on x (`shape` the model's input shape). At the
/// identity (rotation 0, shift 0, scale 1, permutation 0) the input is x's own bits, so that row's
/// scores are those of scoresOfRow(x, index). SpecError("sweep") for a parameter that cannot act on
/// the model's inputs; Cancelled from `progress` (reported once per value).
SweepResult predictSweep(const ModelPredictor& predictor, const float* x, std::size_t index, const SweepRange& range,
                         std::uint64_t seed, const Progress& progress = {});

/// The sweep as CSV text: a header `t` and `score_LABEL` per class (regression: `value`, and
/// `lower,upper` where the result has an interval), then one line per value of the range, every
/// number with 17 significant digits (the same double when read back). What `orbitlab-cli predict
/// --sweep --out` writes and the Predict view's export writes.
std::string sweepCsv(const SavedModel& model, const SweepResult& result);

/// How much a model's answer for x moves with the random group samples it averages over: the
/// standard deviation of its scores (per column) over `draws` independent draws of them.
struct MonteCarloError {
    Eigen::RowVectorXd sd;      ///< per column; NaN when it cannot be estimated (see `how`)
    std::string how;            ///< in words, for people: how the draws were made
};

/// The Monte Carlo error of scoresOfRow(x, index): a map whose samples follow the row is evaluated
/// at the streams of rows index + 1 .. index + draws; a map with shared samples from the Haar
/// measure of a rotation, cyclic or permutation group at g x for g Haar-random (by the measure's
/// invariance, the same as drawing its samples again); a map with no group samples has none (0).
/// Other shared-sample maps (a von Mises window with the template trick): NaN.
MonteCarloError monteCarloError(const ModelPredictor& predictor, const float* x, std::size_t index, int draws,
                                std::uint64_t seed);

} // namespace orbit
